"""What the editor shows of propagation, from the analysis side: hint positions, the entity under
the cursor, and "mark explicitly" in C (each OpenMP version's spelling) and Fortran."""
from __future__ import annotations

from omp_lsp.analysis import Document, Language, Options
from omp_lsp.analysis.ide.device_view import entity_at, hints, mark_fix
from omp_lsp.analysis.workspace import analyze_workspace, workspace_context

C = """\
static int calls;
int bump(int x) { static int seen; seen++; return x + 1; }
int main(void) {
  int r = 0;
#pragma omp target map(tofrom: r)
  r = bump(r);
  return r + calls;
}
"""

F = """\
module kernels
  use iso_c_binding
  implicit none
contains
  subroutine relax(x)
    use iso_fortran_env, only: real64
    implicit none
    real, intent(inout) :: x
    x = 0.5 * x
  end subroutine relax
end module kernels

program main
  use kernels
  real :: v
  v = 1.0
  !$omp target map(tofrom: v)
  call relax(v)
  !$omp end target
end program main
"""


def _graph(text: str, language: Language, version: int = 51):  # type: ignore[no-untyped-def]
    path = "t.f90" if language.is_fortran else "t.c"
    analyses = analyze_workspace({path: Document(text, language)}, Options(openmp_version=version))
    ws = workspace_context(analyses, Options(openmp_version=version))
    return ws, ws.device_graph, path


def _apply(source: bytes, edits: tuple) -> str:  # type: ignore[type-arg]
    for (start, end), text in sorted(edits, key=lambda e: e[0][0], reverse=True):
        source = source[:start] + text.encode() + source[end:]
    return source.decode()


def test_hints_after_the_parameter_list_for_procedures_and_static_locals() -> None:
    ws, graph, path = _graph(C, Language.C)
    src = ws.files[path].document.source
    found = {h.declaration.name: (h.offset, h.label) for h in hints(graph, path, src)}
    assert set(found) == {"bump", "seen"}   # calls is a global used in host code only
    assert src[:found["bump"][0]].endswith(b"int bump(int x)")
    assert found["seen"][1] == "declare target · any (implicit)"
    assert entity_at(graph, path, src.index(b"bump(r)") + 1) == "bump"
    assert entity_at(graph, path, src.index(b"int r") + 1) is None


def test_mark_explicitly_in_c_by_version() -> None:
    for version, begin in ((51, "#pragma omp begin declare target\n"), (45, "#pragma omp declare target\n")):
        ws, graph, path = _graph(C, Language.C, version)
        fix = mark_fix(ws.files[path], graph, "bump")
        assert fix is not None
        text = _apply(ws.files[path].document.source, fix.edits)
        assert f"{begin}int bump(int x)" in text and "return x + 1; }\n#pragma omp end declare target\n" in text
        again, regraph, _ = _graph(text, Language.C, version)
        assert regraph.fact("bump").explicit
        # the static local stays implied: it is declared in a device routine
        assert [h.declaration.name for h in hints(regraph, path, again.files[path].document.source)] == ["seen"]
        findings = analyze_workspace({path: Document(text, Language.C)}, Options(openmp_version=version))[path].findings
        assert [f.code for f in findings] == []


def test_mark_explicitly_in_fortran_goes_after_use_and_implicit() -> None:
    ws, graph, path = _graph(F, Language.FORTRAN)
    key = next(k for k in graph.entities if k.endswith("::relax"))
    fix = mark_fix(ws.files[path], graph, key)
    assert fix is not None
    text = _apply(ws.files[path].document.source, fix.edits)
    assert "    implicit none\n    !$omp declare target\n    real, intent(inout) :: x" in text
    _, regraph, _ = _graph(text, Language.FORTRAN)
    assert regraph.fact(key).explicit and regraph.device_type(key) == "any"
    # nothing to write for what is explicit already or host code
    assert mark_fix(ws.files[path], regraph, key) is None


def test_flang_mode_hints_what_flang_marks_through_host_procedures() -> None:
    text = """\
module m
contains
  real function helper(v)
    real, intent(in) :: v
    helper = v
  end function helper
  real function logger(v)
    !$omp declare target to(logger) device_type(host)
    real, intent(in) :: v
    logger = helper(v)
  end function logger
end module m
"""
    for mode, expected in (("spec", []), ("flang", [("helper", "declare target · host (implicit)")])):
        options = Options(propagation=mode)
        analyses = analyze_workspace({"m.f90": Document(text, Language.FORTRAN)}, options)
        ws = workspace_context(analyses, options)
        found = hints(ws.device_graph, "m.f90", ws.files["m.f90"].document.source)
        assert [(h.declaration.name, h.label) for h in found] == expected, mode
