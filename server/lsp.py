"""The language server: a thin pygls adapter over omp_lsp.analysis.

Each open document keeps one `Document` (text + tree-sitter tree); every incremental
`didChange` edit goes to it as `tree.edit` + reparse, then the shared analysis entry
point runs and the diagnostics are published with the document version.
"""
from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from omp_lsp import __version__
from omp_lsp.analysis.check import analyze
from omp_lsp.analysis.diagnostics import Finding, Severity
from omp_lsp.analysis.options import Options
from omp_lsp.analysis.syntax import Document, Encoding, TextEdit, language_for_id, language_for_path

log = logging.getLogger("omp_lsp.server")

MAX_ANALYSED_BYTES = 10_000_000  # the CLI's default --max-file-size

_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.INFORMATION: lsp.DiagnosticSeverity.Information, Severity.HINT: lsp.DiagnosticSeverity.Hint}


class OmpLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("omp-lsp", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.documents: dict[str, Document] = {}
        self.options = Options()
        self.too_large: set[str] = set()

    @property
    def encoding(self) -> Encoding:
        value = str(self.workspace.position_encoding or "utf-16")
        return value if value in ("utf-8", "utf-16", "utf-32") else "utf-16"  # type: ignore[return-value]

    def to_range(self, doc: Document, span: tuple[int, int]) -> lsp.Range:
        start = doc.lines.position(span[0], self.encoding)
        end = doc.lines.position(span[1], self.encoding)
        return lsp.Range(lsp.Position(*start), lsp.Position(*end))

    def to_diagnostic(self, uri: str, doc: Document, f: Finding) -> lsp.Diagnostic:
        related = [lsp.DiagnosticRelatedInformation(
            lsp.Location(uri if r.path is None else r.path, self.to_range(doc, r.span)), r.message)
            for r in f.related if r.path is None]
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
        try:
            result = analyze(doc, self.options)
        except Exception:  # the server never dies on an analysis bug
            log.exception("analysis failed for %s", uri)
            return
        for message in result.internal_errors:
            log.error("%s: %s", uri, message)
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
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def start(tcp: int | None = None, host: str = "127.0.0.1", **_: Any) -> int:
    logging.basicConfig(level=logging.WARNING, format="omp-lsp: %(levelname)s: %(message)s")
    if tcp is not None:
        server.start_tcp(host, tcp)
    else:
        server.start_io()
    return 0
