"""The language server: a thin pygls adapter over omp_lsp.analysis.

Each open document keeps one `Document` (text + tree-sitter tree); every incremental
`didChange` edit goes to it as `tree.edit` + reparse, then the shared analysis entry
point runs and the diagnostics are published with the document version.

The cross-file rules see the whole workspace: every source file of the workspace folders,
read from disk (closed files, again when the client reports a change) or taken from the editor
(open documents). After each analysis the open documents whose cross-file findings changed are
published again. One device graph is kept across edits (propagation is incremental).

Features beyond diagnostics, each a thin conversion of an analysis module's plain data: inlay
hints, hover and "mark explicitly" (device_view), completion, semantic tokens, hover on
directive parts, definition/references/outline (navigation); settings from server.config.
"""
from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Iterator
from typing import Any

from lsprotocol import types as lsp
from omp_lsp.analysis.check import FileAnalysis, analyze
from omp_lsp.analysis.compile_commands import CompileDatabase
from omp_lsp.analysis.completion import complete
from omp_lsp.analysis.device_view import entity_at, hints, mark_fix
from omp_lsp.analysis.diagnostics import Finding, Severity
from omp_lsp.analysis.directive_hover import describe as describe_directive_part
from omp_lsp.analysis.navigation import Outline, entity_key_at, outline
from omp_lsp.analysis.navigation import definition as find_definition
from omp_lsp.analysis.navigation import references as find_references
from omp_lsp.analysis.options import Options
from omp_lsp.analysis.propagation import DeviceGraph, Step
from omp_lsp.analysis.semantic_tokens import LEGEND as TOKEN_LEGEND
from omp_lsp.analysis.semantic_tokens import tokens as directive_tokens
from omp_lsp.analysis.syntax import (
    SOURCE_EXTENSIONS,
    Document,
    Encoding,
    TextEdit,
    language_for_id,
    language_for_path,
)
from omp_lsp.analysis.workspace import cross_file
from omp_lsp.server.config import Config, apply, find_project_file, read_project_file
from omp_lsp.server.sources import (
    UnreadableDirectory,
    gitignore_patterns,
    read_document,
    walk,
)
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from omp_lsp import __version__

log = logging.getLogger("omp_lsp.server")

MAX_ANALYSED_BYTES = 10_000_000  # the CLI's default --max-file-size
MAX_INDEXED_FILES = 20_000       # a workspace folder larger than this is indexed only in part

_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.INFORMATION: lsp.DiagnosticSeverity.Information, Severity.HINT: lsp.DiagnosticSeverity.Hint}


class OmpLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("omp-lsp", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.documents: dict[str, Document] = {}
        self.options = Options()
        self.too_large: set[str] = set()
        self.analyses: dict[str, FileAnalysis] = {}     # workspace files and open documents, by path
        self.published: dict[str, list[Finding]] = {}   # uri -> findings last published
        self.indexed = False
        self.config = Config()
        self.client_settings: dict[str, Any] = {}           # initializationOptions / workspace configuration
        self.project_path: str | None = None                 # .omp-lsp.toml or pyproject.toml [tool.omp-lsp]
        self.project_settings: dict[str, Any] = {}
        self.project_problems: list[str] = []
        self.reported: set[str] = set()                      # configuration problems already shown
        self.graph = DeviceGraph(self.options.propagation)   # kept across edits: re-propagated incrementally
        self.database: CompileDatabase | None = None         # the workspace's compile_commands.json

    def configure(self, settings: Any) -> None:
        """Take the client's settings (initializationOptions, didChangeConfiguration, or the
        `omp-lsp` section pulled with workspace/configuration) and recompute the configuration."""
        if isinstance(settings, dict):
            section = settings.get("omp-lsp", settings.get("ompLsp", settings))
            self.client_settings = section if isinstance(section, dict) else {}
        elif settings is not None:
            self.client_settings = {}
        self.reconfigure()

    def reconfigure(self) -> None:
        """Defaults, then compile_commands.json's version, then the project file, then the client's
        settings. A problem gets one message (each distinct one once) and the previous value stays;
        analyses are redone only when the options changed."""
        config = Config()
        if self.database is not None and self.database.openmp_version() is not None:
            config, _ = apply({"openmpVersion": self.database.openmp_version()}, config, "compile_commands.json")
        config, problems = apply(self.project_settings, config, self.project_path or "project file")
        config, more = apply(self.client_settings, config, "settings")
        for problem in [*self.project_problems, *problems, *more]:
            if problem not in self.reported:
                self.reported.add(problem)
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Error,
                                                               f"omp-lsp: invalid setting: {problem}"))
        self.config = config
        options = config.options
        if options == self.options:
            return
        self.options = options
        self.graph = DeviceGraph(options.propagation)
        if self.analyses:   # re-analyse with the new options
            for path in list(self.analyses):
                doc = next((d for u, d in self.documents.items() if self.path_of(u) == path), None)
                if doc is not None:
                    self.analyses[path] = analyze(doc, options, path)
                else:
                    self.index_file(path)
            self.publish_results(None, cross_file(self.analyses, options, self.graph, self.database))

    def load_project_file(self, roots: list[str]) -> None:
        """The project file of the first workspace folder that has one (read at indexing)."""
        for root in roots:
            path = find_project_file(root)
            if path is not None:
                self.project_path = path
                self.project_settings, self.project_problems = read_project_file(path)
                return

    @staticmethod
    def path_of(uri: str) -> str:
        return to_fs_path(uri) or uri

    def index_workspace(self) -> None:
        """Analyse every source file of the workspace folders once (the cross-file rules need them)."""
        for _ in self.indexing():
            pass

    def indexing(self) -> Iterator[tuple[int, int]]:
        """Index the workspace, yielding (files done, files in all) as it goes: the caller may
        report progress between files. Does nothing the second time."""
        if self.indexed:
            return
        self.indexed = True
        roots = [self.path_of(f.uri) for f in self.workspace.folders.values()]
        if not roots and self.workspace.root_path:
            roots = [self.workspace.root_path]
        self.load_compile_commands(roots)
        self.load_project_file(roots)
        self.reconfigure()
        if self.database is not None:   # files of the program outside the folders take part too
            roots = [*roots, *(f for f in self.database.files() if not any(f.startswith(r) for r in roots))]
        paths: list[str] = []
        for root in roots:
            if os.path.isfile(root):
                paths.append(root)
                continue
            if not os.path.isdir(root):
                continue
            try:
                paths.extend(walk(root, [*self.config.exclude, *gitignore_patterns(root)]))
            except UnreadableDirectory as err:
                log.warning("workspace index: %s", err)
        paths = [p for p in dict.fromkeys(paths) if p not in self.analyses]
        if len(paths) > MAX_INDEXED_FILES:
            log.warning("workspace index: more than %d source files; the rest are not indexed", MAX_INDEXED_FILES)
            paths = paths[:MAX_INDEXED_FILES]
        for done, path in enumerate(paths, start=1):
            self.index_file(path)
            yield done, len(paths)

    async def index_with_progress(self) -> None:
        """Index the workspace with work-done progress (a progress bar in the editor) where the
        client shows it; the event loop runs between files, so requests are not starved."""
        if self.indexed:
            return
        window = self.client_capabilities.window
        if window is None or not window.work_done_progress:
            self.index_workspace()
            return
        token = f"omp-lsp-index-{id(self)}"
        try:
            await self.work_done_progress.create_async(token)
        except Exception:   # a client that refuses the token gets no progress bar
            log.exception("window/workDoneProgress/create failed")
            self.index_workspace()
            return
        self.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title="omp-lsp: indexing the workspace",
                                                                       percentage=0, cancellable=False))
        total = 0
        for done, total in self.indexing():
            if done % 20 == 0 or done == total:
                self.work_done_progress.report(token, lsp.WorkDoneProgressReport(
                    message=f"{done}/{total} files", percentage=int(100 * done / total)))
                await asyncio.sleep(0)
        self.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=f"{total} files indexed"))

    def load_compile_commands(self, roots: list[str]) -> None:
        from omp_lsp.analysis.compile_commands import (
            CompileCommandsError,
            find_compile_commands,
            load_compile_commands,
        )
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

    def index_file(self, path: str) -> None:
        """A closed file as it is on disk."""
        try:
            doc, _ = read_document(path, MAX_ANALYSED_BYTES)
        except OSError as err:
            log.warning("workspace index: %s: %s", path, err.strerror)
            doc = None
        if doc is None:
            self.analyses.pop(path, None)
            return
        try:
            self.analyses[path] = analyze(doc, self.options, path)
        except Exception:  # the server never dies on an analysis bug
            log.exception("analysis failed for %s", path)

    @property
    def encoding(self) -> Encoding:
        value = str(self.workspace.position_encoding or "utf-16")
        return value if value in ("utf-8", "utf-16", "utf-32") else "utf-16"  # type: ignore[return-value]

    def to_range(self, doc: Document, span: tuple[int, int]) -> lsp.Range:
        start = doc.lines.position(span[0], self.encoding)
        end = doc.lines.position(span[1], self.encoding)
        return lsp.Range(lsp.Position(*start), lsp.Position(*end))

    def to_diagnostic(self, uri: str, doc: Document, f: Finding) -> lsp.Diagnostic:
        related = []
        for r in f.related:
            where_uri, where_doc = uri, doc
            if r.path is not None and r.path != self.path_of(uri):
                other = self.analyses.get(r.path)
                if other is None:
                    continue
                where_uri, where_doc = from_fs_path(r.path) or r.path, other.document
            related.append(lsp.DiagnosticRelatedInformation(
                lsp.Location(where_uri, self.to_range(where_doc, r.span)), r.message))
        return lsp.Diagnostic(
            range=self.to_range(doc, f.span), message=f.message, severity=_SEVERITY[f.effective_severity],
            code=f.code, source="omp-lsp", related_information=related or None,
            data={"fixes": [{"title": fix.title, "edits": [[list(span), text] for span, text in fix.edits]}
                            for fix in f.fixes]} if f.fixes else None)

    def publish(self, uri: str) -> None:
        doc = self.documents.get(uri)
        if doc is None:
            return
        if len(doc.source) > MAX_ANALYSED_BYTES:
            if uri not in self.too_large:
                self.too_large.add(uri)
                self.window_show_message(lsp.ShowMessageParams(
                    lsp.MessageType.Warning, f"omp-lsp: {uri} is larger than {MAX_ANALYSED_BYTES // 1_000_000} MB; "
                    "OpenMP diagnostics are off for it"))
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=[]))
            return
        self.too_large.discard(uri)
        self.index_workspace()
        path = self.path_of(uri)
        generation = self.graph.generation
        try:
            self.analyses[path] = analyze(doc, self.options, path)
            results = cross_file(self.analyses, self.options, self.graph, self.database)
        except Exception:  # the server never dies on an analysis bug
            log.exception("analysis failed for %s", uri)
            return
        self.publish_results(uri, results)
        if self.graph.generation != generation and generation:
            self.refresh_hints()   # other documents' hints and chains may have changed

    def refresh_hints(self) -> None:
        """Ask the client to re-request inlay hints, if it can."""
        workspace = self.client_capabilities.workspace
        if workspace is not None and workspace.inlay_hint is not None and workspace.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    def publish_results(self, changed: str | None, results: dict[str, FileAnalysis]) -> None:
        """Publish `changed` and every other open document whose findings changed."""
        for uri, doc in list(self.documents.items()):
            result = results.get(self.path_of(uri))
            if result is None or result.document is not doc:
                continue
            if uri != changed and result.findings == self.published.get(uri):
                continue
            if uri == changed:
                for message in result.internal_errors:   # that rule is skipped for this file; the rest report
                    log.error("%s: %s", uri, message)
                    self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"omp-lsp: {uri}: {message}"))
            self.published[uri] = result.findings
            diagnostics = [self.to_diagnostic(uri, doc, f) for f in result.findings]
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=diagnostics))


server = OmpLanguageServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: OmpLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    language = language_for_id(item.language_id, to_fs_path(item.uri) or item.uri) or \
        language_for_path(to_fs_path(item.uri) or item.uri)
    if language is None:
        return
    ls.documents[item.uri] = Document(item.text, language, item.version)
    try:
        await ls.index_with_progress()   # the first document opened indexes the workspace
    except Exception:   # the server never dies on an indexing problem: what was read counts
        log.exception("workspace index failed")
    if item.uri in ls.documents:
        ls.publish(item.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: OmpLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    doc = ls.documents.get(uri)
    if doc is None:
        log.warning("didChange for a document that is not open: %s", uri)
        return
    try:
        for change in params.content_changes:
            if isinstance(change, lsp.TextDocumentContentChangePartial):
                edit = TextEdit((change.range.start.line, change.range.start.character),
                                (change.range.end.line, change.range.end.character), change.text)
            else:
                edit = TextEdit(None, None, change.text)
            doc.apply(edit, ls.encoding)
        doc.version = params.text_document.version
    except Exception:
        log.exception("could not apply the change to %s; reloading from the client's copy", uri)
        text = ls.workspace.get_text_document(uri).source
        ls.documents[uri] = doc = Document(text, doc.language, params.text_document.version)
    ls.publish(uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: OmpLanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    if ls.documents.pop(uri, None) is not None:
        ls.published.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        # The workspace goes back to the file on disk (or forgets it if it is not there).
        path = ls.path_of(uri)
        if os.path.isfile(path):
            ls.index_file(path)
        else:
            ls.analyses.pop(path, None)
        try:
            ls.publish_results(None, cross_file(ls.analyses, ls.options, ls.graph, ls.database))
        except Exception:
            log.exception("cross-file analysis failed after closing %s", uri)


@server.feature(lsp.INITIALIZE)
def initialize(ls: OmpLanguageServer, params: lsp.InitializeParams) -> None:
    ls.configure(params.initialization_options)


def _pulls_configuration(ls: OmpLanguageServer) -> bool:
    workspace = ls.client_capabilities.workspace
    return bool(workspace is not None and workspace.configuration)


async def _pull_configuration(ls: OmpLanguageServer) -> None:
    """Ask the client for the `omp-lsp` section (workspace/configuration)."""
    try:
        found = await ls.workspace_configuration_async(
            lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="omp-lsp")]))
    except Exception:   # a client that fails the request keeps the settings it sent before
        log.exception("workspace/configuration failed")
        return
    if found and isinstance(found[0], dict):
        ls.configure(found[0])


@server.feature(lsp.INITIALIZED)
async def initialized(ls: OmpLanguageServer, params: lsp.InitializedParams) -> None:
    await _watch_source_files(ls)
    if _pulls_configuration(ls):
        await _pull_configuration(ls)


async def _watch_source_files(ls: OmpLanguageServer) -> None:
    """Ask the client to report changes to the workspace's source files on disk (closed files
    take part in the cross-file rules and propagation)."""
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    extensions = ",".join(sorted(ext.lstrip(".") for ext in SOURCE_EXTENSIONS))
    options = lsp.DidChangeWatchedFilesRegistrationOptions(
        watchers=[lsp.FileSystemWatcher(glob_pattern=f"**/*.{{{extensions}}}")])
    try:
        await ls.client_register_capability_async(lsp.RegistrationParams(registrations=[lsp.Registration(
            id="omp-lsp-sources", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)]))
    except Exception:   # a client that refuses keeps the files as they were read
        log.exception("could not register file watchers")


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: OmpLanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    """A closed source file changed, appeared or went away on disk: read it again (open documents
    are the editor's: their disk copies do not count) and republish what the change affects."""
    open_paths = {ls.path_of(uri) for uri in ls.documents}
    changed = False
    for event in params.changes:
        path = ls.path_of(event.uri)
        if path in open_paths or language_for_path(path) is None:
            continue
        if event.type == lsp.FileChangeType.Deleted:
            changed = ls.analyses.pop(path, None) is not None or changed
        else:
            ls.index_file(path)
            changed = True
    if changed:
        try:
            ls.publish_results(None, cross_file(ls.analyses, ls.options, ls.graph, ls.database))
        except Exception:
            log.exception("cross-file analysis failed after files changed on disk")


@server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: OmpLanguageServer, params: lsp.DidChangeConfigurationParams) -> None:
    settings = params.settings
    ours = isinstance(settings, dict) and ("omp-lsp" in settings or "ompLsp" in settings)
    if not ours and _pulls_configuration(ls):
        await _pull_configuration(ls)   # VS Code sends null and expects the server to ask
    else:
        ls.configure(settings)
    ls.refresh_hints()   # the mode changes every hint's label


def _analysed(ls: OmpLanguageServer, uri: str) -> tuple[Document, FileAnalysis] | None:
    doc = ls.documents.get(uri)
    analysis = ls.analyses.get(ls.path_of(uri))
    if doc is None or analysis is None or analysis.document is not doc:
        return None
    return doc, analysis


def _offset(ls: OmpLanguageServer, doc: Document, position: lsp.Position) -> int:
    return doc.lines.offset(position.line, position.character, ls.encoding)


def _where(ls: OmpLanguageServer, step: Step) -> str:
    """`[file.c:12](file:///…/file.c#L12)`: a link to a step of a chain."""
    other = ls.analyses.get(step.path)
    if other is None or not step.path:
        return step.label
    line = other.document.lines.line_of(step.span[0]) + 1
    uri = from_fs_path(step.path) or step.path
    return f"{step.label} ([{os.path.basename(step.path)}:{line}]({uri}#L{line}))"


@server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT)
def inlay_hint(ls: OmpLanguageServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint] | None:
    found = _analysed(ls, params.text_document.uri)
    if found is None:
        return None
    doc, _ = found
    try:
        span = (_offset(ls, doc, params.range.start), _offset(ls, doc, params.range.end) + 1)
        out = []
        for h in hints(ls.graph, ls.path_of(params.text_document.uri), doc.source, span):
            chain = " → ".join(_where(ls, s) for s in h.fact.chain) or \
                "the declare target procedures that call it (flang passes a caller's device type on)"
            out.append(lsp.InlayHint(
                position=lsp.Position(*doc.lines.position(h.offset, ls.encoding)), label=h.label,
                kind=lsp.InlayHintKind.Type, padding_left=True,
                tooltip=lsp.MarkupContent(lsp.MarkupKind.Markdown, f"Implied by: {chain}")))
        return out
    except Exception:
        log.exception("inlay hints failed for %s", params.text_document.uri)
        return None


_COMPLETION_KINDS = {"directive": lsp.CompletionItemKind.Keyword, "clause": lsp.CompletionItemKind.Property,
                     "keyword": lsp.CompletionItemKind.EnumMember, "trait set": lsp.CompletionItemKind.Module,
                     "selector": lsp.CompletionItemKind.Field, "property": lsp.CompletionItemKind.Value,
                     "name": lsp.CompletionItemKind.Variable}


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=[" ", "(", ",", ":", "{", "="]))
def completion(ls: OmpLanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    found = _analysed(ls, params.text_document.uri)
    if found is None:
        return None
    doc, analysis = found
    if analysis.context is None:
        return None
    try:
        offset = _offset(ls, doc, params.position)
        out = []
        for item in complete(analysis.context, offset):
            edit = None
            if item.replace_from is not None:   # a multi-word directive name replaces what is typed of it
                edit = lsp.TextEdit(ls.to_range(doc, (item.replace_from, offset)), item.label)
            out.append(lsp.CompletionItem(
                label=item.label, kind=_COMPLETION_KINDS.get(item.kind), detail=item.detail or None,
                documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, item.documentation)
                if item.documentation else None, filter_text=item.label, text_edit=edit))
        return lsp.CompletionList(is_incomplete=False, items=out)
    except Exception:
        log.exception("completion failed for %s", params.text_document.uri)
        return None


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                lsp.SemanticTokensLegend(token_types=list(TOKEN_LEGEND), token_modifiers=[]))
def semantic_tokens(ls: OmpLanguageServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | None:
    """The inside of OpenMP directives: directive, clauses, modifiers, names, selectors."""
    found = _analysed(ls, params.text_document.uri)
    if found is None:
        return None
    doc, analysis = found
    try:
        data: list[int] = []
        last_line = last_char = 0
        for (lo, hi), kind in directive_tokens(analysis.directives, doc.source):
            line, char = doc.lines.position(lo, ls.encoding)
            end_line, end_char = doc.lines.position(hi, ls.encoding)
            if end_line != line or end_char <= char:
                continue
            delta_char = char - last_char if line == last_line else char
            data.extend((line - last_line, delta_char, end_char - char, TOKEN_LEGEND.index(kind), 0))
            last_line, last_char = line, char
        return lsp.SemanticTokens(data=data)
    except Exception:
        log.exception("semantic tokens failed for %s", params.text_document.uri)
        return None


def _locations(ls: OmpLanguageServer, found: list[tuple[str, tuple[int, int]]]) -> list[lsp.Location]:
    out = []
    for path, span in found:
        other = ls.analyses.get(path)
        if other is None:
            continue
        out.append(lsp.Location(from_fs_path(path) or path, ls.to_range(other.document, span)))
    return out


def _navigate(ls: OmpLanguageServer, params: lsp.TextDocumentPositionParams,
              find: Callable[..., list[tuple[str, tuple[int, int]]]], what: str) -> list[lsp.Location] | None:
    """Locations `find` gives for the name under the cursor in a directive (None: nothing)."""
    found = _analysed(ls, params.text_document.uri)
    if found is None or found[1].context is None:
        return None
    doc, analysis = found
    try:
        return _locations(ls, find(analysis.context, _offset(ls, doc, params.position), ls.graph)) or None
    except Exception:
        log.exception("%s failed for %s", what, params.text_document.uri)
        return None


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: OmpLanguageServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    """From a name in a directive's list (a clause item, a variant name) to its definition."""
    return _navigate(ls, params, find_definition, "definition")


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: OmpLanguageServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
    return _navigate(ls, params, find_references, "references")


_OUTLINE_KINDS = {"target region": lsp.SymbolKind.Event, "declare target": lsp.SymbolKind.Namespace,
                  "declare target item": lsp.SymbolKind.Variable, "declare variant": lsp.SymbolKind.Function}


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: OmpLanguageServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
    """The outline: target regions, declare target directives and their items, declare variants."""
    found = _analysed(ls, params.text_document.uri)
    if found is None or found[1].context is None:
        return None
    doc, analysis = found

    def convert(o: Outline) -> lsp.DocumentSymbol:
        return lsp.DocumentSymbol(name=o.name, kind=_OUTLINE_KINDS[o.kind], range=ls.to_range(doc, o.span),
                                  selection_range=ls.to_range(doc, o.selection), detail=o.kind,
                                  children=[convert(c) for c in o.children] or None)
    try:
        return [convert(o) for o in outline(analysis.context)]
    except Exception:
        log.exception("document symbols failed for %s", params.text_document.uri)
        return None


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: OmpLanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    found = _analysed(ls, params.text_document.uri)
    if found is None:
        return None
    doc, _ = found
    try:
        offset = _offset(ls, doc, params.position)
        key = entity_at(ls.graph, ls.path_of(params.text_document.uri), offset)
        context = found[1].context
        if key is None and context is not None:
            key = entity_key_at(context, offset, ls.graph)   # a name in a directive's list
        fact = ls.graph.fact(key) if key is not None else None
        if fact is None:
            part = describe_directive_part(context, offset) if context is not None else None
            if part is None:
                return None
            return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, part[1]), ls.to_range(doc, part[0]))
        entity = ls.graph.entities[fact.key]
        if fact.device_type == "none":
            text = f"**{fact.name}**: host only (not declare target, not reached from device code)"
        elif fact.explicit:
            path, mark = entity.marks[0]
            text = (f"**{fact.name}**: declare target · {fact.device_type} (explicit, "
                    f"{_where(ls, Step('marked here', path, mark.span))})")
        else:
            mode = " as flang generates it" if ls.graph.mode == "flang" else ""
            text = f"**{fact.name}**: declare target · {fact.device_type} (implicit{mode})"
            if fact.chain:   # (flang also marks what a device_type(host) procedure calls: no device chain)
                text += f"\n\nChain: {' → '.join(_where(ls, s) for s in fact.chain)}"
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text))
    except Exception:
        log.exception("hover failed for %s", params.text_document.uri)
        return None


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite]))
def code_action(ls: OmpLanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
    uri = params.text_document.uri
    found = _analysed(ls, uri)
    if found is None:
        return None
    doc, analysis = found
    out: list[lsp.CodeAction] = []
    try:
        lo, hi = _offset(ls, doc, params.range.start), _offset(ls, doc, params.range.end)
        # the rules' quick fixes, carried on the diagnostics the client sends back
        for diagnostic in params.context.diagnostics:
            data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
            for fix in data.get("fixes", []) if isinstance(data.get("fixes"), list) else []:
                edits = [lsp.TextEdit(ls.to_range(doc, (int(s[0]), int(s[1]))), str(t)) for (s, t) in fix["edits"]]
                out.append(lsp.CodeAction(str(fix["title"]), kind=lsp.CodeActionKind.QuickFix,
                                          diagnostics=[diagnostic], edit=lsp.WorkspaceEdit(changes={uri: edits})))
        path = ls.path_of(uri)
        keys = []
        for h in hints(ls.graph, path, doc.source):
            name = h.declaration.symbol.name_span
            if name[0] <= hi and lo <= h.offset:
                keys.append(h.fact.key)
        for key in dict.fromkeys(keys):
            fix = mark_fix(analysis.context, ls.graph, key) if analysis.context is not None else None
            if fix is None:
                continue
            edits = [lsp.TextEdit(ls.to_range(doc, span), text) for span, text in fix.edits]
            out.append(lsp.CodeAction(fix.title, kind=lsp.CodeActionKind.RefactorRewrite,
                                      edit=lsp.WorkspaceEdit(changes={uri: edits})))
    except Exception:
        log.exception("code actions failed for %s", uri)
    return out or None


def start(tcp: int | None = None, host: str = "127.0.0.1", **_: Any) -> int:
    logging.basicConfig(level=logging.WARNING, format="omp-lsp: %(levelname)s: %(message)s")
    if tcp is not None:
        server.start_tcp(host, tcp)
    else:
        server.start_io()
    return 0
