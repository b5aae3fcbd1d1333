"""End-to-end: the real server over stdio, driven by pytest-lsp."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest_lsp
from lsp_helpers import (
    answer_requests,
    record_notifications,
    wait_diagnostics,
    wait_notification,
)
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

URI = "file:///work/demo.c"
F_URI = "file:///work/demo.f90"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    record_notifications(lsp_client)
    answer_requests(lsp_client)
    # an empty workspace folder: the documents below exist only in the editor
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=from_fs_path(str(tmp_path))))
    yield
    await lsp_client.shutdown_session()


async def _wait(client: LanguageClient, uri: str, version: int) -> list[lsp.Diagnostic]:
    """The diagnostics published for `uri` at `version` (other documents and versions are skipped)."""
    return await wait_diagnostics(client, uri, version)


def _open(client: LanguageClient, uri: str, text: str, language: str = "c") -> None:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))


def _change(client: LanguageClient, uri: str, version: int, start: tuple[int, int], end: tuple[int, int],
            text: str) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [lsp.TextDocumentContentChangePartial(
            range=lsp.Range(lsp.Position(*start), lsp.Position(*end)), text=text)]))


SOURCE = """\
void f(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) privte(n)
  for (int i = 0; i < n; i++) a[i] *= 2.0;
}
"""


async def test_publishes_on_open_and_on_each_incremental_change(client: LanguageClient) -> None:
    _open(client, URI, SOURCE)
    diags = await _wait(client, URI, 1)
    assert [(d.code, d.range.start.line) for d in diags] == [("OMP002", 1)]
    d = diags[0]
    line = SOURCE.splitlines()[1]
    assert line[d.range.start.character:d.range.end.character] == "privte"
    assert d.source == "omp-lsp" and d.severity == lsp.DiagnosticSeverity.Error
    assert "did you mean 'private'" in d.message

    # Fix the typo with an edit inside the pragma (no tree structure changes).
    col = line.index("privte")
    _change(client, URI, 2, (1, col + 4), (1, col + 4), "a")
    assert await _wait(client, URI, 2) == []

    # Break the directive name on another edit.
    _change(client, URI, 3, (1, 12), (1, 18), "targte")
    diags = await _wait(client, URI, 3)
    assert [d.code for d in diags] == ["OMP001"]
    assert diags[0].range.start == lsp.Position(1, 12)


async def test_utf16_columns_after_non_ascii(client: LanguageClient) -> None:
    text = "void g(int n) {\n#pragma omp parallel /* 😀 é */ privte(n)\n  {}\n}\n"
    _open(client, URI, text)
    diags = await _wait(client, URI, 1)
    assert len(diags) == 1
    line = text.splitlines()[1]
    utf16_col = len(line[:line.index("privte")].encode("utf-16-le")) // 2
    assert diags[0].range.start.character == utf16_col
    assert diags[0].range.end.character == utf16_col + len("privte")


async def test_fortran_document(client: LanguageClient) -> None:
    text = "program p\n  !$omp target\n  x = 1\n  !$omp end parallel\nend program\n"
    _open(client, F_URI, text, "FortranFreeForm")
    diags = await _wait(client, F_URI, 1)
    assert sorted((d.code, d.range.start.line) for d in diags) == [("OMP006", 1), ("OMP006", 3)]


async def test_server_survives_bad_requests(client: LanguageClient) -> None:
    # A change for a document that was never opened, then an edit past the end of a line.
    _change(client, "file:///work/never-opened.c", 2, (0, 0), (0, 0), "x")
    _open(client, URI, "int x;\n")
    await _wait(client, URI, 1)
    _change(client, URI, 2, (0, 500), (7, 900), "\n#pragma omp barier\n")
    diags = await _wait(client, URI, 2)
    assert [d.code for d in diags] == ["OMP001"]
    # Still serving other documents afterwards.
    _open(client, F_URI, "program p\n!$omp paralel\nend program\n", "fortran")
    assert [d.code for d in await _wait(client, F_URI, 1)] == ["OMP001"]


async def test_huge_document_is_not_analysed_and_the_user_is_told(client: LanguageClient) -> None:
    text = "#pragma omp targte\n" + "int x;\n" * 1_500_000
    _open(client, URI, text)
    message = await wait_notification(client, lsp.WINDOW_SHOW_MESSAGE)
    assert "larger than" in message.message
    assert await _wait(client, URI, 1) == []
