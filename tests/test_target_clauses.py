"""Target construct clause rules (OMP201-OMP204, OMP207-OMP210, OMP213): cases the fixtures
cannot show on their own (other versions, odd input, cases where another rule family would
also report)."""
from __future__ import annotations

import pytest
from omp_lsp.analysis import Document, Language, Options, Severity, analyze

CODES = {"OMP201", "OMP202", "OMP203", "OMP204", "OMP207", "OMP208", "OMP209", "OMP210", "OMP213"}


def findings(source: str, language: Language = Language.C, version: int = 51) -> list[tuple[int, str]]:
    result = analyze(Document(source, language), Options(openmp_version=version))
    assert not result.internal_errors, result.internal_errors
    lines = result.document.lines
    return [(lines.line_of(f.span[0]) + 1, f.code) for f in result.findings if f.code in CODES]


def test_ancestor_on_a_combined_construct_reports_its_other_clauses() -> None:
    src = ("void f(int n) {\n"
           "#pragma omp target teams device(ancestor: 1) num_teams(2) map(tofrom: n)\n"
           "  { n++; }\n"
           "}\n")
    assert findings(src) == [(2, "OMP202"), (2, "OMP204")]


def test_ancestor_before_50_is_left_to_the_parser() -> None:
    src = "void f(int n) {\n#pragma omp target device(ancestor: 2) nowait\n  { n++; }\n}\n"
    assert findings(src, version=45) == []


def test_requires_with_a_false_argument_does_not_count() -> None:
    src = ("#pragma omp requires reverse_offload(0)\n"
           "void f(int n) {\n#pragma omp target device(ancestor: 1) firstprivate(n)\n  { }\n}\n")
    assert findings(src, version=60) == [(3, "OMP202")]
    assert findings(src.replace("(0)", "(1)"), version=60) == []


def test_a_macro_in_the_requires_directive_makes_the_rule_silent() -> None:
    src = ("#define REQS reverse_offload\n#pragma omp requires REQS\n"
           "void f(int n) {\n#pragma omp target device(ancestor: 1) firstprivate(n)\n  { }\n}\n")
    assert findings(src) == []


def test_fortran_module_from_another_file_may_hold_the_requires_directive() -> None:
    src = ("subroutine s(n)\n  use device_setup\n  integer :: n\n"
           "  !$omp target device(ancestor: 1) firstprivate(n)\n  !$omp end target\nend subroutine\n")
    assert findings(src, Language.FORTRAN) == []
    assert findings(src.replace("  use device_setup\n", "  use omp_lib\n"), Language.FORTRAN) == [(4, "OMP202")]


def test_directive_with_a_macro_clause_is_not_judged() -> None:
    src = ("#define EXTRA nowait\n"
           "void f(int a) {\n#pragma omp target map(release: a) firstprivate(a) EXTRA\n  { }\n}\n")
    assert findings(src) == []


def test_storage_is_a_map_type_of_target_in_60() -> None:
    src = "void f(int a) {\n#pragma omp target map(storage: a)\n  { }\n#pragma omp target map(delete: a)\n  { }\n}\n"
    assert findings(src, version=60) == [(4, "OMP201")]


def test_fortran_is_device_ptr_before_51_is_not_judged_by_type() -> None:
    src = ("subroutine s(a)\n  integer :: a\n  !$omp target is_device_ptr(a)\n  !$omp end target\n"
           "end subroutine\n")
    assert findings(src, Language.FORTRAN, version=50) == []
    result = analyze(Document(src, Language.FORTRAN), Options(openmp_version=51))
    [finding] = [f for f in result.findings if f.code == "OMP209"]
    assert finding.effective_severity is Severity.WARNING


def test_c_is_device_ptr_of_an_unknown_type_is_not_judged() -> None:
    src = "#include <foo.h>\nvoid f(handle_t h) {\n#pragma omp target is_device_ptr(h)\n  { }\n}\n"
    assert findings(src) == []


def test_minus_one_is_omp_initial_device_from_52() -> None:
    src = "void f(int a) {\n#pragma omp target device(-1) map(a)\n  { }\n}\n"
    assert findings(src, version=51) == [(2, "OMP210")]
    assert findings(src, version=52) == []


def test_thread_limit_on_teams_alone() -> None:
    src = "void f(int a) {\n#pragma omp target\n#pragma omp teams thread_limit(0)\n  { a++; }\n}\n"
    assert findings(src) == [(3, "OMP210")]


def test_allocators_in_fixed_form_fortran_clauses_are_checked_calls_are_not() -> None:
    src = ("      subroutine s(pool, x)\n      use omp_lib\n"
           "      integer(omp_allocator_handle_kind) pool\n      integer x\n"
           "!$omp target allocate(pool: x) firstprivate(x)\n      x = x + 1\n!$omp end target\n"
           "      end\n")
    assert findings(src, Language.FORTRAN_FIXED) == [(5, "OMP213")]


def test_nested_target_region_has_its_own_uses_allocators() -> None:
    src = ("#include <omp.h>\n"
           "void f(int x) {\n"
           "#pragma omp target uses_allocators(omp_pteam_mem_alloc) map(tofrom: x)\n"
           "  {\n"
           "#pragma omp parallel allocate(omp_pteam_mem_alloc: x) firstprivate(x)\n"
           "    { x++; }\n"
           "  }\n"
           "}\n")
    assert findings(src) == []


def test_allocators_before_50_are_not_judged() -> None:
    src = "void f(int x, long a) {\n#pragma omp target allocate(a: x) firstprivate(x)\n  { }\n}\n"
    assert findings(src, version=45) == []


def test_the_uses_allocators_fix_adds_the_clause() -> None:
    src = "#include <omp.h>\nvoid f(int x) {\n#pragma omp target allocate(omp_low_lat_mem_alloc: x) firstprivate(x)\n  { }\n}\n"
    result = analyze(Document(src, Language.C), Options())
    [finding] = [f for f in result.findings if f.code == "OMP213"]
    [fix] = finding.fixes
    [(span, text)] = fix.edits
    fixed = src.encode()[:span[0]] + text.encode() + src.encode()[span[1]:]
    assert b"firstprivate(x) uses_allocators(omp_low_lat_mem_alloc)" in fixed
    assert findings(fixed.decode()) == []


@pytest.mark.parametrize("pragma", [
    "#pragma omp target device(ancestor:)",
    "#pragma omp target is_device_ptr()",
    "#pragma omp target map(: a) private()",
    "#pragma omp target allocate(: a) uses_allocators()",
    "#pragma omp target thread_limit() device()",
    "#pragma omp target map(release",
    "#pragma omp target is_device_ptr(a.b, c[1], *d) has_device_addr(a.b)",
])
def test_odd_clauses_do_not_break_the_rules(pragma: str) -> None:
    findings(f"void f(int a) {{\n{pragma}\n  {{ omp_alloc(1); }}\n}}\n")
    findings(f"void f(int a) {{\n{pragma}\n  {{ omp_alloc(1); }}\n}}\n", Language.CPP)
