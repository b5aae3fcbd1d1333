"""omp-lsp analysis: pure functions from source text to OpenMP facts and diagnostics.

    >>> from omp_lsp.analysis import Document, Language, analyze
    >>> result = analyze(Document("#pragma omp targte\\n", Language.C))
    >>> [f.code for f in result.findings]
    ['OMP001']
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .file_analysis import FileAnalysis, analyze
    from .syntax.diagnostics import CATALOGUE, Finding, Severity
    from .syntax.document import Document, Language, language_for_id, language_for_path
    from .syntax.options import Options

# Where each name of the package's interface lives. Imported on first use (PEP 562), so that a
# program reading one submodule (`omp-lsp run` reads compile_commands and syntax) does not load
# the rules and the program model too.
_HOMES = {"FileAnalysis": "file_analysis", "analyze": "file_analysis", "CATALOGUE": "syntax.diagnostics",
          "Finding": "syntax.diagnostics", "Severity": "syntax.diagnostics", "Options": "syntax.options",
          "Document": "syntax.document", "Language": "syntax.document", "language_for_id": "syntax.document",
          "language_for_path": "syntax.document"}

__all__ = ["CATALOGUE", "Document", "FileAnalysis", "Finding", "Language", "Options", "Severity", "analyze",
           "language_for_id", "language_for_path"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
