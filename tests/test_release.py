"""A released analysis leaves no garbage in reference cycles: the server frees an analysis it
replaced at once (by reference counting), not at the cycle collector's next full pass."""
from __future__ import annotations

import gc
from pathlib import Path

import pytest
from omp_lsp.analysis import Document, Options
from omp_lsp.analysis.check import analyze
from omp_lsp.analysis.syntax.document import language_for_path
from omp_lsp.analysis.workspace import cross_file

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("name", ["mistakes.c", "mistakes.f90", *sorted(p.name for p in EXAMPLES.glob("*.cpp"))[:1]])
def test_a_released_analysis_leaves_no_cycles(name: str) -> None:
    path = EXAMPLES / name
    language = language_for_path(path)
    assert language is not None
    analysis = analyze(Document(path.read_text(), language), Options(), str(path))
    cross_file({str(path): analysis}, Options())   # the model, binding, variants, graph: all built
    assert analysis.context is not None
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        analysis.context.release()
        del analysis
        gc.collect()
        kinds = sorted({type(o).__name__ for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert kinds == []
