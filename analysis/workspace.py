"""Many files analysed together: per-file analysis first, then the cross-file rules.

The workspace is every file given to `omp-lsp --check`, or in the server every file of the
workspace folders. Cross-file rules (`rules.workspace_rule`) read every file's context.
"""
from __future__ import annotations

from .check import FileAnalysis, analyze, finish
from .compile_commands import CompileDatabase
from .options import Options
from .propagation import DeviceGraph, DeviceRow
from .records import replace
from .rules import WorkspaceContext, run_workspace_rules
from .syntax import Document


def workspace_context(analyses: dict[str, FileAnalysis], options: Options | None = None,
                      graph: DeviceGraph | None = None, database: CompileDatabase | None = None) -> WorkspaceContext:
    return WorkspaceContext({path: a.context for path, a in analyses.items() if a.context is not None},
                            options, graph, database)


def cross_file(analyses: dict[str, FileAnalysis], options: Options, graph: DeviceGraph | None = None,
               database: CompileDatabase | None = None) -> dict[str, FileAnalysis]:
    """The same analyses with the cross-file findings added (new records; inputs untouched).
    `graph`: a device graph kept from the previous call (brought up to date incrementally);
    `database`: the program's compile_commands.json (where headers are found)."""
    runs = run_workspace_rules(workspace_context(analyses, options, graph, database), options.disabled)
    out: dict[str, FileAnalysis] = {}
    for path, a in analyses.items():
        run = runs.get(path)
        if run is None or (not run.findings and not run.internal_errors):
            out[path] = a
            continue
        out[path] = replace(a, findings=finish([*a.findings, *run.findings], options),
                            internal_errors=[*a.internal_errors, *run.internal_errors])
    return out


def analyze_workspace(documents: dict[str, Document], options: Options | None = None) -> dict[str, FileAnalysis]:
    """Analyse each document (keyed by path), then run the cross-file rules over all of them."""
    options = options or Options()
    analyses = {path: analyze(doc, options, path) for path, doc in documents.items()}
    return cross_file(analyses, options)


def device_map(documents: dict[str, Document], options: Options | None = None) -> list[DeviceRow]:
    """Every procedure and static variable of the documents with its effective device type."""
    options = options or Options()
    analyses = {path: analyze(doc, options, path) for path, doc in documents.items()}
    return workspace_context(analyses, options).device_graph.rows()


__all__ = ["analyze_workspace", "cross_file", "device_map", "workspace_context"]
