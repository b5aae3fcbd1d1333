"""The program model, the binding and the declare target rules never raise, whatever the input."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options
from omp_lsp.analysis.workspace import analyze_workspace

C_PIECES = [
    "#pragma omp declare target", "#pragma omp begin declare target", "#pragma omp end declare target",
    " to(", " link(", " enter(", " device_type(nohost)", " indirect", " indirect(x)", "(x)", "(f, g)", "x", "f",
    ")", "(", "\n", " ", "int x;", "static int y = 1;", "_Thread_local int t;", "struct S;", "extern struct S s;",
    "void f(void);", "void f(int a) { int q; f(q); }", "template <class T> T g(T v) { return v; }",
    "namespace n {", "}", "class C { virtual void m(); static int k; };", "auto l = [=](){ return x; };",
    "import m;", "export int e();", "#pragma omp threadprivate(x)", "using namespace n;", "::", "{", ";",
    "#pragma omp target\n", "x = 1;", "#ifdef X\n", "#else\n", "#endif\n", "#if _OPENMP >= 202111\n",
    "#elif defined(_OPENMP) && !(_OPENMP < 0x10)\n", "#ifndef _OPENMP\n", "\\\n", "/*", "*/", "é",
]
F_PIECES = [
    "!$omp declare target", "(x)", "(/c/)", "(//)", " to(f)", " link(x)", " device_type(host)", " indirect",
    "\n", " ", "module m", "end module m", "program p", "end program p", "subroutine s(a)", "end subroutine s",
    "function f(x) result(r)", "end function f", "contains", "interface", "end interface", "interface g",
    "real :: x", "real, save :: y = 1.0", "integer, parameter :: k = 2", "common /c/ x, y", "common x",
    "equivalence (x, y)", "procedure(f), pointer :: p", "entry e(a)", "sf(a) = a + 1", "type :: t",
    "end type t", "type(t) :: v", "use m", "bind(c, name=\"cx\")", "x = 1", "call s(x)", "&\n", "!$omp& ",
    "!$omp target", "!$omp end target", "block", "end block", "x(1)", "v%a", ";", "'", "\"",
]


def _text(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces), max_size=60).map("".join)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=_text(C_PIECES), f=_text(F_PIECES), cpp=st.booleans(), version=st.sampled_from([45, 51, 52]))
def test_model_binding_and_rules_never_raise(c: str, f: str, cpp: bool, version: int) -> None:
    c_language = Language.CPP if cpp else Language.C
    results = analyze_workspace({"a.cpp" if cpp else "a.c": Document(c, c_language),
                                 "b.f90": Document(f, Language.FORTRAN),
                                 "c.f": Document(f, Language.FORTRAN_FIXED)}, Options(openmp_version=version))
    for path, result in results.items():
        assert result.internal_errors == [], path
        size = len(result.document.source)
        for finding in result.findings:
            assert 0 <= finding.span[0] <= finding.span[1] <= size
            for r in finding.related:
                assert r.span[0] <= r.span[1]
        # everything the model defers must be readable too
        assert result.context is not None
        model = result.context.model
        model.expand()
        for ref in model.references:
            assert 0 <= ref.span[0] <= ref.span[1] <= size
        for symbol in model.symbols:
            assert 0 <= symbol.name_span[0] <= symbol.name_span[1] <= size
            assert symbol.params is not None
