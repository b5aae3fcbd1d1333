"""Diagnostics: findings as LSP diagnostics (made by OmpLanguageServer.to_diagnostic), pushed (publishDiagnostics, with the document version)
or pulled (textDocument/diagnostic) as the client prefers; never both, or editors show them twice."""
from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer


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
