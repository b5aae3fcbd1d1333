"""What the cross-file rules read of a file, kept when its analysis is dropped (`FileSummary`):
--check's workers send it (`result_of`), the server's index keeps it for closed files
(`summarized`). Over every fixture file and folder, the summaries give the findings of the
analyses kept whole, alone and mixed with whole ones, and the same device graph."""
from __future__ import annotations

from pathlib import Path

import pytest
from omp_lsp.analysis.check import (
    UNSUPPORTED,
    Document,
    FileContext,
    Options,
    analyze_files,
    cross_file,
    cross_file_results,
    language_for_path,
    result_of,
    summarized,
    workspace_context,
)

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SOURCES = {".c", ".h", ".cpp", ".hpp", ".cc", ".f90", ".F90", ".f", ".F"}


def documents_of(paths: list[Path]) -> dict[str, Document]:
    out = {}
    for p in paths:
        language = language_for_path(str(p))
        if language is not None:
            out[str(p)] = Document(p.read_bytes(), language)
    return out


def _workspaces() -> list[tuple[str, list[Path]]]:
    """Every fixture file alone, and every fixture folder (with its subfolders) as one workspace."""
    files = sorted(p for p in FIXTURES.rglob("*") if p.suffix in SOURCES)
    folders = sorted({p.parent for p in files} | {ROOT / "examples", FIXTURES / "device_programs"})
    out = [(str(p.relative_to(ROOT)), [p]) for p in files]
    out += [(str(d.relative_to(ROOT)) + "/", sorted(p for p in d.rglob("*") if p.suffix in SOURCES)) for d in folders]
    return out


WORKSPACES = _workspaces()
# OMP407's and OMP505's limits apply only for named toolchains: run with all of them too
OPTION_SETS = {"default": Options(), "toolchains": Options(device_toolchains=tuple(UNSUPPORTED))}


def _same_findings(name: str, found: dict, whole: dict) -> None:
    assert list(found) == list(whole), name
    for path, analysis in whole.items():
        assert [(f.code, f.span, f.message) for f in found[path].findings] == \
            [(f.code, f.span, f.message) for f in analysis.findings], f"{name}: {path}"
        assert found[path].findings == analysis.findings, f"{name}: {path}"
        assert found[path].internal_errors == analysis.internal_errors, f"{name}: {path}"


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=list(OPTION_SETS))
def test_check_s_summaries_give_the_findings_of_the_whole_analyses(options: Options) -> None:
    """--check's path: each file's result made (`result_of`) and its analysis dropped, the
    cross-file rules over the results (a context made again where a rule asks for one)."""
    checked = 0
    for name, paths in WORKSPACES:
        documents = documents_of(paths)
        if not documents:
            continue

        def load(path: str, paths: list[Path] = paths) -> dict[str, FileContext]:
            return {p: a.context for p, a in analyze_files(documents_of(paths), options).items() if a.context}
        results = {p: result_of(p, a, True) for p, a in analyze_files(documents_of(paths), options).items()}
        _same_findings(name, cross_file_results(results, options, None, load),
                       cross_file(analyze_files(documents, options), options))
        checked += len(documents)
    assert checked > 400


@pytest.mark.parametrize("every", [1, 2])
def test_summarised_analyses_give_the_findings_and_graph_of_whole_ones(every: int) -> None:
    """`every`: summarise every file (1), or every other one (2: the server's open files are whole)."""
    options = OPTION_SETS["toolchains"]
    checked = 0
    for name, paths in WORKSPACES:
        documents = documents_of(paths)
        if not documents:
            continue
        whole = analyze_files(documents, options)
        mixed = {p: summarized(p, a) if i % every == 0 else a
                 for i, (p, a) in enumerate(analyze_files(documents_of(paths), options).items())}
        _same_findings(name, cross_file(mixed, options), cross_file(whole, options))
        rows = workspace_context(whole, options).device_graph.rows()
        assert workspace_context(mixed, options).device_graph.rows() == rows, name
        checked += len(documents)
    assert checked > 400


def test_a_summarised_analysis_holds_no_model_and_no_tree() -> None:
    path = ROOT / "examples" / "saxpy.c"
    analysis = analyze_files(documents_of([path]))[str(path)]
    assert analysis.context is not None
    assert analysis.context.model.named("saxpy")   # (built)
    directives = list(analysis.directives)
    kept = summarized(str(path), analysis)
    assert kept.summary is not None and kept.context is not None
    assert not kept.context.holds_model and kept.document._tree is None
    assert kept.directives == [] and not kept.structure.extents
    assert "_directives" not in kept.context.__dict__
    # a rule that asks the context for more gets it again
    assert kept.context.directives == directives
    assert kept.context.model.named("saxpy")
