"""Runs every annotated fixture under tests/fixtures/ and the bundled examples."""
from __future__ import annotations

from pathlib import Path

import pytest

from expectations import actual, describe, expected
from omp_lsp.analysis.syntax import SOURCE_EXTENSIONS

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted(p for p in (ROOT / "tests" / "fixtures").rglob("*") if p.suffix in SOURCE_EXTENSIONS)
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*") if p.suffix in SOURCE_EXTENSIONS)


@pytest.mark.parametrize("path", FIXTURES + EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_fixture(path: Path) -> None:
    want = expected(path.read_text(encoding="utf-8"))
    got = actual(path)
    assert got == want, f"expected {sorted(want.elements())}, got:\n{describe(path)}"


def test_corpus_is_not_empty() -> None:
    assert len(FIXTURES) >= 20
    valid = [p for p in FIXTURES if "valid" in p.parts]
    assert valid, "the corpus needs valid programs that must stay clean"


def test_every_syntax_rule_has_positive_and_negative_fixtures() -> None:
    fired = {code for p in FIXTURES for (_, code) in expected(p.read_text(encoding="utf-8"))}
    for code in ("OMP001", "OMP002", "OMP003", "OMP004", "OMP005", "OMP006", "OMP007", "OMP008", "OMP009"):
        assert code in fired, f"no fixture expects {code}"
