"""The call graph after an edit inside one function body (graph_edit.graph_after_edit: that
body's references read again, every other edge moved) equals the graph built afresh from the
same text: random edits of every C/C++ fixture and of a generated file."""
from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options
from omp_lsp.analysis.check import FileAnalysis, analysis_steps
from omp_lsp.analysis.rules import drain
from omp_lsp.analysis.incremental.graph_edit import graph_after_edit
from omp_lsp.analysis.semantics.call_graph import FileGraph, file_graph
from omp_lsp.analysis.syntax.document import language_for_path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from check_speed import C_UNIT, generate

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SOURCES = [(p.read_bytes(), language_for_path(str(p))) for p in sorted(FIXTURES.rglob("*"))
           if p.is_file() and language_for_path(str(p)) in (Language.C, Language.CPP)]
SOURCES.append((generate(C_UNIT, 150).encode(), Language.C))
TYPED = [b"", b"1", b"x", b" ", b"\n", b";", b"(", b")", b"{", b"}", b"f(", b"n", b"a[0]", b"table0[1]",
         b"scale0(1.0)", b"static int s = 0;", b"int k;", b"return;", b"//", b"/*", b"\"", b"#pragma omp target\n"]
PATH = "/w/file.c"


def _analysis(text: bytes, language: Language) -> FileAnalysis:
    return drain(analysis_steps(Document(text, language), Options(), PATH))


def _facts(graph: FileGraph, analysis: FileAnalysis) -> tuple:
    assert analysis.context is not None
    symbols = analysis.context.model.symbols
    keys = sorted((s.name_span, s.name, graph.keys[id(s)]) for s in symbols if id(s) in graph.keys)
    return ([(d.key, d.kind, d.name, d.definition, d.symbol.name_span) for d in graph.declared], graph.marks,
            graph.roots, graph.edges, graph.has_main, graph.parts, keys)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SOURCES), st.data())
def test_a_graph_after_an_edit_in_a_function_body_equals_one_built_afresh(source: tuple, data: st.DataObject) -> None:
    text, language = source
    before = _analysis(text, language)
    assert before.context is not None
    old = file_graph(before.context, PATH)
    start = data.draw(st.integers(0, len(text)), label="start")
    end = data.draw(st.integers(start, min(len(text), start + 6)), label="end")
    edited = text[:start] + data.draw(st.sampled_from(TYPED), label="typed") + text[end:]
    after = _analysis(edited, language)
    assert after.context is not None
    graph = graph_after_edit(after.context, PATH, before.context, old)
    if graph is None:
        event("built afresh")
        return
    event("one function body read again")
    fresh = _analysis(edited, language)
    assert fresh.context is not None
    assert _facts(graph, after) == _facts(file_graph(fresh.context, PATH), fresh)


def test_a_digit_typed_into_a_number_reads_only_that_function_again() -> None:
    """What typing in code mostly is: the graph is built from the last one, and equals a fresh one."""
    text = generate(C_UNIT, 150).encode()
    before = _analysis(text, Language.C)
    assert before.context is not None
    old = file_graph(before.context, PATH)
    at = 0
    for _ in range(3):   # in three functions, one after another
        at = text.index(b"sum = 0.0", at) + len(b"sum = 0.0")
        edited = text[:at] + b"1" + text[at:]
        after = _analysis(edited, Language.C)
        assert after.context is not None
        graph = graph_after_edit(after.context, PATH, before.context, old)
        assert graph is not None
        fresh = _analysis(edited, Language.C)
        assert fresh.context is not None
        assert _facts(graph, after) == _facts(file_graph(fresh.context, PATH), fresh)
        before, old, text = after, graph, edited   # and the next edit starts from this graph
