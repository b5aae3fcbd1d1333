"""Waiting for server notifications without missing any.

`client.wait_for_notification` only sees notifications that arrive after it is called: two
notifications read in one chunk (a showMessage and the publishDiagnostics right after it)
resolve the first wait and lose the second, and the test hangs. So every notification is
recorded as it arrives, and the waits search the record (with a timeout: fail, never hang).
"""
from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

TIMEOUT = 60.0


def record_notifications(client: LanguageClient) -> None:
    seen: list[tuple[str, Any]] = []
    protocol = client.protocol
    original = protocol._handle_notification

    def handle(method: str, params: Any) -> None:
        seen.append((method, params))
        original(method, params)

    protocol._handle_notification = handle  # type: ignore[method-assign]
    client.seen = seen  # type: ignore[attr-defined]


def answer_requests(client: LanguageClient) -> None:
    """Answer the server's requests as an editor does, keeping them for the test: inlay hint
    refreshes (`client.refreshes` counts them), semantic token refreshes (`client.token_refreshes`)
    and capability registrations (`client.registrations`,
    the file watchers). pytest-lsp's client has no handlers for them by itself (it counts diagnostic
    refreshes itself: `client.diagnostic_refresh_count`)."""
    client.refreshes = 0  # type: ignore[attr-defined]
    client.token_refreshes = 0  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]

    @client.feature(lsp.WORKSPACE_INLAY_HINT_REFRESH)
    def refresh(_: None) -> None:
        client.refreshes += 1  # type: ignore[attr-defined]

    @client.feature(lsp.WORKSPACE_SEMANTIC_TOKENS_REFRESH)
    def refresh_tokens(_: None) -> None:
        client.token_refreshes += 1  # type: ignore[attr-defined]

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]


def mark(client: LanguageClient) -> int:
    """A point in the record: later waits may ask for notifications after it."""
    return len(client.seen)  # type: ignore[attr-defined]


async def wait_notification(client: LanguageClient, method: str, predicate: Any = None, after: int = 0) -> Any:
    async def find() -> Any:
        index = after
        while True:
            seen = client.seen  # type: ignore[attr-defined]
            while index < len(seen):
                name, params = seen[index]
                index += 1
                if name == method and (predicate is None or predicate(params)):
                    return params
            await asyncio.sleep(0.01)
    return await asyncio.wait_for(find(), TIMEOUT)


async def wait_indexed(client: LanguageClient) -> None:
    """Until the server's workspace index is complete (its work-done progress ended): until
    then a pushing server publishes a document's own findings without the cross-file ones."""
    async def ended() -> None:
        while not any(getattr(report, "kind", None) == "end"
                      for reports in client.progress_reports.values() for report in reports):
            await asyncio.sleep(0.01)
    await asyncio.wait_for(ended(), TIMEOUT)


def pulls(client: LanguageClient) -> bool:
    """The client's capabilities ask for pull diagnostics (the server then does not push)."""
    capabilities = client.capabilities
    return bool(capabilities and capabilities.text_document and capabilities.text_document.diagnostic is not None)


async def pull_diagnostics(client: LanguageClient, uri: str) -> list[lsp.Diagnostic]:
    report = await asyncio.wait_for(client.text_document_diagnostic_async(
        lsp.DocumentDiagnosticParams(text_document=lsp.TextDocumentIdentifier(uri))), TIMEOUT)
    assert isinstance(report, lsp.RelatedFullDocumentDiagnosticReport)
    return list(report.items)


async def wait_diagnostics(client: LanguageClient, uri: str, version: int | None = None,
                           after: int = 0) -> list[lsp.Diagnostic]:
    """The diagnostics published for `uri` (at `version`, when given) after the mark `after`; a
    client that pulls diagnostics pulls them (the server answers for the latest version it has)."""
    if pulls(client):
        return await pull_diagnostics(client, uri)
    params = await wait_notification(
        client, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
        lambda p: p.uri == uri and (version is None or p.version == version), after)
    return list(params.diagnostics)
