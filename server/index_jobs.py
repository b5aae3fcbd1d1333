"""The workspace index's analyses in worker processes, so that indexing uses every CPU and the
server's loop stays free for the editor.

The server decides how each file is built (`unit_for`: its unit, language and options) and hands
that to a worker, which reads the file from disk, analyses it as `index_document` would and sends
back its text and summary (`summarized`: plain data, small once pickled). The server applies the
results in the order it would have analysed the files, and takes a worker's analysis only when
the file would still be built the same way, with the same open headers' texts (a file indexed
before it may have become its includer, a header may have been edited meanwhile); otherwise it
analyses that file itself, as without workers.

The workers are spawned, not forked (the server runs threads: a fork may copy a lock another
thread holds), once per index, and end with it.
"""
from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING

from omp_lsp.analysis.check import Document, Headers, analyze, dataclass, replace, summarized
from omp_lsp.server.sources import read_source

if TYPE_CHECKING:
    from omp_lsp.analysis.check import FileAnalysis, Language, Options, Unit

log = logging.getLogger("omp_lsp.server")

# Fewer files than this are analysed on the server's loop: starting a worker (an interpreter and
# the analysis' imports) costs about what analysing a dozen files of a thousand lines does.
MIN_POOLED_FILES = 16
PARENT_POLL_SECONDS = 0.5   # how soon a worker notices that the server was killed


@dataclass(frozen=True)
class Plan:
    """How the server would analyse a closed file now: what a worker is given (the unit without
    the server's header cache, and the open documents' texts that headers are read from)."""
    path: str
    unit: Unit
    language: Language
    options: Options
    overlay: dict[str, bytes]


@dataclass(frozen=True)
class Made:
    """A worker's analysis of a file: the file's text as it read it (None: nothing to analyse,
    `problem` says why when the file could not be read) and its summarised analysis."""
    source: bytes | None
    problem: str | None
    analysis: FileAnalysis | None


def same_build(plan: Plan, unit: Unit, language: Language, options: Options, overlay: dict[str, bytes]) -> bool:
    """Whether a file planned with `plan` would be analysed the same way now."""
    return language is plan.language and options == plan.options and unit.environment == plan.unit.environment \
        and unit.includer == plan.unit.includer and overlay.keys() == plan.overlay.keys() \
        and all(overlay[path] is text for path, text in plan.overlay.items())


def index_analysis(path: str, doc: Document, unit: Unit, language: Language, options: Options) -> FileAnalysis:
    """A closed file's analysis as the index keeps it: its summary (its model and tree dropped)."""
    if language is not doc.language:
        doc = Document(doc.source, language)
    return summarized(path, analyze(doc, options, path, unit))


class IndexPool:
    """Worker processes for one index: `submit` a plan, await its `Made` in the order wanted."""

    def __init__(self, jobs: int) -> None:
        self.broken = False
        self.executor = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_start_worker, initargs=(os.getpid(), gc.get_threshold()))

    def submit(self, plan: Plan) -> asyncio.Future[Made] | None:
        """The analysis of a file under way in a worker (None: the workers could not be started,
        the server analyses the file itself)."""
        if self.broken:
            return None
        # (the unit's header cache stays here: the worker reads headers with its own)
        shipped = replace(plan, unit=replace(plan.unit, headers=None))
        try:
            future: Future[Made] = self.executor.submit(_analyse, shipped)
        except (OSError, RuntimeError) as err:   # (the workers are started at the first submit)
            self.broken = True
            log.warning("workspace index: no worker processes (%s); the server indexes alone", err)
            return None
        return asyncio.wrap_future(future)

    def lost(self, err: BaseException) -> None:
        """A worker died (killed, say): the pool takes no more work; said once."""
        if not self.broken:
            self.broken = True
            log.warning("workspace index: a worker process ended (%s); the server indexes the rest", err)

    def close(self) -> None:
        """End the workers (the analyses not yet started are dropped)."""
        self.executor.shutdown(wait=False, cancel_futures=True)


# -- in the worker -------------------------------------------------------------------------------
_headers: Headers | None = None


def _start_worker(server: int, thresholds: tuple[int, ...]) -> None:
    # The server's stdout is the client's connection: nothing a worker prints may go there.
    os.dup2(2, 1)
    # as the server collects: the analysis makes many small linked records
    gc.set_threshold(*thresholds)
    threading.Thread(target=_end_with, args=(server,), name="omp-lsp-index-parent", daemon=True).start()


def _end_with(server: int) -> None:
    """End this worker once the server has ended: killed, it cannot close the workers' queue,
    and they would wait on it for ever."""
    while os.getppid() == server:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _worker_headers(overlay: dict[str, bytes]) -> Headers:
    """This worker's header cache, reading the open documents' texts it was given."""
    global _headers
    if _headers is None or _headers.overlay != overlay:
        _headers = Headers()
        _headers.overlay = dict(overlay)
    return _headers


def _analyse(plan: Plan) -> Made:
    """What `WorkspaceIndex.index_document` does with a closed file, in a worker."""
    doc, problem = read_source(plan.path)
    if doc is None:
        return Made(None, problem, None)
    unit = replace(plan.unit, headers=_worker_headers(plan.overlay))
    return Made(doc.source, problem, index_analysis(plan.path, doc, unit, plan.language, plan.options))
