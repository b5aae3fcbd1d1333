"""The C/C++ program model: declarations, scopes, storage, linkage, lambdas, references."""
from __future__ import annotations

from collections.abc import Callable

import pytest
from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.model.file_model import (
    AUTOMATIC,
    FIELD,
    FUNCTION,
    NAMESPACE,
    STATIC,
    THREAD,
    TYPE,
    VARIABLE,
    FileModel,
)


def model(src: str, language: Language = Language.CPP) -> FileModel:
    result = analyze(Document(src, language))
    assert result.context is not None
    return result.context.model


def one(m: FileModel, name: str, kind: str | None = None):
    found = [s for s in m.named(name) if kind is None or s.kind == kind]
    assert len(found) == 1, found
    return found[0]


CPP = """\
#include <cstdio>
static int counter = 0;
extern double shared;
thread_local int per_thread;
__thread int gnu_thread;
namespace phys {
  double g = 9.81;
  int step(int n);
  int step(int n, double dt);
  template <typename T> T twice(T v) { return v + v; }
  struct Body { virtual double mass() const; static int count; double x; void move(double dt) { x += dt; } };
  struct Rock : Body { double mass() const override { return 1.0; } };
  namespace { int hidden; }
}
extern "C" { void c_entry(float *p, int n); }
struct Fwd;
extern struct Fwd fwd;
typedef struct Fwd Fwd_t;
int phys::step(int n) { static int calls; int local = n; calls++; return local + phys::twice(n); }
auto add = [&](int a) { return a + counter; };
"""


def test_file_and_namespace_declarations() -> None:
    m = model(CPP)
    counter = one(m, "counter")
    assert (counter.kind, counter.storage, counter.linkage, counter.scope.kind) == (VARIABLE, STATIC, "internal", "file")
    assert counter.initialized and "static" in counter.specifiers
    shared = one(m, "shared")
    assert shared.storage == STATIC and not shared.definition and shared.linkage == "external"
    assert one(m, "per_thread").storage == THREAD and one(m, "gnu_thread").storage == THREAD
    g = one(m, "g")
    assert g.scope.kind == "namespace" and g.qualified == "phys::g"
    assert one(m, "phys", NAMESPACE).scope.kind == "file"
    assert one(m, "hidden").linkage == "internal"  # anonymous namespace
    assert one(m, "c_entry").linkage == "C"
    assert one(m, "c_entry").params == (("float *", "p"), ("int", "n"))


def test_overloads_templates_and_out_of_class_definitions() -> None:
    m = model(CPP)
    steps = [s for s in m.named("step") if s.kind == FUNCTION]
    assert [(s.definition, s.params) for s in steps] == [
        (False, (("int", "n"),)), (False, (("int", "n"), ("double", "dt"))), (True, (("int", "n"),))]
    assert {s.qualified for s in steps} == {"phys::step"}
    assert one(m, "twice").template
    move = one(m, "move")
    assert move.scope.kind == "class" and move.qualified == "phys::Body::move" and move.definition


def test_classes_completeness_and_polymorphism() -> None:
    m = model(CPP)
    assert one(m, "Body", TYPE).polymorphic and one(m, "Rock", TYPE).polymorphic  # inherited
    count = one(m, "count")  # static data member: a variable; `x` is a field, not a variable
    assert count.storage == STATIC and count.scope.kind == "class"
    [x] = m.named("x")
    assert x.kind == FIELD and x.scope.kind == "class"  # a member: it only hides globals in the class
    assert one(m, "fwd").complete is False  # only forward-declared in the file
    assert one(m, "Fwd_t", TYPE)


def test_function_bodies_are_read_on_demand_with_their_locals() -> None:
    m = model(CPP)
    assert m.named("local") == []  # not yet: bodies are read when someone looks inside
    at = CPP.index("local + ")
    [local] = m.visible("local", len(CPP[:at].encode()))
    assert local.storage == AUTOMATIC and local.scope.kind == "function"
    [calls] = m.visible("calls", len(CPP[:at].encode()))
    assert calls.storage == STATIC  # a static local
    [n] = m.visible("n", len(CPP[:at].encode()))
    assert n.storage == AUTOMATIC  # a parameter


def test_lambdas_and_their_captures() -> None:
    m = model(CPP)
    [lam] = m.lambdas
    assert lam.default_capture == "&"
    assert "counter" in [r.name for r in lam.references]


def test_references_with_calls_and_target_regions() -> None:
    src = """\
int table[8];
int helper(int i) { return table[i]; }
void run(int n, int *out) {
  int k = helper(0);
#pragma omp target map(tofrom: out[0:n])
  for (int i = 0; i < n; i++) out[i] = helper(i) + k;
}
"""
    m = model(src, Language.C)
    refs = [(r.name, r.call, r.target is not None) for r in m.references]
    assert ("table", False, False) in refs
    assert ("helper", True, False) in refs          # the call before the region
    assert ("helper", True, True) in refs           # the call inside the target region
    assert ("k", False, True) in refs
    run_scope = next(s for s in m.root.children if s.name == "run")
    assert all(r.scope.enclosing("function") is run_scope for r in m.references if r.name == "k")


def test_cpp_module_statements() -> None:
    src = "export module m;\nimport other;\n#pragma omp begin declare target\nimport x;\n#pragma omp end declare target\n"
    m = model(src)
    starts = [src.encode()[a:b].decode() for a, b in m.module_statements]
    assert starts == ["export module m;", "import other;", "import x;"]


def test_c_thread_local_that_tree_sitter_misreads() -> None:
    m = model("static _Thread_local int tl;\n#pragma omp declare target to(tl)\n", Language.C)
    tl = one(m, "tl")
    assert tl.storage == THREAD and "static" in tl.specifiers


def test_a_file_with_parse_errors_is_marked_incomplete() -> None:
    m = model("int f( {\n#pragma omp declare target to(f)\n", Language.C)
    assert m.complete is False


def test_the_declarator_nearest_the_name_decides_function_or_variable() -> None:
    m = model("struct T;\n"
              "struct T *make(int n);\n"              # a function returning a pointer
              "int &pick(int *v, int i);\n"           # a function returning a reference
              "int (*handler)(int);\n"                # a pointer to a function: a variable
              "int *(*table[4])(int);\n"              # an array of function pointers
              "int (*lookup(const char *key))(int);\n"  # a function returning a function pointer
              "struct S { double *row(int i); int (*cb)(void); };\n")
    assert one(m, "make").kind == FUNCTION
    assert one(m, "make").params == (("int", "n"),)
    assert one(m, "pick").kind == FUNCTION
    assert one(m, "handler").kind == VARIABLE
    assert one(m, "table").kind == VARIABLE
    lookup = one(m, "lookup")
    assert lookup.kind == FUNCTION and [name for _, name in lookup.params] == ["key"]
    assert one(m, "row").kind == FUNCTION
    assert one(m, "cb").kind == FIELD


def test_file_wide_lookups_do_not_depend_on_the_bodies_read() -> None:
    m = model("void f(void) { static int hidden = 1; (void)hidden; }\nint shown;\n", Language.C)
    assert m.named("hidden") == [] and [s.name for s in m.symbols] == ["f", "shown"]   # bodies unread
    m.expand()
    assert m.named("hidden") == [] and [s.name for s in m.symbols] == ["f", "shown"]   # read: the same
    assert [s.name for s in m.locals] == ["hidden"]   # what the body declares is its own
    assert [s.name for s in m.every_symbol()] == ["f", "hidden", "shown"]
    assert [s.name for s in m.visible("hidden", m.every_symbol()[1].name_span[1] + 10)] == ["hidden"]


def test_includes_say_which_headers_may_declare_the_programs_own_names() -> None:
    src = '#include <omp.h>\n#include "kernels.h"\n#define HDR <stdio.h>\n#include HDR\nint x;\n'
    m = model(src, Language.C)
    assert [(i.header, i.system) for i in m.includes] == [("omp.h", True), ("kernels.h", False), ("", False)]
    assert m.user_includes()
    assert not m.user_includes(0, src.index('#include "'))   # only <omp.h> before that point


# Sources whose findings once depended on which function bodies the model had read before a rule
# ran (a local class's members as region candidates, a block-scope declaration as an overload or a
# declaration before the directive, a local class as a known type): the same whatever was read.
READ_ORDER_SOURCES = [
    (Language.CPP, ("void a1() {}\nvoid helper() {\n  struct Cmp { void m1() {} void m2() {} void m3() {} };\n}\n"
     "#pragma omp begin declare target device_type(nohost)\nvoid dev() {\n  #pragma omp target\n  { }\n}\n"
     "#pragma omp end declare target\n")),
    (Language.CPP, "namespace ns {\n  void f() { int x = 0; (void)x; }\n}\n#pragma omp declare target(ns::x)\n"),
    (Language.CPP, "int f(int);\nvoid g() { int f(double); }\n#pragma omp declare target(f)\n"),
    (Language.CPP, "#pragma omp declare target(counter)\nvoid g() { struct Local { int counter; }; }\n"),
    (Language.C, ("void v(int);\nvoid g(void) { void base(int); base(1); }\n"
     "#pragma omp declare variant(v) match(construct={dispatch})\nvoid base(int);\n")),
    (Language.CPP, ('#include "buf.h"\nvoid helper() { struct Buffer { int x; }; }\nvoid kernel() { Buffer b;\n'
     "  #pragma omp target is_device_ptr(b)\n  { }\n}\n")),
    (Language.CPP, ("#include <omp.h>\nvoid helper() { struct Impl { void run(); }; }\n"
     "#pragma omp declare variant(Impl::run) match(construct={dispatch})\nvoid base();\n")),
]


@pytest.mark.parametrize("language, source", READ_ORDER_SOURCES)
def test_findings_do_not_depend_on_the_bodies_read_before(language: Language, source: str) -> None:
    from omp_lsp.analysis.rules import FileContext, run_rules
    base = analyze(Document(source, language), Options())
    assert base.context is not None

    def findings(read: Callable[[FileContext], object]) -> list[tuple[str, tuple[int, int], str]]:
        ctx = FileContext(base.document, base.directives, base.structure, base.context.version, "",
                          base.context.macros)
        read(ctx)
        return sorted((f.code, f.span, f.message) for f in run_rules(ctx).findings)
    lazy = findings(lambda ctx: None)
    assert findings(lambda ctx: ctx.model.expand()) == lazy
    assert findings(lambda ctx: [ctx.model.expand(s.span) for s in reversed(ctx.model.root.children)]) == lazy


def test_identifiers_come_in_source_order() -> None:
    """The query's captures come out of order (a function's parameter after its locals); readers
    that expand bodies as they go read them in source order, whatever the tree-sitter version."""
    from omp_lsp.analysis.model.model_c import _identifiers
    src = b"int f(int a) {\n  int i, n, x;\n  x = a;\n  return x + n;\n}\nint g(int b) { return f(b); }\n"
    document = Document(src, Language.C)
    assert document.tree is not None
    starts = [node.start_byte for node in _identifiers(Language.C, document.tree.root_node)]
    assert starts == sorted(starts) and len(starts) == 13
    inside = [node.start_byte for node in _identifiers(Language.C, document.tree.root_node, (0, 60))]
    assert inside == [s for s in starts if s < 60]


def test_nodes_of_a_kind_come_in_source_order() -> None:
    from omp_lsp.analysis.model.c_types import _nodes_of
    # (the query's captures give the typedef in f and the nested struct last)
    src = b"void f(int a) { typedef int T; }\ntypedef struct S { int v; } U;\nstruct W { struct V { int q; } v; };\n"
    document = Document(src, Language.C)
    assert document.tree is not None
    starts = [n.start_byte for n in _nodes_of(document.tree, ("type_definition", "struct_specifier"))]
    assert starts == [16, 33, 41, 64, 75]
