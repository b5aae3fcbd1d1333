"""Edits proved inert (analysis.incremental.positions): the analysis before the edit, positions moved, equals a
fresh analysis after it. Random documents full of directives with findings, fixes and related
locations; random small edits, many of them blanks and comment text (the inert kind)."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options
from omp_lsp.analysis.incremental.positions import (
    PositionLog,
    anchors,
    carries,
    inert_edit,
    moved,
    touches,
)
from omp_lsp.analysis.syntax.document import ByteEdit, TextEdit
from omp_lsp.analysis.workspace import analyze_workspace

C_PIECES = ["#pragma omp target map(tofrom: a[0:n]) thread_limit(-1)\n", "int a[8];\n", "int x;\n",
            "#pragma omp declare target(x) device_type(nohost)\n", "#pragma omp declare target\n",
            "#pragma omp end declare target\n", "void f(int n) {\n", "}\n", "  a[0] = 1;\n",
            "#pragma omp target device(ancestor: 1) map(to: x)\n", "  x = 1;\n", "/* é ü */\n",
            "// 𝒳 comment\n", "#pragma omp target teams distribute parallel for \\\n   map(to: a)\n",
            "  for (int i = 0; i < n; i++) a[i] = i;\n", "#pragma omp target update to(a[0:4])\n",
            "#define N 4\n", "#pragma omp declare target enter(a) link(a)\n", "\n"]
F_PIECES = ["subroutine s(a)\n", "end subroutine s\n", "  real :: a(8)\n", "  a = 1.0\n",
            "!$omp target map(tofrom: a) thread_limit(-1)\n", "!$omp end target\n", "!$omp declare target\n",
            "! é comment\n", "!$omp target teams map(to: a) &\n", "!$omp& thread_limit(4)\n",
            "!$omp declare target(s) device_type(nohost)\n", "  !$omp target device(ancestor: 1)\n", "\n"]
FIXED_PIECES = ["      subroutine s(a)\n", "      end\n", "      real a(8)\n", "      a(1) = 1.0\n",
                "c$omp target map(tofrom: a) thread_limit(-1)\n", "c$omp end target\n", "c     comment é\n",
                "!$omp target teams\n", "c$omp+ map(to: a)\n", "C$OMP DECLARE TARGET\n", "\n"]
TYPED = [" ", "  ", "x", "é", "(", ")", ",", ":", "\n", "!", "//", "*/", "/*", "&", "\\", ""]


def _analysis(doc: Document) -> list:
    """Every finding of the file, the cross-file rules' too (the file as a one-file workspace)."""
    result = analyze_workspace({"/w/file": doc}, Options())["/w/file"]
    assert result.internal_errors == []
    return result.findings


def _edit(data: st.DataObject, doc: Document) -> TextEdit:
    lines = doc.source.decode("utf-8", "surrogatepass").split("\n")
    line = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
    width = len(lines[line].encode("utf-16-le")) // 2
    start = data.draw(st.integers(min_value=0, max_value=width))
    end = data.draw(st.integers(min_value=start, max_value=min(width, start + 2)))
    return TextEdit((line, start), (line, end), data.draw(st.sampled_from(TYPED)))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(language=st.sampled_from([Language.C, Language.FORTRAN, Language.FORTRAN_FIXED]), data=st.data())
def test_an_inert_edit_moves_the_findings_to_what_a_fresh_analysis_says(language: Language,
                                                                        data: st.DataObject) -> None:
    """As the server does it: the findings of the last analysis moved through the log of the
    inert edits since, as long as every edit is inert and none falls at a finding's end."""
    pieces = {Language.C: C_PIECES, Language.FORTRAN: F_PIECES, Language.FORTRAN_FIXED: FIXED_PIECES}[language]
    doc = Document("".join(data.draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=20))), language)
    assert doc.tree is not None or language is Language.FORTRAN_FIXED
    base, log = _analysis(doc), PositionLog()
    for _ in range(data.draw(st.integers(min_value=1, max_value=8))):
        old = doc.source
        doc.apply(_edit(data, doc), "utf-16")
        edit = doc.last_change
        assert edit is not None
        log.add(edit)
        if inert_edit(old, doc.source, edit, language, 52) and carries(anchors(base), log.edits):
            event("inert")
            assert [moved(f, log) for f in base] == _analysis(Document(doc.source, language))
        else:
            event("re-analysed")
            base, log = _analysis(Document(doc.source, language)), PositionLog()


SAMPLE_C = """\
int a[8];
/* a comment */
#pragma omp target map(tofrom: a[0:8]) thread_limit(-1)
for (int i = 0; i < 8; i++) a[i] = i;
#pragma omp target teams distribute parallel for \\
   map(to: a)
for (int i = 0; i < 8; i++) a[i] = i;
#define N 4
"""

SAMPLE_F = """\
subroutine s(a)
  real :: a(8)
  ! a comment
  !$omp target teams map(to: a) &
  !$omp& thread_limit(4)
  a = 1.0
  !$omp end target teams
end subroutine s
"""


SAMPLE_FIXED = """\
      subroutine s(a)
      real a(8)
c     a comment
c$omp target teams
c$omp+ map(to: a)
      a(1) = 1.0
c$omp end target teams
      end
"""


def _apply(text: str, language: Language, before: str, typed: str, replace: int = 0) -> tuple[bytes, Document]:
    doc = Document(text, language)
    assert doc.tree is not None or language is Language.FORTRAN_FIXED
    at = text.index(before)
    line = text.count("\n", 0, at)
    column = at - (text.rfind("\n", 0, at) + 1)
    doc.apply(TextEdit((line, column), (line, column + replace), typed))
    return text.encode(), doc


@pytest.mark.parametrize(("language", "text", "before", "typed", "replace", "inert"), [
    (Language.C, SAMPLE_C, "a comment", "x", 0, True),                   # comment text
    (Language.C, SAMPLE_C, " thread_limit", " ", 0, True),               # blanks between clauses
    (Language.C, SAMPLE_C, "tofrom", " ", 0, True),                       # blanks inside a clause
    (Language.C, SAMPLE_C, "\nfor (int i", " ", 0, True),               # the end of a directive line
    (Language.C, SAMPLE_C, "\n#pragma omp target teams", " ", 0, False),  # the end of a code line
    (Language.C, SAMPLE_C, "to: a)", "t", 0, False),                      # map type to -> tto
    (Language.C, SAMPLE_C, "-1", "", 1, False),                           # thread_limit(-1) -> (1)
    (Language.C, SAMPLE_C, " \\\n", "x", 0, False),                       # a continued line's words
    (Language.C, SAMPLE_C, "a[i] = i;\n#define", "b", 1, False),          # code
    (Language.C, SAMPLE_C, "N 4", "M", 1, False),                         # a #define'd name
    (Language.C, SAMPLE_C, "a comment */", "*/", 0, False),               # the comment ends earlier
    (Language.FORTRAN, SAMPLE_F, "a comment", "x", 0, True),
    (Language.FORTRAN, SAMPLE_F, " thread_limit", " ", 0, True),
    (Language.FORTRAN, SAMPLE_F, "thread_limit(4)", "x", 0, False),
    (Language.FORTRAN, SAMPLE_F, "! a comment", "", 1, False),           # the comment becomes code
    (Language.FORTRAN, SAMPLE_F, "a = 1.0", " ", 0, False),              # code lines are not judged
    (Language.FORTRAN, "\n" + SAMPLE_F, "\n", "  ", 0, True),             # blanks on a blank line
    (Language.FORTRAN_FIXED, SAMPLE_FIXED, "a comment", "x", 0, True),
    (Language.FORTRAN_FIXED, SAMPLE_FIXED, "map(to: a)", " ", 0, True),  # after the directive's last clause
    (Language.FORTRAN_FIXED, SAMPLE_FIXED, "map(to: a)", "x", 0, False),
])
def test_which_edits_are_inert(language: Language, text: str, before: str, typed: str, replace: int,
                               inert: bool) -> None:
    old, doc = _apply(text, language, before, typed, replace)
    assert doc.last_change is not None
    assert inert_edit(old, doc.source, doc.last_change, language, 52) is inert


def test_a_finding_ending_at_the_edit_is_not_carried_over() -> None:
    """A blank typed right after `thread_limit(-1)`: whether the finding's span grows is the
    rule's business, so the edit is re-analysed."""
    doc = Document(SAMPLE_C, Language.C)
    findings = _analysis(doc)
    end = next(f.span[1] for f in findings if f.code == "OMP210")
    assert touches(findings, ByteEdit(end, end, end + 1))
    assert not touches(findings, ByteEdit(end + 2, end + 2, end + 3))


def test_position_log_moves_both_ways() -> None:
    log = PositionLog()
    log.add(ByteEdit(10, 10, 12))      # two bytes typed at 10
    log.add(ByteEdit(20, 25, 21))      # five bytes replaced by one at 20 (after the first edit)
    assert [log.to_new(x) for x in (5, 10, 15, 18, 19, 30)] == [5, 12, 17, 20, 20, 28]
    assert log.to_new(10, end=True) == 10 and log.span_to_new((10, 10)) == (12, 12)
    assert [log.to_old(x) for x in (5, 11, 12, 17, 20, 21, 28)] == [5, 10, 10, 15, 18, 23, 30]
    assert Counter(log.to_old(log.to_new(x)) for x in range(40) if not 18 <= x < 23) == \
        Counter(x for x in range(40) if not 18 <= x < 23)


def test_a_fixed_form_line_of_blanks_and_a_comment_is_a_comment_line() -> None:
    """`!` after blanks in columns 1-5 starts a comment: the line changes nothing (it was read as a
    statement labelled `!`, which ended the file's declare target at file scope)."""
    from omp_lsp.analysis.check import analyze
    for extra in ("", "\n !", "\n    ! note\n", "\n      ! note\n"):
        found = analyze(Document("C$OMP DECLARE TARGET" + extra, Language.FORTRAN_FIXED)).findings
        assert [f.code for f in found] == ["OMP152"]
