"""Diagnostics: findings as LSP diagnostics, pushed (publishDiagnostics, with the document version)
or pulled (textDocument/diagnostic) as the client prefers; never both, or editors show them twice."""
from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from omp_lsp.analysis.diagnostics import Finding, Severity

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer
    from omp_lsp.server.open_documents import OpenDocument

_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.INFORMATION: lsp.DiagnosticSeverity.Information, Severity.HINT: lsp.DiagnosticSeverity.Hint}


def to_diagnostic(ls: OmpLanguageServer, state: OpenDocument, f: Finding) -> lsp.Diagnostic:
    """A finding already moved to the live text (`OmpLanguageServer.findings`) as a diagnostic.
    Quick fixes travel in `data` as byte spans of the live text (see features.actions)."""
    related = []
    for r in f.related:
        if r.path is None or r.path == state.path:
            where: lsp.Location | None = lsp.Location(state.uri, ls.to_range(state.doc, r.span))
        else:
            where = ls.location(r.path, r.span)
        if where is not None:
            related.append(lsp.DiagnosticRelatedInformation(where, r.message))
    return lsp.Diagnostic(
        range=ls.to_range(state.doc, f.span), message=f.message, severity=_SEVERITY[f.effective_severity],
        code=f.code, source="omp-lsp", related_information=related or None,
        data={"fixes": [{"title": fix.title, "edits": [[list(span), text] for span, text in fix.edits]}
                        for fix in f.fixes]} if f.fixes else None)


def register(server: OmpLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC,
                    lsp.DiagnosticOptions(identifier="omp-lsp", inter_file_dependencies=True,
                                          workspace_diagnostics=False))
    async def pull_diagnostics(ls: OmpLanguageServer,
                               params: lsp.DocumentDiagnosticParams) -> lsp.DocumentDiagnosticReport:
        """The document's diagnostics for its current text (waiting for the analyses under way)."""
        state = await ls.settled(params.text_document.uri)
        if state is None:
            return lsp.RelatedFullDocumentDiagnosticReport(items=[])
        diagnostics = ls.diagnostics(state)
        if diagnostics != state.pulled:
            state.pulled, state.pull_id = diagnostics, state.pull_id + 1
        result_id = f"{id(state)}:{state.pull_id}"
        if params.previous_result_id == result_id:
            return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return lsp.RelatedFullDocumentDiagnosticReport(items=diagnostics, result_id=result_id)
