"""Re-analysing one edited directive (analysis.incremental.directive_edit) equals a fresh analysis of the
same padded text: random edits inside the directives of every fixture file and of random
documents, one after another, each checked against a fresh analysis (findings, internal
errors, the file's call-graph facts)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from expectations import options_of
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options
from omp_lsp.analysis.check import FileAnalysis, analysis_steps
from omp_lsp.analysis.incremental.graph_edit import graph_after_edit
from omp_lsp.analysis.incremental.directive_edit import reanalyse
from omp_lsp.analysis.rules import Rule, drain, iter_rules, run_rule
from omp_lsp.analysis.semantics.call_graph import file_graph
from omp_lsp.analysis.semantics.propagation import DeviceGraph
from omp_lsp.analysis.syntax.document import TextEdit, language_for_path
from omp_lsp.analysis.syntax.padding import PAD, Padding, pad
from omp_lsp.analysis.workspace import CrossFileTrace, cross_file, cross_file_again

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SOURCES = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and language_for_path(str(p)) is not None
                 and b"omp" in p.read_bytes().lower())
# What people type inside directives: clause names and arguments, list items, numbers, punctuation.
TYPED = ["1", "0", "-1", "x", "n", "a", " ", ",", ":", "(", ")", "[", "]", "{", "}", "ancestor", "ancestor: ",
         "to", "tofrom", "map(to: x)", "map(tofrom: a[0:n])", "nowait", "device(1)", "thread_limit(4)",
         "private(x)", "firstprivate(n)", "is_device_ptr(x)", "allocate(x)", "num_teams(2)", "if(n > 1)",
         "kind(gpu)", "vendor(llvm)", "arch(nvptx64)", "teams", "parallel", "simd", "host", "nohost", "any",
         "é", "", "\\", "&", "!",
         "//", "/*", "*/", "\"", "%", "@", "#"]
C_PIECES = ["#pragma omp target map(tofrom: a[0:n]) thread_limit(-1)\n", "int a[8];\n", "int x;\n",
            "#pragma omp declare target(x) device_type(nohost)\n", "void f(int n) {\n", "}\n", "  a[0] = 1;\n",
            "#pragma omp target device(ancestor: 1) map(to: x)\n", "  x = 1;\n", "/* é ü */\n",
            "#pragma omp target teams distribute parallel for \\\n   map(to: a)\n", "#pragma omp requires reverse_offload\n",
            "  for (int i = 0; i < n; i++) a[i] = i;\n", "#pragma omp target update to(a[0:4])\n",
            "#pragma omp target data map(to: a) use_device_ptr(a)\n", "  {\n", "  }\n", "#define N 4\n", "\n",
            "#pragma omp declare variant(fv) match(device={kind(nohost)})\n", "void fv(int n);\n",
            "#pragma omp declare variant(f) match(construct={parallel}) adjust_args(need_device_ptr: n)\n",
            "#pragma omp begin declare target device_type(host)\n", "#pragma omp end declare target\n",
            "#ifdef GPU\n", "#else\n", "#endif\n", "#define GPU\n", "#if N > 2\n"]
F_PIECES = ["subroutine s(a)\n", "end subroutine s\n", "  real :: a(8)\n", "  a = 1.0\n",
            "!$omp target map(tofrom: a) thread_limit(-1)\n", "!$omp end target\n", "! é comment\n",
            "!$omp target teams map(to: a) &\n", "!$omp& thread_limit(4)\n", "  !$omp target device(ancestor: 1)\n",
            "!$omp target data map(to: a)\n", "!$omp end target data\n", "\n",
            "  !$omp declare variant(s:sv) match(construct={target})\n", "subroutine sv(a)\n",
            "  !$omp declare variant(sv) match(device={kind(gpu)})\n", "#ifdef GPU\n", "#else\n", "#endif\n",
            "#define GPU\n"]


PATH = "/w/file"


def _analysis(padded: bytes, language: Language, options: Options) -> FileAnalysis:
    return drain(analysis_steps(Document(padded, language), options, PATH, trace=True))


def _padded(real: bytes, padding: Padding) -> bytes:
    """`real` with the blanks of `padding` added (the inverse of `_unpadded`)."""
    pieces, at = [], 0
    for start, size in zip(padding.real_starts, padding.sizes):
        pieces.append(real[at:start])
        pieces.append(b" " * size)
        at = start
    return b"".join(pieces) + real[at:]


def _fresh_of(analysis: FileAnalysis, padding: Padding, real: bytes, language: Language,
              options: Options) -> FileAnalysis:
    """A fresh analysis of the text an edited analysis stands for (`real` padded as it is), after
    checking that the edited one reads the same text (the build's configuration of it)."""
    fresh = _analysis(_padded(real, padding), language, options)
    assert analysis.document.source == fresh.document.source
    return fresh


def _unpadded(padded: bytes, padding: Padding) -> bytes:
    pieces, at = [], 0
    for start, size in zip(padding.starts, padding.sizes):
        assert padded[start:start + size] == b" " * size
        pieces.append(padded[at:start])
        at = start + size
    return b"".join(pieces) + padded[at:]


OTHER = "/w/other"   # a second file of the workspace, not edited


def _with_cross_file(analysis: FileAnalysis, options: Options, graph: DeviceGraph | None = None,
                     previous: CrossFileTrace | None = None, other: FileAnalysis | None = None
                     ) -> tuple[FileAnalysis, DeviceGraph, CrossFileTrace]:
    """The file's findings with the cross-file rules' (as the server keeps them: one device graph,
    the last run's trace); `other`, when given, is in the workspace too, and its findings with the
    cross-file rules' are checked against a run that keeps nothing."""
    assert analysis.context is not None
    analyses = {PATH: analysis} if other is None else {PATH: analysis, OTHER: other}
    graph = graph or DeviceGraph(options.propagation, graph_after_edit)   # (as the server's)
    graph.sync({path: a.context for path, a in analyses.items() if a.context is not None})
    results, trace = cross_file_again(analyses, options, graph, None, previous)
    if other is not None and previous is not None:
        assert results[OTHER].findings == cross_file(analyses, options, graph)[OTHER].findings
    return results[PATH], graph, trace


def _afresh(real: bytes, language: Language, options: Options, graph: DeviceGraph | None = None,
            cross: CrossFileTrace | None = None, other: FileAnalysis | None = None
            ) -> tuple[FileAnalysis, Padding, DeviceGraph, CrossFileTrace]:
    """The real text padded and analysed as the server does afresh, with the cross-file rules."""
    padded, padding = pad(real, language)
    analysis = _analysis(padded, language, options)
    _, graph, cross = _with_cross_file(analysis, options, graph, cross, other)
    return analysis, padding, graph, cross


def _structure_kept(real: bytes, language: Language, start: int, end: int, typed: bytes) -> bool:
    """The verdict the server's own tree of the real text gives the edit (Document.tree_edit)."""
    live = Document(real, language)
    assert live.tree is not None or language.is_fortran
    edit = TextEdit(live.lines.point(start), live.lines.point(end), typed.decode("utf-8", "surrogatepass"))
    live.apply(edit, "utf-8")
    assert live.last_change is not None
    return live.last_change.inert


def _edit_directives(data: st.DataObject, real: bytes, language: Language, options: Options,
                     other: FileAnalysis | None = None, typed_texts: list[str] = TYPED) -> None:
    analysis, padding, graph, cross = _afresh(real, language, options, other=other)
    for _ in range(data.draw(st.integers(min_value=1, max_value=4), label="edits")):
        if not analysis.directives:
            event("no directive")
            return
        d = data.draw(st.sampled_from(analysis.directives), label="directive")
        first, last = padding.to_real(d.span[0]) + 1, padding.to_real(d.span[1])
        if first > last:
            return
        at = data.draw(st.integers(min_value=first, max_value=last), label="at")
        removed = data.draw(st.integers(min_value=0, max_value=min(3, last - at)), label="removed")
        typed = data.draw(st.sampled_from(typed_texts), label="typed").encode()
        # as the server: the real text's tree, reparsed over the edit, may vouch for its syntax
        kept = _structure_kept(real, language, at, at + removed, typed) if data.draw(st.booleans(), label="tree") \
            else False
        real = real[:at] + typed + real[at + removed:]
        done = reanalyse(analysis, padding, padding.to_padded(at), padding.to_padded(at + removed), typed,
                         structure_kept=kept)
        if done is None:
            event("analysed afresh")
            analysis, padding, graph, cross = _afresh(real, language, options, graph, cross, other)
            continue
        event("one directive re-analysed")
        analysis, padding = done
        fresh = _fresh_of(analysis, padding, real, language, options)
        assert analysis.findings == fresh.findings
        assert analysis.internal_errors == fresh.internal_errors
        assert analysis.directives == fresh.directives
        assert analysis.context is not None and fresh.context is not None
        assert file_graph(analysis.context).signature() == file_graph(fresh.context).signature()
        result, graph, cross = _with_cross_file(analysis, options, graph, cross, other)
        # the cross-file rules' kept findings are those they find again on the same device graph
        # (not compared with a graph built afresh: of equally short chains, a graph updated edit by
        # edit may report another, and so another use)
        analyses = {PATH: analysis} if other is None else {PATH: analysis, OTHER: other}
        assert result.findings == cross_file(analyses, options, graph)[PATH].findings


@settings(max_examples=int(os.environ.get("EXAMPLES", "400")), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(source=st.sampled_from(SOURCES), other=st.none() | st.sampled_from(SOURCES), data=st.data())
def test_edits_of_fixture_directives_equal_a_fresh_analysis(source: Path, other: Path | None,
                                                           data: st.DataObject) -> None:
    language = language_for_path(str(source))
    assert language is not None
    text = source.read_bytes()
    options = options_of(text.decode("utf-8", "replace"))
    _edit_directives(data, text, language, options, _companion(other, options))


# Files in which the Fortran cross-file rules read one part of the binding each (interface bodies,
# common blocks, BIND(C) entities, names declared nowhere: declare_target.BINDING_PARTS), with the
# file beside them in their workspace; and what may change those parts when typed in a list.
PART_FILES = [(FIXTURES / "workspaces" / name / a, FIXTURES / "workspaces" / name / b) for name, a, b in (
    ("omp155_interface_mismatch", "main.f90", "kernels.f90"), ("omp155_interface_mismatch", "kernels.f90", "main.f90"),
    ("omp159_common_blocks", "init.f90", "use.f90"), ("omp159_common_blocks", "use.f90", "init.f90"),
    ("omp160_bind_c", "main.f90", "device.c"))] + [
    (FIXTURES / "declare_target" / "fortran" / name, None)
    for name in ("omp162_implicitly_typed.f90", "omp162_not_saved.f90", "omp165_implicit_none.f90")]
PART_TYPED = [*TYPED, "/halo/", ", scratch", ", table", "marker", "link(", "enter(", " device_type(nohost)"]


@settings(max_examples=int(os.environ.get("EXAMPLES", "150")), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(files=st.sampled_from(PART_FILES), data=st.data())
def test_edits_in_files_whose_binding_parts_cross_file_rules_read(files: tuple[Path, Path | None],
                                                                  data: st.DataObject) -> None:
    """The cross-file rules that read one part of a Fortran binding keep their findings after an
    edit that changed no mark of it, and those equal a run that keeps nothing."""
    source, other = files
    language = language_for_path(str(source))
    assert language is not None
    text = source.read_bytes()
    options = options_of(text.decode("utf-8", "replace"))
    _edit_directives(data, text, language, options, _companion(other, options), PART_TYPED)


def test_an_edit_of_a_declare_target_keeps_the_rules_of_binding_parts_it_did_not_change(monkeypatch) -> None:
    from omp_lsp.analysis import workspace

    source = FIXTURES / "declare_target" / "fortran" / "omp162_implicitly_typed.f90"
    padded, padding = pad(source.read_bytes(), Language.FORTRAN)
    analysis = _analysis(padded, Language.FORTRAN, Options())
    _, graph, cross = _with_cross_file(analysis, Options())
    rerun: list[str] = []
    real_run = workspace.run_workspace_rule
    monkeypatch.setattr(workspace, "run_workspace_rule",
                        lambda r, ws, trace: rerun.append(r.name) or real_run(r, ws, trace))

    def edit(after: bytes, typed: bytes) -> FileAnalysis:
        nonlocal analysis, padding, graph, cross
        at = analysis.document.source.index(after) + len(after)
        done = reanalyse(analysis, padding, at, at, typed)
        assert done is not None
        analysis, padding = done
        rerun.clear()
        result, graph, cross = _with_cross_file(analysis, Options(), graph, cross)
        return result

    # a declared module variable listed again: no part changes (the device graph does: the rules
    # that read it run again, OMP159 too, which asks it which files make one program)
    result = edit(b"declare target(table", b", table")
    assert {"interface_mismatch", "bind_c_entity_not_declare_target", "undeclared_names"}.isdisjoint(rerun)
    assert "common_block_in_every_unit" in rerun
    assert [f.code for f in result.findings].count("OMP162") == 3 and "OMP165" not in [f.code for f in result.findings]
    # a name declared nowhere (under implicit none): the rule that reports such names runs again,
    # and finds it
    result = edit(b"declare target(table, table", b", ghost")
    assert "undeclared_names" in rerun and "interface_mismatch" not in rerun
    assert [f.code for f in result.findings].count("OMP165") == 1
    assert result.findings == cross_file({PATH: analysis}, Options(), graph)[PATH].findings


HOST_NAMES = b"""module host_names
  !$omp declare target(other)
contains
  subroutine inner()
    !$omp declare target(shared_name)
  end subroutine inner
end module host_names
"""


def test_a_name_listed_in_the_host_keeps_an_inner_directive_from_reporting_it() -> None:
    # (the host's directive makes the name an implicitly typed variable of the module: the inner
    # one names that variable, no local; the rule that reads those names runs again)
    padded, padding = pad(HOST_NAMES, Language.FORTRAN)
    analysis = _analysis(padded, Language.FORTRAN, Options())
    first, graph, cross = _with_cross_file(analysis, Options())
    assert [f.code for f in first.findings] == ["OMP162"]
    at = padded.index(b"(other") + len(b"(other")
    done = reanalyse(analysis, padding, at, at, b", shared_name")
    assert done is not None
    analysis, padding = done
    result, graph, cross = _with_cross_file(analysis, Options(), graph, cross)
    assert result.findings == [] == cross_file({PATH: analysis}, Options(), graph)[PATH].findings


def _companion(path: Path | None, options: Options) -> FileAnalysis | None:
    """A second file of the workspace, analysed as the server would (not edited)."""
    if path is None:
        return None
    language = language_for_path(str(path))
    assert language is not None
    return _analysis(pad(path.read_bytes(), language)[0], language, options)


@settings(max_examples=int(os.environ.get("EXAMPLES", "300")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fortran=st.booleans(), data=st.data())
def test_edits_of_random_documents_equal_a_fresh_analysis(fortran: bool, data: st.DataObject) -> None:
    pieces = F_PIECES if fortran else C_PIECES
    text = "".join(data.draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=25), label="document"))
    # the other language's file beside it (calls across files meet in the device graph)
    other_pieces, other_language = (C_PIECES, Language.C) if fortran else (F_PIECES, Language.FORTRAN)
    other = "".join(data.draw(st.lists(st.sampled_from(other_pieces), max_size=10), label="other"))
    _edit_directives(data, text.encode(), Language.FORTRAN if fortran else Language.C, Options(),
                     _analysis(pad(other.encode(), other_language)[0], other_language, Options()) if other else None)


def _per_directive_rules() -> list[Rule]:
    return [r for r in iter_rules() if r.per_directive]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_per_directive_rules_check_each_directive_on_its_own(source: Path) -> None:
    """A per-directive rule's findings over the file are, directive by directive, those of a run
    focused on that directive (what directive_edit runs again), and each is owned by one."""
    language = language_for_path(str(source))
    assert language is not None
    text = source.read_bytes()
    analysis = _analysis(text, language, options_of(text.decode("utf-8", "replace")))
    assert analysis.context is not None
    rules = _per_directive_rules()
    assert len(rules) >= 10
    for r in rules:
        whole = run_rule(r, analysis.context, True)
        assert whole.errors == [] and whole.owners is not None and None not in whole.owners, r.name
        for i in range(len(analysis.directives)):
            focused = run_rule(r, analysis.context.focused(i), True)
            assert focused.findings == [f for f, o in zip(whole.findings, whole.owners) if o == i], (r.name, i)


def test_padding_maps_offsets_both_ways() -> None:
    real = b"int x;\n#pragma omp target map(x)\nint y;\n#pragma omp target \\\r\n  map(y)\r\nz\n"
    padded, padding = pad(real, Language.C)
    assert _unpadded(padded, padding) == real
    assert padded.count(b" " * PAD) == 6    # each line, before the continuing backslash too
    assert b" " * PAD + b"\\\r\n" in padded and b" " * PAD + b"\r\n" in padded
    for offset in range(len(real) + 1):
        assert padding.to_real(padding.to_padded(offset)) == offset
    line_end = real.index(b"\nint y")
    assert padding.to_padded(line_end) == line_end + PAD   # a line's end: before its blanks
    assert padding.to_real(line_end + 2 * PAD) == line_end


def test_typing_in_a_target_directive_re_runs_only_the_rules_that_read_that_clause(monkeypatch) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from check_speed import C_UNIT, generate
    from omp_lsp.analysis import rules
    from omp_lsp.analysis.incremental import directive_edit

    padded, padding = pad(generate(C_UNIT, 600).encode(), Language.C)
    analysis = _analysis(padded, Language.C, Options())
    rerun: list[str] = []
    real_run = rules.run_rule
    for module in (directive_edit, rules):   # (a rule checked again for one directive: rules.checked_again)
        monkeypatch.setattr(module, "run_rule", lambda r, ctx, trace: rerun.append(r.name) or real_run(r, ctx, trace))
    at = padded.index(b"thread_limit(") + len(b"thread_limit(")
    done = reanalyse(analysis, padding, at, at + 1, b"-")   # thread_limit(-...): OMP210
    assert done is not None
    edited, _ = done
    assert rerun == ["negative_device_or_thread_limit"]
    assert [f.code for f in edited.findings] == ["OMP210"]
    assert edited.findings == _analysis(edited.document.source, Language.C, Options()).findings


REGIONS = (b"#pragma omp begin declare variant match(device={kind(gpu)})\nvoid f(int *a) { a[0] = 1; }\n"
           b"#pragma omp end declare variant\nvoid f(int *a) { a[0] = 2; }\n"
           b"#pragma omp begin declare target device_type(any)\nint x;\n"
           b"#pragma omp begin declare target\nint y;\n#pragma omp end declare target\n"
           b"#pragma omp end declare target\n"
           b"#pragma omp begin declare target device_type(any)\nint z;\n#pragma omp end declare target\n"
           b"int main(void) {\n  int a[1];\n#pragma omp target map(tofrom: a)\n  f(a);\n  return a[0] + x + y + z;\n}\n")


@pytest.mark.parametrize("edit", [(b"kind(gpu", 0, b"x"), (b"device_type(", 3, b"host"),
                                  (b"#pragma omp target map", 0, b"\n")])
def test_what_one_directive_cannot_answer_is_left_to_a_fresh_analysis(edit: tuple[bytes, int, bytes]) -> None:
    # a begin declare variant's selector is every enclosed variant's, a begin declare target's
    # device type a nested region's too; a new line moves the rest
    padded, padding = pad(REGIONS, Language.C)
    analysis = _analysis(padded, Language.C, Options())
    at = padded.index(edit[0]) + len(edit[0])
    assert reanalyse(analysis, padding, at, at + edit[1], edit[2]) is None


def test_a_begin_declare_target_region_is_bound_again_with_its_new_device_type() -> None:
    padded, padding = pad(REGIONS, Language.C)
    analysis = _analysis(padded, Language.C, Options())
    at = padded.rindex(b"device_type(") + len(b"device_type(")
    done = reanalyse(analysis, padding, at, at + 3, b"nohost")   # z: device_type(nohost)
    assert done is not None
    edited, _ = done
    fresh = _analysis(edited.document.source, Language.C, Options())
    assert [f.code for f in edited.findings] == [f.code for f in fresh.findings]
    assert edited.findings == fresh.findings
    assert edited.context is not None and fresh.context is not None
    assert file_graph(edited.context).signature() == file_graph(fresh.context).signature()
    assert any(m.device_type == "nohost" and m.symbols[0].name == "z" for m in edited.context.binding.marks)


# Three declare variants whose records the comparing rules (OMP306: a variant that is another's
# base; OMP313: one variant with two construct sets) relate to each other.
RELATED_VARIANTS = b"""void final_v(int x) {}
void middle(int x) {}
void other_v(int x) {}
#pragma omp declare variant(final_v) match(construct = {target})
void inner(int x);
#pragma omp declare variant(other_v) match(construct = {parallel})
void top(int x);
#pragma omp declare variant(other_v) match(construct={parallel})
void side(int x);
"""


@pytest.mark.parametrize(("place", "old", "new", "codes"), [
    (b"variant(other_v) match(construct = ", b"other_v", b"inner", ["OMP306"]),   # the variant is the first's base
    (b"construct={parallel}", b"parallel", b"teams", ["OMP313"]),   # other_v now has two construct sets
])
def test_edits_that_relate_declare_variants_anew_are_found_as_afresh(place: bytes, old: bytes, new: bytes,
                                                                    codes: list[str]) -> None:
    """The records' relation facts are kept per record (declare_variant._relations): the edited
    one's are made anew, and the rules that compare records find what a fresh analysis finds,
    and lose it again when the edit is undone."""
    padded, padding = pad(RELATED_VARIANTS, Language.C)
    analysis = _analysis(padded, Language.C, Options())
    assert not [f for f in analysis.findings if f.code in ("OMP306", "OMP313")]
    at = padded.index(place) + place.index(old)
    for typed, replaced, expected in ((new, old, codes), (old, new, [])):
        done = reanalyse(analysis, padding, at, at + len(replaced), typed)
        assert done is not None
        analysis, padding = done
        assert [f.code for f in analysis.findings if f.code in ("OMP306", "OMP313")] == expected
        assert analysis.findings == _analysis(analysis.document.source, Language.C, Options()).findings


# Declarations marked by two directives after their use: OMP117 reports each one's first mark.
SHARED_MARK = b"""int counter;
int table[4];
int use_them(void) { return counter + table[0]; }
#pragma omp declare target to(counter)
#pragma omp declare target to(counter, table)
"""


def _index_facts(binding: object, symbols: list[object]) -> tuple[object, ...]:
    from omp_lsp.analysis.semantics.declare_target import Binding
    assert isinstance(binding, Binding)
    return (tuple((i, [(m.directive, m.span) for m in binding.own(i)]) for i in binding.directives),
            tuple([(m.directive, m.span) for m in binding.of(s)] for s in symbols))   # type: ignore[arg-type]


def _after_use(analysis: FileAnalysis) -> list[tuple[int, str]]:
    return [(analysis.document.lines.line_of(f.span[0]), f.message.split("'")[1]) for f in analysis.findings
            if f.code == "OMP117"]


@pytest.mark.parametrize(("typed", "expected"), [
    (b"counter1", [(4, "counter"), (4, "table")]),   # the first directive marks nothing: the second is first
    (b"table", [(3, "table"), (4, "counter")]),      # it marks table: table's first mark moves up
])
def test_an_edit_that_changes_which_directive_marks_first_is_found_as_afresh(typed: bytes,
                                                                            expected: list[tuple[int, str]]) -> None:
    """The marks of a declaration several directives mark (SHARED_MARKS): an edit of one of them
    runs OMP117 over every directive again, not the edited one alone; and the binding's indexes,
    patched by the edit (Binding.indexed_again), equal those of a fresh binding."""
    padded, padding = pad(SHARED_MARK, Language.C)
    analysis = _analysis(padded, Language.C, Options())
    assert analysis.context is not None
    _index_facts(analysis.context.binding, [])   # (the indexes made, to be patched)
    assert _after_use(analysis) == [(3, "counter"), (4, "table")]
    at = padded.index(b"to(counter)") + len(b"to(")
    for typed_now, replaced, found in ((typed, b"counter", expected), (b"counter", typed, [(3, "counter"), (4, "table")])):
        done = reanalyse(analysis, padding, at, at + len(replaced), typed_now)
        assert done is not None
        analysis, padding = done
        fresh = _analysis(analysis.document.source, Language.C, Options())
        assert sorted(_after_use(analysis)) == sorted(found)
        assert analysis.findings == fresh.findings
        assert analysis.context is not None and fresh.context is not None
        symbols = [analysis.context.model.named(name)[0] for name in ("counter", "table")]
        fresh_symbols = [fresh.context.model.named(name)[0] for name in ("counter", "table")]
        assert _index_facts(analysis.context.binding, symbols) == _index_facts(fresh.context.binding, fresh_symbols)


def test_a_comment_typed_in_a_directive_s_continuation_line_is_analysed_as_the_compiler_reads_it() -> None:
    """The build's configuration blanks comments in directive lines, and a continued directive is
    one line to it: `//` typed into its second line hides the rest of that line (found by the
    random edits above)."""
    real = b"#pragma omp target teams distribute parallel for \\\n   map(to: a)\n"
    padded, padding = pad(real, Language.C)
    analysis = _analysis(padded, Language.C, Options())
    at = padding.to_padded(real.index(b"a)\n") + 2)   # (the clauses stay: only the text read differs)
    done = reanalyse(analysis, padding, at, at, b"// to(b)")
    if done is not None:
        analysis, padding = done
    edited = real.replace(b"a)\n", b"a)// to(b)\n")
    assert done is None or analysis.document.source == _analysis(_padded(edited, padding), Language.C,
                                                                  Options()).document.source
    assert done is None   # (the configuration decided again: the file afresh)
