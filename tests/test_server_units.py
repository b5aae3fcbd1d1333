"""End-to-end (pytest-lsp, the VS Code and the Neovim profile): the build's configuration in the
editor. Inactive branches are semantic tokens of type comment and carry the OMP010 information;
an edit of a preprocessor line decides the configuration again; the settings' defines and
compile_commands.json's -D choose it; a header opened alone is read in its includer's translation
unit (its macros, the function that includes a fragment)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import answer_requests, mark, record_notifications, wait_diagnostics, wait_indexed
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SOURCE = """\
void scale(int n, double *a) {
#ifdef GPU
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) {
#else
  for (int i = 0; i < n; i++) {
#endif
    a[i] *= 2.0;
  }
}
"""


async def _start(client: LanguageClient, folder: Path, profile: str, settings: dict | None = None) -> None:
    record_notifications(client)
    answer_requests(client)
    result = await client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities(profile), root_uri=from_fs_path(str(folder)),
        workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(folder)) or "", name="ws")],
        initialization_options=settings))
    client.legend = result.capabilities.semantic_tokens_provider.legend  # type: ignore[union-attr,attr-defined]
    await wait_indexed(client)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=["visual-studio-code", "neovim"])
async def client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "main.c").write_text(MAIN)
    (folder / "kernel.h").write_text(KERNEL)
    lsp_client.folder = folder  # type: ignore[attr-defined]
    lsp_client.profile = request.param  # type: ignore[attr-defined]
    await _start(lsp_client, folder, request.param)
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = from_fs_path(str(path)) or ""
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
        uri=uri, language_id="c", version=1, text=path.read_text() if text is None else text)))
    return uri


async def _comment_lines(client: LanguageClient, uri: str) -> list[int]:
    """The lines the server's semantic tokens mark as comments (inactive code)."""
    tokens = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(lsp.TextDocumentIdentifier(uri)))
    assert tokens is not None
    kinds = client.legend.token_types  # type: ignore[attr-defined]
    out, line = [], 0
    data = tokens.data
    for i in range(0, len(data), 5):
        line += data[i]
        if kinds[data[i + 3]] == "comment":
            out.append(line)
    return out


async def test_inactive_branches_are_comments_with_one_information(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    uri = _open(client, folder / "scale.c", SOURCE)
    diags = await wait_diagnostics(client, uri, 1)
    assert [(d.code, d.severity, d.range.start.line) for d in diags] == \
        [("OMP010", lsp.DiagnosticSeverity.Information, 1)]
    assert "define GPU" in diags[0].message
    assert await _comment_lines(client, uri) == [2, 3]
    # typing a #define decides the configuration again: now the #else branch is the inactive one
    before = mark(client)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
                                              text="#define GPU\n")]))
    diags = await wait_diagnostics(client, uri, 2, after=before)
    assert [d.code for d in diags] == []   # the #else branch holds no directive
    assert await _comment_lines(client, uri) == [6]


async def test_settings_defines_choose_the_configuration(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    uri = _open(client, folder / "scale.c", SOURCE)
    assert [d.code for d in await wait_diagnostics(client, uri, 1)] == ["OMP010"]
    before = mark(client)
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
        settings={"omp-lsp": {"defines": ["GPU"]}}))
    diags = await wait_diagnostics(client, uri, None, after=before)
    assert diags == []
    assert await _comment_lines(client, uri) == [5]


MAIN = """\
#include <stdio.h>
static double scale(double x) { return 2.0 * x; }
#define USE_TEAMS 1
void run(int n, double *a) {
#pragma omp target data map(tofrom: a[0:n])
  {
#include "kernel.h"
  }
}
int main(void) { double a[8] = {0}; run(8, a); printf("%f\\n", a[0]); return 0; }
"""

KERNEL = """\
int count = n;
#if USE_TEAMS
#pragma omp target teams distribute parallel for map(to: count)
#else
#pragma omp target parallel for map(to: count) thread_limit(64) thread_limit(32)
#endif
for (int i = 0; i < count; i++)
  a[i] = scale(a[i]);
"""


async def test_a_header_opened_alone_is_read_in_its_includer(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    uri = _open(client, folder / "kernel.h")
    diags = await wait_diagnostics(client, uri, 1)
    # inside run(): its directives are not at file scope (no OMP008), count is a local, and
    # USE_TEAMS is main.c's: the #else branch (whose repeated clause would be an error) is the
    # inactive one, and the information says what would enable it
    assert [(d.code, d.range.start.line) for d in diags] == [("OMP010", 3)]
    assert "undefine USE_TEAMS" in diags[0].message
    assert await _comment_lines(client, uri) == [4]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=["visual-studio-code", "neovim"])
async def database_client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "scale.c").write_text(SOURCE)
    (folder / "compile_commands.json").write_text(json.dumps([{
        "directory": str(folder), "file": "scale.c", "arguments": ["clang-22", "-fopenmp", "-DGPU", "-c", "scale.c"]}]))
    lsp_client.folder = folder  # type: ignore[attr-defined]
    await _start(lsp_client, folder, request.param)
    yield
    await lsp_client.shutdown_session()


async def test_the_compile_command_chooses_the_configuration(database_client: LanguageClient) -> None:
    folder: Path = database_client.folder  # type: ignore[attr-defined]
    uri = _open(database_client, folder / "scale.c")
    assert await wait_diagnostics(database_client, uri, 1) == []
    assert await _comment_lines(database_client, uri) == [5]
