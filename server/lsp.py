"""The language server: a thin pygls adapter over omp_lsp.analysis.

Each open document keeps one `Document` (text + tree-sitter tree); every incremental
`didChange` edit goes to it as `tree.edit` + reparse, then the shared analysis entry
point runs and the diagnostics are published with the document version.

The cross-file rules see the whole workspace: every source file of the workspace folders,
read from disk once (closed files) or taken from the editor (open documents). After each
analysis the open documents whose cross-file findings changed are published again.
"""
from __future__ import annotations

import logging
import os
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from omp_lsp import __version__
from omp_lsp.analysis.check import FileAnalysis, analyze
from omp_lsp.analysis.diagnostics import Finding, Severity
from omp_lsp.analysis.options import Options
from omp_lsp.analysis.syntax import Document, Encoding, TextEdit, language_for_id, language_for_path
from omp_lsp.analysis.workspace import cross_file
from omp_lsp.server.sources import UnreadableDirectory, read_document, walk

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

    @staticmethod
    def path_of(uri: str) -> str:
        return to_fs_path(uri) or uri

    def index_workspace(self) -> None:
        """Analyse every source file of the workspace folders once (the cross-file rules need them)."""
        if self.indexed:
            return
        self.indexed = True
        roots = [self.path_of(f.uri) for f in self.workspace.folders.values()]
        if not roots and self.workspace.root_path:
            roots = [self.workspace.root_path]
        count = 0
        for root in roots:
            if not os.path.isdir(root):
                continue
            try:
                paths = walk(root, ())
            except UnreadableDirectory as err:
                log.warning("workspace index: %s", err)
                continue
            for path in paths:
                if path in self.analyses:
                    continue
                if count >= MAX_INDEXED_FILES:
                    log.warning("workspace index: more than %d source files; the rest are not indexed",
                                MAX_INDEXED_FILES)
                    return
                count += 1
                self.index_file(path)

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
        try:
            self.analyses[path] = analyze(doc, self.options, path)
            results = cross_file(self.analyses, self.options)
        except Exception:  # the server never dies on an analysis bug
            log.exception("analysis failed for %s", uri)
            return
        self.publish_results(uri, results)

    def publish_results(self, changed: str | None, results: dict[str, FileAnalysis]) -> None:
        """Publish `changed` and every other open document whose findings changed."""
        for uri, doc in list(self.documents.items()):
            result = results.get(self.path_of(uri))
            if result is None or result.document is not doc:
                continue
            if uri != changed and result.findings == self.published.get(uri):
                continue
            if uri == changed:
                for message in result.internal_errors:
                    log.error("%s: %s", uri, message)
            self.published[uri] = result.findings
            diagnostics = [self.to_diagnostic(uri, doc, f) for f in result.findings]
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=diagnostics))


server = OmpLanguageServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: OmpLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    language = language_for_id(item.language_id, to_fs_path(item.uri) or item.uri) or \
        language_for_path(to_fs_path(item.uri) or item.uri)
    if language is None:
        return
    ls.documents[item.uri] = Document(item.text, language, item.version)
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
            ls.publish_results(None, cross_file(ls.analyses, ls.options))
        except Exception:
            log.exception("cross-file analysis failed after closing %s", uri)


def start(tcp: int | None = None, host: str = "127.0.0.1", **_: Any) -> int:
    logging.basicConfig(level=logging.WARNING, format="omp-lsp: %(levelname)s: %(message)s")
    if tcp is not None:
        server.start_tcp(host, tcp)
    else:
        server.start_io()
    return 0
