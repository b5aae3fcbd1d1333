"""analysis/regions.py: target regions, the directives, calls and member accesses in them, and
the code beside a nested teams construct."""
from __future__ import annotations

from omp_lsp.analysis import Document, Language, analyze
from omp_lsp.analysis.model.regions import Regions, analyse_regions


def regions(src: str, language: Language = Language.C) -> Regions:
    result = analyze(Document(src, language))
    assert result.context is not None
    ctx = result.context
    return analyse_regions(ctx.document, ctx.directives, ctx.structure)


def text(r: Regions, span: tuple[int, int]) -> str:
    return r.src[span[0]:span[1]].decode()


C_NESTED = """\
void f(int *a, int n) {
  a[0] = 0;
#pragma omp target map(a[0:n])
  {
    a[1] = 1;
#pragma omp target device(ancestor: 1)
    a[2] = 2;
#pragma omp parallel
    a[3] = 3;
  }
#pragma omp target data map(a[0:n])
  a[4] = 4;
}
"""


def test_target_regions_nest_and_know_ancestor() -> None:
    r = regions(C_NESTED)
    assert [(x.index, x.ancestor) for x in r.targets] == [(0, False), (1, True)]
    outer, inner = r.targets
    assert inner.parent is outer and outer.parent is None
    src = C_NESTED
    assert r.at(src.index("a[0]")) is None
    assert r.at(src.index("a[1]")) is outer
    assert r.at(src.index("a[2]")) is inner
    assert r.at(src.index("a[3]")) is outer
    assert r.at(src.index("a[4]")) is None  # target data is no target region


def test_directives_in_a_region() -> None:
    r = regions(C_NESTED)
    assert r.directives_in(r.targets[0].span) == [1, 2]
    assert r.directives_in(r.targets[1].span) == []


def test_no_target_no_work() -> None:
    r = regions("void f(int *a) {\n#pragma omp parallel\n  a[0] = omp_get_num_devices();\n}\n")
    assert r.targets == [] and r.calls() == [] and r.member_accesses() == []


def test_c_calls_inside_regions_only() -> None:
    src = ("int g(int);\nvoid f(int *a) {\n  a[0] = g(omp_get_num_devices());\n"
           "#pragma omp target map(a[0:2])\n  { a[0] = g(1); a[1] = omp_get_num_devices(); (void)\"h(x)\"; }\n}\n")
    r = regions(src)
    assert [(c.name, text(r, c.span)) for c in r.calls()] == [("g", "g"), ("omp_get_num_devices",
                                                                          "omp_get_num_devices")]
    assert all(c.span[0] > src.index("#pragma") for c in r.calls())


def test_cpp_global_qualified_calls_count_but_not_namespace_ones() -> None:
    src = ("namespace ns { int omp_get_num_devices(); }\nvoid f(int *a) {\n#pragma omp target map(a[0:1])\n"
           "  a[0] = ::omp_get_num_devices() + ns::omp_get_num_devices();\n}\n")
    r = regions(src, Language.CPP)
    assert [c.name for c in r.calls()] == ["omp_get_num_devices"]
    assert r.calls()[0].span[0] == src.index("::omp_get") + 2


def test_c_member_accesses() -> None:
    src = ("struct S { int a, b; int (*f)(int); };\nvoid f(struct S s, struct S *p) {\n"
           "#pragma omp target map(s.a)\n  { s.a = p->b + s.f(1) + (*p).a; }\n}\n")
    r = regions(src)
    got = [(m.base, m.member, m.arrow, m.called, text(r, m.span)) for m in r.member_accesses()]
    assert got == [("s", "a", False, False, "s.a"), ("p", "b", True, False, "p->b"),
                   ("s", "f", False, True, "s.f")]


C_TEAMS = """\
void f(float *y, int n) {
#pragma omp target
  {
    int k = n;
#pragma omp teams
    { y[0] = k; }
    ;
  }
#pragma omp target
  {
    /* comment */
#pragma GCC diagnostic push
#pragma omp teams
    { y[0] = 1; }
#pragma GCC diagnostic pop
  }
#pragma omp target
  { { 
#pragma omp teams
    { y[0] = 1; }
  } }
#pragma omp target
#pragma omp teams
  { y[0] = 1; }
#pragma omp target
  {
#pragma omp flush
#pragma omp parallel
    {
#pragma omp teams
      { y[0] = 1; }
    }
  }
#pragma omp target
  {
#ifdef A
    y[1] = 0;
#endif
#pragma omp teams
    { y[0] = 1; }
  }
}
"""


def test_c_code_beside_teams() -> None:
    r = regions(C_TEAMS)
    found = {x.index: r.teams_nesting(x) for x in r.targets}
    first = found[0]
    assert first is not None and first.teams == 1
    assert [text(r, s) for s in first.outside] == ["int k = n;", ";"]
    # comments, other pragmas, braces, a teams right after the target: nothing outside
    assert [found[i] for i in (2, 4, 6)] == [None, None, None]
    # the teams inside a parallel is not closely nested: no teams nesting at all
    assert found[8] is None
    # a preprocessor conditional: the source cannot tell
    assert found[12] is None


FORTRAN_TEAMS = """\
subroutine s(y, n)
  integer :: n
  real :: y(n)
  !$omp target
  ! a comment
  !$omp teams
  y(1) = 0.0
  !$omp end teams
  ;
  !$omp end target
  !$omp target
  if (n > 0) then
  !$omp teams
  y(1) = 0.0
  !$omp end teams
  end if
  !$omp end target
  !$omp target
  block
    !$omp teams
    y(1) = 0.0
    !$omp end teams
  end block
  y(2) = 1.0
end subroutine s
"""


def test_fortran_code_beside_teams() -> None:
    r = regions(FORTRAN_TEAMS, Language.FORTRAN)
    assert [x.index for x in r.targets] == [0, 4, 8]
    nests = [r.teams_nesting(x) for x in r.targets]
    assert nests[0] is None  # comments and a lone `;` do not count (as flang)
    assert nests[1] is not None and [text(r, s) for s in nests[1].outside] == ["if (n > 0) then", "end if"]
    assert nests[2] is not None and [text(r, s) for s in nests[2].outside] == ["block", "end block"]


def test_fortran_strictly_structured_block_without_end_directive() -> None:
    r = regions(FORTRAN_TEAMS, Language.FORTRAN)
    last = r.targets[2]
    assert text(r, last.span).strip().startswith("block")
    assert text(r, last.span).rstrip().endswith("end block")
    assert r.at(FORTRAN_TEAMS.index("y(2)")) is None


FORTRAN_CALLS = """\
subroutine s(out, p)
  use omp_lib
  integer :: out(3)
  type(t) :: p
  !$omp target
  out(1) = Omp_Get_Num_Devices() + f(1) ! omp_get_default_device()
  call omp_set_default_device(0)
  call flush_all
  print *, 'omp_get_num_devices() in a string'
  call p%update(1)
  out(2) = p%a + p%b(2)
  out(3) = 1 + &
     & omp_get_team_num()
  !$omp end target
  out(1) = omp_get_num_devices()
end subroutine s
"""


def test_fortran_calls_keep_their_bytes() -> None:
    r = regions(FORTRAN_CALLS, Language.FORTRAN)
    got = [(c.key, text(r, c.span)) for c in r.calls()]
    assert ("omp_get_num_devices", "Omp_Get_Num_Devices") in got
    assert ("omp_set_default_device", "omp_set_default_device") in got
    assert ("flush_all", "flush_all") in got
    assert ("omp_get_team_num", "omp_get_team_num") in got
    keys = [k for k, _ in got]
    assert "omp_get_default_device" not in keys  # in a comment
    assert keys.count("omp_get_num_devices") == 1  # not in the string, not outside the region
    assert "update" not in keys  # a type-bound procedure is no plain call


def test_fortran_member_accesses() -> None:
    r = regions(FORTRAN_CALLS, Language.FORTRAN)
    got = [(m.base_key, m.member_key, m.called, m.arguments, text(r, m.span)) for m in r.member_accesses()]
    assert got == [("p", "update", True, True, "p%update"), ("p", "a", False, False, "p%a"),
                   ("p", "b", False, True, "p%b")]


def test_fixed_form_continuation_spans() -> None:
    src = ("      subroutine s(out)\n      integer out(2)\n!$omp target\n      out(1) = 1 +\n"
           "     &  omp_get_num_devices()\n!$omp end target\n      end\n")
    r = regions(src, Language.FORTRAN_FIXED)
    assert [(c.key, text(r, c.span)) for c in r.calls() if c.key.startswith("omp")] == [
        ("omp_get_num_devices", "omp_get_num_devices")]


def test_fortran_derived_type_components() -> None:
    src = ("module m\n  type :: t\n    sequence\n    real :: x, y(3)\n    integer a\n    real, allocatable :: h(:)\n"
           "  contains\n    procedure :: norm\n  end type t\ncontains\n  subroutine s(v)\n    type(t), intent(in) :: v\n"
           "  end subroutine s\nend module m\n")
    r = regions(src, Language.FORTRAN)
    definition = (src.index("type :: t"), src.index("end type t") + len("end type t"))
    assert r.components(definition) == frozenset({"x", "y", "a", "h"})
    assert r.declared_type((src.index("type(t), intent"), src.index("type(t), intent") + 5)) == "t"
