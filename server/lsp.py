"""The language server: a thin pygls adapter over omp_lsp.analysis.

The server keeps one analysis per file of the workspace (`analyses`: closed files read from disk,
open documents from the editor) and the cross-file results over all of them (`results`). Open
documents are `OpenDocument`s: their live text takes every `didChange` edit at once (text and
line index), and the analysis takes the edits that came meanwhile together (`take_edits`): an inert
edit (comment text, blanks in a directive) only moves positions, one inside a directive or a
function body re-analyses only that, anything else starts a new analysis that runs rule by rule
between other messages, takes the edits made meanwhile once it is in (dropped when they are too
many), and is published with the version it describes.

Features live in `server/features/`, one module each; the workspace index in
`server/workspace_index.py`; the protocol in `server/protocol.py`; the running instance, with the
features attached, in `server/app.py`. This module holds the state they share, settings, the scheduling of analyses, and positions (UTF-16 by default, through `LineIndex`
only).
"""
from __future__ import annotations

import asyncio
import enum
import gc
import logging
from collections.abc import Callable, Collection, Generator
from typing import Any, Final, TypeVar, cast

from lsprotocol import types as lsp
from omp_lsp.analysis.check import (
    CompileDatabase,
    CrossFileTrace,
    DeviceGraph,
    Document,
    Encoding,
    FileAnalysis,
    Finding,
    Headers,
    Options,
    PositionLog,
    Severity,
    Span,
    analysis_steps,
    anchors,
    cross_file_again,
    graph_after_edit,
    moved,
    pad,
    workspace_context,
)
from omp_lsp.server.allocator import give_back_memory
from omp_lsp.server.config import Config, apply
from omp_lsp.server.escaping import file_uri
from omp_lsp.server.open_documents import Inflight, OpenDocument
from omp_lsp.server.protocol import OmpProtocol
from omp_lsp.server.sources import MAX_ANALYSED_BYTES
from omp_lsp.server.units import TranslationUnits
from omp_lsp.server.workspace_index import OnDisk, WorkspaceIndex
from pygls.exceptions import FeatureRequestError
from pygls.lsp.server import LanguageServer

from omp_lsp import __version__

log = logging.getLogger("omp_lsp.server")

# An analysis replaced by a newer one is released (FileContext.release breaks its reference
# cycles, so that it is freed at once); what cycles remain waits for a full collection, which the
# collector's high thresholds (server.cli) make rare: the server collects once the editor has been
# quiet for a while, or once the replaced models were made of this many bytes of text (a full
# collection walks every object: it costs more the more files are open), and then hands the freed
# heap back to the system (a burst of edits leaves it in pieces that the C allocator otherwise keeps).
IDLE_COLLECT_SECONDS = 0.25   # a quiet time longer than a fast typist's pauses between keys
MAX_UNCOLLECTED = 10_000_000
RESULTS_WAIT = 0.25   # seconds the cross-file results wait for other documents' analyses

T = TypeVar("T")


class _Failed(enum.Enum):
    FAILED = enum.auto()


_FAILED: Final = _Failed.FAILED     # an analysis that raised


_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.INFORMATION: lsp.DiagnosticSeverity.Information, Severity.HINT: lsp.DiagnosticSeverity.Hint}


class OmpLanguageServer(WorkspaceIndex, TranslationUnits, LanguageServer):
    def __init__(self) -> None:
        super().__init__("omp-lsp", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
                         protocol_cls=OmpProtocol)
        self.shutdown_received = False   # the exit code: 0 after `shutdown`, 1 without (the protocol's rule)
        self.open: dict[str, OpenDocument] = {}             # uri -> open document
        self.options = Options()
        self.analyses: dict[str, FileAnalysis] = {}     # workspace files and open documents, by path
        self.results: dict[str, FileAnalysis] = {}      # the same with the cross-file findings added
        self.published: dict[str, list[lsp.Diagnostic]] = {}   # uri -> diagnostics last sent
        self.index_task: asyncio.Task[None] | None = None
        self.index_jobs = 1                                  # processes that index the workspace (-j)
        self.indexed = False                                 # the workspace index is complete
        self.config = Config()
        self.client_settings: dict[str, Any] = {}           # initializationOptions / workspace configuration
        self.project_path: str | None = None                 # .omp-lsp.toml or pyproject.toml [tool.omp-lsp]
        self.project_settings: dict[str, Any] = {}
        self.project_problems: list[str] = []
        self.reported: set[str] = set()                      # messages already shown once
        self.configuration_pull: asyncio.Future[None] | None = None   # workspace/configuration under way
        # kept across edits: each file's graph made from its previous one, re-propagated incrementally
        self.graph = DeviceGraph(self.options.propagation, graph_after_edit)
        self.database: CompileDatabase | None = None         # the workspace's compile_commands.json
        self.retired: list[FileAnalysis] = []                # replaced analyses, released after the next results
        self.uncollected = 0                                 # bytes of the models released since the last collection
        self.released = False                                # anything released since then
        self.collect_handle: asyncio.TimerHandle | None = None
        # the results are computed once for the analyses that come in together (`results_soon`)
        self.results_due = False
        self.to_publish: set[str] = set()                    # URIs to publish with those results
        self.results_task: asyncio.Task[None] | None = None
        self.cross_trace: CrossFileTrace | None = None       # the cross-file rules' last run
        # (build_run) file path -> built file's path -> what its last build said about the file
        self.build_diagnostics: dict[str, dict[str, list[lsp.Diagnostic]]] = {}
        self.build_files: dict[str, set[str]] = {}   # built file's path -> the files its last build spoke of
        self.build_pushed: set[str] = set()   # URIs of files not open that build diagnostics were pushed for
        self.headers = Headers()          # what the preprocessor reads: open documents' live texts, else the disk
        self.includers: dict[str, set[str]] = {}   # file -> the files whose build includes it
        self.units: dict[str, Any] = {}   # file -> the unit (units.Unit) its analysis was made with
        self.on_disk: dict[str, OnDisk] = {}   # file -> its analysis as indexed (kept while it is open)
        self.stale: dict[str, None] = {}  # closed files to analyse again (their build changed)
        self.stale_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ settings

    def configure(self, settings: Any) -> None:
        """Take the client's settings (initializationOptions, didChangeConfiguration, or the
        `omp-lsp` section pulled with workspace/configuration) and recompute the configuration."""
        if isinstance(settings, dict):
            section = settings.get("omp-lsp", settings.get("ompLsp", settings))
            self.client_settings = section if isinstance(section, dict) else {}
        elif settings is not None:
            self.client_settings = {}
        self.reconfigure()

    def reconfigure(self, reanalyse: bool = False) -> None:
        """Defaults, then compile_commands.json's version, then the project file, then the client's
        settings. A problem gets one message (each distinct one once) and the previous value stays;
        analyses are redone only when the options changed (or `reanalyse`: the compile commands did)."""
        config = Config()
        if self.database is not None and self.database.openmp_version() is not None:
            config, _ = apply({"openmpVersion": self.database.openmp_version()}, config, "compile_commands.json")
        config, problems = apply(self.project_settings, config, self.project_path or "project file")
        config, more = apply(self.client_settings, config, "settings")
        for problem in [*self.project_problems, *problems, *more]:
            self.show_once(lsp.MessageType.Error, f"omp-lsp: invalid setting: {problem}")
        unit_settings = (self.config.defines, self.config.include_paths)
        self.config = config
        options = config.options
        if options == self.options and not reanalyse and unit_settings == (config.defines, config.include_paths):
            return
        self.options = options
        self.graph = DeviceGraph(options.propagation, graph_after_edit)
        open_paths = {state.path for state in self.open.values()}
        for path in [p for p in self.analyses if p not in open_paths]:
            self.index_file(path)
        for state in self.open.values():
            self.set_analysis(state.path, None)
            state.outdated()
            state.retokenize = True
            self.schedule(state)
        self.update_results()

    def set_analysis(self, path: str, analysis: FileAnalysis | None) -> None:
        """A file's analysis replaced (None: removed); the old one is released once the results
        no longer read it (see `compute_results`). Headers the file includes are analysed again
        when what they are read in changed (their includer's macros or lexical context)."""
        kept = self.on_disk.get(path)
        if analysis is None:
            self.forget_on_disk(path)
        old = self.analyses.pop(path, None) if analysis is None else self.analyses.get(path)
        if analysis is not None:
            self.analyses[path] = analysis
        else:
            self.units.pop(path, None)
        opened_from_index = analysis is not None and kept is not None and kept.analysis is old
        if old is not None and old is not analysis and not opened_from_index:
            self.retired.append(old)   # (the index's analysis of a file being opened is kept: OnDisk)
        same = old is not None and analysis is not None and old.configuration is analysis.configuration
        if not same:
            for header in self.note_includes(path, analysis):
                self.analyse_again(header)
            state = self.open_at(path)
            if state is not None and state.retokenize and _inactive(old) != _inactive(analysis):
                # analysed again for another file's or the settings' sake: the editor asks for the
                # tokens of its own edits by itself (a refresh meanwhile would cancel its request)
                state.retokenize = False
                self.refresh_tokens()

    def forget_on_disk(self, path: str) -> None:
        """The index's analysis of the file is no longer kept (released if it is not the file's)."""
        kept = self.on_disk.pop(path, None)
        if kept is not None and kept.analysis is not self.analyses.get(path):
            self.retired.append(kept.analysis)

    def release_retired(self) -> None:
        """Release the replaced analyses (the device graph and the results hold the new ones now)
        and collect what cycles remain when the editor is quiet, or now when much has piled up."""
        if not self.retired:
            return
        for analysis in self.retired:
            if analysis.context is not None:
                # one that handed its model on to its successor (directive_edit) leaves little behind
                self.uncollected += len(analysis.document.source) if analysis.context.holds_model else 0
                analysis.context.release()
        self.retired = []
        self.released = True
        if self.uncollected >= MAX_UNCOLLECTED:
            # the cycles now; the pages once the editor is quiet (handing them back and faulting
            # them in again at every keystroke of a burst costs more than it saves)
            self.uncollected = 0
            gc.collect()
        self.quiet_for_now()

    def quiet_for_now(self) -> None:
        """Something happened: the idle collection waits again."""
        if self.collect_handle is not None:
            self.collect_handle.cancel()
            self.collect_handle = None
        if self.released:
            self.collect_handle = asyncio.get_running_loop().call_later(IDLE_COLLECT_SECONDS, self.collect)

    def collect(self) -> None:
        if self.collect_handle is not None:
            self.collect_handle.cancel()
            self.collect_handle = None
        self.uncollected = 0
        self.released = False
        gc.collect()
        give_back_memory()

    def report_server_error(self, error: Exception, source: Any) -> None:
        """An error pygls meets outside a request's answer: logged (pygls would show an "Error in
        server" pop-up for each, which the user can do nothing about; see server/protocol.py). A
        request's own error is in its answer, and logged where it was made."""
        if source is not FeatureRequestError:
            log.error("%s: %s", type(error).__name__, error)

    def show_once(self, kind: lsp.MessageType, message: str) -> None:
        if message not in self.reported:
            self.reported.add(message)
            self.window_show_message(lsp.ShowMessageParams(kind, message))

    # ------------------------------------------------------------------ analysis of open documents

    def too_large(self, state: OpenDocument) -> bool:
        if len(state.doc.source) <= MAX_ANALYSED_BYTES:
            return False
        self.show_once(lsp.MessageType.Warning, f"omp-lsp: {state.uri} is larger than "
                       f"{MAX_ANALYSED_BYTES // 1_000_000} MB; OpenMP diagnostics are off for it")
        return True

    def schedule(self, state: OpenDocument) -> None:
        """Bring the analysis up to the document's live text soon (one task at a time per
        document; it runs after the messages already received, so their edits are taken at once)."""
        if state.task is None or state.task.done():
            state.task = asyncio.ensure_future(self.analyse(state))

    async def analyse(self, state: OpenDocument) -> None:
        """Take the edits made since the analysis (`take_edits`) and, when they cannot be taken
        into it, analyse the live text afresh rule by rule, letting other messages in between.
        Edits made meanwhile wait, and are taken into that analysis once it is in; it is dropped
        when they are too many to take (OpenDocument.applied) or the settings changed."""
        await asyncio.sleep(0)   # (the edits of the messages already read come in first)
        try:
            while not state.closed:
                if state.pending:
                    self.take_edits(state)
                if state.exact:
                    if not state.pending:
                        break
                    state.step()
                    await asyncio.sleep(0)
                    continue
                if not await self.analyse_afresh(state):
                    break
                state.step()
        finally:
            state.step()

    async def analyse_afresh(self, state: OpenDocument) -> bool:
        """Analyse the live text; False when the file is to report nothing (too large, or the
        analysis failed)."""
        if self.too_large(state):
            self.set_analysis(state.path, None)
            state.exact, state.log, state.pending = True, PositionLog(), []
            self.update_results(state.uri)
            return False
        state.pending = []   # (this analysis reads them)
        snapshot = state.doc.snapshot()
        unit, language, file_options = self.unit_for(state.path, snapshot.language)
        padded, padding = pad(snapshot.source, language)
        options = self.options
        inflight = state.inflight = Inflight(padding)

        def wanted() -> bool:
            return inflight.exact and not state.closed and self.options is options
        document = Document(padded, language, snapshot.version)
        previous = self.analyses.get(state.path)
        # (its tree is reparsed where the texts differ)
        before = previous.document if previous is not None and previous.document.language is language else None
        result = await self.steps(analysis_steps(document, file_options, state.path, trace=True, unit=unit,
                                                 previous=before), wanted)
        if state.inflight is inflight:
            state.inflight = None
        if result is _FAILED:   # logged; the file reports nothing rather than retrying forever
            self.set_analysis(state.path, None)
            state.exact, state.log, state.pending = True, PositionLog(), []
            self.update_results(state.uri)
            return False
        if result is None or state.closed:
            return True   # superseded: analysed again from the newer text
        self.units[state.path] = unit
        self.set_analysis(state.path, result)
        state.log, state.exact = PositionLog(padding), True
        if state.pending:
            # (the findings' anchors, which the edits made meanwhile are checked against, are the results')
            self.compute_results()
        else:
            self.results_soon(state.uri)
        return True

    def results_soon(self, uri: str | None = None) -> None:
        """`compute_results` and publish `uri` soon, once for every analysis that comes in
        meanwhile (opening many files, or closing them, costs one cross-file run, not one each)."""
        self.results_due = True
        if uri is not None:
            self.to_publish.add(uri)
        if self.results_task is None or self.results_task.done():
            self.results_task = asyncio.ensure_future(self.results_later())

    async def results_later(self) -> None:
        """Wait while other documents' analyses are being made (up to RESULTS_WAIT seconds), then
        compute the results."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RESULTS_WAIT
        await asyncio.sleep(0)
        while any(s.inflight is not None for s in self.open.values()) and loop.time() < deadline:
            await asyncio.sleep(0)
        self.results_now()

    def results_now(self) -> None:
        """The results `results_soon` asked for, now (a request reads them)."""
        if self.results_due:
            self.compute_results()
        published, self.to_publish = self.to_publish, set()
        if published:
            self.publish_all(published)

    def take_edits(self, state: OpenDocument) -> None:
        """Take the edits applied since the analysis into it: each run of edits that touch one
        another as one edit, which re-analyses the directive (or function body, or statement) it
        is in, or only moves positions when it is inert; any other makes the analysis inexact
        (`analyse` then analyses the text afresh). Publishes when the analysis is exact."""
        if self.results_due and state.exact:
            self.results_now()   # (the anchors are the results')
        spans = self.anchors(state) if state.exact else []
        retyped = False
        made: FileAnalysis | None = None   # re-made by the last edit, not yet in the device graph
        generation = self.graph.generation
        for old, edit, new in state.take_pending():
            if made is not None and made.context is not None:
                # the device graph made from the analysis before, one edit at a time (from one
                # two edits away, it would be made afresh: a few hundred ms in a large file)
                self.graph.update(state.path, made.context)
            edit = state.doc.tree_edit(old, new, edit)   # (one reparse for the run of edits)
            made = analysis = state.retyped(self.analyses.get(state.path), edit, new)
            if analysis is not None:   # one directive re-analysed: the rest of the analysis kept
                self.set_analysis(state.path, analysis)
                retyped = True
                spans = self.anchors(state)
                continue
            state.edited(old, new, edit, self.options.openmp_version, spans)
            if not state.exact:
                state.pending = []   # (the text is analysed afresh: they need not be kept)
                break
        if generation and self.graph.generation != generation:
            self.refresh_hints()
        if state.exact:   # inert edits: the same findings, moved
            if retyped:
                self.compute_results()
            self.publish(state)

    def publish(self, state: OpenDocument) -> None:
        """Publish the document (and the others whose diagnostics changed), once its findings are
        those of its live text."""
        if not state.closed:
            self.publish_all(state.uri)

    async def steps(self, steps: Generator[object, None, T], wanted: Callable[[], bool]) -> T | _Failed | None:
        """Run analysis steps, serving other messages between them: the result, None when it is no
        longer `wanted`, `_FAILED` when the analysis raised (a bug, logged)."""
        try:
            while True:
                next(steps)
                await asyncio.sleep(0)
                if not wanted():
                    steps.close()
                    return None
        except StopIteration as done:
            return cast(T, done.value)   # the generator's return value
        except Exception:   # the server never dies on an analysis bug
            log.exception("analysis failed")
            return _FAILED

    def compute_results(self) -> None:
        """The device graph brought up to date with every analysis (hints, hover and navigation
        read it), and the cross-file rules over all of them once the index is complete (before, a
        missing file would look like a missing definition)."""
        self.results_due = False
        generation = self.graph.generation
        try:
            # (brought up to date: the closed files' part from their summaries)
            self.graph = workspace_context(self.analyses, self.options, self.graph, self.database).device_graph
            if self.indexed:
                self.results, self.cross_trace = cross_file_again(self.analyses, self.options, self.graph,
                                                                  self.database, self.cross_trace)
            else:
                self.results = dict(self.analyses)
        except Exception:  # the server never dies on an analysis bug
            log.exception("cross-file analysis failed")
            self.results = dict(self.analyses)
            self.cross_trace = None
        for analysis in self.analyses.values():
            if analysis.trace is not None:
                analysis.trace.succession = None   # read (or not needed): the earlier context can go
        if generation and self.graph.generation != generation:
            self.refresh_hints()   # other documents' hints and chains may have changed
        if self.retired:
            # once this message is answered: freeing a replaced model takes tens of ms in a large file
            asyncio.get_running_loop().call_soon(self.release_retired)

    def update_results(self, changed: str | None = None) -> None:
        """`compute_results`, then publish `changed` and every other open document whose
        diagnostics changed."""
        self.compute_results()
        self.publish_all(changed)

    def anchors(self, state: OpenDocument) -> list[Span]:
        """The spans of the document's analysis that findings end at, other files' findings included
        (an edit at one of them cannot be carried over: see incremental.touches)."""
        own = self.results.get(state.path) or self.analyses.get(state.path)
        spans = anchors(own.findings) if own is not None else []
        for path, result in self.results.items():
            if path != state.path:
                spans.extend(anchors(result.findings, state.path))
        return spans

    async def ready(self, uri: str) -> OpenDocument | None:
        """The open document, once its analysis describes its live text (positions through the
        log); None if it is not open or not analysed. Edits waiting to be taken are taken now
        (not after those that come meanwhile: a fast typist would keep the answer waiting)."""
        state = self.open.get(uri)
        while state is not None:
            if state.pending and state.exact and state.inflight is None:
                self.take_edits(state)
            if state.current or state.task is None or state.task.done():
                break
            await state.next_step()
            state = self.open.get(uri)
        if self.results_due:
            self.results_now()   # (the features read them)
        if state is None or not state.current or state.path not in self.analyses:
            return None
        return state

    async def settled(self, uri: str) -> OpenDocument | None:
        """As `ready`, once every open document's analysis is in too (what a document reports
        depends on the other files), and the workspace index unless the client can be asked to
        pull again when it is complete."""
        if not self.refreshes_diagnostics:
            await self.wait_indexed()
        if self.stale_task is not None and not self.stale_task.done():
            await asyncio.shield(self.stale_task)   # closed files going back to their disk versions
        while True:
            for other in list(self.open):
                await self.ready(other)
            if all(s.current or s.task is None or s.task.done() for s in self.open.values()):
                return await self.ready(uri)

    async def fresh(self, uri: str) -> OpenDocument | None:
        """As `ready`, with an analysis of exactly the live text (features that read the text at
        the cursor, like completion, want the blanks just typed)."""
        state = await self.ready(uri)
        if state is not None and state.log.edits:
            state.exact = False
            self.schedule(state)
            state = await self.ready(uri)
        return state

    # ------------------------------------------------------------------ positions

    @property
    def encoding(self) -> Encoding:
        value = str(self.workspace.position_encoding or "utf-16")
        return value if value in ("utf-8", "utf-16", "utf-32") else "utf-16"  # type: ignore[return-value]

    def open_at(self, path: str) -> OpenDocument | None:
        return next((s for s in self.open.values() if s.path == path), None)

    def location(self, path: str, span: Span) -> lsp.Location | None:
        """A span of a file's analysis as an LSP location in the file's current text."""
        state = self.open_at(path)
        if state is not None:
            return lsp.Location(state.uri, self.to_range(state.doc, state.from_base(span)))
        analysis = self.analyses.get(path)
        if analysis is None:
            return None
        return lsp.Location(file_uri(path), self.to_range(analysis.document, span))

    def to_range(self, doc: Document, span: Span) -> lsp.Range:
        start = doc.lines.position(span[0], self.encoding)
        end = doc.lines.position(span[1], self.encoding)
        return lsp.Range(lsp.Position(*start), lsp.Position(*end))

    def offset(self, state: OpenDocument, position: lsp.Position) -> int:
        """A position of the live text as a byte offset of the analysed text."""
        return state.to_base(state.doc.lines.offset(position.line, position.character, self.encoding))

    def span_range(self, state: OpenDocument, span: Span) -> lsp.Range:
        """A span of the analysed text as a range of the live text."""
        return self.to_range(state.doc, state.from_base(span))

    # ------------------------------------------------------------------ diagnostics

    @property
    def pulls_diagnostics(self) -> bool:
        """The client asks for diagnostics (textDocument/diagnostic): they are not pushed to it."""
        text = self.client_capabilities.text_document
        return text is not None and text.diagnostic is not None

    def findings(self, state: OpenDocument) -> list[Finding]:
        """The document's findings at their places in its live text."""
        result = self.results.get(state.path) or self.analyses.get(state.path)
        if result is None or not state.exact:
            return []
        return [moved(f, state.log) for f in result.findings]

    def diagnostics(self, state: OpenDocument) -> list[lsp.Diagnostic]:
        built = self.build_diagnostics.get(state.path, {})
        return [*(self.to_diagnostic(state, f) for f in self.findings(state)),
                *(d for ds in built.values() for d in ds)]

    def to_diagnostic(self, state: OpenDocument, f: Finding) -> lsp.Diagnostic:
        """A finding already moved to the live text (`findings`) as a diagnostic. Quick fixes
        travel in `data` as byte spans of the live text (see features.actions)."""
        related = []
        for r in f.related:
            if r.path is None or r.path == state.path:
                where: lsp.Location | None = lsp.Location(state.uri, self.to_range(state.doc, r.span))
            else:
                where = self.location(r.path, r.span)
            if where is not None:
                related.append(lsp.DiagnosticRelatedInformation(where, r.message))
        return lsp.Diagnostic(
            range=self.to_range(state.doc, f.span), message=f.message, severity=_SEVERITY[f.effective_severity],
            code=f.code, source="omp-lsp", related_information=related or None,
            data={"fixes": [{"title": fix.title, "edits": [[list(span), text] for span, text in fix.edits]}
                            for fix in f.fixes]} if f.fixes else None)

    def publish_all(self, changed: str | Collection[str] | None = None) -> None:
        """Publish `changed` (one URI or several) and every other open document whose
        diagnostics changed (pull clients are asked to pull again instead)."""
        named = {changed} if isinstance(changed, str) else set(changed or ())
        stale = False
        for uri, state in list(self.open.items()):
            if not state.current:
                continue   # its own analysis publishes it
            diagnostics = self.diagnostics(state)
            if uri not in named and diagnostics == self.published.get(uri):
                continue
            if uri in named:
                result = self.analyses.get(state.path)
                for message in result.internal_errors if result is not None else []:
                    log.error("%s: %s", uri, message)   # that rule is skipped for this file; the rest report
                    self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"omp-lsp: {uri}: {message}"))
            self.published[uri] = diagnostics
            if self.pulls_diagnostics:
                stale = stale or uri not in named
                continue
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, version=state.doc.version, diagnostics=diagnostics))
        if stale:
            self.refresh_diagnostics()

    @property
    def refreshes_diagnostics(self) -> bool:
        """The client can be asked to pull diagnostics again (workspace/diagnostic/refresh)."""
        workspace = self.client_capabilities.workspace
        return bool(workspace is not None and workspace.diagnostics is not None and workspace.diagnostics.refresh_support)

    def refresh_diagnostics(self) -> None:
        """Ask a pull client to pull again (another document's findings changed), if it can."""
        if self.refreshes_diagnostics:
            self.workspace_diagnostic_refresh(None)

    def refresh_tokens(self) -> None:
        """Ask the client to re-request semantic tokens (inactive branches), if it can."""
        workspace = self.client_capabilities.workspace
        if workspace is not None and workspace.semantic_tokens is not None and workspace.semantic_tokens.refresh_support:
            self.workspace_semantic_tokens_refresh(None)

    def refresh_hints(self) -> None:
        """Ask the client to re-request inlay hints, if it can."""
        workspace = self.client_capabilities.workspace
        if workspace is not None and workspace.inlay_hint is not None and workspace.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)


def _inactive(analysis: FileAnalysis | None) -> list[tuple[int, int]]:
    """The lines of the branches shown as inactive (typing on a line moves no line)."""
    configuration = analysis.configuration if analysis is not None else None
    if configuration is None or analysis is None:
        return []
    lines = analysis.document.lines
    return [(lines.line_of(a), lines.line_of(b)) for a, b in configuration.inactive]


