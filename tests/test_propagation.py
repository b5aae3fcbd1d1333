"""Device-type propagation (`analysis/propagation.py`) through its public API.

The effective device type of each procedure and static variable, the chains that explain
implied marks, the flang mode, and the incremental update: after any sequence of edits the
graph must hold what a graph built from scratch holds. The OMP4xx rules on top of it are
specified by the fixtures under tests/fixtures/propagation/ and the omp4* workspaces.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from expectations import options_of, toolchains_of
from omp_lsp.analysis import Document, Options, analyze, language_for_path
from omp_lsp.analysis.rules import FileContext
from omp_lsp.analysis.semantics.call_graph import file_graph
from omp_lsp.analysis.semantics.propagation import (
    FLANG,
    SPEC,
    DeviceGraph,
    DeviceRow,
    build,
    describe_chain,
)
from omp_lsp.analysis.workspace import analyze_workspace, device_map


def _contexts(files: dict[str, str], options: Options | None = None) -> dict[str, FileContext]:
    out = {}
    for path, text in files.items():
        language = language_for_path(path)
        assert language is not None, path
        ctx = analyze(Document(text, language), options, path).context
        assert ctx is not None
        out[path] = ctx
    return out


def _rows(files: dict[str, str], mode: str = SPEC) -> dict[str, DeviceRow]:
    return {r.name: r for r in device_map(_documents(files), Options(propagation=mode))}


def _documents(files: dict[str, str]) -> dict[str, Document]:
    return {p: Document(t, language_for_path(p)) for p, t in files.items()}  # type: ignore[arg-type]


def _types(files: dict[str, str], mode: str = SPEC) -> dict[str, str]:
    return {name: r.device_type for name, r in _rows(files, mode).items()}


def _findings(files: dict[str, str], options: Options | None = None) -> list[tuple[str, int, str]]:
    out = []
    for path, result in analyze_workspace(_documents(files), options).items():
        assert not result.internal_errors, result.internal_errors
        out += [(path, result.document.lines.line_of(f.span[0]) + 1, f.code) for f in result.findings]
    return sorted(out)


def _line(text: str, needle: str) -> int:
    """1-based line of the first line holding `needle`."""
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


# -- the lattice and the implicit marks ----------------------------------------------------------
CHAIN_C = """\
double leaf(double x) { return x; }
double mid(double x) { return leaf(x) * 2.0; }
double top(double x) { return mid(x) + 1.0; }
double host_only(double x) { return top(x); }

double leaf2(double x);
#pragma omp declare target to(leaf2) device_type(nohost)

#pragma omp begin declare target device_type(host)
double logger(double x) { return x; }
#pragma omp end declare target

void run(double *a, int n) {
#pragma omp target map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = top(a[i]);
}
"""


def test_target_region_references_and_their_callees_become_any() -> None:
    types = _types({"chain.c": CHAIN_C})
    assert types["top"] == types["mid"] == types["leaf"] == "any"
    assert types["host_only"] == "none"       # host code that calls device procedures stays host code
    assert types["run"] == "none"             # the unit holding the target region
    assert types["logger"] == "host"          # explicit marks are shown as written
    assert types["leaf2"] == "nohost"


def test_rows_say_whether_the_mark_is_written_and_give_the_shortest_chain() -> None:
    rows = _rows({"chain.c": CHAIN_C})
    assert rows["logger"].explicit and rows["logger"].chain == ()
    leaf = rows["leaf"]
    assert not leaf.explicit
    assert leaf.line == _line(CHAIN_C, "double leaf(")
    assert describe_chain(leaf.chain) == "target region in run → top → mid → leaf"
    # each step points at its reference: the directive, then the call sites in file order
    lines = [CHAIN_C[:s.span[0]].count("\n") + 1 for s in leaf.chain]
    assert lines == [_line(CHAIN_C, "#pragma omp target map"), _line(CHAIN_C, "a[i] = top("),
                     _line(CHAIN_C, "return mid(x)"), _line(CHAIN_C, "return leaf(x)")]
    assert all(s.path == "chain.c" for s in leaf.chain)


def test_the_shortest_of_several_chains_is_kept() -> None:
    text = """\
double deep(double x) { return x; }
double b(double x) { return deep(x); }
double a(double x) { return b(x); }
#pragma omp declare target
double marked(double x) { return deep(x); }
#pragma omp end declare target
void run(double *v) {
#pragma omp target map(tofrom: v[0:1])
  v[0] = a(v[0]);
}
"""
    rows = _rows({"short.c": text})
    assert describe_chain(rows["deep"].chain) == "declare target marked → deep"


def test_ancestor_regions_are_host_code_and_mark_nothing() -> None:
    text = """\
#pragma omp requires reverse_offload
double on_host(double x) { return x; }
double on_device(double x) { return x; }
void run(double *a) {
#pragma omp target map(tofrom: a[0:2])
  {
    a[0] = on_device(a[0]);
#pragma omp target device(ancestor: 1) map(tofrom: a[0:1])
    a[1] = on_host(a[1]);
  }
}
"""
    types = _types({"ancestor.c": text})
    assert types["on_device"] == "any"
    assert types["on_host"] == "none"


def test_static_locals_of_device_procedures_and_of_target_regions_are_marked() -> None:
    text = """\
double counted(double x) { static int calls; calls++; return x + calls; }
double host_side(double x) { static int seen; seen++; return x; }
void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  {
    static double in_region;
    in_region = counted(a[0]);
    a[0] = in_region;
  }
  a[0] += host_side(a[0]);
}
"""
    rows = _rows({"statics.c": text})
    assert rows["calls"].device_type == "any"
    assert describe_chain(rows["calls"].chain) == "target region in run → counted → calls"
    assert rows["in_region"].device_type == "any"
    assert rows["seen"].device_type == "none"


def test_static_locals_of_static_functions_are_found_and_other_static_bodies_are_not_read() -> None:
    """The call graph reads the bodies that spell `static` for their static locals; a function's
    own `static` (its head) is no reason to read its body."""
    text = """\
static double counted(double x) { static int calls; calls++; return x + calls; }
static double plain(double x) { return x * 2.0; }
void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = counted(a[0]) + plain(a[0]);
}
"""
    ctx = _contexts({"statics.c": text})["statics.c"]
    facts = file_graph(ctx, "statics.c")
    assert "calls" in {d.name for d in facts.declared}
    expanded = ctx.model.expanded()
    assert any(lo <= text.index("static int calls") < hi for lo, hi in expanded)
    assert not any(lo <= text.index("return x * 2.0") < hi for lo, hi in expanded)
    assert _rows({"statics.c": text})["calls"].device_type == "any"


def test_parameters_and_locals_hide_the_globals_of_their_names() -> None:
    """`double &mass` declares a parameter (the C++ grammar gives that name no field of its
    own), and `int i, count, scan;` three locals: the uses of those names in the body are theirs,
    not the globals'."""
    text = """\
double mass, te;
int count, scan;
void reductions(double &mass, double &te) {
  int i, count, scan;
  mass = 0;
  te = mass + 1.0;
  count = scan = 0;
}
void run() {
  double m, t;
#pragma omp target map(from: m, t)
  reductions(m, t);
}
"""
    facts = file_graph(_contexts({"reductions.cpp": text})["reductions.cpp"], "reductions.cpp")
    assert [(e.source, e.target) for e in facts.edges if e.source == "c++:reductions"] == []
    assert _rows({"reductions.cpp": text})["reductions"].device_type == "any"


def test_every_name_of_a_long_declaration_is_declared_there_and_used_after() -> None:
    """A local declaration of 3,000 names (each found by its place, not by listing them all for
    each name: that was quadratic), then a use of the last, which is the local's, not the global's."""
    names = [f"v{i}" for i in range(3000)]
    text = f"double v2999;\nvoid f(void) {{\n  double {', '.join(names)};\n  v2999 = 1.0;\n}}\n"
    text += "void run(void) {\n#pragma omp target\n  f();\n}\n"
    facts = file_graph(_contexts({"many.c": text})["many.c"], "many.c")
    assert [(e.source, e.target) for e in facts.edges if e.source == "f"] == []
    global_use = text.replace("  v2999 = 1.0;", "  v2999 = 1.0; v3000 = 2.0;").replace("double v2999;", "double v3000;")
    facts = file_graph(_contexts({"many.c": global_use})["many.c"], "many.c")
    assert [(e.source, e.target) for e in facts.edges if e.source == "f"] == [("f", "v3000")]


def test_initializers_of_declare_target_variables_mark_what_they_reference_unless_link() -> None:
    text = """\
double weigh(double x) { return 2.0 * x; }
double ignored(double x) { return x; }
double (*weigher)(double) = weigh;
#pragma omp declare target to(weigher)
double (*linked)(double) = ignored;
#pragma omp declare target link(linked)
"""
    rows = _rows({"init.c": text})
    assert rows["weigh"].device_type == "any"
    assert describe_chain(rows["weigh"].chain) == "declare target weigher → weigh"
    assert rows["ignored"].device_type == "none"


REGION_C = """\
#pragma omp begin declare target
int shared_counter;
double inside(double x) { return x; }
double own_type(double x) { return x; }
#pragma omp declare target to(own_type) device_type(nohost)
#pragma omp end declare target
"""


def test_a_begin_end_region_marks_its_declarations() -> None:
    rows = _rows({"region.c": REGION_C})
    assert (rows["shared_counter"].device_type, rows["shared_counter"].explicit) == ("any", True)
    assert (rows["inside"].device_type, rows["inside"].explicit) == ("any", True)
    assert rows["own_type"].explicit


def test_an_inner_directive_with_its_own_device_type_decides_in_a_region() -> None:
    assert _rows({"region.c": REGION_C})["own_type"].device_type == "nohost"


def test_fortran_device_type_of_a_subprogram_applies_to_its_internal_procedures() -> None:
    text = """\
subroutine outer(x)
  !$omp declare target to(outer) device_type(nohost)
  real, intent(inout) :: x
  x = helper(x)
contains
  real function helper(y)
    real, intent(in) :: y
    helper = 2.0 * y
  end function helper
end subroutine outer
"""
    rows = _rows({"internal.f90": text})
    assert rows["outer"].device_type == "nohost"
    assert rows["helper"].device_type == "nohost"


def test_fortran_and_c_are_linked_by_the_bind_c_name() -> None:
    c = """\
double f_shift(double x);
void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = f_shift(a[0]);
}
"""
    fortran = """\
module fk
  use iso_c_binding
  implicit none
contains
  function shift_it(x) bind(c, name="f_shift")
    real(c_double), value :: x
    real(c_double) :: shift_it
    shift_it = x + 1.0_c_double
  end function shift_it
end module fk
"""
    rows = {r.key: r for r in device_map(_documents({"main.c": c, "fk.f90": fortran}))}
    row = rows["f_shift"]
    assert (row.device_type, row.path, row.line) == ("any", "fk.f90", 5)
    assert describe_chain(row.chain) == "target region in run → f_shift"
    assert row.chain[-1].path == "main.c"   # the call that made it device code


def test_an_unresolved_call_is_linked_when_the_defining_file_appears() -> None:
    caller = """\
double elsewhere(double x);
void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = elsewhere(a[0]);
}
"""
    callee = "double elsewhere(double x) { return x; }\n"
    graph = build(_contexts({"a.c": caller}))
    graph.sync(_contexts({"a.c": caller, "b.c": callee}))
    assert _snapshot(graph) == _snapshot(build(_contexts({"a.c": caller, "b.c": callee})))
    assert _snapshot(graph)["elsewhere"][0] == "any"


# -- flang mode ----------------------------------------------------------------------------------
FLANG_C = """\
double device_only(double x) { return x; }
double both_sides(double x) { return x; }
#pragma omp begin declare target device_type(nohost)
double fast(double x) { return x; }
#pragma omp end declare target
double calls_fast(double x) { return fast(x); }
void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = device_only(a[0]) + both_sides(a[0]) + calls_fast(a[0]);
  a[0] += both_sides(a[0]);
}
"""


def test_flang_mode_marks_what_only_device_code_reaches_nohost() -> None:
    spec, flang = _types({"modes.c": FLANG_C}, SPEC), _types({"modes.c": FLANG_C}, FLANG)
    assert spec["device_only"] == spec["both_sides"] == spec["calls_fast"] == "any"
    assert flang["device_only"] == flang["calls_fast"] == "nohost"
    # plain host code marks nothing in flang (its device FIR says nohost: test_flang_mode_agreement)
    assert flang["both_sides"] == "nohost"
    assert spec["fast"] == flang["fast"] == "nohost"   # explicit marks do not depend on the mode
    assert spec["run"] == flang["run"] == "none"


def test_flang_mode_widens_to_any_through_an_any_caller() -> None:
    text = """\
double callee(double x) { return x; }
#pragma omp declare target
double api(double x) { return callee(x); }
#pragma omp end declare target
"""
    assert _types({"widen.c": text}, FLANG)["callee"] == "any"


def test_flang_mode_joins_host_marks_with_device_reach() -> None:
    text = """\
double shared(double x) { return x; }
double host_only(double x) { return x; }
#pragma omp begin declare target device_type(host)
double logger(double x) { return shared(x) + host_only(x); }
#pragma omp end declare target
void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = shared(a[0]) + logger(a[0]);
}
"""
    flang = _types({"host.c": text}, FLANG)
    assert flang["shared"] == "any"        # nohost from the region, host from logger
    assert flang["logger"] == "any"        # flang widens a host procedure that device code calls,
    assert flang["host_only"] == "any"     # and then what it calls (flang_programs/host_chain.f90)


def test_omp402_follows_the_mode_for_implied_callers_of_nohost_procedures() -> None:
    files = {"modes.c": FLANG_C}
    line = _line(FLANG_C, "double calls_fast")
    assert ("modes.c", line, "OMP402") in _findings(files, Options(propagation=SPEC))
    # flang gives calls_fast no host version, so its call of a nohost procedure is fine there
    assert ("modes.c", line, "OMP402") not in _findings(files, Options(propagation=FLANG))


def test_unknown_modes_and_toolchains_are_refused() -> None:
    with pytest.raises(ValueError):
        DeviceGraph("pgi")
    with pytest.raises(ValueError):
        Options(propagation="pgi")
    with pytest.raises(ValueError):
        Options(device_toolchains=("gcc-amdgcn-unknown",))


# -- incremental updates ---------------------------------------------------------------------------
def _snapshot(graph: DeviceGraph) -> dict[str, tuple[str, bool, int]]:
    """Per entity: device type, explicit, chain length (equal-length chains may differ)."""
    out = {}
    for r in graph.rows():
        assert r.key not in out or out[r.key] == (r.device_type, r.explicit, len(r.chain))
        out[r.key] = (r.device_type, r.explicit, len(r.chain))
        if r.chain:   # (a variant's step says which base it is called through)
            assert r.chain[-1].label == r.name or r.chain[-1].label.startswith(r.name + " (called through")
    return out


# Versions of two files of one program: each pair of versions is one edit.
A_VERSIONS = [
    # a target region calls f (b.c), which calls g
    """\
double f(double x);
void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = f(a[0]);
}
""",
    # the call is gone: nothing is device code
    """\
double f(double x);
void run(double *a) { a[0] = f(a[0]); }
""",
    # h is called instead, and a local procedure chains to g
    """\
double g(double x);
double h(double x);
double local(double x) { return g(x); }
void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = h(a[0]) + local(a[0]);
}
""",
    # only positions move (blank lines and a comment): a spans-only edit of version 0
    """\

// moved
double f(double x);

void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = f(a[0]);
}
""",
]
B_VERSIONS = [
    """\
double g(double x) { return x; }
double h(double x) { return g(x); }
double f(double x) { return g(x) + 1.0; }
""",
    # g becomes host only, h marked nohost
    """\
double g(double x) { return x; }
#pragma omp declare target to(g) device_type(host)
#pragma omp begin declare target device_type(nohost)
double h(double x) { return g(x); }
#pragma omp end declare target
double f(double x) { return g(x) + 1.0; }
""",
    # a cycle, and a static local below it
    """\
double f(double x);
double g(double x) { static double last; last = x; return f(x); }
double f(double x) { return g(x); }
double h(double x) { return x; }
""",
    None,   # the file is gone
]


@pytest.mark.parametrize("mode", [SPEC, FLANG])
def test_incremental_updates_equal_a_fresh_build_after_every_edit(mode: str) -> None:
    versions = [(a, b) for a, b in itertools.product(range(len(A_VERSIONS)), range(len(B_VERSIONS)))]
    graph = DeviceGraph(mode)
    current: tuple[int, int] | None = None
    # every ordered pair of versions, one after the other: each edit changes one file or both
    for target in [v for pair in itertools.permutations(versions, 2) for v in pair]:
        if target == current:
            continue
        files = {"a.c": A_VERSIONS[target[0]]}
        if B_VERSIONS[target[1]] is not None:
            files["b.c"] = B_VERSIONS[target[1]]
        contexts = _contexts(files)
        graph.sync(contexts)
        fresh = build(_contexts(files), mode)
        assert _snapshot(graph) == _snapshot(fresh), f"after moving to versions {target} from {current}"
        assert {k: graph.device_type(k) for k in graph.entities} == {k: fresh.device_type(k) for k in fresh.entities}
        current = target


def test_an_edit_that_only_moves_text_re_derives_nothing_and_moves_the_rows() -> None:
    files = {"a.c": A_VERSIONS[0], "b.c": B_VERSIONS[0]}
    graph = build(_contexts(files))
    before = {r.key: r.line for r in graph.rows() if r.path == "a.c"}
    graph.update("a.c", _contexts({"a.c": A_VERSIONS[3]})["a.c"])
    assert graph.updates == 0
    after = {r.key: r.line for r in graph.rows() if r.path == "a.c"}
    assert after == {k: line + 3 for k, line in before.items()}
    assert _snapshot(graph) == _snapshot(build(_contexts({"a.c": A_VERSIONS[3], "b.c": B_VERSIONS[0]})))
    # the chain points into the new text
    [f] = [r for r in graph.rows() if r.key == "f"]
    assert f.chain[-1].path == "a.c"
    assert A_VERSIONS[3].encode()[slice(*f.chain[-1].span)] == b"f"


def test_removing_a_target_region_clears_what_only_it_reached() -> None:
    files = {"a.c": A_VERSIONS[0], "b.c": B_VERSIONS[0]}
    graph = build(_contexts(files))
    assert graph.device_type("g") == "any"
    graph.update("a.c", _contexts({"a.c": A_VERSIONS[1]})["a.c"])
    assert graph.device_type("f") == graph.device_type("g") == "none"
    assert graph.updates >= 2


# -- declare variant: a call of a base function in device code ------------------------------------
VARIANTS_C = """\
double fast_gpu(double x) { return x; }
double fast_host(double x) { return x; }
double fast_sm(double x) { return x; }
#pragma omp declare variant(fast_gpu) match(device = {kind(gpu)})
#pragma omp declare variant(fast_host) match(device = {kind(host)})
#pragma omp declare variant(fast_sm) match(device = {arch(nvptx64)}, implementation = {vendor(llvm)})
double fast(double x) { return 2.0 * x; }

double every_dev(double x) { return x; }
#pragma omp declare variant(every_dev) match(device = {kind(nohost)})
double every(double x) { return x; }

double idle_gpu(double x) { return x; }
#pragma omp declare variant(idle_gpu) match(device = {kind(gpu)})
double idle(double x) { return x; }

void run(double *a) {
  a[0] = idle(a[0]);
#pragma omp target map(tofrom: a[0:1])
  a[0] = fast(a[0]) + every(a[0]);
}
"""


def test_a_base_called_in_device_code_makes_its_device_variants_device_code() -> None:
    rows = _rows({"v.c": VARIANTS_C})
    types = {name: r.device_type for name, r in rows.items()}
    # the base stays called (a gpu variant is not selected on a host offload device) ...
    assert types["fast"] == types["fast_gpu"] == types["fast_sm"] == "any"
    # ... but not a base a variant replaces on every device (clang builds none of it there)
    assert types["every"] == "none" and types["every_dev"] == "any"
    # only the host selects a kind(host) variant; a base only host code calls keeps its variants host code
    assert types["fast_host"] == types["idle"] == types["idle_gpu"] == "none"
    assert describe_chain(rows["fast_gpu"].chain) == (
        "target region in run → fast_gpu (called through the base function fast, declare variant "
        "match(device={kind(gpu)}))")
    assert rows["fast_sm"].chain[-1].label.endswith(
        "match(device={arch(nvptx64)}, implementation={vendor(llvm)}))")
    # the step points at the call of the base
    assert VARIANTS_C.encode()[slice(*rows["fast_gpu"].chain[-1].span)] == b"fast"
    assert rows["every_dev"].chain[-1].label.startswith("every_dev (called through the base function every,")


def test_variants_in_fortran_from_the_base_or_the_variant_specification_part() -> None:
    text = """\
module kernels
contains
  subroutine on_gpu(x)
    real :: x
  end subroutine on_gpu
  subroutine on_host(x)
    real :: x
  end subroutine on_host
  subroutine step(x)
    !$omp declare variant (on_gpu) match(device={kind(gpu)})
    !$omp declare variant (on_host) match(device={kind(host)})
    real :: x
  end subroutine step
  subroutine relax(x)
    real :: x
  end subroutine relax
  subroutine relax_avx(x)
    !$omp declare variant (relax:relax_avx) match(device={isa(avx512f)})
    real :: x
  end subroutine relax_avx
end module kernels
program main
  use kernels
  real :: v
  !$omp target map(tofrom: v)
  call step(v)
  call relax(v)
  !$omp end target
end program main
"""
    rows = _rows({"k.f90": text})
    types = {name: r.device_type for name, r in rows.items()}
    assert types["step"] == types["on_gpu"] == types["relax"] == types["relax_avx"] == "any"
    assert types["on_host"] == "none"
    assert "called through the base function step" in rows["on_gpu"].chain[-1].label
    assert "called through the base function relax" in rows["relax_avx"].chain[-1].label


def test_a_dispatch_variant_is_device_code_only_where_a_dispatch_construct_calls_the_base() -> None:
    text = """\
void put_dispatch(int *p) { p[0] = 1; }
#pragma omp declare variant(put_dispatch) match(construct = {dispatch})
void put(int *p) { p[0] = 2; }
void run(int *p) {
#pragma omp target map(tofrom: p[0:1])
  put(p);
}
"""
    assert _types({"d.c": text})["put_dispatch"] == "none"
    dispatched = text.replace("  put(p);", "  {\n#pragma omp dispatch\n  put(p);\n  }")
    assert _types({"d.c": dispatched})["put_dispatch"] == "any"


def test_flang_mode_follows_calls_as_written_through_no_variant() -> None:
    # flang 22 does not lower declare variant: the base is what a call reaches
    types = _types({"v.c": VARIANTS_C}, FLANG)
    assert types["fast"] == types["every"] == "nohost"
    assert types["fast_gpu"] == types["every_dev"] == types["fast_sm"] == "none"
    rows = _rows({"v.c": VARIANTS_C}, FLANG)
    assert rows["fast_gpu"].chain == ()


@pytest.mark.parametrize("mode", [SPEC, FLANG])
def test_editing_the_directive_or_the_call_updates_like_a_fresh_build(mode: str) -> None:
    host = VARIANTS_C.replace("match(device = {kind(gpu)})\ndouble fast", "match(device = {kind(host)})\ndouble fast")
    nohost = VARIANTS_C.replace("match(device = {kind(gpu)})\ndouble fast", "match(device = {kind(nohost)})\n"
                                "double fast")
    no_call = VARIANTS_C.replace("a[0] = fast(a[0]) + every(a[0]);", "a[0] = every(a[0]);")
    no_directive = VARIANTS_C.replace("#pragma omp declare variant(fast_gpu) match(device = {kind(gpu)})\n", "")
    graph = build(_contexts({"v.c": VARIANTS_C}), mode)
    for text in (host, VARIANTS_C, nohost, no_call, VARIANTS_C, no_directive, host, VARIANTS_C):
        graph.update("v.c", _contexts({"v.c": text})["v.c"])
        fresh = build(_contexts({"v.c": text}), mode)
        assert _snapshot(graph) == _snapshot(fresh)
        assert [describe_chain(r.chain) for r in graph.rows()] == [describe_chain(r.chain) for r in fresh.rows()]
    assert graph.device_type("fast_gpu") == ("any" if mode == SPEC else "none")


# -- the fixture annotations ------------------------------------------------------------------------
def test_device_toolchains_annotation() -> None:
    assert toolchains_of("// device-toolchains: gcc-nvptx\n") == ("gcc-nvptx",)
    assert toolchains_of("! device-toolchains: gcc-nvptx, clang-x86_64\n") == ("gcc-nvptx", "clang-x86_64")
    assert toolchains_of("int x;\n") == ()
    assert options_of("// openmp-version: 5.2\n// device-toolchains: clang-x86_64\n") == Options(
        openmp_version=52, device_toolchains=("clang-x86_64",))


def test_recursion_is_reported_only_for_a_toolchain_that_lacks_it() -> None:
    text = """\
#pragma omp declare target
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
#pragma omp end declare target
"""
    line = _line(text, "int fact")
    assert ("r.c", line, "OMP407") in _findings({"r.c": text}, Options(device_toolchains=("gcc-nvptx",)))
    assert _findings({"r.c": text}, Options(device_toolchains=("clang-x86_64",))) == []
    assert _findings({"r.c": text}) == []


# -- quick fixes of the workspace rules ----------------------------------------------------------------
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "propagation"


@pytest.mark.parametrize("name", ["c/omp404_global_not_marked.c", "cpp/omp404_global_not_marked.cpp",
                                  "fortran/omp404_global_not_marked.f90"])
def test_omp404_fix_marks_the_variable_and_the_finding_goes(name: str) -> None:
    """tests/test_quick_fixes.py re-analyses one file without the cross-file rules: here the
    fixed file is analysed as a workspace again."""
    path = FIXTURES / name
    text = path.read_text(encoding="utf-8")
    documents = _documents({str(path): text})
    result = analyze_workspace(documents, options_of(text))[str(path)]
    fixable = [f for f in result.findings if f.code == "OMP404" and f.fixes]
    assert fixable
    for finding in fixable:
        [fix] = finding.fixes
        source = result.document.source
        for (start, end), new in sorted(fix.edits, key=lambda e: e[0][0], reverse=True):
            source = source[:start] + new.encode() + source[end:]
        fixed = analyze_workspace(_documents({str(path): source.decode()}), options_of(text))[str(path)]
        assert not fixed.internal_errors
        before = sum(f.code == "OMP404" for f in result.findings)
        after = sum(f.code == "OMP404" for f in fixed.findings)
        assert after < before, f"{fix.title}: OMP404 still reported"
        assert not [f for f in fixed.findings if f.code < "OMP010"], fix.title


# -- known gaps (strict: when the engine learns these, drop the marker and move them to a fixture) ----
def test_omp405_reads_a_function_pointer_declarator_initializer() -> None:
    text = """\
#pragma omp begin declare target
int plain(int x) { return 2 * x; }
#pragma omp end declare target
int (*op)(int) = plain;
#pragma omp declare target to(op)
void run(int *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = op(a[0]);
}
"""
    assert ("p.c", _line(text, "a[0] = op("), "OMP405") in _findings({"p.c": text})


def test_omp407_sees_a_cpp_variadic_function() -> None:
    text = """\
double mean(int count, ...) { return count; }
void run(double *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = mean(1, a[0]);
}
"""
    assert ("v.cpp", 4, "OMP407") in _findings({"v.cpp": text}, Options(device_toolchains=("gcc-nvptx",)))
