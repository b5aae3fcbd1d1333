"""Declare variant resolution (analysis/variants.py) and the C type normal forms it compares
(analysis/c_types.py): base and variant functions, begin/end regions, effective selectors."""
from __future__ import annotations

import pytest
from omp_lsp.analysis import Document, Language, analyze
from omp_lsp.analysis.model.c_types import Signature, canonical_builtin
from omp_lsp.analysis.rules import FileContext
from omp_lsp.analysis.semantics.variants import (
    FUNCTION_FOLLOWS,
    IN_BODY,
    NOT_A_FUNCTION,
    NOTHING_FOLLOWS,
    SEVERAL_FOLLOW,
    UNKNOWN,
    Variants,
    compare_signatures,
)


def context(src: str, language: Language = Language.C) -> FileContext:
    result = analyze(Document(src, language))
    assert result.context is not None
    return result.context


def variants(src: str, language: Language = Language.C) -> Variants:
    return context(src, language).variants


def signature(src: str, name: str, language: Language = Language.C) -> Signature | None:
    ctx = context(src, language)
    found = [s for s in ctx.model.symbols if s.name == name]
    assert found, name
    types = ctx.c_types
    assert types is not None
    return types.signature(found[0])


# -- type normal forms ----------------------------------------------------------------------------
@pytest.mark.parametrize("words,expected", [
    ("int", "int"),
    ("signed", "int"),
    ("unsigned", "unsigned int"),
    ("long unsigned int", "unsigned long"),
    ("long long int", "long long"),
    ("short int", "short"),
    ("unsigned short", "unsigned short"),
    ("signed char", "signed char"),
    ("char", "char"),
    ("long double", "long double"),
    ("_Bool", "bool"),
    ("size_t", None),
    ("int float", None),
])
def test_builtin_spellings_are_canonical(words: str, expected: str | None) -> None:
    assert canonical_builtin(words.split()) == expected


def test_equivalent_declarations_have_the_same_normal_form() -> None:
    src = """typedef float real;
typedef const real *cvec;
void a(float x, const float *v, float w[], int n);
void b(const real x, cvec v, real *const w, const int n);
void c(real x, real *v, float *w, int n);
"""
    a, b, c = (signature(src, n) for n in "abc")
    assert a is not None and b is not None and c is not None
    assert a.key == b.key  # typedefs, top-level const and an array parameter change nothing
    assert a.key != c.key  # `float *` is not `const float *`
    assert compare_signatures(a, c, 0).ok is False


def test_void_parameter_list_and_unprototyped_declarations() -> None:
    src = "int f(void);\nint g();\n"
    f, g = signature(src, "f"), signature(src, "g")
    assert f is not None and f.params == ()
    assert g is not None and g.params is None  # C: no prototype
    cpp = signature("int g();\n", "g", Language.CPP)
    assert cpp is not None and cpp.params == ()


def test_pointers_references_and_function_pointers() -> None:
    src = "int **f(const char *const *argv, int &r, int (*cb)(double), ...);\n"
    sig = signature(src, "f", Language.CPP)
    assert sig is not None and sig.params is not None
    assert sig.variadic
    assert sig.result is not None and [k for k, _ in sig.result.levels] == ["int", "*", "*"]
    argv, ref, cb = sig.params
    assert argv.levels == (("char", ("const",)), ("*", ("const",)), ("*", ()))
    assert [k for k, _ in ref.levels] == ["int", "&"]
    assert cb.levels[-1] == ("*", ()) and cb.levels[-2][0].startswith("fn(")
    assert argv.is_pointer and cb.is_pointer and not ref.is_pointer


def test_names_from_headers_are_compared_by_spelling_only() -> None:
    src = "#include <stddef.h>\nvoid a(size_t n);\nvoid b(unsigned long n);\nvoid c(size_t n);\n"
    a, b, c = (signature(src, n) for n in "abc")
    assert a is not None and b is not None and c is not None
    assert compare_signatures(a, b, 0).ok is None  # size_t may be unsigned long
    assert compare_signatures(a, c, 0).ok is True


def test_appended_interop_parameters() -> None:
    src = """#include <omp.h>
void base(float *x, int n);
void good(float *x, int n, omp_interop_t obj);
void two(float *x, int n, omp_interop_t a, omp_interop_t b);
void bad(float *x, int n, int obj);
"""
    base, good, two, bad = (signature(src, n) for n in ("base", "good", "two", "bad"))
    assert base and good and two and bad
    assert compare_signatures(base, good, 1).ok is True
    assert compare_signatures(base, good, 0).ok is False
    assert compare_signatures(base, two, 2).ok is True
    verdict = compare_signatures(base, bad, 1)
    assert verdict.ok is False and "omp_interop_t" in verdict.reason


def test_member_functions_compare_their_class_and_qualifiers() -> None:
    src = """struct S {
  int m(int x);
  int c(int x) const;
  static int s(int x);
};
int f(int x);
"""
    m, c, s, f = (signature(src, n, Language.CPP) for n in "mcsf")
    assert m and c and s and f
    assert m.member == "S" and s.member == "" and f.member == ""
    assert compare_signatures(m, c, 0).ok is False  # const differs
    assert compare_signatures(m, f, 0).ok is False  # member and free function
    assert compare_signatures(s, f, 0).ok is True   # a static member is an ordinary function


# -- base and variant functions -------------------------------------------------------------------
def test_the_base_is_the_declaration_after_the_directives() -> None:
    v = variants("""double fast(double x);
double slow(double x);
#pragma omp declare variant(fast) match(device = {kind(gpu)})
// a comment between
#pragma omp declare variant(slow) match(device = {kind(host)})
double run(double x);
""")
    first, second = v.directives
    assert first.placement == second.placement == FUNCTION_FOLLOWS
    assert first.base is second.base and first.base is not None and first.base.name == "run"
    assert [s.name for s in first.variants] == ["fast"] and first.verdict.ok is True
    assert [s.name for s in second.variants] == ["slow"]


@pytest.mark.parametrize("src,placement", [
    ("int v(int);\n#pragma omp declare variant(v) match(device={kind(gpu)})\nint x;\n", NOT_A_FUNCTION),
    ("int v(int);\n#pragma omp declare variant(v) match(device={kind(gpu)})\nint a(int), b(int);\n", SEVERAL_FOLLOW),
    ("int v(int);\n#pragma omp declare variant(v) match(device={kind(gpu)})\n", NOTHING_FOLLOWS),
    ("int v(int);\n#pragma omp declare variant(v) match(device={kind(gpu)})\n#pragma omp declare simd\nint f(int);\n",
     NOTHING_FOLLOWS),
    # the build's configuration: X undefined leaves nothing after the directive, defined the function
    ("int v(int);\n#pragma omp declare variant(v) match(device={kind(gpu)})\n#ifdef X\nint f(int);\n#endif\n",
     NOTHING_FOLLOWS),
    ("#define X\nint v(int);\n#pragma omp declare variant(v) match(device={kind(gpu)})\n#ifdef X\nint f(int);\n#endif\n",
     FUNCTION_FOLLOWS),
    ("int v(int);\n#pragma omp declare variant(v) match(device={kind(gpu)})\n#include \"decl.h\"\n", UNKNOWN),
    ("int v(int);\nvoid g(void) {\n#pragma omp declare variant(v) match(device={kind(gpu)})\n  int f(int);\n}\n",
     IN_BODY),
])
def test_what_follows_the_directive(src: str, placement: str) -> None:
    [rec] = variants(src).directives
    assert rec.placement == placement


def test_overloads_select_the_variant_of_the_base_type() -> None:
    v = variants("""float g(float x);
double g(double x);
#pragma omp declare variant(g) match(device = {kind(gpu)})
double f(double x);
#pragma omp declare variant(g) match(device = {kind(gpu)})
long double h(long double x);
""", Language.CPP)
    good, bad = v.directives
    assert [s.name_span[0] for s in good.variants] == [s.name_span[0] for s in v.directives[0].found][1:]
    assert good.verdict.ok is True
    assert bad.verdict.ok is False and "overloads" in bad.verdict.reason


def test_lookup_at_the_base_finds_members_namespaces_and_the_base_itself() -> None:
    v = variants("""namespace dev { int f(int x); }
struct S {
  int g(int x);
#pragma omp declare variant(g) match(device = {kind(gpu)})
  int h(int x);
};
#pragma omp declare variant(dev::f) match(device = {kind(gpu)})
int k(int x);
#pragma omp declare variant(self) match(device = {kind(gpu)})
int self(int x);
""", Language.CPP)
    member, qualified, itself = v.directives
    assert [s.qualified for s in member.variants] == ["S::g"]
    assert [s.qualified for s in qualified.variants] == ["dev::f"]
    assert itself.base is not None and itself.variants == [itself.base]


def test_functions_returning_pointers_are_functions() -> None:
    v = variants("""double *alloc_gpu(int n);
#pragma omp declare variant(alloc_gpu) match(device = {kind(gpu)})
double *alloc(int n);
""")
    [rec] = v.directives
    assert rec.placement == FUNCTION_FOLLOWS and rec.base is not None and rec.base.name == "alloc"
    assert [s.name for s in rec.variants] == ["alloc_gpu"] and rec.verdict.ok is True


# -- begin/end regions and effective selectors ------------------------------------------------------
def _selector(sel) -> list[tuple[str, list[str]]]:
    return [(name, [s.name + "(" + ",".join(p.text for p in s.properties) + ")" for s in sels])
            for name, sels in sel.sets]


def test_nested_regions_append_the_outer_selector() -> None:
    v = variants("""int f(void);
#pragma omp begin declare variant match(device = {kind(gpu)}, implementation = {vendor(llvm)})
#pragma omp begin declare variant match(device = {arch(nvptx)}, implementation = {vendor(llvm)})
int f(void) { return 1; }
#pragma omp end declare variant
int f(void) { return 2; }
#pragma omp end declare variant
""")
    outer, inner = v.regions
    assert inner.parent == outer.begin and outer.parent is None
    # the inner selector first, the outer appended; the equivalent vendor(llvm) is not repeated
    assert _selector(inner.selector) == [("device", ["arch(nvptx)", "kind(gpu)"]),
                                         ("implementation", ["vendor(llvm)"])]
    assert [s.name_span[0] for s in inner.functions] != [s.name_span[0] for s in outer.functions]
    assert len(inner.functions) == len(outer.functions) == 1


def test_declare_variant_in_a_region_gets_the_region_selector() -> None:
    v = variants("""void f_dev(double *x);
#pragma omp begin declare variant match(construct = {target})
#pragma omp declare variant(f_dev) match(device = {kind(nohost)})
void f(double *x);
#pragma omp end declare variant
""")
    [rec] = v.directives
    assert rec.region == v.regions[0].begin
    assert rec.construct == ("target",)
    assert _selector(rec.selector) == [("device", ["kind(nohost)"]), ("construct", ["target()"])]


def test_region_functions_are_other_functions_than_their_base() -> None:
    ctx = context("""int lanes(void) { return 1; }
#pragma omp begin declare variant match(device = {kind(gpu)})
int lanes(void) { return 32; }
#pragma omp end declare variant
""")
    v = ctx.variants
    base, inside = [s for s in ctx.model.symbols if s.name == "lanes"]
    assert v.regions[0].functions == [inside]
    [rf] = v.region_functions
    assert rf.symbol is inside and rf.bases == [base] and rf.region == v.regions[0].begin
    assert v.identity(base) != v.identity(inside)
    assert v.region_of(inside.name_span[0]) is v.regions[0]


def test_region_functions_in_cpp_take_the_overload_of_their_type() -> None:
    ctx = context("""float scale(float x);
double scale(double x);
#pragma omp begin declare variant match(device = {kind(gpu)})
double scale(double x) { return 2.0 * x; }
#pragma omp end declare variant
""", Language.CPP)
    [rf] = ctx.variants.region_functions
    assert [b.name_span[0] for b in rf.bases] == [ctx.model.named("scale")[1].name_span[0]]


def test_fortran_directives_get_selectors_and_clauses_only() -> None:
    v = variants("""subroutine base(a)
  !$omp declare variant(dev) match(construct={dispatch}) adjust_args(need_device_ptr: a)
  integer :: a
end subroutine
""", Language.FORTRAN)
    [rec] = v.directives
    assert rec.construct == ("dispatch",) and len(rec.adjust_args) == 1
    assert rec.base is None and v.types is None


def test_files_without_variants_cost_nothing() -> None:
    v = variants("int main(void) { return 0; }\n")
    assert v.directives == [] and v.regions == [] and v.types is None
