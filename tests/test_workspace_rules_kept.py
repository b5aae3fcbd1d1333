"""The cross-file rules OMP401–OMP407 keep what they found about each target entity across the
server's runs (rules.device_consistency `_per_target`): after an edit of a declare target
directive, their findings equal those of a run that keeps nothing, on the same graph and on a
graph built afresh, and only the targets whose facts (or whose referencing units' facts)
changed are looked at again."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options
from omp_lsp.analysis.check import FileAnalysis, analysis_steps
from omp_lsp.analysis.incremental.directive_edit import reanalyse
from omp_lsp.analysis.incremental.graph_edit import graph_after_edit
from omp_lsp.analysis.rules import device_consistency, drain
from omp_lsp.analysis.semantics.propagation import DeviceGraph
from omp_lsp.analysis.syntax.padding import Padding, pad
from omp_lsp.analysis.workspace import CrossFileTrace, cross_file, cross_file_again, workspace_context

MAIN, LIB = "/w/main.c", "/w/lib.c"
# lib.c defines what main.c's kernels call, unmarked there (OMP403 asks about lib.c's own device
# code); main.c marks some of it with a list the test edits.
LIB_TEXT = b"""\
double scale(double x) { return 2.0 * x; }
double shift(double x) { return x + 1.0; }
double table[64];
double spare[64];
#pragma omp declare target enter(spare)
double twice(double x) { return scale(x) + scale(x); }
#pragma omp declare target enter(twice)
"""
MAIN_HEAD = b"""\
double scale(double x);
double shift(double x);
double twice(double x);
extern double table[64];
double counter;
double limit;
double local_a(double x) { return x * 3.0; }
double local_b(double x) { return local_a(x) - counter; }
double host_only(double x) { return x; }
double device_only(double x) { return x; }
"""
# the edited directive, then code using everything from host and device
MAIN_TAIL = b"""
void kernel(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = scale(a[i]) + shift(a[i]) + local_b(a[i]) + host_only(a[i]) + device_only(a[i]) + counter + limit
           + table[i % 64] + twice(a[i]);
}
double on_host(double x) { return device_only(x) + limit + local_b(x); }
"""
# what the edited directive's clauses may become (one edit of a directive keeps its clause names)
ITEMS = ["local_a", "local_b", "host_only", "device_only", "counter", "limit", "scale", "local_a, counter",
         "host_only, device_only", "shift"]
LISTS = [f"enter({items}) device_type({kind})" for items in ITEMS for kind in ("host", "nohost", "any")]
DIRECTIVE = b"#pragma omp declare target "


def _analysis(text: bytes) -> FileAnalysis:
    return drain(analysis_steps(Document(text, Language.C), Options(), MAIN, trace=True))


def _main(clauses: str) -> bytes:
    return MAIN_HEAD + DIRECTIVE + clauses.encode() + b"\n" + MAIN_TAIL


def _run(analyses: dict[str, FileAnalysis], graph: DeviceGraph,
         previous: CrossFileTrace | None) -> tuple[dict[str, FileAnalysis], CrossFileTrace]:
    # as the server: the graph brought up to date, then the rules run keeping what they can
    graph = workspace_context(analyses, Options(), graph).device_graph
    return cross_file_again(analyses, Options(), graph, None, previous)


def _retyped(analysis: FileAnalysis, padding: Padding, real: bytes, clauses: str,
             new: str) -> tuple[FileAnalysis, Padding, bytes]:
    """The directive's clauses replaced by `new`, as one edit of the directive (directive_edit)."""
    at = real.index(DIRECTIVE) + len(DIRECTIVE)
    done = reanalyse(analysis, padding, padding.to_padded(at), padding.to_padded(at + len(clauses)), new.encode())
    assert done is not None, "the edit is one directive's"
    return done[0], done[1], real[:at] + new.encode() + real[at + len(clauses):]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(st.sampled_from(LISTS), min_size=1, max_size=6))
def test_kept_findings_equal_those_of_a_run_that_keeps_nothing(steps: list[str]) -> None:
    lib = drain(analysis_steps(Document(LIB_TEXT, Language.C), Options(), LIB, trace=True))
    clauses = LISTS[0]
    real = _main(clauses)
    padded, padding = pad(real, Language.C)
    main = _analysis(padded)
    graph = DeviceGraph(Options().propagation, graph_after_edit)
    results, trace = _run({MAIN: main, LIB: lib}, graph, None)
    for new in steps:
        main, padding, real = _retyped(main, padding, real, clauses, new)
        clauses = new
        analyses = {MAIN: main, LIB: lib}
        results, trace = _run(analyses, graph, trace)
        again = cross_file(analyses, Options(), graph)
        fresh = cross_file({MAIN: _analysis(main.document.source), LIB: lib}, Options(), None)
        for path in (MAIN, LIB):
            assert results[path].findings == again[path].findings == fresh[path].findings, (path, new)


def test_the_findings_seen_include_every_kept_rule() -> None:
    """The scenario reaches the rules that keep findings (else the test above shows little)."""
    lib = drain(analysis_steps(Document(LIB_TEXT, Language.C), Options(), LIB, trace=True))
    codes: set[str] = set()
    for clauses in LISTS:
        found = cross_file({MAIN: _analysis(_main(clauses)), LIB: lib}, Options(), None)
        codes |= {f.code for path in (MAIN, LIB) for f in found[path].findings}
    assert {"OMP401", "OMP402", "OMP403", "OMP404", "OMP406"} <= codes


def test_a_mark_edit_looks_again_only_at_the_targets_it_changed(monkeypatch) -> None:
    looked: list[str] = []
    real_of = device_consistency._host_procedure_on_device

    def counting(ws, target, refs, ask):   # type: ignore[no-untyped-def]
        looked.append(target.key)
        return real_of(ws, target, refs, ask)
    monkeypatch.setattr(device_consistency, "_host_procedure_on_device", counting)
    lib = drain(analysis_steps(Document(LIB_TEXT, Language.C), Options(), LIB, trace=True))
    clauses = "enter(host_only) device_type(host)"
    real = _main(clauses)
    padded, padding = pad(real, Language.C)
    main = _analysis(padded)
    graph = DeviceGraph(Options().propagation, graph_after_edit)
    results, trace = _run({MAIN: main, LIB: lib}, graph, None)
    assert [f.code for f in results[MAIN].findings].count("OMP401") == 1
    assert looked == [k for k in looked if "host_only" in k] and looked   # (only it is device_type(host))
    looked.clear()
    # the mark moves to another procedure: that one and the one it left are looked at again
    main, padding, real = _retyped(main, padding, real, clauses, "enter(local_a) device_type(host)")
    results, trace = _run({MAIN: main, LIB: lib}, graph, trace)
    assert sorted({k.rsplit(":", 1)[-1] for k in looked}) == ["local_a"]
    assert [f.message.split("'")[1] for f in results[MAIN].findings if f.code == "OMP401"] == ["local_a"]
    looked.clear()
    # nothing of the graph changed (the same list again, spelled the same): nothing looked at
    results, trace = _run({MAIN: main, LIB: lib}, graph, trace)
    assert looked == []
