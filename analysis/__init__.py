"""omp-lsp analysis: pure functions from source text to OpenMP facts and diagnostics.

    >>> from omp_lsp.analysis import Document, Language, analyze
    >>> result = analyze(Document("#pragma omp targte\\n", Language.C))
    >>> [f.code for f in result.findings]
    ['OMP001']
"""
from .check import FileAnalysis, analyze
from .diagnostics import CATALOGUE, Finding, Severity
from .options import Options
from .syntax import Document, Language, language_for_id, language_for_path

__all__ = ["CATALOGUE", "Document", "FileAnalysis", "Finding", "Language", "Options", "Severity", "analyze",
           "language_for_id", "language_for_path"]
