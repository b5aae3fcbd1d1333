"""Directives in `#if _OPENMP ...` branches the selected version rules out are not analysed."""
from __future__ import annotations

import pytest
from omp_lsp.analysis import Document, Language, Options, analyze

SOURCE = """\
int t;
#if {condition}
#pragma omp declare target enter(t)
#else
#pragma omp declare target to(t)
#endif
"""


@pytest.mark.parametrize("condition,version,analysed", [
    ("_OPENMP >= 202111", 51, "to"),
    ("_OPENMP >= 202111", 52, "enter"),
    ("defined(_OPENMP) && _OPENMP > 202011", 52, "enter"),
    ("!defined(_OPENMP) || _OPENMP < 201811", 45, "enter"),
    ("(_OPENMP == 202011)", 51, "enter"),
    ("_OPENMP >= 202111 && HAVE_X", 51, "to"),       # one false side decides &&
    ("_OPENMP >= 202111 || HAVE_X", 52, "enter"),    # one true side decides ||
    ("HAVE_X", 51, "to"),                            # a macro nobody defines is 0, as in the compiler
    ("_OPENMP >= 202111 && HAVE_X", 52, "to"),
])
def test_branches(condition: str, version: int, analysed: str) -> None:
    result = analyze(Document(SOURCE.format(condition=condition), Language.C), Options(openmp_version=version))
    clauses = sorted(c.name for d in result.directives for c in d.clauses)
    assert clauses == (["enter", "to"] if analysed == "both" else [analysed])


def test_ifdef_and_ifndef() -> None:
    src = "int t;\n#ifdef _OPENMP\n#pragma omp declare target to(t)\n#endif\n#ifndef _OPENMP\n#pragma omp targte\n#endif\n"
    result = analyze(Document(src, Language.C))
    assert [d.name for d in result.directives] == ["declare target"]
    assert result.findings == []
