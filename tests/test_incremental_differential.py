"""Differential test of incremental edits: after each of many random edits (the way an editor
sends them: UTF-16 line/character ranges), the document's incrementally maintained tree and the
analysis of it equal a fresh document's and a fresh analysis of the same text."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.syntax.document import TextEdit
from test_syntax import assert_same_as_fresh_parse

C_PIECES = ["#pragma omp target map(tofrom: a[0:n])\n", "#pragma omp declare target\n",
            "#pragma omp end declare target\n", "int a[8];\n", "void f(int n) {\n", "}\n", "  a[0] = 1;\n",
            "#pragma omp target teams distribute parallel for\n", "  for (int i = 0; i < n; i++) a[i] = i;\n",
            "/* é ü */\n", "// 𝒳 comment\n", " map(to: x)", "(", ")", "{", ";", "\\\n", " ", "\n",
            # the build's configuration: conditional lines, definitions, a comment around them
            "#ifdef GPU\n", "#else\n", "#endif\n", "#if N > 2\n", "#elif defined(CPU)\n", "#define GPU\n",
            "#undef GPU\n", "#define N 4\n", "/*", "*/"]
F_PIECES = ["!$omp target map(tofrom: a)\n", "!$omp end target\n", "subroutine s(a)\n", "end subroutine s\n",
            "  real :: a(8)\n", "  a = 1.0\n", "!$omp declare target\n", "! é comment\n", "&\n", " ", "\n",
            "!$omp& map(to: a)\n", "(", ")", "#ifdef GPU\n", "#else\n", "#endif\n", "#define GPU\n"]


def _text(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces), max_size=25).map("".join)


def _findings(doc: Document) -> list[tuple[str, tuple[int, int], str]]:
    result = analyze(doc, Options())
    assert result.internal_errors == []
    return [(f.code, f.span, f.message) for f in result.findings]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fortran=st.booleans(), data=st.data())
def test_incremental_edits_equal_a_fresh_analysis(fortran: bool, data: st.DataObject) -> None:
    language = Language.FORTRAN if fortran else Language.C
    pieces = F_PIECES if fortran else C_PIECES
    doc = Document(data.draw(_text(pieces)), language)
    assert doc.tree is not None or fortran  # parse first, so that every edit below is incremental
    for _ in range(data.draw(st.integers(min_value=1, max_value=10))):
        lines = doc.source.decode("utf-8", "surrogatepass").split("\n")
        line = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
        width = len(lines[line].encode("utf-16-le")) // 2
        start = data.draw(st.integers(min_value=0, max_value=width))
        end_line = data.draw(st.integers(min_value=line, max_value=min(len(lines) - 1, line + 2)))
        end_width = len(lines[end_line].encode("utf-16-le")) // 2
        end = data.draw(st.integers(min_value=start if end_line == line else 0, max_value=end_width))
        doc.apply(TextEdit((line, start), (end_line, end), data.draw(_text(pieces))), "utf-16")
        fresh = Document(doc.source.decode("utf-8", "surrogatepass"), language)
        assert doc.source == fresh.source
        assert_same_as_fresh_parse(doc)
        assert _findings(doc) == _findings(fresh)
