"""Block structure: construct extents and begin/end pairing."""
from __future__ import annotations

import pytest
from omp_lsp.analysis import Document, Language, analyze
from omp_lsp.analysis.units import Environment, Unit


def _run(src: str, lang: Language = Language.C):
    result = analyze(Document(src, lang))
    return result, result.document.source


def _extent_text(src: str, lang: Language = Language.C) -> dict[str, str]:
    result, raw = _run(src, lang)
    out = {}
    for i, d in enumerate(result.directives):
        span = result.structure.extents.get(i)
        out[d.name] = raw[span[0]:span[1]].decode() if span else None
    return out


def test_loop_extent_is_the_for_statement() -> None:
    src = "void f(int n, int *a) {\n#pragma omp parallel for\n  for (int i = 0; i < n; i++) a[i] = i;\n  a[0] = 1;\n}\n"
    assert _extent_text(src)["parallel for"] == "for (int i = 0; i < n; i++) a[i] = i;"


def test_nested_pragmas_extend_through_the_inner_construct() -> None:
    src = ("void f(int n) {\n#pragma omp target\n#pragma omp teams /* c */\n  {\n    n++;\n  }\n  n--;\n}\n")
    ext = _extent_text(src)
    assert ext["teams"] == "{\n    n++;\n  }"
    assert ext["target"].startswith("#pragma omp teams") and ext["target"].endswith("n++;\n  }")


def test_comments_between_pragma_and_statement_are_skipped() -> None:
    src = "void f(int x) {\n#pragma omp atomic\n  // increment\n  /* really */ x++;\n}\n"
    assert _extent_text(src)["atomic"] == "x++;"


def test_standalone_directives_have_no_extent() -> None:
    src = ("void f(int n) {\n#pragma omp parallel for ordered(1)\n for (int i = 0; i < n; i++) {\n"
           "#pragma omp ordered depend(source)\n  n++;\n#pragma omp barrier\n }\n}\n")
    result, _ = _run(src)
    names = {d.name: i for i, d in enumerate(result.directives)}
    assert names["parallel for"] in result.structure.extents
    ordered = [i for i, d in enumerate(result.directives) if d.name == "ordered"][0]
    assert ordered not in result.structure.extents
    assert names["barrier"] not in result.structure.extents


def test_declare_simd_extent_is_the_function() -> None:
    src = "#pragma omp declare simd\ndouble sq(double x) { return x * x; }\n"
    assert _extent_text(src)["declare simd"] == "double sq(double x) { return x * x; }"


def test_begin_end_pairs_nest() -> None:
    src = ("#pragma omp begin declare target\nint a;\n"
           "#pragma omp begin declare variant match(device={kind(gpu)})\nint g(void);\n"
           "#pragma omp end declare variant\n#pragma omp end declare target\n")
    result, _ = _run(src)
    assert result.structure.pairs == {0: 3, 1: 2}
    assert not result.findings


def test_clause_less_declare_target_opens_a_region_in_c() -> None:
    src = "#pragma omp declare target\nint a;\n#pragma omp end declare target\n#pragma omp declare target(a)\n"
    result, _ = _run(src)
    assert result.structure.pairs == {0: 1}
    assert not result.findings


def test_alternative_preprocessor_branches_do_not_unbalance() -> None:
    src = ("#ifdef USE_HOST\n#pragma omp begin declare target device_type(host)\n#else\n"
           "#pragma omp begin declare target\n#endif\nint a;\n#pragma omp end declare target\n")
    for defines in ((), (("D", "USE_HOST"),)):
        result = analyze(Document(src, Language.C), unit=Unit(Environment(defines)))
        assert [f.code for f in result.findings] == ["OMP010"]


def test_unclosed_and_unopened() -> None:
    src = "#pragma omp end declare target\n#pragma omp begin declare target\nint a;\n"
    result, raw = _run(src)
    assert [(f.code, raw[f.span[0]:f.span[1]].decode()) for f in result.findings] == [
        ("OMP006", "end declare target"), ("OMP006", "begin declare target")]


def test_fortran_block_extent_and_pairs() -> None:
    src = ("program p\n  integer :: i, a(10)\n  !$omp parallel\n  a = 1\n  !$omp do\n  do i = 1, 10\n"
           "    a(i) = i\n  end do\n  !$omp end parallel\nend program\n")
    result, raw = _run(src, Language.FORTRAN)
    assert result.structure.pairs == {0: 2}
    span = result.structure.extents[0]
    assert raw[span[0]:span[1]].decode().strip().startswith("a = 1")
    loop = result.structure.extents[1]
    assert raw[loop[0]:loop[1]].decode().startswith("do i = 1, 10") and raw[loop[0]:loop[1]].decode().endswith("end do")
    assert not result.findings


def test_fortran_combined_end_directive_and_optional_loop_end() -> None:
    src = ("subroutine s(n, a)\n  integer :: n, i\n  real :: a(n)\n  !$omp target teams distribute parallel do\n"
           "  do i = 1, n\n    a(i) = 0\n  end do\n  !$OMP END TARGET TEAMS DISTRIBUTE PARALLEL DO\n"
           "  !$omp parallel do\n  do i = 1, n\n    a(i) = 1\n  end do\nend subroutine\n")
    result, _ = _run(src, Language.FORTRAN)
    assert result.structure.pairs == {0: 1}
    assert not result.findings


def test_fortran_strictly_structured_block_needs_no_end() -> None:
    src = "program p\n  integer :: x\n  !$omp target\n  block\n    x = 1\n  end block\nend program\n"
    result, _ = _run(src, Language.FORTRAN)
    assert not result.findings


def test_fortran_missing_end_reported_at_the_opening_directive() -> None:
    src = "program p\n  !$omp parallel\n  !$omp single\n  x = 1\n  !$omp end parallel\nend program\n"
    result, raw = _run(src, Language.FORTRAN)
    assert [(f.code, raw[f.span[0]:f.span[1]].decode()) for f in result.findings] == [("OMP006", "single")]


def test_fixed_form_pairs() -> None:
    src = ("      program p\nc$omp parallel\n      x = 1\nc$omp end parallel\n"
           "*$omp critical (lock)\n      x = 2\n*$omp end critical (lock)\n      end\n")
    result, _ = _run(src, Language.FORTRAN_FIXED)
    assert result.structure.pairs == {0: 1, 2: 3}
    assert not result.findings


def test_fortran_loop_extents_by_line_scanner() -> None:
    src = ("subroutine s(n, a)\n  integer :: n, i, j\n  real :: a(n, n)\n  !$omp parallel do collapse(2)\n"
           "  outer: do j = 1, n\n    do i = 1, n\n      a(i, j) = 0\n    end do\n  enddo outer\n"
           "  !$omp simd\n  do 10 i = 1, n\n    a(i, 1) = 1\n10 continue\n  a(1, 1) = 2\nend subroutine\n")
    ext = _extent_text(src, Language.FORTRAN)
    assert ext["parallel do"].startswith("outer: do j = 1, n") and ext["parallel do"].endswith("enddo outer")
    assert ext["simd"].startswith("do 10 i = 1, n") and ext["simd"].endswith("10 continue")


def test_fixed_form_loop_extent() -> None:
    src = ("      subroutine s(n, a)\n      integer n, i\n      real a(n)\nc$omp parallel do\n"
           "      do 20 i = 1, n\n         a(i) = i\n   20 continue\n      end\n")
    ext = _extent_text(src, Language.FORTRAN_FIXED)
    assert ext["parallel do"].startswith("do 20 i = 1, n") and ext["parallel do"].endswith("20 continue")


def test_loop_directive_not_followed_by_a_loop_has_no_extent() -> None:
    src = "program p\n  !$omp do\n  x = 1\nend program\n"
    result, _ = _run(src, Language.FORTRAN)
    assert result.structure.extents == {}


def test_overlapping_regions_are_not_omp006() -> None:
    # Overlap (not nesting) of declare target and declare variant regions is OMP311's concern.
    src = ("#pragma omp begin declare target\n#pragma omp begin declare variant match(device={kind(gpu)})\n"
           "int g(void);\n#pragma omp end declare target\n#pragma omp end declare variant\n")
    result, _ = _run(src)
    assert result.structure.pairs == {0: 2, 1: 3}
    assert [f.code for f in result.findings] == ["OMP311"]


def test_macros_in_pragmas_are_not_reported() -> None:
    src = ("#define KIND nohost\n#define MAPS(p) map(tofrom: p[0:8])\nint x;\n"
           "#pragma omp declare target to(x) device_type(KIND)\n"
           "void f(double *p) {\n#pragma omp target MAPS(p) ASYNC_CLAUSES\n  p[0] = 1;\n}\n")
    result, _ = _run(src)
    assert result.findings == []
    assert [d.uses_macros for d in result.directives] == [True, True]


def test_lower_case_unknown_words_still_reported() -> None:
    src = "void f(int n) {\n#pragma omp parallel num_thread(n)\n  {}\n}\n"
    result, raw = _run(src)
    assert [(f.code, raw[f.span[0]:f.span[1]].decode()) for f in result.findings] == [("OMP002", "num_thread")]


def test_misspelt_begin_still_opens_its_region() -> None:
    src = "#pragma omp begin declare taget\nint a;\n#pragma omp end declare target\n#pragma omp begin declre target\n"
    result, raw = _run(src)
    # Each misspelling is reported once (OMP001); no OMP006 follows from it.
    assert [(f.code, raw[f.span[0]:f.span[1]].decode()) for f in result.findings] == [
        ("OMP001", "begin declare taget"), ("OMP001", "begin declre target")]


def test_fortran_misspelt_construct_still_pairs_with_its_end() -> None:
    src = "program p\n  !$omp paralel\n  x = 1\n  !$omp end parallel\nend program\n"
    result, _ = _run(src, Language.FORTRAN)
    assert [f.code for f in result.findings] == ["OMP001"]


@pytest.mark.parametrize("defines", [(), ("GPU",), ("CPU",)])
def test_fortran_preprocessor_alternatives_do_not_unbalance(defines: tuple[str, ...]) -> None:
    src = ("subroutine s(n, a)\n  integer :: n, i\n  real :: a(n)\n#ifdef GPU\n  !$omp target teams\n#else\n"
           "  !$omp parallel\n#endif\n  a = 0\n#ifdef GPU\n  !$omp end target teams\n#else\n  !$omp end parallel\n"
           "#endif\n#if defined(GPU)\n  !$omp target teams distribute parallel do\n#elif defined(CPU)\n"
           "  !$omp parallel do\n#else\n  !$omp do\n#endif\n  do i = 1, n\n    a(i) = i\n  end do\n#ifdef GPU\n"
           "  !$omp end target teams distribute parallel do\n#elif defined(CPU)\n  !$omp end parallel do\n#else\n"
           "  !$omp end do\n#endif\nend subroutine\n")
    result = analyze(Document(src, Language.FORTRAN), unit=Unit(Environment(tuple(("D", d) for d in defines))))
    # each configuration's branches pair; the information says the others are not checked
    assert [f.code for f in result.findings] == ["OMP010"]
