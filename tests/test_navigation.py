"""Go to definition, references and the outline, from names inside OpenMP directives."""
from __future__ import annotations

from omp_lsp.analysis import Document, Language, Options
from omp_lsp.analysis.ide.navigation import definition, name_at, outline, references
from omp_lsp.analysis.workspace import analyze_workspace, workspace_context

A = """\
double scale(double x);
extern double gain;
#pragma omp declare target to(scale, gain)
int main(void) {
  double r = 1.0;
#pragma omp target map(tofrom: r)
  r = scale(r) + gain;
  return 0;
}
"""
B = """\
double gain = 2.0;
double scale(double x) { return gain * x; }
#pragma omp declare target to(scale, gain)
"""


def _ws():  # type: ignore[no-untyped-def]
    analyses = analyze_workspace({"a.c": Document(A, Language.C), "b.c": Document(B, Language.C)}, Options())
    ws = workspace_context(analyses, Options())
    return ws, ws.device_graph


def _at(text: str, needle: str, nth: int = 0) -> int:
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return len(text[:at].encode()) + 1


def test_definition_goes_to_the_defining_file() -> None:
    ws, graph = _ws()
    ctx = ws.files["a.c"]
    offset = _at(A, "scale", 1)          # in `to(scale, gain)`
    assert name_at(ctx, offset).name == "scale"  # type: ignore[union-attr]
    [(path, span)] = definition(ctx, offset, graph)
    assert path == "b.c" and B.encode()[span[0]:span[1]] == b"scale"
    [(path, span)] = definition(ctx, _at(A, "gain", 1), graph)
    assert path == "b.c" and span[0] == B.index("gain")
    # without the workspace: this file's declaration
    [(path, span)] = definition(ctx, offset)
    assert path == "a.c" and span[0] == A.index("scale")
    # a local in a map clause
    [(path, span)] = definition(ctx, _at(A, "r)"))
    assert span[0] == A.index("r = 1.0")
    assert definition(ctx, _at(A, "pragma")) == []


def test_references_cover_the_workspace() -> None:
    ws, graph = _ws()
    found = references(ws.files["a.c"], _at(A, "scale", 1), graph)
    where = {(p, (A if p == "a.c" else B).encode()[s[0]:s[1]].decode(), s[0]) for p, s in found}
    assert {p for p, _, _ in where} == {"a.c", "b.c"}
    assert ("a.c", "scale", A.index("scale(r)")) in where          # the call in the region
    assert ("b.c", "scale", B.index("scale(double")) in where      # the definition
    assert ("b.c", "scale", B.rindex("scale")) in where            # the other file's mark


def test_outline() -> None:
    ws, _ = _ws()
    items = outline(ws.files["a.c"])
    assert [(o.name, o.kind) for o in items] == [("declare target scale, gain", "declare target"),
                                                 ("target (line 6)", "target region")]
    assert [c.name for c in items[0].children] == ["scale", "gain"]
    fortran = "subroutine s(a)\n  real :: a(4)\n  !$omp target map(tofrom: a)\n  a = 1\n  !$omp end target\nend\n"
    result = analyze_workspace({"s.f90": Document(fortran, Language.FORTRAN)})["s.f90"]
    assert result.context is not None
    [region] = outline(result.context)
    assert region.kind == "target region" and fortran.encode()[region.span[0]:region.span[1]].endswith(b"end target")
