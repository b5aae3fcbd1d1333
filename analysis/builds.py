"""How the files of a workspace are compiled, and each file analysed as the compiler reads it.

`Build` holds what decides a file's configuration: the compile database (its command for the
file), the macros and include folders the project file and the command line add, and the
headers the preprocessor reads. `analyze_files` analyses every file of a workspace: the files
nothing includes first, each with its own command; then every header inside the translation
unit of one includer (its language, the macros defined where the `#include` stands, and for
a fragment included in a function body, that function), as clangd reads a header.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Set as AbstractSet

from .file_analysis import FileAnalysis, analyze
from .semantics.context import FileContext
from .syntax.compile_commands import CompileDatabase, CompileEntry
from .syntax.document import Document, Language
from .syntax.groups import joined
from .syntax.options import Options
from .syntax.records import dataclass, field, replace
from .units import Includer, Unit
from .units.commands import command_language, entry_environment, extended
from .units.configuration import Environment
from .units.headers import DISK, Headers
from .units.translation import AMBIGUOUS, choose, header_language, included_files, includers_of, is_header


@dataclass(frozen=True)
class Build:
    """What decides each file's configuration besides its text."""
    database: CompileDatabase | None = None
    definitions: tuple[tuple[str, str], ...] = ()   # -D/-U for every file (project file, --check), after its command's
    include_dirs: tuple[str, ...] = ()              # -I folders for every file, after its command's
    headers: Headers = field(default_factory=lambda: DISK)
    file_versions: bool = True                      # a command's -fopenmp-version decides its file's version

    def entry(self, path: str) -> CompileEntry | None:
        return self.database.entry_for(path) if self.database is not None else None

    def environment(self, path: str) -> Environment:
        entry = self.entry(path)
        base = entry_environment(entry) if entry is not None else Environment()
        return extended(base, self.definitions, self.include_dirs)

    def options(self, path: str, options: Options) -> Options:
        """The options a file is analysed with: its command's OpenMP version, unless the version
        was chosen for every file (the project file, a setting, --openmp-version)."""
        entry = self.entry(path)
        if not self.file_versions or entry is None or entry.openmp_version is None \
                or entry.openmp_version == options.openmp_version:
            return options
        return replace(options, openmp_version=entry.openmp_version)

    def unit(self, path: str, includer: Includer | None = None) -> Unit:
        return Unit(self.environment(path) if includer is None else self.environment(includer.path),
                    self.headers, includer)

    def command_language(self, path: str) -> Language | None:
        entry = self.entry(path)
        return command_language(entry.arguments) if entry is not None else None


def with_overlay(headers: Headers, documents: dict[str, Document]) -> Headers:
    """Headers that read the given documents' texts rather than the disk's (they may differ)."""
    if headers is not DISK and all(headers.overlay.get(p) is d.source for p, d in documents.items()):
        return headers   # (already: a group of a workspace's files, analysed with the workspace's overlay)
    found = Headers()
    found.overlay = {path: doc.source for path, doc in documents.items()}
    if headers is not DISK:
        found.overlay = {**headers.overlay, **found.overlay}
    return found


def include_graph(documents: dict[str, Document], build: Build) -> dict[str, list[str]]:
    """path -> the documents its text includes (any branch: see translation.included_files)."""
    keys = {_key(p): p for p in documents}
    graph: dict[str, list[str]] = {}
    for path, doc in documents.items():
        found = included_files(doc.source, path, doc.language.is_fortran, build.environment(path), build.headers)
        graph[path] = [keys[k] for k in map(_key, found) if k in keys]
    return graph


def include_groups(documents: dict[str, Document], build: Build) -> list[list[str]]:
    """The documents in groups, each in the documents' order, such that no file includes one of
    another group: `analyze_files` on each group analyses its files as on all the documents
    (given `build` with every document's text: `with_overlay`)."""
    graph = include_graph(documents, build) if len(documents) > 1 else {}
    return joined(list(documents), ((path, other) for path, included in graph.items() for other in included))


def merged_groups(paths: list[str], groups: list[list[str]], reached: dict[str, tuple[str, ...]]) -> list[list[str]]:
    """`groups` with those joined whose files' translation units reach a file of another
    (`reached`: each analysed file's `Configuration.entries`, what the preprocessor read; the
    scan behind `include_groups` may miss an include, as one a header makes through the folders
    of its includer's command). `paths`: the documents, in their order, which each group keeps."""
    by_key = {_key(p): p for p in paths}
    held = set(paths)
    pairs = [(group[0], p) for group in groups for p in group[1:]]
    pairs += [(path, by_key[_key(file)]) for path, files in reached.items() if path in held
              for file in files if _key(file) in by_key]
    return joined(paths, pairs)


def _key(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


def analyze_files(documents: dict[str, Document], options: Options | None = None, build: Build | None = None,
                  progress: Callable[[str], None] | None = None) -> dict[str, FileAnalysis]:
    """Every document analysed as the compiler reads it (see the module docstring); the
    cross-file rules are not run (`workspace.cross_file`)."""
    options = options or Options()
    build = build or Build()
    build = replace(build, headers=with_overlay(build.headers, documents))
    # (one file alone includes none of the others: nothing to look for)
    includers = includers_of(include_graph(documents, build)) if len(documents) > 1 else {}
    analyses: dict[str, FileAnalysis] = {}

    def run(path: str, document: Document, includer: Includer | None) -> None:
        # a header is compiled with its includer's command (its OpenMP version too)
        own = build.options(path if includer is None else includer.path, options)
        analyses[path] = analyze(document, own, path, build.unit(path, includer))
        if progress is not None:
            progress(path)

    for path, doc in documents.items():
        if path not in includers and not is_header(path):
            run(path, _in_language(path, doc, [], build), None)
    # the files each header is entered from: its includers, and the translation units' own files
    # that reach it through other headers (where the build first enters it)
    keys = {_key(p): p for p in documents}
    for root in [p for p in analyses]:
        configuration = analyses[root].configuration
        for header in configuration.entries if configuration is not None else ():
            known = keys.get(_key(header))
            if known is not None and known != root and root not in includers.setdefault(known, []):
                includers[known].append(root)
    waiting = [p for p in documents if p in includers and p not in analyses]
    while waiting:   # headers whose includers are analysed (nested headers wait a round)
        ready = [p for p in waiting if any(i in analyses for i in includers[p])]
        if not ready:
            break
        for path in ready:
            found = header_context(path, includers[path], analyses, build, set(includers))
            languages = [analyses[i].document.language for i in includers[path] if i in analyses]
            run(path, _in_language(path, documents[path], languages, build), found)
        waiting = [p for p in waiting if p not in analyses]
    for path in [*waiting, *(p for p in documents if p not in analyses and p not in waiting)]:
        # included by no file the build compiles (or only in a cycle): read alone
        run(path, _in_language(path, documents[path], [], build), None)
    return {path: analyses[path] for path in documents}


def _in_language(path: str, document: Document, includers: list[Language], build: Build) -> Document:
    """The document in the language it is compiled in (a `.h` takes its includers')."""
    if os.path.splitext(path)[1] not in AMBIGUOUS and build.command_language(path) is None:
        return document
    language = header_language(path, document.source, includers, build.command_language(path))
    if language is None or language is document.language:
        return document
    return Document(document.source, language, document.version)


def header_context(path: str, includers: list[str], analyses: dict[str, FileAnalysis], build: Build,
                   headers: AbstractSet[str] = frozenset()) -> Includer | None:
    """The includer a header is read in: one whose build enters it (files no other includes
    first, then those in the compile database, then C++ ones, then by path), and where it first
    enters it. `headers`: the files that others include."""
    def preferred(p: str) -> tuple[object, ...]:
        analysis = analyses.get(p)
        return (p in headers, build.entry(p) is None,
                analysis is None or analysis.document.language is not Language.CPP)
    for includer in choose([p for p in includers if p in analyses], preferred):
        found = includer_context(includer, analyses[includer], path)
        if found is not None:
            return found
    return None


def includer_context(includer: str, analysis: FileAnalysis, header: str) -> Includer | None:
    """Where `analysis` (of `includer`) includes `header`, if its build compiles the include."""
    configuration, ctx = analysis.configuration, analysis.context
    if configuration is None or ctx is None:
        return None
    entry = configuration.entry(header)
    if entry is None:
        key = _key(header)
        entry = next((e for p, e in configuration.entries.items() if _key(p) == key), None)
        if entry is None:
            return None
    offset, macros = entry
    kept = analysis.summary.enclosing.get(offset) if analysis.summary is not None else None
    function, target = kept if kept is not None else _enclosing(ctx, offset)
    return Includer(includer, offset, macros, function, target)


def enclosing_includes(ctx: FileContext) -> dict[int, tuple[str | None, bool]]:
    """`_enclosing` of every place where the file includes another (what `includer_context`
    reads of it), for a summary that outlives its model."""
    configuration = ctx.configuration
    offsets = {offset for offset, _ in configuration.entries.values()} if configuration is not None else set()
    return {offset: _enclosing(ctx, offset) for offset in sorted(offsets)}


def _enclosing(ctx: FileContext, offset: int) -> tuple[str | None, bool]:
    """(the function whose body holds `offset`, whether a target region holds it)."""
    region = ctx.regions.at(offset) if ctx.directives else None
    target = region is not None and not region.ancestor
    scope = ctx.model.scope_at(offset, expand=False)
    unit = scope.enclosing("function", "subroutine", "program")
    if unit is None:
        return None, target
    symbol = unit.symbol
    return (symbol.name if symbol is not None else unit.name or "main"), target


__all__ = ["Build", "analyze_files", "enclosing_includes", "header_context", "include_graph", "include_groups",
           "includer_context", "merged_groups", "with_overlay"]
