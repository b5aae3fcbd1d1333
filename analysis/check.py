"""The analysis as the server and the codegen backend see it: the one entry point `server/` and
`codegen/` call, so the layers below can move and split without their callers knowing.

This is the top layer of the analysis: it may import from every other layer, and none imports
from it (pyproject.toml's import contracts hold both sides). Each name is imported on first use
(PEP 562), as in the package's `__init__`: `omp-lsp --version` or `omp-lsp run` reads a few of
these names and must not load the rules and the program model with them.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .builds import Build, analyze_files, header_context, include_groups, merged_groups, with_overlay
    from .file_analysis import FileAnalysis, analysis_steps, analyze
    from .ide.completion import complete
    from .ide.device_view import entity_at, hints, mark_fix
    from .ide.directive_hover import describe as describe_directive_part
    from .ide.navigation import Outline, entity_key_at, outline
    from .ide.navigation import definition as find_definition
    from .ide.navigation import references as find_references
    from .ide.semantic_tokens import LEGEND as TOKEN_LEGEND
    from .ide.semantic_tokens import tokens as directive_tokens
    from .incremental.directive_edit import reanalyse as reanalyse_directive
    from .incremental.graph_edit import graph_after_edit
    from .incremental.positions import PositionLog, anchors, inert_edit, moved
    from .incremental.procedure_edit import reanalyse as reanalyse_procedure
    from .incremental.statement_edit import reanalyse as reanalyse_statement
    from .model.file_model import FileModel, Reference, Symbol
    from .rules import drain
    from .semantics.context import FileContext
    from .semantics.programs import in_build_of
    from .semantics.propagation import DeviceGraph, Step
    from .semantics.propagation import build as build_device_graph
    from .syntax.compile_commands import (
        CompileCommandsError,
        CompileDatabase,
        CompileEntry,
        build_flags,
        find_compile_commands,
        folders_upwards,
        include_dirs,
        load_compile_commands,
    )
    from .syntax.device_limits import UNSUPPORTED
    from .syntax.diagnostics import CATALOGUE, Finding, Related, Severity
    from .syntax.document import (
        SOURCE_EXTENSIONS,
        ByteEdit,
        Document,
        Encoding,
        Language,
        LineIndex,
        Span,
        TextEdit,
        decode_source,
        language_for_id,
        language_for_path,
    )
    from .syntax.options import PROPAGATION_MODES, Options, parse_version
    from .syntax.padding import Padding, pad
    from .syntax.records import dataclass, field, replace
    from .syntax.regular_files import MAX_SOURCE_BYTES, read_regular_file, require_regular_file
    from .units import Includer, Unit
    from .units.edits import edits_preprocessor_lines
    from .units.headers import Headers
    from .units.translation import AMBIGUOUS, header_language
    from .workspace import (
        CrossFileTrace,
        FileResult,
        cross_file,
        cross_file_again,
        cross_file_results,
        result_of,
        summarized,
        with_lines,
        without_lines,
        workspace_context,
    )

# Where each name lives: "module" (relative to the analysis package) when the name is the
# module's own, "module:name" when this interface gives it a clearer one.
_HOMES: dict[str, str] = {
    # documents and positions
    "Document": "syntax.document", "Language": "syntax.document", "Encoding": "syntax.document",
    "Span": "syntax.document", "LineIndex": "syntax.document", "TextEdit": "syntax.document",
    "ByteEdit": "syntax.document", "SOURCE_EXTENSIONS": "syntax.document", "decode_source": "syntax.document",
    "language_for_id": "syntax.document", "language_for_path": "syntax.document",
    # options and findings
    "Options": "syntax.options", "PROPAGATION_MODES": "syntax.options", "parse_version": "syntax.options",
    "CATALOGUE": "syntax.diagnostics", "Finding": "syntax.diagnostics", "Related": "syntax.diagnostics",
    "Severity": "syntax.diagnostics",
    # compile commands and translation units
    "CompileDatabase": "syntax.compile_commands", "CompileEntry": "syntax.compile_commands",
    "CompileCommandsError": "syntax.compile_commands", "build_flags": "syntax.compile_commands",
    "find_compile_commands": "syntax.compile_commands", "load_compile_commands": "syntax.compile_commands",
    "folders_upwards": "syntax.compile_commands", "include_dirs": "syntax.compile_commands",
    "Unit": "units", "Includer": "units", "Headers": "units.headers", "AMBIGUOUS": "units.translation",
    "header_language": "units.translation",
    # analysing files and workspaces
    "FileAnalysis": "file_analysis", "analyze": "file_analysis", "analysis_steps": "file_analysis",
    "drain": "rules", "Build": "builds", "analyze_files": "builds", "header_context": "builds",
    "include_groups": "builds", "merged_groups": "builds", "with_overlay": "builds",
    "cross_file": "workspace", "cross_file_again": "workspace", "CrossFileTrace": "workspace",
    "FileResult": "workspace", "result_of": "workspace", "cross_file_results": "workspace",
    "summarized": "workspace", "with_lines": "workspace", "without_lines": "workspace",
    "workspace_context": "workspace",
    # device types and programs
    "UNSUPPORTED": "syntax.device_limits", "FileModel": "model.file_model", "Reference": "model.file_model",
    "Symbol": "model.file_model", "FileContext": "semantics.context", "DeviceGraph": "semantics.propagation",
    "Step": "semantics.propagation", "build_device_graph": "semantics.propagation:build",
    "in_build_of": "semantics.programs",
    # editor features
    "complete": "ide.completion", "hints": "ide.device_view", "mark_fix": "ide.device_view",
    "entity_at": "ide.device_view", "describe_directive_part": "ide.directive_hover:describe",
    "Outline": "ide.navigation", "outline": "ide.navigation", "entity_key_at": "ide.navigation",
    "find_definition": "ide.navigation:definition", "find_references": "ide.navigation:references",
    "TOKEN_LEGEND": "ide.semantic_tokens:LEGEND", "directive_tokens": "ide.semantic_tokens:tokens",
    # incremental re-analysis: the analysed text's padding, positions moved through edits, and an
    # edit of one directive, C/C++ function body or Fortran statement analysed again
    "Padding": "syntax.padding", "pad": "syntax.padding", "PositionLog": "incremental.positions",
    "anchors": "incremental.positions", "moved": "incremental.positions", "inert_edit": "incremental.positions",
    "edits_preprocessor_lines": "units.edits", "reanalyse_directive": "incremental.directive_edit:reanalyse",
    "reanalyse_procedure": "incremental.procedure_edit:reanalyse",
    "reanalyse_statement": "incremental.statement_edit:reanalyse", "graph_after_edit": "incremental.graph_edit",
    # records (the dataclasses without their start-up cost)
    "dataclass": "syntax.records", "field": "syntax.records", "replace": "syntax.records",
    # reading a user's file: regular files only, within a bound
    "read_regular_file": "syntax.regular_files", "require_regular_file": "syntax.regular_files",
    "MAX_SOURCE_BYTES": "syntax.regular_files",
}

__all__ = [
    "AMBIGUOUS",
    "CATALOGUE",
    "MAX_SOURCE_BYTES",
    "PROPAGATION_MODES",
    "SOURCE_EXTENSIONS",
    "TOKEN_LEGEND",
    "UNSUPPORTED",
    "Build",
    "ByteEdit",
    "CompileCommandsError",
    "CompileDatabase",
    "CompileEntry",
    "CrossFileTrace",
    "DeviceGraph",
    "Document",
    "Encoding",
    "FileAnalysis",
    "FileContext",
    "FileModel",
    "FileResult",
    "Finding",
    "Headers",
    "Includer",
    "Language",
    "LineIndex",
    "Options",
    "Outline",
    "Padding",
    "PositionLog",
    "Reference",
    "Related",
    "Severity",
    "Span",
    "Step",
    "Symbol",
    "TextEdit",
    "Unit",
    "analysis_steps",
    "analyze",
    "analyze_files",
    "anchors",
    "build_device_graph",
    "build_flags",
    "complete",
    "cross_file",
    "cross_file_again",
    "cross_file_results",
    "dataclass",
    "decode_source",
    "describe_directive_part",
    "directive_tokens",
    "drain",
    "edits_preprocessor_lines",
    "entity_at",
    "entity_key_at",
    "field",
    "find_compile_commands",
    "find_definition",
    "find_references",
    "folders_upwards",
    "graph_after_edit",
    "header_context",
    "header_language",
    "hints",
    "in_build_of",
    "include_dirs",
    "include_groups",
    "inert_edit",
    "language_for_id",
    "language_for_path",
    "load_compile_commands",
    "mark_fix",
    "merged_groups",
    "moved",
    "outline",
    "pad",
    "parse_version",
    "read_regular_file",
    "reanalyse_directive",
    "reanalyse_procedure",
    "reanalyse_statement",
    "replace",
    "require_regular_file",
    "result_of",
    "summarized",
    "with_lines",
    "with_overlay",
    "without_lines",
    "workspace_context",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, own_name = home.partition(":")
    value = getattr(importlib.import_module(f".{module}", __package__), own_name or name)
    globals()[name] = value
    return value
