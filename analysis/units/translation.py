"""Translation units: which files include which, the language of a header, and the includer a
header is read in.

A header is never compiled alone: the compiler reads it inside the translation unit of a file
that includes it, in that file's language, with the macros defined where the `#include` stands,
and, for a fragment included inside a function body, inside that function. As clangd does for a
header's compile command, omp-lsp picks one includer and reads the header there.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable

from ..syntax.document import Language, language_for_path
from .configuration import Environment
from .headers import Headers
from .lines import scan

# Extensions whose language the includers decide (a `.h` is C or C++).
AMBIGUOUS = frozenset({".h"})
_HEADER_EXTENSIONS = frozenset({".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".cuh", ".tcc", ".ipp", ".inl"})
# C++-only syntax at the start of a line or after blanks: templates, classes, namespaces, access
# specifiers, `using namespace` (a C header under `#ifdef __cplusplus` writes only `extern "C"`).
_CPP_SYNTAX = re.compile(rb"^[ \t]*(?:template[ \t]*<|namespace(?:[ \t]+\w+)?[ \t]*\{|(?:class|struct)[ \t]+\w+"
                         rb"[ \t]*(?:final[ \t]*)?:[ \t]*(?:public|private|protected)\b|class[ \t]+\w+[ \t]*\{|"
                         rb"(?:public|private|protected)[ \t]*:|using[ \t]+namespace\b)", re.MULTILINE)
_FORTRAN_INCLUDE = re.compile(rb"^[ \t]*include[ \t]*['\"]([^'\"\n]+)['\"]", re.MULTILINE | re.IGNORECASE)


def is_header(path: str) -> bool:
    return os.path.splitext(path)[1] in _HEADER_EXTENSIONS


def cpp_syntax(source: bytes) -> bool:
    """Whether a header's text holds syntax only C++ has."""
    return _CPP_SYNTAX.search(source) is not None


def header_language(path: str, source: bytes, includers: Iterable[Language], command: Language | None = None) -> Language | None:
    """The language a file is read in: a `.h` takes its includers' (C++ if any is C++), else its
    compile command's (`-x c++`), else C++ when its text holds C++-only syntax, else C. Other
    files keep their extension's language, unless a command says otherwise."""
    own = language_for_path(path)
    if os.path.splitext(path)[1] not in AMBIGUOUS:
        return command if command is not None and own is not None and not own.is_fortran else own
    langs = set(includers)
    if Language.CPP in langs:
        return Language.CPP
    if Language.C in langs:
        return Language.C
    if command is not None:
        return command
    return Language.CPP if cpp_syntax(source) else Language.C


def included_files(source: bytes, path: str, fortran: bool, environment: Environment, headers: Headers) -> list[str]:
    """The project files a text includes, whichever branch holds the include (a fast scan,
    without macros: what may be part of its translation unit)."""
    folder = os.path.dirname(path)
    out: dict[str, None] = {}
    for line in scan(source, fortran):
        if line.keyword not in ("include", "import", "include_next"):
            continue
        text = line.text
        if text[:1] == b'"':
            close = text.find(b'"', 1)
            header, angle = text[1:close], False
        elif text[:1] == b"<":
            close = text.find(b">", 1)
            header, angle = text[1:close], True
        else:
            continue
        if close < 0:
            continue
        found = headers.find(header.decode("utf-8", "replace"), angle, folder, environment.quote_dirs, environment.dirs)
        if found is not None:
            out[found] = None
    if fortran:
        for m in _FORTRAN_INCLUDE.finditer(source):
            found = headers.find(m.group(1).decode("utf-8", "replace"), False, folder, environment.quote_dirs,
                                 environment.dirs)
            if found is not None:
                out[found] = None
    return list(out)


def includers_of(graph: dict[str, list[str]]) -> dict[str, list[str]]:
    """path -> the files that include it (the reverse of `graph`: path -> files it includes)."""
    out: dict[str, list[str]] = {}
    for path, included in graph.items():
        for header in included:
            if header != path:
                out.setdefault(header, []).append(path)
    return out


def choose(includers: list[str], preferred: Callable[[str], tuple[object, ...]]) -> list[str]:
    """The includers in the order a header is read in them: `preferred` ranks them (lower first:
    files the build compiles, C++ ones, then by path)."""
    return sorted(includers, key=lambda p: (*preferred(p), p))


__all__ = ["AMBIGUOUS", "choose", "cpp_syntax", "header_language", "included_files", "includers_of", "is_header"]
