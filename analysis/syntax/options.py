"""Analysis options shared by the CLI and the server (one schema)."""
from __future__ import annotations

from .device_limits import UNSUPPORTED
from .diagnostics import CATALOGUE, Severity
from .records import dataclass, field

# The OpenMP versions omp-lsp knows, as integers (45 is 4.5); the directive tables use them too.
VERSIONS: tuple[int, ...] = (45, 50, 51, 52, 60)
PROPAGATION_MODES = ("spec", "flang")

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
    propagation: str = "spec"              # "spec" (implicit marks are any) or "flang" (what flang generates)
    device_toolchains: tuple[str, ...] = ()   # toolchains the device code must build with (OMP407)

    def __post_init__(self) -> None:
        for code in (*self.disabled, *self.severity):
            if code not in CATALOGUE:
                raise ValueError(f"unknown diagnostic code '{code}'")
        if self.propagation not in PROPAGATION_MODES:
            raise ValueError(f"unknown propagation mode '{self.propagation}' (known: {', '.join(PROPAGATION_MODES)})")
        for name in self.device_toolchains:
            if name not in UNSUPPORTED:
                raise ValueError(f"unknown device toolchain '{name}' (known: {', '.join(UNSUPPORTED)})")
