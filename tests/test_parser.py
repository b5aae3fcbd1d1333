"""The directive parser on C and C++ (analysis/directives/parser.py, through `analyze`).

Four parts: directive names; clause shapes, asserted on the parsed nodes; every syntax
diagnostic (OMP001-OMP005, OMP007, OMP009) with the exact text its range covers and the
suggestion in its message; realistic valid programs across OpenMP 4.5-6.0 that must produce
no finding at all. Fortran is in test_parser_fortran.py, random input in test_parser_fuzz.py.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from omp_lsp.analysis import Document, Language, Options, Severity, analyze
from omp_lsp.analysis.directives import tables
from omp_lsp.analysis.directives.nodes import Clause, Directive, ListItem
from omp_lsp.analysis.syntax.diagnostics import Finding

C, CPP = Language.C, Language.CPP
SYNTAX = frozenset({"OMP001", "OMP002", "OMP003", "OMP004", "OMP005", "OMP007", "OMP009"})


# ---------------------------------------------------------------- helpers

@dataclass
class Parsed:
    src: bytes
    directive: Directive
    findings: list[Finding]  # syntax findings only

    def text(self, span: tuple[int, int]) -> str:
        return self.src[span[0]:span[1]].decode("utf-8")

    def clause(self, name: str, nth: int = 0) -> Clause:
        found = self.directive.clauses_named(name)
        assert len(found) > nth, f"no clause '{name}' #{nth} in {[c.name for c in self.directive.clauses]}"
        return found[nth]

    def codes(self) -> list[str]:
        return [f.code for f in self.findings]

    def describe(self) -> str:
        return "\n".join(f"{f.code} {self.text(f.span)!r}: {f.message}" for f in self.findings)


def parse(body: str, language: Language = C, version: int = 51) -> Parsed:
    """One pragma inside a function (placement rules do not matter here: only syntax codes are kept)."""
    src = f"void f(int *a, int n) {{\n#pragma omp {body}\n  a[0] = n;\n}}\n"
    result = analyze(Document(src, language), Options(openmp_version=version))
    assert not result.internal_errors, result.internal_errors
    assert len(result.directives) == 1, result.directives
    findings = [f for f in result.findings if f.code in SYNTAX]
    return Parsed(src.encode("utf-8"), result.directives[0], findings)


def clean(body: str, language: Language = C, version: int = 51) -> Parsed:
    parsed = parse(body, language, version)
    assert not parsed.findings, parsed.describe()
    return parsed


def items(clause: Clause) -> list[str]:
    return [i.text for i in clause.items]


def item_shape(item: ListItem) -> tuple:
    """(name, members, [[(lower, length, stride, is_section), ...] per bracket])."""
    subs = [[(s.lower and s.lower.text, s.length and s.length.text, s.stride and s.stride.text, s.is_section)
             for s in dims] for dims in item.subscripts]
    return item.name, item.members, subs


def apply_fix(src: bytes, finding: Finding, k: int = 0) -> str:
    out = src
    for (a, b), new in sorted(finding.fixes[k].edits, key=lambda e: -e[0][0]):
        out = out[:a] + new.encode() + out[b:]
    return out.decode()


def pragma_line(text: str) -> str:
    return next(line for line in text.splitlines() if "#pragma" in line or "_Pragma" in line)


def _first_version(since) -> int:
    return since[0] if isinstance(since, tuple) else since


# ---------------------------------------------------------------- directive names

C_NAMES = sorted(n for n, s in tables.DIRECTIVES.items() if s.lang != "fortran")


@pytest.mark.parametrize("name", C_NAMES)
def test_every_c_directive_name_parses_to_itself(name: str) -> None:
    spec = tables.DIRECTIVES[name]
    body = name + ("(x)" if spec.argument_required else "")
    if name in ("cancel", "cancellation point"):
        body += " parallel"  # a construct type is required
    version = max(51, _first_version(spec.since))
    parsed = clean(body, C, version)
    assert parsed.directive.name == name
    assert parsed.directive.spec is spec
    assert parsed.text(parsed.directive.name_span) == name


@pytest.mark.parametrize("body, name, clauses", [
    ("target teams distribute parallel for simd", "target teams distribute parallel for simd", []),
    ("target teams distribute parallel for", "target teams distribute parallel for", []),
    ("target teams distribute simd", "target teams distribute simd", []),
    ("target teams distribute", "target teams distribute", []),
    ("target teams loop", "target teams loop", []),
    ("target teams", "target teams", []),
    ("target parallel for simd", "target parallel for simd", []),
    ("target parallel for", "target parallel for", []),
    ("target parallel loop", "target parallel loop", []),
    ("target parallel", "target parallel", []),
    ("target simd", "target simd", []),
    ("teams distribute parallel for simd", "teams distribute parallel for simd", []),
    ("teams distribute parallel for", "teams distribute parallel for", []),
    ("teams distribute simd", "teams distribute simd", []),
    ("teams distribute", "teams distribute", []),
    ("teams loop", "teams loop", []),
    ("distribute parallel for simd", "distribute parallel for simd", []),
    ("distribute parallel for", "distribute parallel for", []),
    ("distribute simd", "distribute simd", []),
    ("parallel for simd", "parallel for simd", []),
    ("parallel for", "parallel for", []),
    ("parallel sections", "parallel sections", []),
    ("parallel loop", "parallel loop", []),
    ("parallel master", "parallel master", []),
    ("parallel masked", "parallel masked", []),
    ("parallel master taskloop simd", "parallel master taskloop simd", []),
    ("parallel masked taskloop simd", "parallel masked taskloop simd", []),
    ("master taskloop simd", "master taskloop simd", []),
    ("masked taskloop", "masked taskloop", []),
    ("taskloop simd", "taskloop simd", []),
    ("for simd", "for simd", []),
    ("target data map(a[0:n])", "target data", ["map"]),
    ("target enter data map(to: a[0:n])", "target enter data", ["map"]),
    ("target exit data map(from: a[0:n])", "target exit data", ["map"]),
    ("target update to(a[0:n])", "target update", ["to"]),
    # odd spacing, tabs and commas between clauses
    ("target   teams\tdistribute  parallel\t for simd", "target teams distribute parallel for simd", []),
    ("\ttarget\tteams\tdistribute\tparallel\tfor collapse(1)", "target teams distribute parallel for",
     ["collapse"]),
    ("parallel for private(n), shared(a)", "parallel for", ["private", "shared"]),
    ("parallel for private(n) ,shared(a),firstprivate(n)", "parallel for", ["private", "shared", "firstprivate"]),
    ("parallel for private ( n ) schedule ( static , 4 )", "parallel for", ["private", "schedule"]),
    ("parallel for private(n),", "parallel for", ["private"]),
    ("target teams distribute parallel for simd map(tofrom: a[0:n]) collapse(1) simdlen(4)",
     "target teams distribute parallel for simd", ["map", "collapse", "simdlen"]),
    # cancel and cancellation point with their construct words
    ("cancel parallel", "cancel", ["parallel"]),
    ("cancel for", "cancel", ["for"]),
    ("cancel sections", "cancel", ["sections"]),
    ("cancel taskgroup", "cancel", ["taskgroup"]),
    ("cancel for if(n > 2)", "cancel", ["for", "if"]),
    ("cancellation point parallel", "cancellation point", ["parallel"]),
    ("cancellation point for", "cancellation point", ["for"]),
    ("cancellation point taskgroup", "cancellation point", ["taskgroup"]),
    # atomic forms
    ("atomic", "atomic", []),
    ("atomic read", "atomic", ["read"]),
    ("atomic write", "atomic", ["write"]),
    ("atomic update", "atomic", ["update"]),
    ("atomic capture", "atomic", ["capture"]),
    ("atomic compare", "atomic", ["compare"]),
    ("atomic compare capture", "atomic", ["compare", "capture"]),
    ("atomic seq_cst read", "atomic", ["seq_cst", "read"]),
    ("atomic update, acq_rel", "atomic", ["update", "acq_rel"]),
    ("atomic compare weak fail(relaxed) capture", "atomic", ["compare", "weak", "fail", "capture"]),
    # declarations
    ("declare target", "declare target", []),
    ("declare target to(n)", "declare target", ["to"]),
    ("declare target link(n) device_type(nohost)", "declare target", ["link", "device_type"]),
    ("begin declare target", "begin declare target", []),
    ("begin declare target device_type(host) indirect", "begin declare target", ["device_type", "indirect"]),
    ("end declare target", "end declare target", []),
    ("declare variant(g) match(construct={parallel})", "declare variant", ["match"]),
    ("begin declare variant match(device={kind(gpu)})", "begin declare variant", ["match"]),
    ("end declare variant", "end declare variant", []),
    ("declare simd", "declare simd", []),
    ("declare simd(f) uniform(n)", "declare simd", ["uniform"]),
    ("declare reduction(mx : int : omp_out = omp_out > omp_in ? omp_out : omp_in)", "declare reduction", []),
    ("declare mapper(struct S s) map(s)", "declare mapper", ["map"]),
    ("metadirective when(user={condition(n > 1)}: parallel) default(nothing)", "metadirective",
     ["when", "default"]),
    ("requires unified_shared_memory", "requires", ["unified_shared_memory"]),
    ("requires reverse_offload, dynamic_allocators", "requires", ["reverse_offload", "dynamic_allocators"]),
    ("flush", "flush", []),
    ("flush(a, n)", "flush", []),
    ("critical", "critical", []),
    ("critical(lock)", "critical", []),
    ("critical (lock) hint(0)", "critical", ["hint"]),
    ("threadprivate(n)", "threadprivate", []),
    ("ordered depend(source)", "ordered", ["depend"]),
    ("ordered simd", "ordered", ["simd"]),
    ("section", "section", []),
    ("scan inclusive(n)", "scan", ["inclusive"]),
])
def test_directive_names(body: str, name: str, clauses: list[str]) -> None:
    parsed = clean(body)
    assert parsed.directive.name == name
    assert [c.name for c in parsed.directive.clauses] == clauses
    assert " ".join(parsed.text(parsed.directive.name_span).split()) == name


def test_name_span_covers_the_words_only() -> None:
    parsed = clean("target \t teams  distribute map(a[0:n])")
    assert parsed.text(parsed.directive.name_span) == "target \t teams  distribute"


def test_argument_lists_of_flush_critical_and_threadprivate() -> None:
    flush = clean("flush(a, n)").directive
    assert [i.name for i in flush.argument] == ["a", "n"]
    crit = clean("critical(update_lock) hint(2)").directive
    assert [i.name for i in crit.argument] == ["update_lock"]
    assert clean("critical").directive.argument is None
    tp = clean("threadprivate(counter, ::n)", CPP).directive
    assert [i.name for i in tp.argument] == ["counter", "::n"]
    dt = clean("declare target(n, a)").directive
    assert [i.name for i in dt.argument] == ["n", "a"] and not dt.clauses


def test_declare_variant_and_simd_name_arguments() -> None:
    dv = clean("declare variant(gpu_f) match(device={kind(gpu)})").directive
    assert [i.name for i in dv.argument] == ["gpu_f"]
    both = clean("declare variant(base_f:gpu_f) match(device={kind(gpu)})").directive
    assert [i.name for i in both.argument] == ["base_f", "gpu_f"]
    ns = clean("declare variant(ns::gpu_f) match(device={kind(gpu)})", CPP).directive
    assert [i.name for i in ns.argument] == ["ns::gpu_f"]
    ds = clean("declare simd(f) simdlen(4)").directive
    assert [i.name for i in ds.argument] == ["f"]


def test_opaque_arguments_of_declare_reduction_and_mapper() -> None:
    red = clean("declare reduction(merge : int, long : omp_out += omp_in) initializer(omp_priv = 0)").directive
    assert red.argument[0].text == "merge : int, long : omp_out += omp_in"
    assert red.clause("initializer").expr.text == "omp_priv = 0"
    mapper = clean("declare mapper(id : struct vec v) map(tofrom: v, v.data[0:v.len])").directive
    assert mapper.argument[0].text == "id : struct vec v"
    assert items(mapper.clause("map")) == ["v", "v.data[0:v.len]"]


@pytest.mark.parametrize("body, name", [
    ("declare_target", "declare target"),
    ("begin_declare_target", "begin declare target"),
    ("target_enter_data map(to: a[0:n])", "target enter data"),
    ("target teams_distribute", "target teams distribute"),
])
def test_underscore_spellings_in_60(body: str, name: str) -> None:
    parsed = parse(body, C, 60)
    assert parsed.directive.name == name
    assert not [f for f in parsed.findings if f.code != "OMP007" or f.effective_severity == Severity.ERROR]


def test_underscore_spelling_before_60_is_omp007() -> None:
    parsed = parse("target_enter_data map(to: a[0:n])", C, 52)
    (finding,) = parsed.findings
    assert finding.code == "OMP007" and parsed.text(finding.span) == "target_enter_data"
    assert "target enter data" in finding.message


# ---------------------------------------------------------------- clause shapes

def test_list_items_with_array_sections() -> None:
    clause = clean("target map(tofrom: a[0:n], a[:n], a[1:], b[i][0:m], s.f[0:n], p->x, q[0:n:2])").clause("map")
    assert items(clause) == ["a[0:n]", "a[:n]", "a[1:]", "b[i][0:m]", "s.f[0:n]", "p->x", "q[0:n:2]"]
    shapes = [item_shape(i) for i in clause.items]
    assert shapes == [
        ("a", [], [[("0", "n", None, True)]]),
        ("a", [], [[(None, "n", None, True)]]),
        ("a", [], [[("1", None, None, True)]]),
        ("b", [], [[("i", None, None, False)], [("0", "m", None, True)]]),
        ("s", ["f"], [[("0", "n", None, True)]]),
        ("p", ["x"], []),
        ("q", [], [[("0", "n", "2", True)]]),
    ]


def test_list_item_spans_point_at_the_items() -> None:
    parsed = clean("parallel for private(i, j) firstprivate( n ,a )")
    priv = parsed.clause("private")
    assert [parsed.text(i.span) for i in priv.items] == ["i", "j"]
    assert [parsed.text(i.name_span) for i in priv.items] == ["i", "j"]
    first = parsed.clause("firstprivate")
    assert [parsed.text(i.span) for i in first.items] == ["n", "a"]
    assert parsed.text(first.span) == "firstprivate( n ,a )"
    assert parsed.text(first.name_span) == "firstprivate"
    assert parsed.text(first.args_span) == "n ,a"


def test_section_bounds_are_expressions() -> None:
    clause = clean("target map(to: a[lo + 1 : hi - lo], b[f(i, j) : n * 2])").clause("map")
    assert [item_shape(i) for i in clause.items] == [
        ("a", [], [[("lo + 1", "hi - lo", None, True)]]),
        ("b", [], [[("f(i, j)", "n * 2", None, True)]]),
    ]


def test_stride_only_section_with_double_colon() -> None:
    clause = clean("target update to(a[::2], b[1::3])", C, 52).clause("to")
    assert [item_shape(i) for i in clause.items] == [
        ("a", [], [[(None, None, "2", True)]]),
        ("b", [], [[("1", None, "3", True)]]),
    ]


def test_ternary_inside_a_section_is_not_a_colon() -> None:
    clause = clean("target map(to: a[c ? 1 : 2 : n])").clause("map")
    assert item_shape(clause.items[0]) == ("a", [], [[("c ? 1 : 2", "n", None, True)]])


def test_cxx_qualified_names() -> None:
    parsed = clean("parallel for private(ns::v, ::g, outer::inner::w) shared(this->data)", CPP)
    priv = parsed.clause("private")
    assert [i.name for i in priv.items] == ["ns::v", "::g", "outer::inner::w"]
    assert all(i.is_plain_name for i in priv.items)
    shared = parsed.clause("shared").items[0]
    assert (shared.name, shared.members) == ("this", ["data"])


def test_cxx_scope_inside_a_section_is_not_a_colon() -> None:
    clause = clean("target map(to: a[ns::lo : ns::len], b[::n])", CPP).clause("map")
    assert [item_shape(i) for i in clause.items] == [
        ("a", [], [[("ns::lo", "ns::len", None, True)]]),
        ("b", [], [[("::n", None, None, False)]]),
    ]


def test_general_expressions_are_kept_as_text() -> None:
    clause = clean("target map(tofrom: *p, (*q)[0:n], s.arr[i].f)").clause("map")
    assert items(clause) == ["*p", "(*q)[0:n]", "s.arr[i].f"]
    assert clause.items[0].name is None
    assert clause.items[1].name is None
    assert item_shape(clause.items[2]) == ("s", ["arr", "f"], [[("i", None, None, False)]])


def test_map_modifiers_and_type() -> None:
    clause = clean("target map(always, close, present, mapper(id), iterator(i=0:n), tofrom: a[i])").clause("map")
    assert [m.name for m in clause.modifiers] == ["always", "close", "present", "mapper", "iterator", "tofrom"]
    assert clause.modifier("mapper").args.text == "id"
    assert clause.modifier("iterator").args.text == "i=0:n"
    assert items(clause) == ["a[i]"]
    assert item_shape(clause.items[0]) == ("a", [], [[("i", None, None, False)]])


def test_map_modifiers_without_commas() -> None:
    clause = clean("target map(always close tofrom: a[0:n])").clause("map")
    assert [m.name for m in clause.modifiers] == ["always", "close", "tofrom"]


def test_map_without_type_and_map_type_spans() -> None:
    parsed = clean("target data map(a[0:n]) map(from : n)")
    plain, typed = parsed.directive.clauses
    assert plain.modifiers == [] and items(plain) == ["a[0:n]"]
    assert [parsed.text(m.span) for m in typed.modifiers] == ["from"]


@pytest.mark.parametrize("map_type", ["to", "from", "tofrom", "alloc", "release", "delete"])
def test_every_map_type(map_type: str) -> None:
    directive = "target exit data" if map_type in ("release", "delete", "from") else "target enter data"
    if map_type == "tofrom":
        directive = "target data"
    clause = clean(f"{directive} map({map_type}: a[0:n])").clause("map")
    assert [m.name for m in clause.modifiers] == [map_type]


def test_device_modifiers() -> None:
    parsed = clean("target device(ancestor: 1) map(to: n)")
    dev = parsed.clause("device")
    assert [m.name for m in dev.modifiers] == ["ancestor"] and dev.expr.text == "1"
    num = clean("target device(device_num: 2)").clause("device")
    assert [m.name for m in num.modifiers] == ["device_num"] and num.expr.text == "2"
    bare = clean("target device(omp_get_default_device())").clause("device")
    assert bare.modifiers == [] and bare.expr.text == "omp_get_default_device()"


def test_if_directive_name_modifiers() -> None:
    target = clean("target if(target: n > 2)").clause("if")
    assert [m.name for m in target.modifiers] == ["target"] and target.expr.text == "n > 2"
    data = clean("target data if(target data: n) map(a[0:n])").clause("if")
    assert [m.name for m in data.modifiers] == ["target data"] and data.expr.text == "n"
    enter = clean("target enter data if(target enter data: n > 0) map(to: a[0:n])").clause("if")
    assert [m.name for m in enter.modifiers] == ["target enter data"]
    ternary = clean("target if(n ? a[0] : a[1])").clause("if")
    assert ternary.modifiers == [] and ternary.expr.text == "n ? a[0] : a[1]"
    both = clean("target parallel for if(target: n > 1000) if(parallel: n > 10)").directive
    assert [(c.modifiers[0].name, c.expr.text) for c in both.clauses] == [("target", "n > 1000"),
                                                                          ("parallel", "n > 10")]
    simd = clean("simd if(simd: n > 8)", C, 50).clause("if")
    assert [m.name for m in simd.modifiers] == ["simd"]
    cancel = clean("cancel for if(cancel: n > 2)").clause("if")
    assert [m.name for m in cancel.modifiers] == ["cancel"]


def test_defaultmap_behaviour_and_category() -> None:
    parsed = clean("target defaultmap(tofrom: scalar) defaultmap(firstprivate : aggregate) defaultmap(none: pointer)")
    got = [(c.keyword.name, c.category.name) for c in parsed.directive.clauses]
    assert got == [("tofrom", "scalar"), ("firstprivate", "aggregate"), ("none", "pointer")]
    first = parsed.directive.clauses[0]
    assert parsed.text(first.keyword.span) == "tofrom" and parsed.text(first.category.span) == "scalar"
    alone = clean("target defaultmap(tofrom)", C, 50).clause("defaultmap")
    assert alone.keyword.name == "tofrom" and alone.category is None
    default = clean("target defaultmap(default: all)", C, 52).clause("defaultmap")
    assert (default.keyword.name, default.category.name) == ("default", "all")


def test_schedule_kinds_modifiers_and_chunks() -> None:
    sched = clean("for schedule(monotonic: static, 4)").clause("schedule")
    assert [m.name for m in sched.modifiers] == ["monotonic"]
    assert sched.keyword.name == "static" and [e.text for e in sched.exprs] == ["4"]
    dyn = clean("for schedule(nonmonotonic: dynamic, n / 4)").clause("schedule")
    assert dyn.keyword.name == "dynamic" and dyn.expr.text == "n / 4"
    simd = clean("for simd schedule(simd: guided)").clause("schedule")
    assert [m.name for m in simd.modifiers] == ["simd"] and simd.keyword.name == "guided" and not simd.exprs
    two = clean("for schedule(monotonic, simd: static)").clause("schedule")
    assert [m.name for m in two.modifiers] == ["monotonic", "simd"]
    for kind in ("static", "dynamic", "guided", "auto", "runtime"):
        assert clean(f"for schedule({kind})").clause("schedule").keyword.name == kind
    dist = clean("distribute dist_schedule(static, 8)").clause("dist_schedule")
    assert dist.keyword.name == "static" and dist.expr.text == "8"


def test_reduction_shapes() -> None:
    inscan = clean("for reduction(inscan, +: x)").clause("reduction")
    assert [m.name for m in inscan.modifiers] == ["inscan"] and inscan.expr.text == "+" and items(inscan) == ["x"]
    mx = clean("for reduction(max: m)").clause("reduction")
    assert mx.modifiers == [] and mx.expr.text == "max" and items(mx) == ["m"]
    task = clean("parallel reduction(task, *: p, q)").clause("reduction")
    assert [m.name for m in task.modifiers] == ["task"] and items(task) == ["p", "q"]
    for op in ("+", "*", "-", "&", "|", "^", "&&", "||", "min", "max", "my_op"):
        clause = clean(f"for reduction({op}: s)").clause("reduction")
        assert clause.expr.text == op, op
    section = clean("for reduction(+: a[0:n])").clause("reduction")
    assert item_shape(section.items[0]) == ("a", [], [[("0", "n", None, True)]])
    cxx = clean("for reduction(::std::plus<int>: s)", CPP)
    assert cxx.directive.clause("reduction").items[0].name == "s"
    in_red = clean("task in_reduction(+: s)").clause("in_reduction")
    assert in_red.expr.text == "+" and items(in_red) == ["s"]
    tg = clean("taskgroup task_reduction(max: s)").clause("task_reduction")
    assert tg.expr.text == "max"


def test_depend_shapes() -> None:
    dep_in = clean("task depend(in: a)").clause("depend")
    assert [m.name for m in dep_in.modifiers] == ["in"] and items(dep_in) == ["a"]
    it = clean("task depend(iterator(i=0:n), out: a[i])", C, 50).clause("depend")
    assert [m.name for m in it.modifiers] == ["iterator", "out"]
    assert it.modifier("iterator").args.text == "i=0:n"
    assert items(it) == ["a[i]"]
    typed = clean("task depend(iterator(int i = 0 : n : 2), inout: a[i])", C, 50).clause("depend")
    assert typed.modifier("iterator").args.text == "int i = 0 : n : 2"
    sink = clean("ordered depend(sink: i-1, j)").clause("depend")
    assert [m.name for m in sink.modifiers] == ["sink"]
    assert [e.text for e in sink.exprs] == ["i-1", "j"] and sink.items == []
    source = clean("ordered depend(source)").clause("depend")
    assert [m.name for m in source.modifiers] == ["source"] and not source.items and not source.exprs
    for kind, version in [("inout", 45), ("mutexinoutset", 50), ("inoutset", 51), ("depobj", 50)]:
        clause = clean(f"task depend({kind}: a[0])", C, version).clause("depend")
        assert [m.name for m in clause.modifiers] == [kind]
    doacross = clean("ordered doacross(sink: i - 1)", C, 52).clause("doacross")
    assert [m.name for m in doacross.modifiers] == ["sink"] and [e.text for e in doacross.exprs] == ["i - 1"]
    src = clean("ordered doacross(source:)", C, 52).clause("doacross")
    assert [m.name for m in src.modifiers] == ["source"]


def test_linear_shapes() -> None:
    step = clean("simd linear(x: 2)").clause("linear")
    assert items(step) == ["x"] and step.modifiers == [] and step.expr.text == "2"
    val = clean("simd linear(val(x): 1)").clause("linear")
    assert [m.name for m in val.modifiers] == ["val"] and items(val) == ["x"] and val.expr.text == "1"
    ref = clean("declare simd linear(ref(p, q))", CPP).clause("linear")
    assert [m.name for m in ref.modifiers] == ["ref"] and items(ref) == ["p", "q"] and not ref.exprs
    new = clean("simd linear(x: val, step(2))", C, 52).clause("linear")
    assert items(new) == ["x"] and [m.name for m in new.modifiers] == ["val", "step"]
    assert new.modifier("step").args.text == "2"
    only_step = clean("for linear(j: step(2))", C, 52).clause("linear")
    assert [m.name for m in only_step.modifiers] == ["step"] and not only_step.exprs
    plain = clean("simd linear(i, j)").clause("linear")
    assert items(plain) == ["i", "j"] and not plain.exprs and not plain.modifiers
    expr_step = clean("simd linear(i: n * 2)").clause("linear")
    assert expr_step.expr.text == "n * 2"


def test_linear_lone_word_is_a_step_before_52_and_a_modifier_from_52() -> None:
    old = clean("simd linear(x: val)", C, 51).clause("linear")
    assert old.modifiers == [] and old.expr.text == "val"
    new = clean("simd linear(x: val)", C, 52).clause("linear")
    assert [m.name for m in new.modifiers] == ["val"] and not new.exprs
    var = clean("simd linear(x: k)", C, 52).clause("linear")
    assert var.modifiers == [] and var.expr.text == "k"


def test_aligned_and_allocate() -> None:
    al = clean("simd aligned(p: 64)").clause("aligned")
    assert items(al) == ["p"] and al.expr.text == "64"
    two = clean("simd aligned(p, q)").clause("aligned")
    assert items(two) == ["p", "q"] and not two.exprs
    sized = clean("simd aligned(p : alignof(double) * 8)", CPP).clause("aligned")
    assert sized.expr.text == "alignof(double) * 8"
    alloc = clean("parallel private(x) allocate(omp_high_bw_mem_alloc: x)").clause("allocate")
    assert items(alloc) == ["x"] and [m.name for m in alloc.modifiers] == ["<expr>"]
    assert alloc.modifiers[0].args.text == "omp_high_bw_mem_alloc"
    plain = clean("parallel private(x) allocate(x)").clause("allocate")
    assert plain.modifiers == [] and items(plain) == ["x"]
    complex_ = clean("parallel private(x, y) allocate(allocator(my_alloc), align(64): x, y)", C, 51)
    mods = complex_.clause("allocate").modifiers
    assert [(m.name, m.args.text) for m in mods] == [("allocator", "my_alloc"), ("align", "64")]


def test_uses_allocators_shapes() -> None:
    old = clean("target uses_allocators(omp_default_mem_alloc, my(traits))").clause("uses_allocators")
    assert [i.name for i in old.items] == ["omp_default_mem_alloc", "my"]
    assert [(m.name, m.args.text) for m in old.modifiers] == [("traits", "traits")]
    new = clean("target uses_allocators(traits(t), memspace(m): a)", C, 52).clause("uses_allocators")
    assert [(m.name, m.args.text) for m in new.modifiers] == [("traits", "t"), ("memspace", "m")]
    assert items(new) == ["a"]
    # 5.2 separates allocator specifications with ';'
    semi = clean("target uses_allocators(traits(t): a; omp_default_mem_alloc, b(t2); memspace(m): c)", C, 52)
    clause = semi.clause("uses_allocators")
    assert [i.name for i in clause.items] == ["a", "omp_default_mem_alloc", "b", "c"]
    assert [(m.name, m.args.text) for m in clause.modifiers] == [("traits", "t"), ("traits", "t2"), ("memspace", "m")]


def test_keyword_clauses() -> None:
    parsed = clean("parallel proc_bind(spread) default(none) num_threads(8)")
    assert parsed.clause("proc_bind").keyword.name == "spread"
    assert parsed.clause("default").keyword.name == "none"
    assert parsed.text(parsed.clause("default").keyword.span) == "none"
    assert parsed.clause("num_threads").expr.text == "8"
    for kind in ("master", "close", "spread", "primary"):
        assert clean(f"parallel proc_bind({kind})").clause("proc_bind").keyword.name == kind
    assert clean("declare target to(n) device_type(nohost)").clause("device_type").keyword.name == "nohost"
    assert clean("loop bind(teams)", C, 50).clause("bind").keyword.name == "teams"
    order = clean("loop order(concurrent)", C, 50).clause("order")
    assert order.keyword.name == "concurrent" and not order.modifiers
    repro = clean("for order(reproducible: concurrent)", C, 51).clause("order")
    assert [m.name for m in repro.modifiers] == ["reproducible"] and repro.keyword.name == "concurrent"
    amo = clean("requires atomic_default_mem_order(acq_rel)", C, 50).clause("atomic_default_mem_order")
    assert amo.keyword.name == "acq_rel"


def test_expression_clauses() -> None:
    parsed = clean("target teams num_teams(4) thread_limit(n * 2) map(to: a[0:n])")
    assert parsed.clause("num_teams").expr.text == "4"
    assert parsed.clause("thread_limit").expr.text == "n * 2"
    bounds = clean("teams num_teams(2 : 8)", C, 51).clause("num_teams")
    assert [m.args.text for m in bounds.modifiers] == ["2"] and bounds.expr.text == "8"
    assert clean("for collapse(2)").clause("collapse").expr.text == "2"
    assert clean("simd safelen(16) simdlen(8)").clause("safelen").expr.text == "16"
    assert clean("task priority(n) final(n > 10)").clause("final").expr.text == "n > 10"
    assert clean("taskloop grainsize(strict: 64)").clause("grainsize").modifiers[0].name == "strict"
    assert clean("taskloop num_tasks(8)").clause("num_tasks").expr.text == "8"
    assert clean("masked filter(omp_get_num_threads() - 1)").clause("filter").expr.text == \
        "omp_get_num_threads() - 1"


def test_ordered_with_and_without_argument() -> None:
    plain = clean("for ordered").clause("ordered")
    assert plain.args_span is None and not plain.exprs
    two = clean("for ordered(2) collapse(2)").clause("ordered")
    assert two.expr.text == "2"


def test_clauses_without_arguments() -> None:
    parsed = clean("target teams nowait")
    clause = parsed.clause("nowait")
    assert clause.args_span is None and parsed.text(clause.span) == "nowait"
    assert [c.name for c in clean("task untied mergeable").directive.clauses] == ["untied", "mergeable"]
    assert clean("declare target to(n) indirect").clause("indirect").exprs == []
    assert clean("declare target to(n) indirect(0)").clause("indirect").expr.text == "0"
    assert clean("declare target to(n) indirect(n > 2)").clause("indirect").expr.text == "n > 2"


@pytest.mark.parametrize("body, clause, expected", [
    ("target has_device_addr(a, b[0:n])", "has_device_addr", ["a", "b[0:n]"]),
    ("target is_device_ptr(p, q)", "is_device_ptr", ["p", "q"]),
    ("target data map(a[0:n]) use_device_ptr(p)", "use_device_ptr", ["p"]),
    ("target data map(a[0:n]) use_device_addr(a[0:n])", "use_device_addr", ["a[0:n]"]),
    ("for lastprivate(conditional: x)", "lastprivate", ["x"]),
    ("parallel copyin(tp)", "copyin", ["tp"]),
    ("single copyprivate(x, y)", "copyprivate", ["x", "y"]),
    ("simd nontemporal(a, b)", "nontemporal", ["a", "b"]),
    ("declare simd uniform(a, n)", "uniform", ["a", "n"]),
    ("task affinity(a[0:n])", "affinity", ["a[0:n]"]),
    ("declare target link(big)", "link", ["big"]),
    ("declare target enter(f, g)", "enter", ["f", "g"]),
    ("target update from(present: a[0:n])", "from", ["a[0:n]"]),
    ("target update to(mapper(m): s)", "to", ["s"]),
    ("scan exclusive(x, y)", "exclusive", ["x", "y"]),
])
def test_list_clauses(body: str, clause: str, expected: list[str]) -> None:
    version = 52 if "enter(" in body else 51
    assert items(clean(body, C, version).clause(clause)) == expected


def test_lastprivate_conditional_modifier() -> None:
    clause = clean("for lastprivate(conditional: x)").clause("lastprivate")
    assert [m.name for m in clause.modifiers] == ["conditional"]


def test_context_selector_down_to_properties_and_scores() -> None:
    parsed = clean('declare variant(gpu_f) match(construct={target}, device={kind(gpu), arch("sm_80")}, '
                   'implementation={vendor(score(5): llvm)}, user={condition(n > 5)})')
    selector = parsed.clause("match").selector
    assert [s.name for s in selector.sets] == ["construct", "device", "implementation", "user"]
    construct, device, impl, user = selector.sets
    assert [s.name for s in construct.selectors] == ["target"]
    assert construct.selectors[0].properties == [] and not construct.selectors[0].has_parens
    assert [s.name for s in device.selectors] == ["kind", "arch"]
    kind, arch = device.selectors
    assert [p.name for p in kind.properties] == ["gpu"]
    assert arch.properties[0].is_string and arch.properties[0].name == "sm_80"
    assert parsed.text(arch.properties[0].span) == '"sm_80"'
    vendor = impl.selectors[0]
    assert vendor.name == "vendor" and vendor.score.text == "5"
    assert [p.name for p in vendor.properties] == ["llvm"]
    cond = user.selectors[0]
    assert cond.name == "condition" and cond.properties[0].text == "n > 5"
    assert parsed.text(device.name_span) == "device"
    assert parsed.text(kind.name_span) == "kind"
    assert parsed.text(device.span) == 'device={kind(gpu), arch("sm_80")}'


def test_context_selector_nested_properties() -> None:
    parsed = clean("declare variant(v) match(construct={parallel, simd(simdlen(8), notinbranch)}, "
                   "device={isa(avx512f, \"avx2\")}, implementation={extension(match_any), vendor(gnu, llvm)})")
    construct, device, impl = parsed.clause("match").selector.sets
    simd = construct.selectors[1]
    assert simd.name == "simd" and [p.name for p in simd.properties] == ["simdlen", "notinbranch"]
    assert [a.text for a in simd.properties[0].args] == ["8"]
    assert [p.text for p in device.selectors[0].properties] == ["avx512f", '"avx2"']
    assert [p.name for p in impl.selectors[1].properties] == ["gnu", "llvm"]


def test_target_device_selector_and_device_num() -> None:
    parsed = clean("declare variant(v) match(target_device={kind(gpu), device_num(0)})")
    (tset,) = parsed.clause("match").selector.sets
    assert tset.name == "target_device" and [s.name for s in tset.selectors] == ["kind", "device_num"]


def test_adjust_args_and_append_args() -> None:
    parsed = clean("declare variant(v) match(construct={dispatch}) adjust_args(need_device_ptr: a, b) "
                   "adjust_args(nothing: c) append_args(interop(target, targetsync), interop(prefer_type(\"cuda\")))",
                   version=60)  # prefer_type in an interop operation is 6.0's
    adjust, nothing = parsed.directive.clauses_named("adjust_args")
    assert [m.name for m in adjust.modifiers] == ["need_device_ptr"] and items(adjust) == ["a", "b"]
    assert [m.name for m in nothing.modifiers] == ["nothing"] and items(nothing) == ["c"]
    append = parsed.clause("append_args")
    assert len(append.interops) == 2
    assert [p.text for p in append.interops[0].properties] == ["target", "targetsync"]
    assert [p.text for p in append.interops[1].properties] == ['prefer_type("cuda")']
    assert parsed.text(append.interops[0].span) == "interop(target, targetsync)"


def test_error_directive_clauses() -> None:
    parsed = clean('error at(compilation) severity(warning) message("hi")')
    assert parsed.clause("at").keyword.name == "compilation"
    assert parsed.clause("severity").keyword.name == "warning"
    assert parsed.clause("message").expr.text == '"hi"'
    run = clean('error at(execution) severity(fatal) message("stop")')
    assert [c.keyword.name for c in run.directive.clauses[:2]] == ["execution", "fatal"]


def test_loop_transformation_clauses() -> None:
    assert [e.text for e in clean("tile sizes(4, 4)").clause("sizes").exprs] == ["4", "4"]
    assert [e.text for e in clean("tile sizes(8, n, 2 * m)").clause("sizes").exprs] == ["8", "n", "2 * m"]
    assert clean("unroll partial(4)").clause("partial").expr.text == "4"
    assert clean("unroll partial").clause("partial").exprs == []
    assert clean("unroll full").clause("full").args_span is None
    assert [e.text for e in clean("interchange permutation(2, 1)", C, 60).clause("permutation").exprs] == ["2", "1"]


def test_metadirective_selectors_are_read_and_variants_kept_as_text() -> None:
    parsed = clean("metadirective when(device={kind(gpu)}: target teams) default(parallel for)")
    when = parsed.clause("when")
    assert [(s.name, [t.name for t in s.selectors]) for s in when.selector.sets] == [("device", ["kind"])]
    assert when.expr.text == "target teams"
    assert parsed.clause("default").expr.text == "parallel for"
    empty = clean("metadirective when(implementation={vendor(score(5): llvm)}:) default(simd)", C, 50)
    assert empty.clause("when").selector.sets[0].selectors[0].score.text == "5"
    assert empty.clause("when").exprs == []
    other = clean("metadirective when(user={condition(n > 10)}: parallel) otherwise(nothing)", C, 52)
    assert other.clause("otherwise").expr.text == "nothing"


def test_depobj_and_interop() -> None:
    dep = clean("depobj(o) depend(inout: a[0])", C, 50).directive
    assert [i.name for i in dep.argument] == ["o"] and dep.clause("depend").modifiers[0].name == "inout"
    assert clean("depobj(o) update(in)", C, 50).clause("update").keyword.name == "in"
    assert clean("depobj(o) destroy", C, 50).clause("destroy").exprs == []
    init = clean("interop init(targetsync: obj) device(1) nowait").clause("init")
    assert [m.name for m in init.modifiers] == ["targetsync"] and items(init) == ["obj"]
    pref = clean('interop init(prefer_type("cuda", "hip"), targetsync: obj)').clause("init")
    assert [m.name for m in pref.modifiers] == ["prefer_type", "targetsync"]
    assert clean("interop use(obj)").clause("use").expr.text == "obj"


def test_requires_and_assume_clauses() -> None:
    req = clean("requires unified_shared_memory atomic_default_mem_order(seq_cst) dynamic_allocators", C, 50)
    assert [c.name for c in req.directive.clauses] == ["unified_shared_memory", "atomic_default_mem_order",
                                                       "dynamic_allocators"]
    assume = clean("assume holds(n > 0) absent(parallel) no_openmp_routines")
    assert assume.clause("holds").expr.text == "n > 0"
    assert items(assume.clause("absent")) == ["parallel"]


# ---------------------------------------------------------------- continuation lines and _Pragma

def test_backslash_continuation_spans() -> None:
    src = ("void f(float *x, int n) {\n"
           "#pragma omp target teams distribute \\\n"
           "    parallel for map(tofrom: x[0:n]) \\\n"
           "    privte(n)\n"
           "  for (int i = 0; i < n; i++) x[i] = i;\n}\n")
    result = analyze(Document(src, C))
    (d,) = result.directives
    assert d.name == "target teams distribute parallel for"
    name = src.encode()[d.name_span[0]:d.name_span[1]].decode()
    assert name == "target teams distribute \\\n    parallel for"
    (f,) = [f for f in result.findings if f.code in SYNTAX]
    assert f.code == "OMP002" and src.encode()[f.span[0]:f.span[1]] == b"privte"
    item = d.clause("map").items[0]
    assert src.encode()[item.span[0]:item.span[1]] == b"x[0:n]"


def test_comments_inside_a_pragma() -> None:
    src = ("void f(int *a, int n) {\n"
           "#pragma omp parallel for /* block */ privte(n) // line comment, shared(q)\n"
           "  for (int i = 0; i < n; i++) a[i] = i;\n}\n")
    result = analyze(Document(src, C))
    (d,) = result.directives
    assert [c.name for c in d.clauses] == ["privte"]
    (f,) = [f for f in result.findings if f.code in SYNTAX]
    assert src.encode()[f.span[0]:f.span[1]] == b"privte"


def test_underscore_pragma_spans() -> None:
    src = ('void f(int *a, int n) {\n'
           '  _Pragma("omp parallel for privte(n) schedule(statik)")\n'
           '  for (int i = 0; i < n; i++) a[i] = i;\n}\n')
    result = analyze(Document(src, C))
    found = sorted((f.code, src.encode()[f.span[0]:f.span[1]].decode()) for f in result.findings)
    assert found == [("OMP002", "privte"), ("OMP004", "statik")]


def test_non_ascii_before_the_pragma_keeps_byte_spans() -> None:
    src = ("// größe: ünïcode\nvoid f(int *a, int n) { /* π */\n"
           "#pragma omp parallel for privte(n)\n  for (int i = 0; i < n; i++) a[i] = i;\n}\n")
    result = analyze(Document(src, C))
    (f,) = [f for f in result.findings if f.code in SYNTAX]
    assert src.encode()[f.span[0]:f.span[1]] == b"privte"


# ---------------------------------------------------------------- diagnostics with their ranges

# (body, version, code, text under the range, message fragment or None)
DIAGNOSTICS = [
    # OMP001 unknown directive, with the nearest name
    ("targte", 51, "OMP001", "targte", "did you mean 'target'?"),
    ("targte teams distribute parallel for map(tofrom: a[0:n])", 51, "OMP001",
     "targte teams distribute parallel for", "did you mean 'target teams distribute parallel for'?"),
    ("taregt teams", 51, "OMP001", "taregt teams", "'target teams'"),
    ("paralel for", 51, "OMP001", "paralel for", "did you mean 'parallel for'?"),
    ("paralel sections", 51, "OMP001", "paralel sections", "'parallel sections'"),
    ("decalre target to(f)", 51, "OMP001", "decalre target", "did you mean 'declare target'?"),
    ("declare varient(g) match(device={kind(gpu)})", 51, "OMP001", "declare varient", "'declare variant'"),
    ("declare reductoin(+: int: omp_out += omp_in)", 51, "OMP001", "declare reductoin", "'declare reduction'"),
    ("taskwiat", 51, "OMP001", "taskwiat", "did you mean 'taskwait'?"),
    ("barier", 51, "OMP001", "barier", "'barrier'"),
    ("criticl(x)", 51, "OMP001", "criticl", "'critical'"),
    ("flsuh", 51, "OMP001", "flsuh", "'flush'"),
    ("cancellation pont for", 51, "OMP001", "cancellation pont", "'cancellation point'"),
    ("target exit dta map(release: a[0:n])", 51, "OMP001", "target exit dta", "did you mean 'target exit data'?"),
    ("target enter dat map(to: a[0:n])", 51, "OMP001", "target enter dat", "'target enter data'"),
    ("target teamz", 51, "OMP001", "target teamz", "did you mean 'target teams'?"),
    ("target teams distribut parallel for", 51, "OMP001", "target teams distribut parallel for",
     "'target teams distribute parallel for'"),
    ("target teams distribute parallel fro", 51, "OMP001", "target teams distribute parallel fro",
     "did you mean 'target teams distribute parallel for'?"),
    ("parallel fo private(n)", 51, "OMP001", "parallel fo", "'parallel for'"),
    ("parallel maskd", 51, "OMP001", "parallel maskd", "'parallel masked'"),
    ("private(n)", 51, "OMP001", "private", "is a clause"),
    ("nowait", 51, "OMP001", "nowait", "is a clause"),
    ("xyzzy", 51, "OMP001", "xyzzy", "unknown OpenMP directive 'xyzzy'"),
    ("(n)", 51, "OMP001", "(", "expected an OpenMP directive name"),
    ("", 51, "OMP001", "#pragma omp", "expected an OpenMP directive name"),
    # the Fortran spelling in C
    ("parallel do", 51, "OMP001", "parallel do", "in C/C++ write 'parallel for'"),
    ("do", 51, "OMP001", "do", "in C/C++ write 'for'"),
    ("do simd", 51, "OMP001", "do simd", "'for simd'"),
    ("target teams distribute parallel do simd", 51, "OMP001", "target teams distribute parallel do simd",
     "in C/C++ write 'target teams distribute parallel for simd'"),
    ("workshare", 51, "OMP001", "workshare", "is a Fortran directive"),
    ("end parallel", 51, "OMP001", "end parallel", "Fortran end directive"),
    ("end do", 51, "OMP001", "end do", "Fortran end directive"),
    # OMP002 unknown clause, with the nearest
    ("parallel privte(n)", 51, "OMP002", "privte", "did you mean 'private'?"),
    ("parallel for firstprivat(n)", 51, "OMP002", "firstprivat", "did you mean 'firstprivate'?"),
    ("target map(to: a[0:n]) nowiat", 51, "OMP002", "nowiat", "did you mean 'nowait'?"),
    ("parallel num_thread(4)", 51, "OMP002", "num_thread", "'num_threads'"),
    ("declare target to(f) device_typ(any)", 51, "OMP002", "device_typ", "'device_type'"),
    ("target teams distribute parallel for mapp(to: a[0:n])", 51, "OMP002", "mapp", "did you mean 'map'?"),
    ("taskloop grainsze(64)", 51, "OMP002", "grainsze", "'grainsize'"),
    ("target data map(a[0:n]) use_devce_addr(a)", 51, "OMP002", "use_devce_addr", "'use_device_addr'"),
    ("simd nontemporl(a)", 51, "OMP002", "nontemporl", "'nontemporal'"),
    ("target teams num_team(4)", 51, "OMP002", "num_team", "'num_teams'"),
    ("parallel frobnicate(n)", 51, "OMP002", "frobnicate", "unknown clause 'frobnicate'"),
    # OMP003 clause not allowed here
    ("parallel map(to: a[0:n])", 51, "OMP003", "map(to: a[0:n])", "not allowed on 'parallel'"),
    ("target num_teams(4)", 51, "OMP003", "num_teams(4)", "not allowed on 'target'"),
    ("distribute schedule(static)", 51, "OMP003", "schedule(static)", "'distribute'"),
    ("single reduction(+: n)", 51, "OMP003", "reduction(+: n)", "'single'"),
    ("masked num_threads(2)", 51, "OMP003", "num_threads(2)", "'masked'"),
    ("target device_type(nohost)", 51, "OMP003", "device_type(nohost)", "'target'"),
    ("declare target to(f) nowait", 51, "OMP003", "nowait", "'declare target'"),
    ("target data map(a[0:n]) nowait", 51, "OMP003", "nowait", "'target data'"),
    ("parallel for nowait", 51, "OMP003", "nowait", "'parallel for'"),
    ("teams distribute parallel for simd safelen(4) nowait", 51, "OMP003", "nowait", None),
    ("target enter data map(to: a[0:n]) private(n)", 51, "OMP003", "private(n)", None),
    ("target simdlen(4)", 51, "OMP003", "simdlen(4)", "not allowed on 'target'"),
    ("barrier nowait", 51, "OMP003", "nowait", "'barrier'"),
    ("cancel do", 51, "OMP003", "do", "does not exist in C/C++"),
    ("cancel", 51, "OMP004", "cancel", "needs one of parallel, sections, for or taskgroup"),
    ("cancel if(n > 1)", 51, "OMP004", "cancel", "needs one of parallel"),
    ("cancellation point", 51, "OMP004", "cancellation point", "needs one of parallel"),
    ("cancel parallel for", 51, "OMP005", "for", "takes one of parallel"),
    # clauses that exist in the version but not yet on this directive: OMP003
    ("simd if(n > 8)", 45, "OMP003", "if(n > 8)", "allowed from OpenMP 5.0"),
    ("taskwait depend(in: n)", 45, "OMP003", "depend(in: n)", "OpenMP 4.5"),
    ("target map(a[0:n]) thread_limit(64)", 50, "OMP003", "thread_limit(64)", "allowed from OpenMP 5.1"),
    ("target parallel for thread_limit(64)", 50, "OMP003", "thread_limit(64)", None),
    ("taskwait depend(in: n) nowait", 50, "OMP003", "nowait", None),
    ("teams if(n)", 51, "OMP003", "if(n)", "allowed from OpenMP 5.2"),
    # OMP004 malformed arguments
    ("parallel private()", 51, "OMP004", "private()", "empty list in 'private'"),
    ("parallel private(a,)", 51, "OMP004", ",", "empty list item"),
    ("parallel private(,a)", 51, "OMP004", ",", "empty list item"),
    ("target map(tofrom: )", 51, "OMP004", "map(tofrom: )", "empty list in 'map'"),
    ("flush()", 51, "OMP004", "()", "empty list"),
    ("parallel private(a b)", 51, "OMP004", "a b", "expected ',' between 'a' and 'b'"),
    ("parallel private(a[1] n)", 51, "OMP004", "] n", "expected ','"),
    ("target map(to a[0:n])", 51, "OMP004", "to a", "expected ':' between 'to' and 'a'"),
    ("parallel private(a", 51, "OMP004", "(", "missing ')'"),
    ("target map(to: a[0:n]", 51, "OMP004", "(", "missing ')'"),
    ("for reduction(n)", 51, "OMP004", "reduction(n)", "needs a reduction identifier and ':'"),
    ("for reduction(+ n)", 51, "OMP004", "reduction(+ n)", "needs a reduction identifier and ':'"),
    ("for reduction(: n)", 51, "OMP004", "reduction(: n)", "needs a reduction identifier"),
    ("for reduction(+: )", 51, "OMP004", "reduction(+: )", "empty list"),
    ("for reduction(inscn, +: n)", 51, "OMP004", "inscn", "did you mean 'inscan'?"),
    ("target map(toform: n)", 51, "OMP004", "toform", "did you mean 'tofrom'?"),
    ("target map(alwyas, tofrom: n)", 51, "OMP004", "alwyas", "did you mean 'always'?"),
    ("target map(alwyas close tofrom: n)", 51, "OMP004", "alwyas", "did you mean 'always'?"),
    ("target map(mappr(id), to: n)", 51, "OMP004", "mappr(id)", "did you mean 'mapper'?"),
    ("declare target to(f) device_type(nohostt)", 51, "OMP004", "nohostt", "did you mean 'nohost'?"),
    ("declare target to(f) device_type(gpu)", 51, "OMP004", "gpu", "expected one of host, nohost, any"),
    ("for schedule(statik)", 51, "OMP004", "statik", "did you mean 'static'?"),
    ("for schedule(monotonik: static)", 51, "OMP004", "monotonik", "did you mean 'monotonic'?"),
    ("for schedule(static 4)", 51, "OMP004", "static 4", "expected ',' between 'static' and '4'"),
    ("for schedule(static, )", 51, "OMP004", ",", "empty argument"),
    ("distribute dist_schedule(dynamic)", 51, "OMP004", "dynamic", "expected one of static"),
    ("parallel default(nonee)", 51, "OMP004", "nonee", "did you mean 'none'?"),
    ("parallel default()", 51, "OMP004", "default()", "needs an argument"),
    ("parallel proc_bind(near)", 51, "OMP004", "near", "expected one of"),
    ("target defaultmap(tofrom scalar)", 51, "OMP004", "tofrom scalar", "expected ':' between 'tofrom' and 'scalar'"),
    ("target defaultmap(tofrom: scalr)", 51, "OMP004", "scalr", "did you mean 'scalar'?"),
    ("target defaultmap(tofrm: scalar)", 51, "OMP004", "tofrm", "did you mean 'tofrom'?"),
    ("target if(targte: n)", 51, "OMP004", "targte", "did you mean 'target'?"),
    ("parallel for if(target: n)", 51, "OMP004", "target", "does not name a part of 'parallel for'"),
    ("target if(target data: n)", 51, "OMP004", "target data", "does not name a part of 'target'"),
    ("parallel num_threads()", 51, "OMP004", "num_threads()", "needs an expression"),
    ("parallel if(parallel: )", 51, "OMP004", "if(parallel: )", "needs an expression"),
    ("parallel for collapse", 51, "OMP004", "collapse", "needs an argument in parentheses"),
    ("task untied(1)", 51, "OMP004", "(1)", "takes no argument"),
    ("atomic read(n)", 51, "OMP004", "(n)", "takes no argument"),
    ("task depend(a)", 51, "OMP004", "depend(a)", "needs a dependence type and ':'"),
    ("task depend(ouput: a)", 51, "OMP004", "ouput", "did you mean 'out'?"),
    ("target is_device_ptr(0)", 51, "OMP004", "0", "expected a variable name"),
    ("parallel private(\"s\")", 51, "OMP004", "\"s\"", "expected a variable name"),
    ("declare simd linear(reff(n))", 51, "OMP004", "reff", "did you mean 'ref'?"),
    ("simd aligned(a: 16, n)", 51, "OMP004", ", n", "one alignment"),
    ("simd linear(n:)", 51, "OMP004", "linear(n:)", "needs a step after ':'"),
    ("simd aligned(a:)", 51, "OMP004", "aligned(a:)", "needs an alignment after ':'"),
    ("parallel shared(n) private(n) firstprivate(:n)", 51, "OMP004", ":", "takes no modifiers"),
    ("declare variant(g) match()", 51, "OMP004", "match()", "empty context selector"),
    ("declare variant(g) match(device=kind(gpu))", 51, "OMP004", "device=kind(gpu)", "expected a trait set"),
    ("declare variant(g) match(device={kind()})", 51, "OMP004", "kind()", "empty properties"),
    ("declare variant(g) match(device={kind(gpu),})", 51, "OMP004", ",", "empty trait selector"),
    ("declare variant(g) match(device={kind(gpu)},)", 51, "OMP004", ",", "empty trait set"),
    ("declare variant(g) match(device={kind(gpu,)})", 51, "OMP004", ",", "empty trait property"),
    ("declare variant(g) match(construct={dispatch}) append_args(target)", 51, "OMP004", "target",
     "interop(...)"),
    ("declare variant(g) match(construct={dispatch}) adjust_args(a)", 51, "OMP004", "adjust_args(a)",
     "needs an adjustment"),
    ("declare variant(g) match(construct={dispatch}) adjust_args(need_devptr: a)", 51, "OMP004",
     "need_devptr", "did you mean 'need_device_ptr'?"),
    ("declare variant", 51, "OMP004", "declare variant", "needs an argument in parentheses"),
    ("declare reduction", 51, "OMP004", "declare reduction", "needs an argument in parentheses"),
    ("threadprivate", 51, "OMP004", "threadprivate", "needs an argument"),
    ("critical()", 51, "OMP004", "()", "needs a name"),
    ("parallel , private(n)", 51, "OMP004", ",", "expected a clause name, found ','"),
    ("parallel private(n) ) shared(a)", 51, "OMP004", ")#2", "expected a clause name, found ')'"),
    ("target uses_allocators(omp_default_mem_alloc, )", 51, "OMP004", ",", "empty allocator"),
    ("tile sizes(4,)", 51, "OMP004", ",", "empty argument"),
    ("target map(, to: n)", 51, "OMP004", ",", "empty modifier"),
    ("target uses_allocators(omp_default_mem_alloc;)", 52, "OMP004", ";", "empty allocator specification"),
    # OMP005 unique clause repeated (the range is the repeated clause)
    ("target nowait nowait", 51, "OMP005", "nowait#2", "'nowait' may appear only once on 'target'"),
    ("target if(target: a) if(target: n)", 51, "OMP005", "if(target: n)", "'if' with 'target'"),
    ("target parallel if(target: a) if(n)", 51, "OMP005", "if(n)", None),
    ("target if(a) if(n)", 51, "OMP005", "if(n)", "may appear only once"),
    ("target defaultmap(tofrom: scalar) defaultmap(to: scalar)", 51, "OMP005", "defaultmap(to: scalar)",
     "'defaultmap' with 'scalar'"),
    ("target defaultmap(tofrom) defaultmap(to: aggregate)", 51, "OMP005", "defaultmap(to: aggregate)", None),
    ("parallel num_threads(4) num_threads(8)", 51, "OMP005", "num_threads(8)", "'num_threads'"),
    ("for collapse(2) collapse(2)", 51, "OMP005", "collapse(2)#2", "'collapse'"),
    ("for schedule(static) schedule(dynamic)", 51, "OMP005", "schedule(dynamic)", None),
    ("parallel default(none) default(shared)", 51, "OMP005", "default(shared)", None),
    ("target teams thread_limit(4) thread_limit(8)", 51, "OMP005", "thread_limit(8)", None),
    ("target device(0) device(1)", 51, "OMP005", "device(1)", "'device'"),
    ("declare target to(f) device_type(host) device_type(nohost)", 51, "OMP005", "device_type(nohost)", None),
    ("declare target to(f) indirect indirect(1)", 51, "OMP005", "indirect(1)", "'indirect'"),
    ("declare variant(g) match(device={kind(gpu)}) match(user={condition(1)})", 51, "OMP005",
     "match(user={condition(1)})", "'match'"),
    ("declare variant(g) match(construct={dispatch}) append_args(interop(target)) append_args(interop(target))",
     51, "OMP005", "append_args(interop(target))#2", None),
    ("atomic read read", 51, "OMP005", "read#2", None),
    ("error at(execution) at(compilation)", 51, "OMP005", "at(compilation)", None),
    # OMP007 spelling not valid in the selected version
    ("declare target enter(f)", 51, "OMP007", "enter", "needs OpenMP 5.2"),
    ("declare target enter(f)", 50, "OMP007", "enter", None),
    ("declare target to(f)", 52, "OMP007", "to", "use 'enter'"),
    ("declare target to(f) device_type(any)", 60, "OMP007", "to", "deprecated"),
    ("target has_device_addr(a)", 50, "OMP007", "has_device_addr", "needs OpenMP 5.1"),
    ("declare target to(f) indirect", 50, "OMP007", "indirect", "5.1"),
    ("declare target link(n) device_type(host)", 45, "OMP007", "device_type", "5.0"),
    ("masked", 50, "OMP007", "masked", "OpenMP 5.1 directive"),
    ("scope private(n)", 50, "OMP007", "scope", "OpenMP 5.1 directive"),
    ("loop", 45, "OMP007", "loop", "OpenMP 5.0 directive"),
    ("requires reverse_offload", 45, "OMP007", "requires", "OpenMP 5.0 directive"),
    ("error at(execution)", 50, "OMP007", "error", None),
    ("target map(present, to: n)", 50, "OMP007", "present", "modifier 'present'"),
    ("target map(close, to: n)", 45, "OMP007", "close", "5.0"),
    ("simd linear(n: val, step(2))", 51, "OMP007", "step", "5.2"),
    ("for order(reproducible: concurrent)", 50, "OMP007", "reproducible", "5.1"),
    ("taskloop grainsize(strict: 4)", 50, "OMP007", "strict", "5.1"),
    ("target teams distribute parallel for if(teams: n)", 51, "OMP007", "teams#2", "5.2"),
    ("task depend(inoutset: a)", 50, "OMP007", "inoutset", "5.1"),
    ("metadirective when(user={condition(n > 1)}: parallel) default(nothing)", 60, "OMP007", "default",
     "5.2"),
    ("declare target", 52, "OMP007", "declare target", "use 'begin declare target'"),
    # OMP009 extra tokens after a directive that takes none
    ("end declare target foo", 51, "OMP009", "foo", "'end declare target' takes no clauses"),
    ("barrier extra", 51, "OMP009", "extra", "'barrier' takes no clauses"),
    ("taskyield now please", 51, "OMP009", "now please", None),
    ("section one", 51, "OMP009", "one", None),
    ("end declare variant junk", 51, "OMP009", "junk", None),
    ("barrier;", 51, "OMP009", ";", None),
]


def _expected_span(parsed: Parsed, text: str) -> tuple[int, int]:
    """The span of `text` in the pragma line; 'x#2' is the second occurrence."""
    nth = 1
    if "#" in text and text.rsplit("#", 1)[1].isdigit() and not text.startswith("#"):
        text, n = text.rsplit("#", 1)
        nth = int(n)
    line_start = parsed.src.index(b"#pragma omp")
    start = line_start - 1
    for _ in range(nth):
        start = parsed.src.index(text.encode(), start + 1)
    return start, start + len(text.encode())


@pytest.mark.parametrize("body, version, code, text, message", DIAGNOSTICS,
                         ids=[f"{d[2]}-{d[1]}-{d[0][:50]}" for d in DIAGNOSTICS])
def test_diagnostic_and_its_range(body: str, version: int, code: str, text: str, message: str | None) -> None:
    parsed = parse(body, C, version)
    matching = [f for f in parsed.findings if f.code == code]
    assert len(matching) == 1, parsed.describe()
    finding = matching[0]
    assert finding.span == _expected_span(parsed, text), (parsed.text(finding.span), parsed.describe())
    if message is not None:
        assert message in finding.message
    others = [f for f in parsed.findings if f is not finding]
    # One fault, one finding: a diagnostic is not echoed by another one on the same directive.
    assert not others, parsed.describe()


@pytest.mark.parametrize("body, version, code, text, message", [d for d in DIAGNOSTICS if d[2] != "OMP009"
                                                                and not (d[2] == "OMP007" and d[1] >= 52
                                                                         and "'to'" not in d[0])][:40])
def test_same_diagnostic_in_cxx(body: str, version: int, code: str, text: str, message: str | None) -> None:
    parsed = parse(body, CPP, version)
    assert [f.code for f in parsed.findings] == [code], parsed.describe()


SEVERITIES = [
    ("declare target enter(f)", 51, "OMP007", Severity.ERROR),
    ("target has_device_addr(a)", 50, "OMP007", Severity.ERROR),
    ("declare target to(f) indirect", 50, "OMP007", Severity.ERROR),
    ("declare target to(f)", 52, "OMP007", Severity.WARNING),
    ("declare target", 60, "OMP007", Severity.WARNING),
    # removed from 6.0, still accepted with a warning by clang-22
    ("metadirective when(user={condition(n > 1)}: parallel) default(nothing)", 60, "OMP007", Severity.WARNING),
    ("end declare target foo", 51, "OMP009", Severity.WARNING),
    ("barrier extra", 51, "OMP009", Severity.WARNING),
    ("targte", 51, "OMP001", Severity.ERROR),
    ("parallel privte(n)", 51, "OMP002", Severity.ERROR),
    ("parallel map(to: n)", 51, "OMP003", Severity.ERROR),
    ("parallel private()", 51, "OMP004", Severity.ERROR),
    ("target nowait nowait", 51, "OMP005", Severity.ERROR),
]


@pytest.mark.parametrize("body, version, code, severity", SEVERITIES)
def test_severity(body: str, version: int, code: str, severity: Severity) -> None:
    (finding,) = parse(body, C, version).findings
    assert finding.code == code and finding.effective_severity == severity


@pytest.mark.parametrize("body, version", [
    ("declare target enter(f)", 52),
    ("declare target enter(f)", 60),
    ("declare target to(f)", 51),
    ("declare target to(f)", 45),
    ("target has_device_addr(a)", 51),
    ("declare target to(f) indirect", 51),
    ("target parallel if(target: n) if(parallel: a)", 51),
    ("target parallel for simd if(target: n) if(parallel: a) if(simd: n > 4)", 51),
    ("target defaultmap(tofrom: scalar) defaultmap(to: aggregate)", 51),
    ("target defaultmap(tofrom: scalar) defaultmap(to: aggregate) defaultmap(firstprivate: pointer)", 51),
    ("parallel private(a) private(n)", 51),
    ("target map(to: a) map(from: n)", 51),
    ("for reduction(+: a) reduction(*: n)", 51),
    ("task depend(in: a) depend(out: n)", 51),
    ("end declare target", 51),
    ("barrier", 51),
    ("taskyield", 51),
    ("target teams if(target: n) if(teams: a)", 52),
    ("metadirective when(user={condition(n > 1)}: parallel) default(nothing)", 51),
    ("metadirective when(user={condition(n > 1)}: parallel) otherwise(nothing)", 52),
    ("simd linear(n: val)", 51),
    ("target map(always close tofrom: a[0:n])", 51),
    ("target map(always, present, to: a[0:n])", 51),
    ("parallel for private(n),", 51),
    ("requires reverse_offload unified_address", 50),
    ("error at(compilation) severity(warning) message(\"x\")", 51),
    # directive names in absent/contains have several words; a cast ends with ')'
    ("assume absent(target data, parallel) contains(target teams distribute)", 51),
    ("task depend(in: *(int *)a)", 51),
    ("target map(to: ((double *)a)[0:n])", 51),
    ("parallel for num_threads(n > 0 ? n : 1) if(parallel: a ? n : 0)", 51),
    ("target teams num_teams(sizeof(int) * 2) thread_limit(sizeof a)", 51),
])
def test_near_misses_are_clean(body: str, version: int) -> None:
    clean(body, C, version)


# ---------------------------------------------------------------- quick fixes

@pytest.mark.parametrize("body, code, fixed", [
    ("targte teams", "OMP001", "#pragma omp target teams"),
    ("target exit dta map(release: a[0:n])", "OMP001", "#pragma omp target exit data map(release: a[0:n])"),
    ("parallel privte(n)", "OMP002", "#pragma omp parallel private(n)"),
    ("target map(toform: n)", "OMP004", "#pragma omp target map(tofrom: n)"),
    ("declare target to(f) device_type(nohostt)", "OMP004", "#pragma omp declare target to(f) device_type(nohost)"),
    ("target nowait nowait", "OMP005", "#pragma omp target nowait "),
    ("end declare target foo", "OMP009", "#pragma omp end declare target"),
    ("barrier  extra tokens", "OMP009", "#pragma omp barrier"),
    ("declare_target", "OMP007", "#pragma omp declare target"),
])
def test_quick_fix_edits(body: str, code: str, fixed: str) -> None:
    parsed = parse(body, C, 52 if body == "declare_target" else 51)
    finding = next(f for f in parsed.findings if f.code == code)
    assert pragma_line(apply_fix(parsed.src, finding)) == fixed


def test_deprecated_to_quick_fix_renames_to_enter() -> None:
    parsed = parse("declare target to(f) device_type(any)", C, 52)
    (finding,) = parsed.findings
    assert pragma_line(apply_fix(parsed.src, finding)) == "#pragma omp declare target enter(f) device_type(any)"


def test_omp005_points_back_at_the_first_clause() -> None:
    parsed = parse("target if(target: a) map(to: n) if(target: n)")
    (finding,) = parsed.findings
    assert [parsed.text(r.span) for r in finding.related] == ["if(target: a)"]


def test_several_faults_on_one_directive() -> None:
    parsed = parse("target map(toform: a) privte(n) nowait nowait num_threads(2)")
    got = sorted((f.code, parsed.text(f.span)) for f in parsed.findings)
    assert got == [("OMP002", "privte"), ("OMP003", "num_threads(2)"), ("OMP004", "toform"),
                   ("OMP005", "nowait")]


def test_macros_may_stand_for_a_construct_type_or_a_directive_word() -> None:
    src = ("#define KIND for\n#define teamz teams\nvoid f(int *a, int n) {\n"
           "#pragma omp parallel for\n  for (int i = 0; i < n; i++) {\n"
           "#pragma omp cancel KIND\n  }\n"
           "#pragma omp target teamz\n  a[0] = 1;\n}\n")
    result = analyze(Document(src, C))
    assert [f for f in result.findings if f.code in SYNTAX] == []


def test_several_directives_each_get_their_findings() -> None:
    src = ("void f(int *a, int n) {\n"
           "#pragma omp parallel privte(n)\n  a[0] = 1;\n"
           "#pragma omp targte\n  a[0] = 2;\n"
           "#pragma omp barrier extra\n"
           "#pragma omp parallel for private(n)\n  for (int i = 0; i < n; i++) a[i] = 0;\n}\n")
    result = analyze(Document(src, C))
    assert [d.name for d in result.directives] == ["parallel", "", "barrier", "parallel for"]
    got = [(f.code, src.encode()[f.span[0]:f.span[1]].decode()) for f in result.findings if f.code in SYNTAX]
    assert got == [("OMP002", "privte"), ("OMP001", "targte"), ("OMP009", "extra")]


# ---------------------------------------------------------------- valid programs: no finding at all

# Realistic code from OpenMP programs, OpenMP 4.5 to 6.0. Each case was checked with
# clang-22 -fopenmp -fsyntax-only -fopenmp-version=<v>, except where a comment says otherwise.
VALID = [
    ("saxpy_offload", C, 45, r"""
void saxpy(int n, float a, const float *x, float *y) {
#pragma omp target teams distribute parallel for simd map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
"""),
    ("parallel_for_reduction", C, 45, r"""
double dot(int n, const double *a, const double *b) {
  double sum = 0.0;
#pragma omp parallel for reduction(+:sum) schedule(static)
  for (int i = 0; i < n; i++)
    sum += a[i] * b[i];
  return sum;
}
"""),
    ("parallel_region_private", C, 45, r"""
#include <omp.h>
void work(int *out, int n) {
  int tid, nthreads;
#pragma omp parallel private(tid) shared(out, n) num_threads(4) default(none) firstprivate(nthreads)
  {
    tid = omp_get_thread_num();
#pragma omp for nowait schedule(dynamic, 16)
    for (int i = 0; i < n; i++)
      out[i] = tid;
#pragma omp barrier
#pragma omp single
    nthreads = omp_get_num_threads();
#pragma omp master
    out[0] = nthreads;
  }
}
"""),
    ("sections_critical_atomic", C, 45, r"""
int counter;
void tally(int *a, int n) {
#pragma omp parallel
  {
#pragma omp sections
    {
#pragma omp section
      a[0] = 1;
#pragma omp section
      a[1] = 2;
    }
#pragma omp critical(update_counter)
    counter += n;
#pragma omp atomic update
    a[2] += 1;
#pragma omp atomic read
    n = a[3];
#pragma omp atomic write
    a[4] = n;
#pragma omp atomic capture
    n = a[5]++;
  }
}
"""),
    ("tasks_depend", C, 45, r"""
void pipeline(int *a, int *b, int n) {
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out: a[0:n]) firstprivate(n) shared(a)
    for (int i = 0; i < n; i++) a[i] = i;
#pragma omp task depend(in: a[0:n]) depend(out: b[0:n]) untied priority(2)
    for (int i = 0; i < n; i++) b[i] = a[i];
#pragma omp taskwait
#pragma omp taskyield
  }
}
"""),
    ("taskloop_grainsize", C, 45, r"""
void scale(double *v, int n, double s) {
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(64) nogroup shared(v) firstprivate(s)
  for (int i = 0; i < n; i++)
    v[i] *= s;
}
"""),
    ("target_data_region", C, 45, r"""
void jacobi(double *restrict u, double *restrict unew, int n, int iters) {
#pragma omp target data map(tofrom: u[0:n*n]) map(alloc: unew[0:n*n])
  {
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for collapse(2) thread_limit(256) num_teams(64)
      for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
          unew[i*n+j] = 0.25 * (u[(i-1)*n+j] + u[(i+1)*n+j] + u[i*n+j-1] + u[i*n+j+1]);
#pragma omp target teams distribute parallel for collapse(2)
      for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
          u[i*n+j] = unew[i*n+j];
    }
#pragma omp target update from(u[0:n*n])
  }
}
"""),
    ("enter_exit_data", C, 45, r"""
#include <stdlib.h>
double *make_device_buffer(int n) {
  double *p = malloc(n * sizeof *p);
#pragma omp target enter data map(alloc: p[0:n]) if(n > 0) device(0)
  return p;
}
void free_device_buffer(double *p, int n) {
#pragma omp target exit data map(release: p[0:n]) nowait depend(inout: p[0])
#pragma omp taskwait
  free(p);
}
"""),
    ("declare_target_functions", C, 45, r"""
#pragma omp declare target
static double square(double x) { return x * x; }
double table[256];
#pragma omp end declare target

void fill(int n) {
#pragma omp target map(tofrom: table) firstprivate(n)
  for (int i = 0; i < n && i < 256; i++)
    table[i] = square(i);
}
"""),
    ("declare_target_list_link", C, 45, r"""
int device_counter;
double big[1 << 16];
#pragma omp declare target to(device_counter)
#pragma omp declare target link(big)
void bump(void) {
#pragma omp target map(tofrom: big[0:16])
  {
    device_counter++;
    big[0] += 1.0;
  }
}
"""),
    ("declare_simd", C, 45, r"""
#pragma omp declare simd uniform(a) linear(i:1) simdlen(8) notinbranch
float scaled(float *a, int i, float s) { return a[i] * s; }
#pragma omp declare simd aligned(p:32) inbranch
double twice(double *p) { return 2 * *p; }
void apply(float *a, float *b, int n) {
#pragma omp simd safelen(16) aligned(a, b: 32) linear(n)
  for (int i = 0; i < n; i++)
    b[i] = scaled(a, i, 2.0f);
}
"""),
    ("declare_reduction", C, 45, r"""
typedef struct { double re, im; } cplx;
#pragma omp declare reduction(cadd : cplx : omp_out.re += omp_in.re, omp_out.im += omp_in.im) initializer(omp_priv = (cplx){0, 0})
cplx csum(const cplx *v, int n) {
  cplx s = {0, 0};
#pragma omp parallel for reduction(cadd : s)
  for (int i = 0; i < n; i++) {
    s.re += v[i].re;
    s.im += v[i].im;
  }
  return s;
}
"""),
    ("threadprivate_copyin", C, 45, r"""
static int seed;
#pragma omp threadprivate(seed)
void randomize(int *a, int n) {
  seed = 42;
#pragma omp parallel copyin(seed)
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = seed + i;
  }
}
"""),
    ("ordered_loop", C, 45, r"""
#include <stdio.h>
void print_in_order(int n) {
#pragma omp parallel for ordered schedule(dynamic)
  for (int i = 0; i < n; i++) {
#pragma omp ordered
    printf("%d\n", i);
  }
}
"""),
    ("doacross_45", C, 45, r"""
void wavefront(double *a, int n, int m) {
#pragma omp parallel for ordered(2)
  for (int i = 1; i < n; i++)
    for (int j = 1; j < m; j++) {
#pragma omp ordered depend(sink: i-1, j) depend(sink: i, j-1)
      a[i*m+j] = a[(i-1)*m+j] + a[i*m+j-1];
#pragma omp ordered depend(source)
    }
}
"""),
    ("cancel_search", C, 45, r"""
int find(const int *a, int n, int key) {
  int found = -1;
#pragma omp parallel shared(found)
  {
#pragma omp for
    for (int i = 0; i < n; i++) {
      if (a[i] == key) {
#pragma omp atomic write
        found = i;
#pragma omp cancel for
      }
#pragma omp cancellation point for
    }
  }
  return found;
}
"""),
    ("flush_variants", C, 50, r"""
int flag, data;
void producer(void) {
  data = 42;
#pragma omp flush(data)
#pragma omp flush release
  flag = 1;
#pragma omp flush
}
void consumer(void) {
#pragma omp flush acquire
  (void)data;
}
"""),
    ("distribute_dist_schedule", C, 45, r"""
void init(float *x, int n) {
#pragma omp target teams map(from: x[0:n]) num_teams(8)
#pragma omp distribute dist_schedule(static, 256)
  for (int i = 0; i < n; i++)
    x[i] = 0.0f;
}
"""),
    ("defaultmap_is_device_ptr", C, 45, r"""
#include <omp.h>
void devcopy(int n) {
  int dev = omp_get_default_device();
  double *d = omp_target_alloc(n * sizeof(double), dev);
#pragma omp target is_device_ptr(d) defaultmap(tofrom: scalar) device(dev)
  for (int i = 0; i < n; i++)
    d[i] = i;
  omp_target_free(d, dev);
}
"""),
    ("use_device_ptr", C, 45, r"""
void library_call(double *p, int n);
void call_lib(double *a, int n) {
#pragma omp target data map(tofrom: a[0:n]) use_device_ptr(a)
  library_call(a, n);
}
"""),
    ("struct_sections", C, 45, r"""
struct grid { int n; double *cells; };
void offload(struct grid *g) {
#pragma omp target map(to: g->n) map(tofrom: g->cells[0:g->n])
  for (int i = 0; i < g->n; i++)
    g->cells[i] *= 2;
}
"""),
    ("loop_construct_50", C, 50, r"""
void add(int n, const float *a, const float *b, float *c) {
#pragma omp target teams loop map(to: a[:n], b[:n]) map(from: c[:n])
  for (int i = 0; i < n; i++)
    c[i] = a[i] + b[i];
#pragma omp parallel
  {
#pragma omp loop bind(parallel) order(concurrent)
    for (int i = 0; i < n; i++)
      c[i] *= 2;
  }
}
"""),
    ("requires_and_close", C, 50, r"""
#pragma omp requires unified_address atomic_default_mem_order(seq_cst)
void move(int *a, int n) {
#pragma omp target map(always, close, tofrom: a[0:n]) defaultmap(firstprivate: scalar) defaultmap(tofrom: aggregate)
  for (int i = 0; i < n; i++)
    a[i] += 1;
}
"""),
    ("depend_iterator_mutex", C, 50, r"""
void deps(int *a, int n) {
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(iterator(it = 0:n), out: a[it]) shared(a)
    for (int i = 0; i < n; i++) a[i] = i;
#pragma omp task depend(mutexinoutset: a[0]) shared(a)
    a[0]++;
#pragma omp taskwait depend(in: a[0:n])
  }
}
"""),
    ("scan_inscan", C, 50, r"""
void prefix_sum(const int *in, int *out, int n) {
  int sum = 0;
#pragma omp parallel for reduction(inscan, +: sum)
  for (int i = 0; i < n; i++) {
    sum += in[i];
#pragma omp scan inclusive(sum)
    out[i] = sum;
  }
}
"""),
    ("lastprivate_conditional_nontemporal", C, 50, r"""
int last_positive(const int *a, int n) {
  int x = -1;
#pragma omp parallel for lastprivate(conditional: x)
  for (int i = 0; i < n; i++)
    if (a[i] > 0) x = a[i];
  return x;
}
void stream(float *restrict d, const float *restrict s, int n) {
#pragma omp simd nontemporal(d, s) simdlen(8) if(simd: n > 64)
  for (int i = 0; i < n; i++)
    d[i] = s[i];
}
"""),
    ("task_reduction_50", C, 50, r"""
int sum_list(const int *v, int n) {
  int res = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+: res)
  for (int i = 0; i < n; i++) {
#pragma omp task in_reduction(+: res) firstprivate(i)
    res += v[i];
  }
  return res;
}
"""),
    ("allocate_clauses_50", C, 50, r"""
#include <omp.h>
void scratch(int n) {
  double tmp[64];
#pragma omp allocate(tmp) allocator(omp_high_bw_mem_alloc)
#pragma omp parallel private(n) allocate(omp_low_lat_mem_alloc: n)
  n = 0;
  (void)tmp;
}
"""),
    ("uses_allocators_50", C, 50, r"""
#include <omp.h>
void with_alloc(int n) {
  int x = 0;
#pragma omp target uses_allocators(omp_pteam_mem_alloc) allocate(omp_pteam_mem_alloc: x) firstprivate(x) map(to: n)
  {
    x = n;
  }
}
"""),
    ("declare_mapper_50", C, 50, r"""
typedef struct { int len; double *data; } vec_t;
#pragma omp declare mapper(vec_t v) map(v, v.data[0:v.len])
#pragma omp declare mapper(deep : vec_t v) map(tofrom: v.len, v.data[0:v.len])
void touch(vec_t v) {
#pragma omp target map(mapper(deep), tofrom: v)
  v.data[0] = 1;
#pragma omp target update to(mapper(deep): v)
}
"""),
    ("declare_variant_50", C, 50, r"""
void base(double *a, int n);
void gpu_version(double *a, int n);
#pragma omp declare variant(gpu_version) match(device={kind(gpu)}, implementation={vendor(llvm)})
void base(double *a, int n);
void base(double *a, int n) { for (int i = 0; i < n; i++) a[i] = 0; }
void gpu_version(double *a, int n) { for (int i = 0; i < n; i++) a[i] = 1; }
"""),
    ("metadirective_50", C, 50, r"""
void vadd(int n, float *a, const float *b) {
#pragma omp metadirective when(device={kind(gpu)}: teams distribute parallel for) default(parallel for)
  for (int i = 0; i < n; i++)
    a[i] += b[i];
}
"""),
    ("master_taskloop_simd_50", C, 50, r"""
void mt(float *a, int n) {
#pragma omp parallel master taskloop simd num_tasks(8) simdlen(4)
  for (int i = 0; i < n; i++)
    a[i] = 2 * a[i];
}
"""),
    ("depobj_50", C, 50, r"""
#include <omp.h>
void use_depobj(int *x) {
  omp_depend_t obj;
#pragma omp depobj(obj) depend(inout: x[0])
#pragma omp task depend(depobj: obj)
  x[0]++;
#pragma omp depobj(obj) update(in)
#pragma omp depobj(obj) destroy
}
"""),
    ("declare_target_indirect_51", C, 51, r"""
int add_one(int x) { return x + 1; }
#pragma omp declare target to(add_one) indirect
#pragma omp begin declare target device_type(any)
int times_two(int x) { return 2 * x; }
#pragma omp end declare target
int apply_fp(int (*fp)(int), int v) {
  int r = 0;
#pragma omp target map(from: r) firstprivate(fp, v)
  r = fp(v);
  return r;
}
"""),
    ("masked_scope_51", C, 51, r"""
void m(int *a, int n) {
#pragma omp parallel
  {
#pragma omp masked filter(0)
    a[0] = n;
#pragma omp scope private(n) reduction(+: a[0:1]) nowait
    { n = 1; a[0] += n; }
  }
#pragma omp parallel masked
  a[1] = 2;
}
"""),
    ("has_device_addr_51", C, 51, r"""
void run(double *buf, int n) {
#pragma omp target data map(tofrom: buf[0:n]) use_device_addr(buf[0:n])
  {
#pragma omp target has_device_addr(buf[0:n]) map(present, to: n)
    for (int i = 0; i < n; i++)
      buf[i] += 1;
  }
}
"""),
    ("atomic_compare_51", C, 51, r"""
void minmax(int *x, int v) {
  int old;
#pragma omp atomic compare
  if (*x > v) { *x = v; }
#pragma omp atomic compare capture seq_cst
  { old = *x; if (*x < v) { *x = v; } }
#pragma omp atomic update relaxed hint(0)
  *x += 1;
  (void)old;
}
"""),
    ("error_directive_51", C, 51, r"""
#pragma omp error at(compilation) severity(warning) message("this file is compiled with OpenMP")
void check(int n) {
  if (n < 0) {
#pragma omp error at(execution) severity(fatal) message("negative size")
  }
}
"""),
    ("tile_unroll_51", C, 51, r"""
void blocked(double *a, int n, int m) {
#pragma omp tile sizes(4, 4)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i*m+j] = i + j;
#pragma omp unroll partial(4)
  for (int i = 0; i < n; i++)
    a[i] = 0;
#pragma omp unroll full
  for (int i = 0; i < 8; i++)
    a[i] = 1;
}
"""),
    ("interop_dispatch_51", C, 51, r"""
#include <omp.h>
void fft(double *in, int n);
void fft_gpu(double *in, int n, omp_interop_t it);
#pragma omp declare variant(fft_gpu) match(construct={dispatch}, device={arch(nvptx64)}) adjust_args(need_device_ptr: in) append_args(interop(targetsync))
void fft(double *in, int n);
void run_fft(double *in, int n) {
  omp_interop_t obj = omp_interop_none;
#pragma omp interop init(targetsync: obj) device(0)
#pragma omp dispatch device(0) nowait
  fft(in, n);
#pragma omp interop destroy(obj)
}
"""),
    ("assume_51", C, 51, r"""
#pragma omp assumes no_openmp_routines
void assume_it(int *a, int n) {
#pragma omp assume holds(n > 0) no_parallelism
  {
    for (int i = 0; i < n; i++) a[i] = i;
  }
}
"""),
    # clang-22 does not implement the 5.1 lower bound of num_teams yet; the spec allows it.
    ("num_teams_bounds_51", C, 51, r"""
void nt(int *a) {
#pragma omp target teams num_teams(2 : 8) thread_limit(64) map(tofrom: a[0:1])
  a[0] = 1;
}
"""),
    ("grainsize_strict_51", C, 51, r"""
void gs(int *a, int n) {
#pragma omp parallel masked taskloop grainsize(strict: 32) filter(0) shared(a)
  for (int i = 0; i < n; i++)
    a[i] = i;
}
"""),
    ("order_reproducible_51", C, 51, r"""
void ord(float *a, int n) {
#pragma omp parallel for simd order(reproducible: concurrent)
  for (int i = 0; i < n; i++)
    a[i] *= 2;
}
"""),
    ("begin_declare_variant_51", C, 51, r"""
double hypot3(double x, double y, double z);
#pragma omp begin declare variant match(device={kind(gpu)})
double hypot3(double x, double y, double z) { return x * x + y * y + z * z; }
#pragma omp end declare variant
"""),
    ("enter_52", C, 52, r"""
int counter52;
int increment(int x) { return x + 1; }
#pragma omp declare target enter(counter52, increment) device_type(any)
void use52(void) {
#pragma omp target
  counter52 = increment(counter52);
}
"""),
    # The 5.2 modifier form of uses_allocators (gcc and flang accept it; clang-22 crashes on it).
    ("uses_allocators_traits_52", C, 52, r"""
#include <omp.h>
void ua(int n) {
  const omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
  omp_allocator_handle_t myalloc = omp_null_allocator;
  int x = 0;
#pragma omp target uses_allocators(traits(traits), memspace(omp_default_mem_space): myalloc) allocate(myalloc: x) firstprivate(x) map(to: n)
  x = n;
}
"""),
    ("doacross_52", C, 52, r"""
void wave52(double *a, int n) {
#pragma omp parallel for ordered(1)
  for (int i = 1; i < n; i++) {
#pragma omp ordered doacross(sink: i-1)
    a[i] += a[i-1];
#pragma omp ordered doacross(source:)
  }
}
"""),
    ("linear_step_52", C, 52, r"""
void lin(int *a, int n) {
  int j = 0;
#pragma omp parallel for linear(j: step(2))
  for (int i = 0; i < n; i++) {
    a[i] = j;
    j += 2;
  }
}
"""),
    ("metadirective_otherwise_52", C, 52, r"""
void md(int n, float *a) {
#pragma omp metadirective when(user={condition(n > 1000)}: parallel for) otherwise(nothing)
  for (int i = 0; i < n; i++)
    a[i] = 0;
}
"""),
    ("cxx_class_offload", CPP, 51, r"""
#include <vector>
namespace geo {
double scale = 2.0;
#pragma omp declare target to(scale)
struct Points {
  double *x;
  int n;
  void shift(double d) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n]) firstprivate(d)
    for (int i = 0; i < n; ++i)
      x[i] = x[i] * scale + d;
  }
};
}
double total(std::vector<double> &v) {
  double s = 0;
  double *p = v.data();
  int n = static_cast<int>(v.size());
#pragma omp parallel for reduction(+: s) if(n > 1000)
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}
"""),
    ("cxx_template_reduction", CPP, 50, r"""
template <typename T>
T maxval(const T *a, int n) {
  T m = a[0];
#pragma omp parallel for simd reduction(max: m) aligned(a: 64)
  for (int i = 0; i < n; ++i)
    m = a[i] > m ? a[i] : m;
  return m;
}
template float maxval<float>(const float *, int);
"""),
    ("cxx_declare_reduction", CPP, 45, r"""
#include <algorithm>
struct Box { int lo = 1 << 30, hi = -(1 << 30); };
#pragma omp declare reduction(merge : Box : omp_out.lo = std::min(omp_out.lo, omp_in.lo), omp_out.hi = std::max(omp_out.hi, omp_in.hi)) initializer(omp_priv = Box())
Box bounds(const int *v, int n) {
  Box b;
#pragma omp parallel for reduction(merge : b)
  for (int i = 0; i < n; ++i) {
    b.lo = std::min(b.lo, v[i]);
    b.hi = std::max(b.hi, v[i]);
  }
  return b;
}
"""),
    ("cxx_lambda_target", CPP, 51, r"""
#include <cstddef>
void run(float *a, std::size_t n) {
  auto body = [=](std::size_t i) { a[i] = static_cast<float>(i); };
#pragma omp target teams distribute parallel for map(from: a[0:n])
  for (std::size_t i = 0; i < n; ++i)
    body(i);
}
"""),
    ("pragma_continuation_and_comments", C, 51, r"""
void cont(double *x, double *y, int n) {
#pragma omp target teams distribute parallel for \
            map(to: x[0:n])                         \
            map(tofrom: y[0:n]) /* both arrays */   \
            num_teams(16) thread_limit(128)
  for (int i = 0; i < n; i++)
    y[i] += x[i];
  _Pragma("omp parallel for simd schedule(simd: static)")
  for (int i = 0; i < n; i++)
    y[i] *= 2;
}
"""),
    ("target_parallel_if_modifiers", C, 50, r"""
void tp(int *a, int n) {
#pragma omp target parallel for if(target: n > 1000) if(parallel: n > 100) map(tofrom: a[0:n]) num_threads(8) proc_bind(close)
  for (int i = 0; i < n; i++)
    a[i]++;
}
"""),
    ("teams_distribute_simd", C, 45, r"""
void tds(float *a, int n) {
#pragma omp target map(tofrom: a[0:n])
#pragma omp teams distribute simd safelen(8) thread_limit(32)
  for (int i = 0; i < n; i++)
    a[i] = -a[i];
#pragma omp target simd map(tofrom: a[0:n]) simdlen(4)
  for (int i = 0; i < n; i++)
    a[i] = -a[i];
}
"""),
    ("map_modifiers_without_commas_51", C, 51, r"""
void nocomma(double *a, int n) {
#pragma omp target map(always close tofrom: a[0:n]) map(present, alloc: n)
  a[0] = n;
}
"""),
    ("loop_transformations_and_underscores_60", C, 60, r"""
void f60(double *a, int n, int m) {
#pragma omp interchange permutation(2, 1)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i*m+j] += 1;
#pragma omp reverse
  for (int i = 0; i < n; i++)
    a[i] = 0;
#pragma omp stripe sizes(8)
  for (int i = 0; i < n; i++)
    a[i] = 1;
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) nowait(n > 100)
  for (int i = 0; i < n; i++)
    a[i] *= 2;
#pragma omp taskwait
#pragma omp parallel num_threads(strict: 4) severity(warning) message("fallback")
  a[0] = 1;
#pragma omp fuse
  {
    for (int i = 0; i < n; i++) a[i] += 1;
    for (int i = 0; i < n; i++) a[i] *= 2;
  }
}
int g60;
#pragma omp declare_target enter(g60)
#pragma omp begin declare_target
int h60(int x) { return x; }
#pragma omp end declare_target
#pragma omp requires self_maps
"""),
    ("strided_update_51", C, 51, r"""
void strided(double *a, int n) {
#pragma omp target enter data map(to: a[0:n])
#pragma omp target update from(a[0:n/2:2])
#pragma omp target exit data map(release: a[0:n])
}
"""),
]


@pytest.mark.parametrize("name, language, version, source", VALID, ids=[v[0] for v in VALID])
def test_valid_code_has_no_findings(name: str, language: Language, version: int, source: str) -> None:
    result = analyze(Document(source, language), Options(openmp_version=version))
    assert not result.internal_errors, result.internal_errors
    src = source.encode()
    found = [(f.code, src[f.span[0]:f.span[1]].decode(), f.message) for f in result.findings]
    assert found == []
    assert result.directives and all(d.spec is not None for d in result.directives)


def test_valid_corpus_covers_every_version() -> None:
    assert {v[2] for v in VALID} == {45, 50, 51, 52, 60}
    assert len(VALID) >= 50
