"""Analysis options shared by the CLI and the server (one schema)."""
from __future__ import annotations

from .records import dataclass, field

from .diagnostics import CATALOGUE, Severity
from .directives.schema import VERSIONS

DEFAULT_VERSION = 51


def parse_version(text: str | float | int) -> int:
    """'5.1', 5.1, 51 or '51' -> 51; raises ValueError for versions omp-lsp does not know."""
    raw = str(text).strip()
    value = int(raw) if raw.isdigit() and len(raw) == 2 else round(float(raw) * 10)
    if value not in VERSIONS:
        known = ", ".join(f"{v // 10}.{v % 10}" for v in VERSIONS)
        raise ValueError(f"unknown OpenMP version '{text}' (known: {known})")
    return value


@dataclass(frozen=True)
class Options:
    openmp_version: int = DEFAULT_VERSION
    disabled: frozenset[str] = frozenset()
    severity: dict[str, Severity] = field(default_factory=dict)  # per-code overrides

    def __post_init__(self) -> None:
        for code in (*self.disabled, *self.severity):
            if code not in CATALOGUE:
                raise ValueError(f"unknown diagnostic code '{code}'")
