"""Runs every annotated fixture under tests/fixtures/ and the bundled examples."""
from __future__ import annotations

from pathlib import Path

import pytest
from expectations import BUILD_CODES, actual, analysed, describe, expected
from omp_lsp.analysis.rules import iter_rules
from omp_lsp.analysis.syntax.diagnostics import CATALOGUE
from omp_lsp.analysis.syntax.document import SOURCE_EXTENSIONS

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted(p for p in (ROOT / "tests" / "fixtures").rglob("*") if p.suffix in SOURCE_EXTENSIONS)
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*") if p.suffix in SOURCE_EXTENSIONS)


@pytest.mark.parametrize("path", FIXTURES + EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_fixture(path: Path) -> None:
    want = analysed(expected(path.read_text(encoding="utf-8")))   # (builds' codes: test_build_fixtures)
    got = actual(path)
    assert got == want, f"expected {sorted(want.elements())}, got:\n{describe(path)}"


def test_corpus_is_not_empty() -> None:
    assert len(FIXTURES) >= 20
    valid = [p for p in FIXTURES if "valid" in p.parts]
    assert valid, "the corpus needs valid programs that must stay clean"


# syntax, declare target, target, declare variant; device-type propagation (OMP401-OMP407); builds
# and runs (OMP501-OMP504: fixtures under builds/, tests/test_build_fixtures.py); toolchain limits (OMP505).
# OMP013 needs a directive over 64 KiB: its inputs are generated (tests/test_bounded_work.py).
IMPLEMENTED = [code for code in CATALOGUE if code != "OMP013" and (
    code < "OMP400" or "OMP401" <= code <= "OMP407" or "OMP501" <= code <= "OMP505")]


@pytest.mark.parametrize("code", IMPLEMENTED)
def test_every_implemented_rule_has_fixtures_that_fire(code: str) -> None:
    firing = [p for p in FIXTURES if any(c == code for (_, c) in expected(p.read_text(encoding="utf-8")))]
    assert firing, f"no fixture expects {code}"
    # near-misses live beside the cases that fire: some fixture mentioning the rule has clean lines
    # with directives on them
    assert any(_has_unannotated_directive(p) for p in firing), f"{code}: no near-miss next to the firing cases"


def _has_unannotated_directive(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    flagged = {line for (line, _) in expected(text)}
    return any(("omp" in line.lower()) and number not in flagged
               for number, line in enumerate(text.splitlines(), start=1)
               if line.lstrip().startswith(("#pragma", "!$omp", "!$OMP", "c$omp", "*$omp")))


def test_every_rule_of_the_registry_is_in_the_catalogue_and_implemented_ones_are_registered() -> None:
    registered = {code for r in iter_rules() for code in r.codes}
    parser_codes = {"OMP001", "OMP002", "OMP003", "OMP004", "OMP005", "OMP009", "OMP011"}
    assert set(IMPLEMENTED) <= registered | parser_codes | BUILD_CODES   # (those come from codegen)
