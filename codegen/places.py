"""Places in a source file for the diagnostics of a build or run: the file analysed (its program
model), a span as `--check --format json` writes it, the main program."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from omp_lsp.analysis.check import Document, FileContext, FileModel


def analyse(source: str) -> tuple[Document, FileContext] | None:
    """The document and analysis context (program model, declare target binding) of a source
    file (None: not a language omp-lsp reads, or not a regular file one can read, or too large).
    Regular files only: a named pipe put in the source's place must not block the run's report."""
    from omp_lsp.analysis.check import (
        MAX_SOURCE_BYTES,
        Document,
        analysis_steps,
        drain,
        language_for_path,
        read_regular_file,
    )
    language = language_for_path(source)
    if language is None:
        return None
    try:
        data = read_regular_file(source, MAX_SOURCE_BYTES)
    except OSError:
        return None
    if len(data) > MAX_SOURCE_BYTES:
        return None
    document = Document(data, language)
    context = drain(analysis_steps(document, trace=False)).context
    return (document, context) if context is not None else None


def main_program(model: FileModel) -> tuple[int, int] | None:
    """The span of the main program's name: C/C++ `main`, a Fortran PROGRAM."""
    for scope in model.root.walk():
        if scope.kind == "program":
            return scope.symbol.name_span if scope.symbol is not None else (scope.span[0], scope.span[0])
    hits = [s for s in model.named(model.key_of("main")) if s.is_procedure and s.definition]
    return hits[0].name_span if hits else None


def position(document: Document, offset: int) -> tuple[int, int]:
    line, column = document.lines.position(offset, "utf-32")
    return line + 1, column + 1


def diagnostic(document: Document, path: str, span: tuple[int, int], code: str, severity: str,
                message: str) -> dict[str, Any]:
    line, column = position(document, span[0])
    end_line, end_column = position(document, span[1])
    return {"file": path, "line": line, "column": column, "end_line": end_line, "end_column": end_column,
            "severity": severity, "code": code, "message": message, "related": []}
