"""How the server compiles each file: the build (compile_commands.json, the settings' macros
and include folders), the headers the preprocessor reads (open documents' live texts first), and
for a header, the includer whose translation unit it is read in (as clangd picks an includer's
compile command for a header). A mixin of `OmpLanguageServer`, like the workspace index.
"""
from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any

from omp_lsp.analysis.check import (
    AMBIGUOUS,
    Build,
    FileAnalysis,
    Headers,
    Includer,
    Language,
    Options,
    Unit,
    header_context,
    header_language,
)

if TYPE_CHECKING:
    from omp_lsp.analysis.check import CompileDatabase
    from omp_lsp.server.config import Config
    from omp_lsp.server.open_documents import OpenDocument
    from pygls.lsp.server import LanguageServer

    # (for the type checker the mixin is a language server: `OmpLanguageServer` derives from both)
    _Server = LanguageServer
else:
    _Server = object


def _key(includer: Includer | None) -> tuple[object, ...] | None:
    """What of an includer a header's analysis depends on (not where in the includer the include
    stands: typing above it moves it)."""
    if includer is None:
        return None
    return includer.path, includer.macros, includer.function, includer.target


class TranslationUnits(_Server):
    """The units part of `OmpLanguageServer` (a mixin: the state it reads is the server's)."""

    headers: Headers
    includers: dict[str, set[str]]     # file -> the files whose build includes it
    units: dict[str, Unit]             # file -> the unit its analysis was made with
    stale: dict[str, None]             # closed files to analyse again, in order
    stale_task: asyncio.Task[None] | None

    if TYPE_CHECKING:   # what this part reads of the server's state and methods (see lsp.OmpLanguageServer)
        analyses: dict[str, FileAnalysis]
        client_settings: dict[str, Any]
        config: Config
        database: CompileDatabase | None
        options: Options
        project_path: str | None
        project_settings: dict[str, Any]

        def open_at(self, path: str) -> OpenDocument | None: ...
        def schedule(self, state: OpenDocument) -> None: ...
        def update_results(self, changed: str | None = None) -> None: ...
        def roots(self) -> list[str]: ...
        def index_file(self, path: str) -> None: ...

    def build(self) -> Build:
        config = self.config
        base = os.path.dirname(self.project_path) if self.project_path else (self.roots() or [os.getcwd()])[0]
        dirs = tuple(os.path.normpath(os.path.join(base, d)) for d in config.include_paths)
        chosen = "openmpVersion" in self.client_settings or any(
            k.replace("-", "").replace("_", "").lower() == "openmpversion" for k in self.project_settings)
        return Build(self.database, config.defines, dirs, self.headers, file_versions=not chosen)

    def unit_for(self, path: str, language: Language) -> tuple[Unit, Language, Options]:
        """The unit a file is analysed in, its language, and its options."""
        build = self.build()
        includer = None
        includers = sorted(self.includers.get(path, ()))
        if includers:
            includer = header_context(path, includers, self.analyses, build, set(self.includers))
        if os.path.splitext(path)[1] in AMBIGUOUS or build.command_language(path) is not None:
            langs = [self.analyses[i].document.language for i in includers if i in self.analyses]
            language = header_language(path, b"" if langs else self._text(path), langs,
                                       build.command_language(path)) or language
        return build.unit(path, includer), language, build.options(path if includer is None else includer.path,
                                                                     self.options)

    def _text(self, path: str) -> bytes:
        state = self.open_at(path)
        if state is not None:
            return state.doc.source
        return self.headers.text(path) or b""

    def note_includes(self, path: str, analysis: FileAnalysis | None) -> set[str]:
        """Record which files `path`'s build includes; the headers whose includer context this
        may have changed (to be analysed again)."""
        before = {h for h, who in self.includers.items() if path in who}
        configuration = analysis.configuration if analysis is not None else None
        now = set(configuration.entries) if configuration is not None else set()
        for header in before - now:
            self.includers[header].discard(path)
            if not self.includers[header]:
                del self.includers[header]
        for header in now:
            self.includers.setdefault(header, set()).add(path)
        return {h for h in before | now if h != path and self._context_changed(h)}

    def _context_changed(self, header: str) -> bool:
        used = self.units.get(header)
        if used is None or header not in self.analyses:
            return False
        includers = sorted(self.includers.get(header, ()))
        found = header_context(header, includers, self.analyses, self.build(), set(self.includers)) \
            if includers else None
        return _key(found) != _key(used.includer)

    def same_unit(self, path: str, language: Language, unit: Unit, options: Options) -> bool:
        """Whether the file would be analysed now as it was with `unit`, `language` and `options`."""
        now, now_language, now_options = self.unit_for(path, language)
        return now_language is language and now_options == options and now.environment == unit.environment \
            and _key(now.includer) == _key(unit.includer)

    def analyse_again(self, path: str) -> None:
        """Analyse a file again soon: an open one from its live text, a closed one from disk
        (between other messages, and once however often it is asked for meanwhile)."""
        state = self.open_at(path)
        if state is not None:
            state.outdated()   # (an analysis being made read the former headers)
            state.retokenize = True
            self.schedule(state)
        elif path in self.analyses:
            self.index_soon(path)

    def index_soon(self, path: str) -> None:
        """Index a closed file again from disk, between other messages; the results once for all
        the files asked for meanwhile."""
        self.stale[path] = None
        if self.stale_task is None or self.stale_task.done():
            self.stale_task = asyncio.ensure_future(self.analyse_stale())

    async def analyse_stale(self) -> None:
        while self.stale:
            await asyncio.sleep(0)
            path = next(iter(self.stale))
            del self.stale[path]
            if self.open_at(path) is None:
                self.index_file(path)
        self.update_results()

    def includers_of(self, path: str) -> list[str]:
        """The files whose translation unit holds `path` (they read its definitions)."""
        return [p for p, a in self.analyses.items()
                if p != path and a.configuration is not None and path in a.configuration.translation_unit]


__all__ = ["TranslationUnits"]
