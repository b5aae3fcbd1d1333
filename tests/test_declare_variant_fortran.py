"""Fortran declare variant: name resolution (`variants_fortran`) and the cases the fixtures
cannot show (odd directives, laziness, messages and related information)."""
from __future__ import annotations

import pytest
from omp_lsp.analysis import Document, Options, analyze
from omp_lsp.analysis.directives.parser import parse_directive
from omp_lsp.analysis.directives.source import extract
from omp_lsp.analysis.directives.structure import analyse_structure
from omp_lsp.analysis.rules import FileContext
from omp_lsp.analysis.rules import declare_variant_fortran as rules
from omp_lsp.analysis.semantics.variants_fortran import source_names, variants
from omp_lsp.analysis.syntax.document import Language

CODES = {"OMP302", "OMP305", "OMP306", "OMP309", "OMP310", "OMP313", "OMP314", "OMP315", "OMP316"}
RULES = [rules.variant_not_a_procedure, rules.variant_is_the_base, rules.variant_is_a_base,
         rules.adjust_args_not_a_dummy, rules.need_device_ptr_not_c_ptr, rules.construct_sets_differ,
         rules.variant_called_out_of_context, rules.placement, rules.match_variable_not_accessible]


def context(text: str, language: Language = Language.FORTRAN) -> FileContext:
    doc = Document(text, language)
    directives = [parse_directive(raw, language, 51, frozenset())[0] for raw in extract(doc.source, language, None)]
    return FileContext(doc, directives, analyse_structure(doc, directives), 51)


def codes(text: str, language: Language = Language.FORTRAN) -> list[tuple[int, str]]:
    result = analyze(Document(text, language), Options())
    assert not result.internal_errors, result.internal_errors
    lines = result.document.lines
    return [(lines.line_of(f.span[0]) + 1, f.code) for f in result.findings if f.code in CODES]


def test_files_without_declare_variant_build_no_model() -> None:
    ctx = context("subroutine s(x)\n  !$omp declare target\n  real :: x\n  x = 1.0\nend subroutine s\n")
    for r in RULES:
        assert list(r(ctx)) == []
    assert ctx._model is None


def test_c_files_are_left_to_the_c_rules() -> None:
    ctx = context("#pragma omp declare variant(v) match(construct={parallel})\nvoid f(void);\n", Language.C)
    for r in RULES:
        assert list(r(ctx)) == []


@pytest.mark.parametrize("directive", [
    "!$omp declare variant",
    "!$omp declare variant()",
    "!$omp declare variant(a:b:c) match(construct={parallel})",
    "!$omp declare variant(a(1)) match(construct={parallel})",
    "!$omp declare variant(:s) match(construct={parallel})",
    "!$omp declare variant(x%y) match(construct={parallel})",
    "!$omp declare variant(vv) match(",
    "!$omp declare variant(vv) adjust_args(need_device_ptr:) match(construct={dispatch})",
    "!$omp declare variant(vv) match(user={condition(",
    "!$omp declare variant(vv) match(user={condition(x .and.)}) adjust_args(nothing: 1 + 2)",
])
def test_odd_directives_never_raise(directive: str) -> None:
    # (the variant `vv` is declared: whatever is odd in the directive, no OMP302 for it)
    text = f"subroutine s(x)\n  {directive}\n  real :: x\n  external vv\nend subroutine s\n"
    assert [c for _, c in codes(text) if c == "OMP302"] == []


def test_lookup_is_certain_with_intrinsic_modules_but_not_with_renames() -> None:
    text = ("subroutine s(x)\n  use iso_c_binding, only: c_ptr\n  !$omp declare variant(v) match(construct={parallel})\n"
            "  real :: x\nend subroutine s\n"
            "subroutine t(x)\n  use iso_c_binding, only: p => c_ptr\n"
            "  !$omp declare variant(v) match(construct={parallel})\n  real :: x\nend subroutine t\n"
            "subroutine u(x)\n  use other_module\n  !$omp declare variant(v) match(construct={parallel})\n"
            "  real :: x\nend subroutine u\n")
    ctx = context(text)
    found = variants(ctx)
    assert [v.variant.certain for v in found] == [True, False, False]
    assert codes(text) == [(3, "OMP302")]


def test_lookup_sees_module_procedures_internal_procedures_and_later_declarations() -> None:
    text = ("module m\ncontains\n  subroutine mv(x)\n    real :: x\n  end subroutine mv\nend module m\n"
            "subroutine s(x)\n  use m\n  !$omp declare variant(MV) match(construct={parallel})\n"
            "  !$omp declare variant(iv) match(construct={parallel})\n"
            "  !$omp declare variant(ev) match(construct={parallel})\n  real :: x\n  external ev\n"
            "contains\n  subroutine iv(y)\n    real :: y\n  end subroutine iv\nend subroutine s\n")
    ctx = context(text)
    kinds = [(v.variant.procedure.kind if v.variant.procedure else None) for v in variants(ctx)]
    assert kinds == ["function", "function", "procedure"]
    assert codes(text) == []


def test_interface_bodies_see_their_host_only_through_import() -> None:
    body = ("subroutine host(x)\n  real :: x\n  interface\n    subroutine b(y)\nIMPORT"
            "      !$omp declare variant(host_v) match(construct={parallel})\n      real :: y\n"
            "    end subroutine b\n  end interface\n  external host_v\nend subroutine host\n")
    assert codes(body.replace("IMPORT", "")) == [(5, "OMP302")]
    assert codes(body.replace("IMPORT", "      import :: host_v\n")) == []


def test_a_name_called_in_the_unit_is_an_external_procedure() -> None:
    text = ("subroutine s(x)\n  !$omp declare variant(vext) match(construct={parallel})\n  real :: x\n"
            "  if (x < 0.0) call vext(x)\nend subroutine s\n")
    assert codes(text) == []


def test_messages_name_the_fault_and_point_at_the_declaration() -> None:
    text = ("subroutine s(x, n)\n  !$omp declare variant(n) match(construct={parallel})\n  real :: x\n"
            "  integer :: n\nend subroutine s\n")
    result = analyze(Document(text, Language.FORTRAN), Options())
    (finding,) = [f for f in result.findings if f.code == "OMP302"]
    assert "'n'" in finding.message and "dummy argument" in finding.message
    assert result.document.source[finding.span[0]:finding.span[1]] == b"n"
    (related,) = finding.related
    assert result.document.lines.line_of(related.span[0]) == 3


def test_source_names_skip_components_keywords_operators_and_strings() -> None:
    text = ("subroutine s(x, n)\n"
            "  !$omp declare variant(v) match(user={condition(a%b .and. f(dim=k) > 1.0e5_dp .or. &\n"
            "  !$omp& c == 'q' .or. .not. d)})\n  real :: x\nend subroutine s\n")
    ctx = context(text)
    (v,) = variants(ctx)
    match = v.directive.clause("match")
    assert match is not None and match.selector is not None
    prop = match.selector.sets[0].selectors[0].properties[0]
    names = [(name, ctx.document.source[a:b].decode()) for name, (a, b) in source_names(ctx, prop.span)]
    assert [n for n, _ in names] == ["a", "f", "k", "c", "d"]
    assert all(n == written for n, written in names)


def test_internal_procedures_of_different_hosts_are_different_variants() -> None:
    text = ("subroutine h1(x)\n  !$omp declare variant(inner) match(construct={parallel})\n  real :: x\ncontains\n"
            "  subroutine inner(y)\n    real :: y\n  end subroutine inner\nend subroutine h1\n"
            "subroutine h2(x)\n  !$omp declare variant(inner) match(construct={target})\n  real :: x\ncontains\n"
            "  subroutine inner(y)\n    real :: y\n  end subroutine inner\nend subroutine h2\n")
    ctx = context(text)
    first, second = variants(ctx)
    assert first.variant_identity != second.variant_identity
    assert codes(text) == []


def test_target_variant_in_a_procedure_reached_through_a_procedure_argument_is_not_reported() -> None:
    text = ("module m\ncontains\n  subroutine vt(x)\n    real :: x\n  end subroutine vt\n"
            "  subroutine b(x)\n    !$omp declare variant(vt) match(construct={target})\n    real :: x\n"
            "  end subroutine b\n  subroutine worker(x)\n    real :: x\n    call vt(x)\n  end subroutine worker\n"
            "  subroutine apply(f, x)\n    external f\n    real :: x\n    !$omp target map(tofrom: x)\n"
            "    call f(x)\n    !$omp end target\n  end subroutine apply\n  subroutine go(x)\n    real :: x\n"
            "    call apply(worker, x)\n  end subroutine go\nend module m\n")
    assert codes(text) == []
