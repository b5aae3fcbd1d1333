"""Every quick fix any rule offers on the fixture corpus, applied: the finding goes away and the
fix introduces no syntax error of its own."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from expectations import analysis_of, options_of, workspace_of
from omp_lsp.analysis import Document, analyze
from omp_lsp.analysis.syntax.diagnostics import Finding, Fix
from omp_lsp.analysis.workspace import analyze_workspace
from test_fixtures import FIXTURES

SYNTAX = {"OMP001", "OMP002", "OMP003", "OMP004", "OMP005", "OMP009"}


def _cases() -> list[tuple[Path, int]]:
    cases = []
    for path in FIXTURES:
        if workspace_of(path) is not None:
            continue  # cross-file fixes are checked through the workspace tests
        for i, f in enumerate(analysis_of(path).findings):
            if f.fixes:
                cases.append((path, i))
    return cases


CASES = _cases()


def test_the_corpus_offers_fixes() -> None:
    codes = {analysis_of(p).findings[i].code for p, i in CASES}
    assert {"OMP103", "OMP107", "OMP108", "OMP114"} <= codes, codes


def _apply(source: bytes, fix: Fix) -> bytes:
    out = source
    for (start, end), text in sorted(fix.edits, key=lambda e: e[0][0], reverse=True):
        out = out[:start] + text.encode() + out[end:]
    return out


def _count(findings: list[Finding], codes: set[str]) -> Counter[str]:
    return Counter(f.code for f in findings if f.code in codes)


@pytest.mark.parametrize("path,index", CASES, ids=[f"{p.name}:{i}" for p, i in CASES])
def test_fix_removes_the_finding_and_adds_no_syntax_error(path: Path, index: int) -> None:
    before = analysis_of(path)
    finding = before.findings[index]
    options = options_of(path.read_text(encoding="utf-8"))
    for fix in finding.fixes:
        # as a workspace of its own, as the fixture was analysed (the OMP4xx fixes need it)
        fixed = analyze_workspace({str(path): Document(_apply(before.document.source, fix), before.document.language)},
                                  options)[str(path)]
        assert not fixed.internal_errors
        assert _count(fixed.findings, {finding.code})[finding.code] < _count(before.findings, {finding.code})[
            finding.code], f"{fix.title}: {finding.code} is still reported"
        new_syntax = _count(fixed.findings, SYNTAX) - _count(before.findings, SYNTAX)
        assert not new_syntax, f"{fix.title} introduced {dict(new_syntax)}"


FREE_CASES = [
    # the repeated clause alone on the last line: the line and the '&' announcing it go
    ("subroutine s\n!$omp target teams num_teams(4) &\n!$omp num_teams(8)\n!$omp end target teams\nend subroutine\n",
     "subroutine s\n!$omp target teams num_teams(4)\n!$omp end target teams\nend subroutine\n"),
    # alone on a middle line: only that line goes
    ("subroutine s\n!$omp target teams num_teams(4) &\n!$omp& num_teams(8) &\n!$omp& thread_limit(64)\n"
     "!$omp end target teams\nend subroutine\n",
     "subroutine s\n!$omp target teams num_teams(4) &\n!$omp& thread_limit(64)\n!$omp end target teams\n"
     "end subroutine\n"),
    # not alone: only the clause goes
    ("subroutine s\n!$omp target teams num_teams(4) num_teams(8)\n!$omp end target teams\nend subroutine\n",
     "subroutine s\n!$omp target teams num_teams(4) \n!$omp end target teams\nend subroutine\n"),
]


@pytest.mark.parametrize("source,expected", FREE_CASES)
def test_removals_take_whole_continuation_lines_in_free_form(source: str, expected: str) -> None:
    from omp_lsp.analysis import Language
    result = analyze(Document(source, Language.FORTRAN))
    [finding] = [f for f in result.findings if f.code == "OMP005"]
    fixed = _apply(result.document.source, finding.fixes[0]).decode()
    assert fixed == expected
    assert not [f for f in analyze(Document(fixed, Language.FORTRAN)).findings]
