"""The server's workspace index: every source file of the workspace folders (and of
compile_commands.json) analysed as it is on disk, in the background with work-done progress."""
from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types as lsp
from omp_lsp.analysis.check import Document, dataclass, language_for_path
from omp_lsp.server.config import find_project_file, read_project_file
from omp_lsp.server.escaping import file_path
from omp_lsp.server.index_jobs import MIN_POOLED_FILES, IndexPool, Made, Plan, index_analysis, same_build
from omp_lsp.server.progress import begin_progress
from omp_lsp.server.sources import (
    Excludes,
    Skipped,
    gitignore_patterns,
    read_source,
    walk,
)

if TYPE_CHECKING:
    from omp_lsp.analysis.check import CompileDatabase, FileAnalysis, Headers, Language, Options, Unit
    from omp_lsp.server.config import Config
    from omp_lsp.server.open_documents import OpenDocument
    from pygls.lsp.server import LanguageServer

    # (for the type checker the mixin is a language server: `OmpLanguageServer` derives from both)
    _Server = LanguageServer
else:
    _Server = object

log = logging.getLogger("omp_lsp.server")

MAX_INDEXED_FILES = 20_000       # a workspace folder larger than this is indexed only in part
INDEX_REPORT_EVERY = 20          # files between progress reports
SKIPPED_NAMED = 10               # entries the message about unreadable ones names

T = TypeVar("T")


async def off_the_loop(work: Callable[[], T]) -> T:
    """`work()` in a thread of its own while the event loop serves requests. A daemon thread: a
    walk of a slow file system must not keep the server from exiting (the default executor's
    threads are joined at exit)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if future.done():   # the index was cancelled meanwhile
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)   # type: ignore[arg-type]   # (None only with an error)

    def run() -> None:
        try:
            result, error = work(), None
        except BaseException as err:   # handed to the awaiting task
            result, error = None, err
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:   # the loop is closed: the server is exiting
            pass

    threading.Thread(target=run, name="omp-lsp-index", daemon=True).start()
    return await future


def source_files(roots: Sequence[str], excludes: Sequence[str]) -> tuple[list[str], list[Skipped]]:
    """The source files below the roots (a root may be a file) that the excludes and each
    folder's .gitignore leave, and what could not be read. Touches no server state: it runs in
    a thread."""
    paths: list[str] = []
    skipped: list[Skipped] = []
    for root in roots:
        if os.path.isfile(root):
            paths.append(root)
            continue
        if not os.path.isdir(root):
            continue
        try:
            ignored = gitignore_patterns(root)
        except OSError as err:
            skipped.append(Skipped(os.path.join(root, ".gitignore"), f"{err.strerror}; its patterns are not applied"))
            ignored = []
        paths.extend(walk(root, Excludes([*excludes, *ignored]), skipped))
    return paths, skipped


@dataclass
class OnDisk:
    """A file's analysis as indexed from disk, kept while the file is open (the workspace index
    under the editor's text): closing the file puts it back, without reading the file into an
    analysis again, when the file still has that text and would be analysed in the same unit.
    For a closed file it is the file's analysis itself (nothing more is held)."""
    analysis: FileAnalysis
    unit: Unit
    options: Options
    text: int            # hash of the text on disk it was made from


class WorkspaceIndex(_Server):
    """The index part of `OmpLanguageServer` (a mixin: the state it reads is the server's)."""

    if TYPE_CHECKING:   # what this part reads of the server's state and methods (see lsp.OmpLanguageServer)
        config: Config
        open: dict[str, OpenDocument]
        database: CompileDatabase | None
        index_task: asyncio.Task[None] | None
        index_jobs: int
        indexed: bool
        headers: Headers
        project_path: str | None
        project_settings: dict[str, Any]
        project_problems: list[str]
        units: dict[str, Unit]
        analyses: dict[str, FileAnalysis]
        on_disk: dict[str, OnDisk]

        def forget_on_disk(self, path: str) -> None: ...
        def same_unit(self, path: str, language: Language, unit: Unit, options: Options) -> bool: ...
        def reconfigure(self, reanalyse: bool = False) -> None: ...
        def set_analysis(self, path: str, analysis: FileAnalysis | None) -> None: ...
        def update_results(self, changed: str | None = None) -> None: ...
        def open_at(self, path: str) -> OpenDocument | None: ...
        def unit_for(self, path: str, language: Language) -> tuple[Unit, Language, Options]: ...

    @staticmethod
    def path_of(uri: str) -> str:
        return file_path(uri)

    def roots(self) -> list[str]:
        roots = [self.path_of(f.uri) for f in self.workspace.folders.values()]
        if not roots and self.workspace.root_path:
            roots = [self.workspace.root_path]
        return roots

    def start_indexing(self) -> None:
        """Read the workspace's settings files now, then index it in the background (once)."""
        if self.index_task is None:
            roots = self.roots()
            self.load_compile_commands(roots)
            self.load_project_file(roots)
            self.reconfigure()
            self.index_task = asyncio.ensure_future(self.index_with_progress())

    async def index_with_progress(self) -> None:
        """Index the workspace with work-done progress (a progress bar in the editor) where the
        client shows it. The folders are walked and each file read in a thread; the analyses
        are made and applied on the event loop, one file at a time, so requests are served
        meanwhile. Cross-file findings wait for the whole index (a partial one would miss
        definitions). What cannot be read is skipped and named in one log message."""
        token = await begin_progress(self, f"omp-lsp-index-{id(self)}", lsp.WorkDoneProgressBegin(
            title="omp-lsp: indexing the workspace", percentage=0, cancellable=False))
        total = 0
        skipped: list[Skipped] = []
        try:
            roots = self.roots()
            if self.database is not None:   # files of the program outside the folders take part too
                roots = [*roots, *(f for f in self.database.files() if not any(f.startswith(r) for r in roots))]
            excludes = list(self.config.exclude)
            paths, skipped = await off_the_loop(partial(source_files, roots, excludes))
            open_paths = {state.path for state in self.open.values()}
            paths = [p for p in dict.fromkeys(paths) if p not in open_paths]
            if len(paths) > MAX_INDEXED_FILES:
                log.warning("workspace index: more than %d source files; the rest are not indexed", MAX_INDEXED_FILES)
                paths = paths[:MAX_INDEXED_FILES]
            total = len(paths)
            pool = self.index_pool(total)
            try:
                # (a file's plan and analysis are made before the earlier files' results apply:
                # index_document takes the analysis only if the file would still be built so)
                plans = [self.plan(path) if pool is not None else None for path in paths]
                made = [pool.submit(plan) if pool is not None and plan is not None else None for plan in plans]
                for done, path in enumerate(paths, start=1):
                    doc, problem, analysis = await self.read_or_receive(path, pool, made[done - 1])
                    if problem is not None:
                        skipped.append(Skipped(path, problem))
                    if self.open_at(path) is None:   # opened meanwhile: the editor's text counts
                        plan = plans[done - 1]
                        self.index_document(path, doc, (plan, analysis) if plan is not None and analysis is not None
                                            else None)
                    if token is not None and (done % INDEX_REPORT_EVERY == 0 or done == total):
                        self.work_done_progress.report(token, lsp.WorkDoneProgressReport(
                            message=f"{done}/{total} files", percentage=int(100 * done / total)))
            finally:
                if pool is not None:
                    pool.close()
        except Exception:   # the server never dies on an indexing problem: what was read counts
            log.exception("workspace index failed")
        finally:
            if token is not None:
                self.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=f"{total} files indexed"))
            self.indexed = True
        if skipped:
            self.report_skipped(skipped)
        self.update_results()

    def index_pool(self, files: int) -> IndexPool | None:
        """Worker processes for an index of that many files (None: it is made on this loop)."""
        if self.index_jobs < 2 or files < MIN_POOLED_FILES:
            return None
        try:
            return IndexPool(min(self.index_jobs, files))
        except (OSError, ImportError, NotImplementedError) as err:   # (no shared memory for its locks, say)
            log.warning("workspace index: no worker processes (%s); the server indexes alone", err)
            return None

    def plan(self, path: str) -> Plan | None:
        """How a closed file would be analysed now, for a worker (None: it is no source file)."""
        language = language_for_path(path)
        if language is None:
            return None
        unit, language, options = self.unit_for(path, language)
        return Plan(path, unit, language, options, dict(self.headers.overlay))

    async def read_or_receive(self, path: str, pool: IndexPool | None, made: asyncio.Future[Made] | None
                              ) -> tuple[Document | None, str | None, FileAnalysis | None]:
        """A closed file's document, why it could not be read, and a worker's analysis of it
        (None: read here, to be analysed here; also when its worker failed)."""
        if pool is not None and made is not None:
            try:
                found = await made
            except BrokenProcessPool as err:   # a worker died (killed): the rest is indexed here
                pool.lost(err)
            except Exception as err:   # (its analysis failed there: it is made here, as without workers)
                log.warning("workspace index: %s: analysed in the server (%s: %s)", path, type(err).__name__, err)
            else:
                if found.source is None:
                    return None, found.problem, None
                language = language_for_path(path)
                assert language is not None   # (a file without a plan was not sent)
                return Document(found.source, language), found.problem, found.analysis
        doc, problem = await off_the_loop(partial(read_source, path))
        return doc, problem, None

    def report_skipped(self, skipped: list[Skipped]) -> None:
        """One log message for everything the index could not read (not one per file)."""
        named = "; ".join(str(s) for s in skipped[:SKIPPED_NAMED])
        more = f"; and {len(skipped) - SKIPPED_NAMED} more" if len(skipped) > SKIPPED_NAMED else ""
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Warning,
            f"omp-lsp: the workspace index skipped {len(skipped)} unreadable "
            f"{'entry' if len(skipped) == 1 else 'entries'} (the rest is indexed): {named}{more}"))

    async def wait_indexed(self) -> None:
        if self.index_task is not None and not self.index_task.done():
            await asyncio.shield(self.index_task)

    def load_compile_commands(self, roots: list[str]) -> None:
        from omp_lsp.analysis.check import CompileCommandsError, find_compile_commands, load_compile_commands
        for root in roots:
            path = find_compile_commands(root)
            if path is None:
                continue
            try:
                self.database = load_compile_commands(path)
            except CompileCommandsError as err:
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, f"omp-lsp: {err}"))
                continue
            return

    def reload_settings_files(self, compile_commands: bool) -> None:
        """A project file or compile_commands.json changed on disk: read them again and apply
        what changed (every file is analysed again when the compile commands changed: their
        macros and include folders are part of what the analysis reads)."""
        roots = self.roots()
        self.project_path, self.project_settings, self.project_problems = None, {}, []
        self.load_project_file(roots)
        if compile_commands:
            self.database = None
            self.load_compile_commands(roots)
        self.reconfigure(reanalyse=compile_commands)

    def load_project_file(self, roots: list[str]) -> None:
        """The project file of the first workspace folder that has one (read at indexing)."""
        for root in roots:
            path = find_project_file(root)
            if path is not None:
                self.project_path = path
                self.project_settings, self.project_problems = read_project_file(path)
                return

    def index_file(self, path: str) -> None:
        """A closed file as it is on disk (a named pipe or a device is not read: see sources)."""
        doc, problem = read_source(path)
        if problem is not None:
            log.warning("workspace index: %s: %s", path, problem)
        self.index_document(path, doc)

    def index_document(self, path: str, doc: Document | None,
                       made: tuple[Plan, FileAnalysis] | None = None) -> None:
        """A closed file's text analysed and applied (None: it has none the analysis reads).
        `made`: a worker's analysis of that text, taken if the file would be built as planned."""
        if doc is None:
            self.set_analysis(path, None)
            return
        text = hash(doc.source)
        kept = self.on_disk.get(path)
        if kept is not None and kept.analysis is not self.analyses.get(path) and kept.text == text \
                and self.same_unit(path, kept.analysis.document.language, kept.unit, kept.options):
            # closed again, unchanged: the index's analysis from before it was opened
            self.units[path] = kept.unit
            self.set_analysis(path, kept.analysis)
            return
        try:
            unit, language, options = self.unit_for(path, doc.language)
            if made is not None and same_build(made[0], unit, language, options, self.headers.overlay):
                analysis = made[1]
            else:   # (kept as its summary while it is closed)
                analysis = index_analysis(path, doc, unit, language, options)
        except Exception:  # the server never dies on an analysis bug
            log.exception("analysis failed for %s", path)
            return
        self.units[path] = unit
        self.forget_on_disk(path)
        self.on_disk[path] = OnDisk(analysis, unit, options, text)
        self.set_analysis(path, analysis)
