"""Semantic tokens inside OpenMP directives (analysis side and through the server)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, analyze
from omp_lsp.analysis.ide.semantic_tokens import LEGEND, tokens

C = """\
int x, y;
void g(void);
#pragma omp declare variant(g) match(device={kind(gpu)}, construct={dispatch})
void f(void);
#pragma omp target teams map(always, tofrom: x[0:4]) \\
    firstprivate(y)
"""

F = """\
subroutine s(a)
  real :: a(10)
  !$omp target teams &
  !$omp& map(tofrom: a)
  !$omp end target teams
end subroutine s
"""


def _texts(text: str, language: Language) -> list[tuple[str, str]]:
    result = analyze(Document(text, language))
    src = result.document.source
    return [(src[lo:hi].decode(), kind) for (lo, hi), kind in tokens(result.directives, src)]


def test_c_directive_clauses_modifiers_names_and_selectors() -> None:
    assert _texts(C, Language.C) == [
        ("declare variant", "keyword"), ("g", "variable"), ("match", "property"), ("device", "namespace"),
        ("kind", "type"), ("gpu", "enumMember"), ("construct", "namespace"), ("dispatch", "type"),
        ("target teams", "keyword"), ("map", "property"), ("always", "modifier"), ("tofrom", "modifier"),
        ("x", "variable"), ("firstprivate", "property"), ("y", "variable")]


def test_fortran_continuations() -> None:
    assert _texts(F, Language.FORTRAN) == [
        ("target teams", "keyword"), ("map", "property"), ("tofrom", "modifier"), ("a", "variable"),
        ("end target teams", "keyword")]


def test_a_name_continued_on_the_next_line_is_one_token_per_line() -> None:
    text = "void f(void) {\n#pragma omp target \\\n  teams\n  ;\n}\n"
    found = _texts(text, Language.C)
    assert found[0] == ("target", "keyword") and found[1] == ("teams", "keyword")
    assert all("\n" not in t for t, _ in found)


def test_legend_is_standard() -> None:
    assert set(LEGEND) <= {"keyword", "property", "modifier", "variable", "namespace", "type", "enumMember"}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["#pragma omp ", "!$omp ", "target", " map(", "to:", " x", ")", "\\\n", "&\n",
                                 "\n", "match(", "device={", "kind(", "gpu", "}", "é", "declare variant(f) "]),
                max_size=30).map("".join), st.booleans())
def test_tokens_are_ordered_single_line_spans(text: str, fortran: bool) -> None:
    result = analyze(Document(text, Language.FORTRAN if fortran else Language.C))
    src = result.document.source
    last = -1
    for (lo, hi), kind in tokens(result.directives, src):
        assert last <= lo < hi <= len(src) and b"\n" not in src[lo:hi] and kind in LEGEND
        last = hi
