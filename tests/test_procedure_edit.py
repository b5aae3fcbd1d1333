"""Keeping the analysis after an edit inside a function body that no rule read
(analysis.incremental.procedure_edit) equals a fresh analysis of the same padded text: random edits inside
the function bodies of the C/C++ fixtures and of random documents, one after another, each one
kept checked against a fresh analysis (findings, directives, the file's call-graph facts, the
cross-file rules' findings); and the edits it must leave to a fresh analysis."""
from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from expectations import options_of
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Language, Options
from omp_lsp.analysis.check import FileAnalysis
from omp_lsp.analysis.incremental.directive_edit import reanalyse as directive_reanalyse
from omp_lsp.analysis.incremental.graph_edit import graph_after_edit
from omp_lsp.analysis.incremental.procedure_edit import reanalyse
from omp_lsp.analysis.model.regions import analyse_regions
from omp_lsp.analysis.semantics.call_graph import file_graph
from omp_lsp.analysis.semantics.programs import link_facts
from omp_lsp.analysis.semantics.propagation import DeviceGraph
from omp_lsp.analysis.syntax.document import language_for_path
from omp_lsp.analysis.syntax.padding import Padding, pad
from omp_lsp.analysis.workspace import CrossFileTrace, cross_file, cross_file_again
from test_directive_edit import (
    OTHER,
    PATH,
    SOURCES,
    _afresh,
    _analysis,
    _fresh_of,
    _with_cross_file,
)

C_SOURCES = [p for p in SOURCES if language_for_path(str(p)) in (Language.C, Language.CPP)]
# What people type in code: names, numbers, calls, declarations, and what breaks the syntax.
TYPED = ["1", "0", "x", "n", "y", " ", ";", ",", "(", ")", "{", "}", "[", "]", "+ 1", "foo", "helper(n)",
         "int y = 2;", "static int s;", "a[0]", "#", "\\", "/*", "*/", "//", "\"", "'", "é", "",
         "omp_get_num_devices()", "using namespace std;", "typedef int T;", "enum { N = -3 };",
         "[=]{ return n; }()", "_Pragma(\"omp barrier\")", "struct S { int v; } s;", "return;", "table[0]"]
# Mostly whole functions: an edit needs a body to be in.
TYPED += ["x", "1", " ", "n", "+ 1", "y", "2.5", "-"] * 3
# Enter, and lines typed or pasted with it (a directive or a macro among them).
TYPED += ["\n", "\n  ", ";\n  x = 1;", "\n  helper(n);\n", "\n#pragma omp barrier\n", "\n#define Q 1\n", "\r\n"]
PIECES = ["int table[8];\n", "#pragma omp declare target to(table)\n", "int helper(int n) {\n  int y = n + 1;\n",
          "  return y * 2;\n}\n", "int helper(int n) {\n  int y = n + 1;\n  return y * 2;\n}\n",
          ("void kernel(int n, double *a) {\n#pragma omp target map(tofrom: a[0:n]) device(0)\n"
           "  { a[0] = helper(n) + table[0]; }\n}\n"), "void g(int n) { double s = 0.0; for (int i = 0; i < n; i++) s += i; }\n",
          "static double scale(double x) { return x * 0.5; }\n", "#pragma omp declare target\n",
          "#pragma omp end declare target\n", "void later(void) {\n", "  table[1] = 3;\n", "  /* é */ helper(1);\n",
          "#pragma omp declare target to(later)\n", "int host_only(int x) { return x; }\n",
          "#pragma omp declare target to(host_only) device_type(host)\n", "\n", "#define N 4\n",
          "#ifdef GPU\n", "#else\n", "#endif\n", "#define GPU\n", "  #if N > 2\n  x = 2;\n  #endif\n",
          "#pragma omp declare variant(scale) match(device={kind(gpu)})\n", "double base(double x);\n"]


def _bodies(analysis: FileAnalysis) -> list[tuple[int, int]]:
    """The insides of the function bodies of the analysed (padded) text."""
    tree = analysis.document.tree
    assert tree is not None
    out, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            body = node.child_by_field_name("body")
            if body is not None and body.end_byte - body.start_byte > 2:
                out.append((body.start_byte + 1, body.end_byte - 1))
        stack.extend(node.children)
    return sorted(out)


def _kept_is_fresh(analysis: FileAnalysis, padding: Padding, real: bytes, language: Language, options: Options,
                   graph: DeviceGraph, cross: CrossFileTrace) -> tuple[FileAnalysis, DeviceGraph, CrossFileTrace]:
    """A kept analysis of `real` against a fresh one: the text, the findings, the cross-file
    findings, and the file graph the device graph was updated with (from the last one:
    graph_edit.graph_after_edit); the fresh analysis, and the device graph and trace now."""
    fresh = _fresh_of(analysis, padding, real, language, options)
    assert analysis.findings == fresh.findings
    _regions_are_fresh(analysis, fresh)
    result, graph, cross = _with_cross_file(analysis, options, graph, cross)
    fresh_result, _, _ = _with_cross_file(fresh, options)
    assert result.findings == fresh_result.findings
    assert fresh.context is not None
    assert graph.files[PATH].signature() == file_graph(fresh.context).signature()
    kept = analysis.context.__dict__.get("_file_graph") if analysis.context is not None else None
    if kept is not None and "_link_facts" in kept.__dict__:   # (handed on by graph_edit, or read again)
        assert kept.__dict__["_link_facts"] == link_facts(file_graph(fresh.context), fresh.context)
    return fresh, graph, cross


def _regions_are_fresh(analysis: FileAnalysis, fresh: FileAnalysis) -> None:
    """The target regions a kept analysis holds (moved: Regions.moved) against a fresh build:
    where they are, and the calls and member accesses in them read so far."""
    assert analysis.context is not None and fresh.context is not None
    kept = analysis.context.__dict__.get("_regions")
    if kept is None:
        return
    again = analyse_regions(fresh.document, fresh.directives, fresh.structure)
    assert [(r.index, r.span, r.ancestor, r.parent and r.parent.index) for r in kept.targets] \
        == [(r.index, r.span, r.ancestor, r.parent and r.parent.index) for r in again.targets]
    if kept._calls is not None:
        assert kept._calls == again.calls()
    if kept._members is not None:
        assert kept._members == again.member_accesses()
        assert all(kept.member_accesses_in(r) == [m for m in again.member_accesses()
                                                  if r.span[0] <= m.base_span[0] < r.span[1]] for r in kept.targets)


Session = tuple[FileAnalysis, Padding, DeviceGraph, CrossFileTrace]


def _a_directive_edit_first(data: st.DataObject, real: bytes, pragmas: list[int], session: Session,
                            language: Language, options: Options) -> tuple[bytes, Session]:
    """Perhaps a character typed before the last parenthesis of one of the directive lines
    `pragmas` (directive_edit, or a fresh analysis): the code edits go on from there."""
    if not pragmas or not data.draw(st.booleans(), label="a directive first"):
        return real, session
    analysis, padding, graph, cross = session
    k = data.draw(st.sampled_from(pragmas), label="directive")
    at = sum(len(x) + 1 for x in real.split(b"\n")[:k]) + real.split(b"\n")[k].rindex(b")")
    typed = data.draw(st.sampled_from([" ", "1", "x"]), label="typed in it").encode()
    real = real[:at] + typed + real[at:]
    redone = directive_reanalyse(analysis, padding, padding.to_padded(at), padding.to_padded(at), typed)
    if redone is None:
        return real, _afresh(real, language, options, graph, cross)
    analysis, padding = redone
    _, graph, cross = _with_cross_file(analysis, options, graph, cross)
    return real, (analysis, padding, graph, cross)


def _edit_bodies(data: st.DataObject, real: bytes, language: Language, options: Options) -> None:
    analysis, padding, graph, cross = _afresh(real, language, options)
    for _ in range(data.draw(st.integers(min_value=1, max_value=5), label="edits")):
        bodies = _bodies(analysis)
        if not bodies:
            event("no function body")
            return
        lo, hi = (padding.to_real(x) for x in data.draw(st.sampled_from(bodies), label="body"))
        at = data.draw(st.integers(min_value=lo, max_value=hi), label="at")
        line_end = real.find(b"\n", at)
        room = min(3, hi - at, (line_end if line_end >= 0 else hi) - at)
        removed = data.draw(st.integers(min_value=0, max_value=max(0, room)), label="removed")
        typed = data.draw(st.sampled_from(TYPED), label="typed").encode()
        real = real[:at] + typed + real[at + removed:]
        done = reanalyse(analysis, padding, padding.to_padded(at), padding.to_padded(at + removed), typed)
        if done is None:
            event("analysed afresh")
            analysis, padding, graph, cross = _afresh(real, language, options, graph, cross)
            continue
        kept_structures = analysis.context is not None and analysis.context._model is None
        analysis, padding = done
        event("kept, structures too" if kept_structures and analysis.context is not None
              and analysis.context._model is not None else "kept")
        fresh, graph, cross = _kept_is_fresh(analysis, padding, real, language, options, graph, cross)
        assert analysis.internal_errors == fresh.internal_errors == []
        assert analysis.directives == fresh.directives
        assert analysis.structure.extents == fresh.structure.extents   # (those outside the function: moved)
        assert analysis.context is not None and fresh.context is not None
        assert file_graph(analysis.context).signature() == file_graph(fresh.context).signature()


@settings(max_examples=int(os.environ.get("EXAMPLES", "300")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(source=st.sampled_from(C_SOURCES), data=st.data())
def test_edits_in_fixture_function_bodies_equal_a_fresh_analysis(source, data: st.DataObject) -> None:  # type: ignore[no-untyped-def]
    language = language_for_path(str(source))
    assert language is not None
    text = source.read_bytes()
    _edit_bodies(data, text, language, options_of(text.decode("utf-8", "replace")))


@settings(max_examples=int(os.environ.get("EXAMPLES", "300")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cpp=st.booleans(), data=st.data())
def test_edits_in_function_bodies_of_random_documents_equal_a_fresh_analysis(cpp: bool, data: st.DataObject) -> None:
    text = "".join(data.draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=25), label="document"))
    _edit_bodies(data, text.encode(), Language.CPP if cpp else Language.C, Options())


# Functions of several lines, and what people type on a line inside one: the edits that keep the
# program model and the call graph too (an entity declared in the body falls back).
LINES = ["int table[8];\n", "#pragma omp declare target to(table)\n",
         "int host_only(int x) {\n  return x;\n}\n", "#pragma omp declare target to(host_only) device_type(host)\n",
         "int helper(int n) {\n  int y = n + 1;\n  y = y * 2;\n  return y;\n}\n",
         ("double smooth(const double *a, int n) {\n  double acc = 0.0;\n  for (int i = 1; i < n; i++)\n"
          "    acc += 0.25 * (a[i] - a[i - 1]);\n  return acc;\n}\n"),
         "void kernel(int n, double *a) {\n#pragma omp target map(tofrom: a[0:n])\n  { a[0] = helper(n); }\n}\n",
         "void later(void) {\n  table[1] = 3;\n  helper(2);\n}\n", "#pragma omp declare target to(later)\n"]
CALM = ["1", "x", " ", "+ 1", "y", "n", "helper(n) + ", "host_only(1) + ", "table[0] + ", "static int q; ",
        "int proto(void); ", "extern int e; ", "later(); ", "acc", "0.5 * ", "\n", "\n  helper(1);\n  ",
        "\n#pragma omp target\n"]


@settings(max_examples=int(os.environ.get("EXAMPLES", "300")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_edits_on_the_lines_of_function_bodies_equal_a_fresh_analysis(data: st.DataObject) -> None:
    text = "".join(data.draw(st.lists(st.sampled_from(LINES), min_size=1, max_size=12), label="document"))
    real = text.encode()
    analysis, padding, graph, cross = _afresh(real, Language.C, Options())
    for _ in range(data.draw(st.integers(min_value=1, max_value=6), label="edits")):
        pragmas = [k for k, line in enumerate(real.split(b"\n")) if line.startswith(b"#pragma") and b")" in line]
        real, (analysis, padding, graph, cross) = _a_directive_edit_first(
            data, real, pragmas, (analysis, padding, graph, cross), Language.C, Options())
        lines = [k for k, line in enumerate(real.split(b"\n")) if line.startswith(b"  ") and b"#" not in line]
        if not lines:
            return
        k = data.draw(st.sampled_from(lines), label="line")
        line_start = sum(len(x) + 1 for x in real.split(b"\n")[:k])
        line = real.split(b"\n")[k]
        at = line_start + data.draw(st.integers(min_value=2, max_value=len(line)), label="column")
        typed = data.draw(st.sampled_from(CALM), label="typed").encode()
        real = real[:at] + typed + real[at:]
        done = reanalyse(analysis, padding, padding.to_padded(at), padding.to_padded(at), typed)
        if done is None:
            event("analysed afresh")
            analysis, padding, graph, cross = _afresh(real, Language.C, Options(), graph, cross)
            continue
        event("kept" if analysis.trace is None or analysis.trace.succession is None else "kept after a directive edit")
        analysis, padding = done
        _, graph, cross = _kept_is_fresh(analysis, padding, real, Language.C, Options(), graph, cross)


SOURCE = """\
int table[8];
#pragma omp declare target to(table)
int helper(int n) {
  int y = n + 1;
  return y * 2;
}
void later(void) {
  table[1] = 3;
}
#pragma omp declare target to(later)
void kernel(int n, double *a) {
#pragma omp target map(tofrom: a[0:n]) privte(n)
  { a[0] = helper(n) + table[0]; }
}
"""


def _edit(source: str, line: str, old: str, new: str, language: Language = Language.C,
          edited: Callable[..., tuple[FileAnalysis, Padding] | None] = reanalyse,
          ) -> tuple[FileAnalysis, tuple[FileAnalysis, Padding] | None]:
    """A fresh analysis of `source` and what `edited` (procedure_edit's by default) makes of
    `old` on `line` replaced by `new`."""
    padded, padding = pad(source.encode(), language)
    analysis = _analysis(padded, language, Options())
    at = padded.index(line.encode()) + line.index(old)
    return analysis, edited(analysis, padding, at, at + len(old), new.encode())


def test_an_edit_in_a_body_no_rule_read_keeps_the_findings_and_the_structures() -> None:
    padded, padding = pad(SOURCE.encode(), Language.C)
    before = _analysis(padded, Language.C, Options())
    assert before.context is not None
    model, binding = before.context._model, before.context._binding
    assert model is not None and binding is not None
    at = padded.index(b"n + 1;") + len(b"n + ")
    done = reanalyse(before, padding, at, at + 1, b"100")
    assert done is not None
    after, _ = done
    assert after.findings == before.findings and [f.code for f in after.findings] == ["OMP002"]
    assert after.context is not None and after.context._model is model and after.context._binding is binding
    assert after.findings == _analysis(after.document.source, Language.C, Options()).findings


def test_an_edit_in_a_one_line_function_keeps_the_structures_with_its_end_moved() -> None:
    source = SOURCE.replace("void later(void) {", "int one(void) { return 1; }\nvoid later(void) {")
    padded, padding = pad(source.encode(), Language.C)
    before = _analysis(padded, Language.C, Options())
    assert before.context is not None
    model = before.context.model
    [one] = [s for s in model.symbols if s.name == "one"]
    end = one.span[1]
    at = padded.index(b"return 1;") + len(b"return ")
    done = reanalyse(before, padding, at, at + 1, b"123")
    assert done is not None
    after, _ = done
    assert after.context is not None and after.context._model is model and one.span[1] == end + 2
    assert after.findings == _analysis(after.document.source, Language.C, Options()).findings


def test_an_edit_in_a_one_line_function_moves_what_follows_on_its_line() -> None:
    source = SOURCE.replace("void later(void) {", "static int one(void) { return 1; } void later(void) {")
    _, done = _edit(source, "static int one(void) { return 1; }", "1", "123")
    assert done is not None
    after, _ = done
    assert after.findings == _analysis(after.document.source, Language.C, Options()).findings


KERNEL = SOURCE.replace("""void kernel(int n, double *a) {
#pragma omp target""", """void kernel(int n, double *a) {
  double s = 0.5;
#pragma omp target""").replace("""+ table[0]; }
}""", """+ table[0]; }
  a[1] = s * 2;
}""")


@pytest.mark.parametrize("line, old, new", [
    ("  { a[0] = helper(n) + table[0]; }", "0", "1"),     # inside the construct: its rules run again
    ("  { a[0] = helper(n) + table[0]; }", "helper(n)", "later()"),
    ("  a[1] = s * 2;", "2", "3"),
    ("  a[1] = s * 2;", ";", ";\n"),                         # Enter
    ("  a[1] = s * 2;", ";", ";\n  a[2] = helper(n);"),      # a line typed
    ("  a[1] = s * 2;", "s * 2", "helper(n) + later()"),
    ("  double s = 0.5;", "0.5", "0.25"),
])
def test_an_edit_in_a_kernel_keeps_the_findings(line: str, old: str, new: str) -> None:
    _, done = _edit(KERNEL, line, old, new)
    assert done is not None
    after, _ = done
    assert after.findings == _analysis(after.document.source, Language.C, Options()).findings
    assert [f.code for f in after.findings] == ["OMP002"]


@pytest.mark.parametrize("line, old, new", [
    ("  double s = 0.5;", "s", "t"),                # what the kernel declares
    ("  double s = 0.5;", "double s", "static double s"),   # an entity of the program
    ("  a[1] = s * 2;", "s * 2", "({ int z = 2; z; })"),  # a statement expression: a block of its own
])
def test_what_a_kernel_declares_is_left_to_a_fresh_analysis(line: str, old: str, new: str) -> None:
    _, done = _edit(KERNEL, line, old, new)
    assert done is None


@pytest.mark.parametrize("line, old, new", [
    ("  table[1] = 3;", "3", "4"),                   # a body OMP117 searched for a use before the mark
    ("  int y = n + 1;", "1", "enum { M = 1 }; 1"),  # a word a search of the whole tree depends on
    ("  int y = n + 1;", ";", "; }"),                # the function ends early: its rest at file scope
    ("  int y = n + 1;", "int", "#"),                # a preprocessor line
    ("  int y = n + 1;", " + 1;", ";\n#define M 2"),  # a new line that is a preprocessor line
])
def test_what_may_change_a_finding_is_left_to_a_fresh_analysis(line: str, old: str, new: str) -> None:
    _, done = _edit(SOURCE, line, old, new)
    assert done is None


def test_typing_a_statement_keeps_the_analysis_between_the_first_and_the_last_key() -> None:
    """The first key makes a syntax error in the body and the last mends it (both analysed
    afresh: the function's scope and the readers of its type change with it); the keys between
    keep the analysis (the body has an error before and after)."""
    real = SOURCE.encode()
    padded, padding = pad(real, Language.C)
    analysis = _analysis(padded, Language.C, Options())
    at = real.index(b"n + 1;") + len(b"n + 1;")
    kept = []
    for typed in [b" y", b" =", b" y", b" *", b" 3", b";"]:
        real = real[:at] + typed + real[at:]
        done = reanalyse(analysis, padding, padding.to_padded(at), padding.to_padded(at), typed)
        at += len(typed)
        kept.append(done is not None)
        if done is None:
            padded, padding = pad(real, Language.C)
            analysis = _analysis(padded, Language.C, Options())
        else:
            analysis, padding = done
            assert analysis.findings == _fresh_of(analysis, padding, real, Language.C, Options()).findings
    assert kept == [False, True, True, True, True, False]


def test_what_the_analysis_keeps_of_the_bodies_read_does_not_grow_with_the_edits() -> None:
    """A digit typed and deleted again, in turn in a target construct's directive and in its
    code: the rules run again after each edit read the same bodies again, and the records of
    those reads (the trace's and the program model's) stay the size they had (they grew with
    every keystroke, and every edit took longer than the one before)."""
    padded, padding = pad(KERNEL.encode(), Language.C)
    analysis = _analysis(padded, Language.C, Options())
    places = [(directive_reanalyse, b"#pragma omp target map(tofrom: a[0"), (reanalyse, b"  { a[0")]
    sizes = []
    for _round in range(8):
        for edited, before in places:
            for old, new in [(b"", b"1"), (b"1", b"")]:
                at = analysis.document.source.index(before) + len(before)
                done = edited(analysis, padding, at, at + len(old), new)
                assert done is not None
                analysis, padding = done
        assert analysis.context is not None and analysis.context._model is not None and analysis.trace is not None
        assert analysis.trace.bodies is not None
        sizes.append((len(analysis.trace.bodies), len(analysis.context._model.root.__dict__["_read"]),
                      len(analysis.context._model.root.__dict__["_used"])))
    assert sizes[-1] == sizes[1], sizes
    assert analysis.findings == _fresh_of(analysis, padding, KERNEL.encode(), Language.C, Options()).findings


CROSS = """\
double remote(int n);
double helper(int n) {
  double t = 2.0; return t * remote(n);
}
double twice(int n) { return 2.0 * n; }
void kernel(int n, double *a) {
#pragma omp target map(tofrom: a[0:n])
  { a[0] = helper(n); }
}
"""
CROSS_OTHER = """\
double remote(int n) { return n; }
double twice(int n);
void other_kernel(double *a) {
#pragma omp target map(tofrom: a[0:1])
  { a[0] = twice(1); }
}
"""


@pytest.mark.parametrize("old, new, kept", [
    ("2.0;", "2.50;", True),                            # a number: the device graph only moves
    ("t *", "t +", True),                          # an operator before the call
    ("remote(n);", "remote(n) + scale(n);", False),     # a call: the graph changes, the rules run again
])
def test_an_edit_in_a_body_keeps_the_cross_file_findings_moved_while_the_graph_only_moves(
        old: str, new: str, kept: bool) -> None:
    """OMP403 in each file: `remote` called on the device from the edited line, after the edit,
    and `twice` from the other file; the rule read nothing of the files but the device graph."""
    options = Options()
    padded, padding = pad(CROSS.encode(), Language.C)
    analyses = {PATH: _analysis(padded, Language.C, options),
                OTHER: _analysis(pad(CROSS_OTHER.encode(), Language.C)[0], Language.C, options)}
    graph = DeviceGraph(options.propagation, graph_after_edit)
    graph.sync({p: a.context for p, a in analyses.items() if a.context is not None})
    before, trace = cross_file_again(analyses, options, graph, None, None)
    [here] = [f for f in before[PATH].findings if f.code == "OMP403"]
    [there] = [f for f in before[OTHER].findings if f.code == "OMP403"]
    at = padded.index(old.encode())
    done = reanalyse(analyses[PATH], padding, at, at + len(old), new.encode())
    assert done is not None
    analyses[PATH] = done[0]
    graph.sync({p: a.context for p, a in analyses.items() if a.context is not None})
    after, _ = cross_file_again(analyses, options, graph, None, trace)
    assert {p: r.findings for p, r in after.items()} == {p: r.findings for p, r in cross_file(analyses, options).items()}
    [there_now] = [f for f in after[OTHER].findings if f.code == "OMP403"]
    assert (there_now is there) == kept   # kept as it was, not found again
    if kept:   # after the edit on its line: moved with it
        [here_now] = [f for f in after[PATH].findings if f.code == "OMP403"]
        assert here_now.span == (here.span[0] + len(new) - len(old), here.span[1] + len(new) - len(old))


SWALLOWED = """\
static double table[4];
static double weight(int i) { // return 1.0 / i; }
void smooth(double *x) {
  x[0] = weight(0) + table[1];
}
}
"""
NESTED = """\
double outer(double y) {
  double inner(double z) { return z * y; }
  return inner(2.0) + 1.0;
}
"""
# The same functions, none inside another: the same edits are kept.
APART = """\
static double table[4];
static double weight(int i) { // return 1.0 / i;
}
void smooth(double *x) {
  x[0] = weight(0) + table[1];
}
double inner(double z) { return z * 2.0; }
double outer(double y) {
  return inner(2.0) + 1.0;
}
"""


@pytest.mark.parametrize("text, old, new", [
    (SWALLOWED, "// return", "//1 return"),   # a comment took the closing brace: smooth is inside weight
    (NESTED, "+ 1.0", "+ 2.0"),               # a GNU C nested function
])
def test_an_edit_in_a_body_that_holds_a_definition_is_analysed_afresh(text: str, old: str, new: str) -> None:
    """The model reads the references of a nested definition twice, and the call graph's edges
    depend on which reading came first: such a body is not read again in place."""
    options = Options()
    for source, kept in ((text, False), (APART, True)):
        padded, padding = pad(source.encode(), Language.C)
        analysis = _analysis(padded, Language.C, options)
        assert analysis.document.tree is not None and not analysis.document.tree.root_node.has_error
        at = padded.index(old.encode())
        done = reanalyse(analysis, padding, at, at + len(old), new.encode())
        assert (done is not None) == kept
        if done is not None:
            real = source.replace(old, new, 1).encode()
            assert done[0].findings == _fresh_of(done[0], done[1], real, Language.C, options).findings
