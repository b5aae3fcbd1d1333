"""Keeping a Fortran analysis after an edit inside one execution-part statement
(analysis.incremental.statement_edit) equals a fresh analysis of the same padded text: random edits on the
code lines of the Fortran fixtures and of random documents, one after another, each one kept
checked against a fresh analysis (findings, directives, the program model's references, the
file's call graph, the cross-file rules' findings); and the edits it must leave to a fresh
analysis."""
from __future__ import annotations

import os

import pytest
from expectations import options_of
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Language, Options
from omp_lsp.analysis.check import FileAnalysis
from omp_lsp.analysis.incremental.graph_edit import graph_after_edit
from omp_lsp.analysis.incremental.statement_edit import reanalyse
from omp_lsp.analysis.model.file_model import FileModel
from omp_lsp.analysis.semantics.call_graph import FileGraph, file_graph
from omp_lsp.analysis.syntax.document import language_for_path
from omp_lsp.analysis.syntax.padding import Padding, pad
from test_directive_edit import PATH, SOURCES, _afresh, _analysis
from test_procedure_edit import _a_directive_edit_first, _kept_is_fresh
from test_procedure_edit import _edit as _edit_with

F_SOURCES = [p for p in SOURCES if language_for_path(str(p)) in (Language.FORTRAN, Language.FORTRAN_FIXED)]
# What people type in Fortran code: names, numbers, calls, and what changes a statement's kind.
TYPED = ["1", "0", "x", "n", "i", " ", ",", "(", ")", "+ 1", "* 2.5d0", "a(1)", "foo(n)", "call foo(n)", "=",
         "'", '"', "!", "&", ";", "::", "%", "é", "", "end", "end do", "do", "if (n > 0) then", "then", "block",
         "contains", "data", "entry", "include", "use m", "omp_get_num_devices()", "integer :: q", "save",
         "function", "procedure", "10 ", "print *, n", "c", "*", "v(1)", "! call v", "call v", "do_k = 1"]
TYPED += ["x", "1", " ", "n", "+ 1", "y", "2.5d0", "-", "a"] * 3
PIECES = ["module m\n  implicit none\n  real(8) :: table(8)\n  !$omp declare target(table)\ncontains\n",
          "end module m\n", "program p\n  use m\n  implicit none\n  integer :: n, i\n  real(8) :: a(8)\n  n = 8\n",
          "end program p\n", ("subroutine helper(n, y)\n  integer :: n\n  real(8) :: y\n  y = n + 1\n  y = y * 2\n"
                               "end subroutine helper\n"),
          ("  integer function twice(k)\n    integer :: k\n    twice = 2 * k\n    print *, k\n"
           "  end function twice\n"), "  a(1) = 2.0d0\n", "  call helper(n, a(2))\n",
          "  !$omp target map(tofrom: a)\n  a(3) = table(1) + twice(n)\n  !$omp end target\n",
          "  !$omp target teams map(tofrom: a)\n  a(4) = 1\n  a(5) = table(2)\n  a(6) = a(5) * 2\n  !$omp end target teams\n",
          "  do i = 1, n\n    a(i) = a(i) + i\n  end do\n", "  if (n > 0) then\n    n = n - 1\n  end if\n",
          "  subroutine later()\n    table(1) = 3\n    call helper(1, table(2))\n  end subroutine later\n",
          "  !$omp declare target(later)\n", "  ! é comment\n", "\n", "  print *, n\n",
          "  subroutine host_only(x)\n    integer :: x\n    x = x + 1\n  end subroutine host_only\n",
          "  !$omp declare target(host_only) device_type(host)\n", "  n = omp_get_num_devices()\n",
          "#ifdef GPU\n", "#else\n", "#endif\n", "#define GPU\n",
          # OMP302 searches the unit of a declare variant for a use of its name as a procedure
          "  integer :: v\n  !$omp declare variant(base: v) match(construct={parallel})\n",
          "  subroutine base()\n  end subroutine\n", "  v = 1\n", "  i = 2\n"]


def _references(model: FileModel) -> list[tuple]:
    return [(r.key, r.span, r.call, r.target, r.scope.span) for r in model.references] \
        + [(r.key, r.span, "unresolved") for r in model.unresolved]


def _edges(graph: FileGraph) -> list[tuple]:
    return [(e.source, e.target, e.span, e.kind, e.host, e.candidates, e.pointer) for e in graph.edges]


def _code_lines(real: bytes) -> list[tuple[int, int]]:
    """(start, end) of the lines that are neither blank nor comments nor directives."""
    out, at = [], 0
    for line in real.split(b"\n"):
        code = line.strip()
        if code and code[:1] != b"!" and code[:1] != b"#" and line[:1] not in b"cC*":
            out.append((at, at + len(line)))
        at += len(line) + 1
    return out


def _edit_statements(data: st.DataObject, real: bytes, language: Language, options: Options) -> None:
    analysis, padding, graph, cross = _afresh(real, language, options)
    for _ in range(data.draw(st.integers(min_value=1, max_value=6), label="edits")):
        if data.draw(st.booleans(), label="references read first"):
            # what the server's other features read (hover, references) before the edit
            assert analysis.context is not None
            _ = analysis.context.model.references
        pragmas = [k for k, line in enumerate(real.split(b"\n")) if line.lstrip().startswith(b"!$omp ")
                   and line.rstrip().endswith(b")")]
        real, (analysis, padding, graph, cross) = _a_directive_edit_first(
            data, real, pragmas, (analysis, padding, graph, cross), language, options)
        lines = _code_lines(real)
        if not lines:
            return
        lo, hi = data.draw(st.sampled_from(lines), label="line")
        at = data.draw(st.integers(min_value=lo, max_value=hi), label="at")
        removed = data.draw(st.integers(min_value=0, max_value=min(3, hi - at)), label="removed")
        typed = data.draw(st.sampled_from(TYPED), label="typed").encode()
        real = real[:at] + typed + real[at + removed:]
        done = reanalyse(analysis, padding, padding.to_padded(at), padding.to_padded(at + removed), typed)
        if done is None:
            event("analysed afresh")
            analysis, padding, graph, cross = _afresh(real, language, options, graph, cross)
            continue
        event("kept")
        analysis, padding = done
        fresh, graph, cross = _kept_is_fresh(analysis, padding, real, language, options, graph, cross)
        assert analysis.internal_errors == fresh.internal_errors == []
        assert analysis.directives == fresh.directives
        assert analysis.context is not None and fresh.context is not None
        assert _edges(graph.files[PATH]) == _edges(file_graph(fresh.context))
        assert _references(analysis.context.model) == _references(fresh.context.model)


@settings(max_examples=int(os.environ.get("EXAMPLES", "300")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(source=st.sampled_from(F_SOURCES), data=st.data())
def test_edits_in_fixture_statements_equal_a_fresh_analysis(source, data: st.DataObject) -> None:  # type: ignore[no-untyped-def]
    language = language_for_path(str(source))
    assert language is not None
    text = source.read_bytes()
    _edit_statements(data, text, language, options_of(text.decode("utf-8", "replace")))


@settings(max_examples=int(os.environ.get("EXAMPLES", "300")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_edits_in_statements_of_random_documents_equal_a_fresh_analysis(data: st.DataObject) -> None:
    text = "".join(data.draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=14), label="document"))
    _edit_statements(data, text.encode(), Language.FORTRAN, Options())


# A module of a declare target table (the head of the sources below).
HEAD = """\
module m
  implicit none
  real(8) :: table(8)
  !$omp declare target(table)
contains
"""
SOURCE = HEAD + """\
  subroutine helper(n, y)
    integer :: n
    real(8) :: y
    y = n + 1
    y = y * 2
  end subroutine helper
  subroutine kernel(n, a)
    integer :: n
    real(8) :: a(n)
    !$omp target map(tofrom: a) privte(n)
    a(1) = table(1)
    !$omp end target
    a(2) = 1
    a(3) = 2
  end subroutine kernel
end module m
"""


def _edit(source: str, line: str, old: str, new: str) -> tuple[FileAnalysis, tuple[FileAnalysis, Padding] | None]:
    return _edit_with(source, line, old, new, Language.FORTRAN, reanalyse)


def test_an_edit_in_a_statement_no_rule_read_keeps_the_findings_and_the_structures() -> None:
    padded, padding = pad(SOURCE.encode(), Language.FORTRAN)
    before = _analysis(padded, Language.FORTRAN, Options())
    assert before.context is not None
    model, binding = before.context._model, before.context._binding
    assert model is not None and binding is not None
    findings = before.findings
    at = padded.index(b"y * 2") + len(b"y * ")
    done = reanalyse(before, padding, at, at + 1, b"100")
    assert done is not None
    after, _ = done
    assert after.findings == findings and "OMP002" in [f.code for f in after.findings]
    assert after.context is not None and after.context._model is model and after.context._binding is binding
    assert after.findings == _analysis(after.document.source, Language.FORTRAN, Options()).findings


@pytest.mark.parametrize("old, new", [("5", "6"), ("5", "table(2)"), ("5", "helper(n, a(3))")])
def test_an_edit_inside_a_construct_runs_its_rules_again(old: str, new: str) -> None:
    source = SOURCE.replace("    a(1) = table(1)\n", "    a(1) = table(1)\n    a(5) = 5\n")
    _, done = _edit(source, "    a(5) = 5", old, new)
    assert done is not None
    after, _ = done
    fresh = _analysis(after.document.source, Language.FORTRAN, Options())
    assert after.findings == fresh.findings and [f.code for f in after.findings] == ["OMP002"]


def test_a_digit_typed_and_deleted_again_is_kept_both_times() -> None:
    padded, padding = pad(SOURCE.encode(), Language.FORTRAN)
    analysis = _analysis(padded, Language.FORTRAN, Options())
    for old, new in (("2", "21"), ("21", "2")):
        at = analysis.document.source.index(b"y * " + old.encode()) + len(b"y * ")
        done = reanalyse(analysis, padding, at, at + len(old), new.encode())
        assert done is not None
        analysis, padding = done
        assert analysis.findings == _analysis(analysis.document.source, Language.FORTRAN, Options()).findings


def test_an_edit_outside_the_constructs_of_a_kernel_keeps_the_findings() -> None:
    _, done = _edit(SOURCE, "    a(3) = 2", "2", "helper(n, a(4))")
    assert done is not None
    after, _ = done
    assert after.findings == _analysis(after.document.source, Language.FORTRAN, Options()).findings


def _graphs_after(source: str, line: str, old: str, new: str) -> tuple[FileGraph, FileGraph, FileGraph]:
    """The file graph before an edit kept by statement_edit, the one made from it after the
    edit (graph_after_edit), and one built afresh."""
    padded, padding = pad(source.encode(), Language.FORTRAN)
    before = _analysis(padded, Language.FORTRAN, Options())
    assert before.context is not None
    old_graph = file_graph(before.context, PATH)
    at = padded.index(line.encode()) + line.index(old)
    done = reanalyse(before, padding, at, at + len(old), new.encode())
    assert done is not None
    after, _ = done
    assert after.context is not None
    graph = file_graph(after.context, PATH, (before.context, old_graph), graph_after_edit)
    fresh = _analysis(after.document.source, Language.FORTRAN, Options())
    assert fresh.context is not None
    return old_graph, graph, file_graph(fresh.context, PATH)


def test_the_call_graph_reads_the_edited_statement_again() -> None:
    old, graph, rebuilt = _graphs_after(SOURCE, "    y = y * 2", "y * 2", "y + table(1)")
    assert _edges(graph) == _edges(rebuilt) != _edges(old)
    assert graph.declared is old.declared   # read again: the statement's edges only


@pytest.mark.parametrize("line, old, new", [
    ("    a(1) = table(1)", "1)", "2)"),         # inside a target region
    ("    a(2) = 1", "1", "2"),                  # right after a directive (a construct may take it)
    ("    y = n + 1", "y", "f(n)"),              # the first executable statement: a statement function now
    ("    y = y * 2", "y = y * 2", "end"),       # a statement the model reads (END)
    ("    y = y * 2", " * 2", " * 2; n = 2"),    # two statements
    ("    y = y * 2", "2", "2 &"),               # a continuation
    ("    y = y * 2", "y * 2", "omp_get_num_devices()"),   # a runtime routine a rule looks for
    ("    y = y * 2", "y = y * 2", "do i = 1, n"),          # a block opened
])
def test_what_may_change_a_finding_is_left_to_a_fresh_analysis(line: str, old: str, new: str) -> None:
    _, done = _edit(SOURCE, line, old, new)
    assert done is None


FIXED = "      program p\n      integer n, m\n      n = 1\n      m = n + 2\n      print *, m\n      end\n"


@pytest.mark.parametrize("at, removed, typed, kept", [
    (len("      m = n + "), 1, "3", True),
    (0, 1, "", False),                  # column 6 now holds `m`: the line continues `n = 1`
    (0, 0, "c", False),                 # a comment line
])
def test_fixed_form_columns_decide_what_the_line_is(at: int, removed: int, typed: str, kept: bool) -> None:
    padded, padding = pad(FIXED.encode(), Language.FORTRAN_FIXED)
    analysis = _analysis(padded, Language.FORTRAN_FIXED, Options())
    start = padded.index(b"      m = n + 2") + at
    done = reanalyse(analysis, padding, start, start + removed, typed.encode())
    assert (done is not None) == kept
    if done is not None:
        after = done[0]
        fresh = _analysis(after.document.source, Language.FORTRAN_FIXED, Options())
        assert after.findings == fresh.findings
        assert after.context is not None and fresh.context is not None
        assert _references(after.context.model) == _references(fresh.context.model)


UNITS = HEAD + """\
  subroutine first(a)
    real(8) :: a(8)
    !$omp target map(tofrom: a)
    a(1) = table(1)
    !$omp end target
    !$omp target map(tofrom: a)
    a(2) = table(2)
    !$omp end target
  end subroutine first
  subroutine second(a)
    real(8) :: a(8)
    !$omp target map(tofrom: a)
    a(3) = table(3)
    !$omp end target
    a(5) = 0
    !$omp target map(tofrom: a)
    a(6) = 0
    a(4) = table(4) + 1
    !$omp end target
  end subroutine second
  subroutine third(b)
    real(8) :: b(2)
    !$omp target map(tofrom: b)
    b(2) = 0
    b(1) = table(5)
    !$omp end target
  end subroutine third
end module m
"""


@pytest.mark.parametrize("line, old, new", [
    ("    a(4) = table(4) + 1", "1", "2"),                  # the second region of a unit after another's
    ("    a(4) = table(4) + 1", "table(4)", "table(6)"),    # a use in it changes
    ("    b(1) = table(5)", "5", "7"),                      # in the last unit's region
])
def test_a_statement_in_a_target_region_keeps_the_graph_with_the_roots_of_its_unit(
        line: str, old: str, new: str) -> None:
    """The roots found again are those of the statement's unit only (numbered among its own):
    the graph equals one built afresh, its roots the same objects as before."""
    old_graph, graph, rebuilt = _graphs_after(UNITS, line, old, new)
    assert len(old_graph.roots) == 5
    assert graph.roots is old_graph.roots   # (kept: the graph was made from the last one)
    assert graph.signature() == rebuilt.signature() and _edges(graph) == _edges(rebuilt)
