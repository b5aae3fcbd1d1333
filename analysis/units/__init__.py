"""The preprocessor and translation units: what the compiler compiles of each file.

`Unit` says how a file is compiled (its compile command's macros and include folders, and for a
header, the includer's translation unit it is read in); `prepare` decides the build's
configuration of a document and gives the text the analysis reads (see `configuration`).
"""
from __future__ import annotations

from ..syntax.document import Document, Language, LineIndex
from ..syntax.records import dataclass
from .configuration import Configuration, Environment, Includer, configure, masked
from .headers import DISK, Headers


@dataclass(frozen=True)
class Unit:
    """How a file is compiled: its environment and, for a header, its includer."""
    environment: Environment = Environment()
    headers: Headers | None = DISK
    includer: Includer | None = None


DEFAULT = Unit()


def language_name(language: Language) -> str:
    return "fortran" if language.is_fortran else "cpp" if language is Language.CPP else "c"


def prepare(document: Document, unit: Unit | None, openmp_version: int, path: str = "") -> tuple[Document, Configuration]:
    """The build's configuration of `document`, and the document the analysis reads (the same
    one when nothing is blanked)."""
    unit = unit or DEFAULT
    includer = unit.includer
    configuration = configure(document.source, language_name(document.language), path, unit.environment,
                              openmp_version, unit.headers, includer.macros if includer is not None else None)
    configuration.includer = includer
    text = masked(document.source, configuration)
    if text is document.source:
        return document, configuration
    return Document(text, document.language, document.version, LineIndex.same_lines(text, document.lines)), configuration


__all__ = ["DEFAULT", "Configuration", "Environment", "Headers", "Includer", "Unit", "prepare"]
