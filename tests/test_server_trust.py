"""Build and run through the server when it must not, or cannot, go as usual: the `buildAndRun`
setting turned off (an untrusted workspace: no code action, the command refused, and a project
file cannot turn it back on), and a client that announces work-done progress but never answers
window/workDoneProgress/create (the build runs without progress). A real server over stdio
(pytest-lsp) and, for the run, a real compiler (clang-22)."""
from __future__ import annotations

import asyncio
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsp_helpers import TIMEOUT, answer_requests, record_notifications, wait_diagnostics
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

PROGRAM = """\
#include <stdio.h>
int main(void) {
  int x = 0;
#pragma omp target map(tofrom: x)
  x += 41;
  printf("%d\\n", x + 1);
  return 0;
}
"""
TITLE = "Build and run on host and device"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    """A client not yet initialised: each test starts the session with its settings."""
    record_notifications(lsp_client)
    answer_requests(lsp_client)
    lsp_client.folder = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, settings: dict[str, Any] | None, project_file: str = "") -> str:
    """The session started with `settings` as initializationOptions, and the program open."""
    folder: Path = client.folder  # type: ignore[attr-defined]
    (folder / ".omp-lsp.toml").write_text('toolchain = "clang-22"\n' + project_file)
    await client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=from_fs_path(str(folder)),
        initialization_options={"omp-lsp": settings} if settings is not None else None))
    path = folder / "prog.c"
    path.write_text(PROGRAM)
    uri = from_fs_path(str(path))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "c", 1, PROGRAM)))
    await wait_diagnostics(client, uri, 1)
    return uri


async def _titles(client: LanguageClient, uri: str) -> list[str]:
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Range(lsp.Position(1, 0), lsp.Position(1, 0)), lsp.CodeActionContext([])))
    return [a.title for a in actions or []]


async def _execute(client: LanguageClient, command: str, *arguments: Any) -> Any:
    return await asyncio.wait_for(client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command, list(arguments))), TIMEOUT)


async def _refused(client: LanguageClient, uri: str) -> None:
    """No code action, and the command answers RequestFailed saying why (nothing is built)."""
    assert TITLE not in await _titles(client, uri)
    with pytest.raises(JsonRpcException) as refused:
        await _execute(client, "omp-lsp.buildAndRun", uri)
    assert refused.value.code == lsp.LSPErrorCodes.RequestFailed == -32803
    assert "build and run is turned off" in refused.value.message
    assert (await _execute(client, "omp-lsp.showConfiguration"))["buildAndRun"] is False


async def test_the_editor_turns_build_and_run_off_and_a_project_file_cannot_turn_it_on(client: LanguageClient) -> None:
    uri = await _open(client, {"buildAndRun": False}, "build-and-run = true\n")
    await _refused(client, uri)
    # trust granted: the editor's settings say so, and the action is back
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings={"omp-lsp": {"buildAndRun": True}}))
    for _ in range(200):
        if (await _execute(client, "omp-lsp.showConfiguration"))["buildAndRun"]:
            break
        await asyncio.sleep(0.05)
    assert TITLE in await _titles(client, uri)


async def test_a_project_file_may_turn_build_and_run_off(client: LanguageClient) -> None:
    uri = await _open(client, None, "build-and-run = false\n")
    await _refused(client, uri)


async def test_unset_build_and_run_is_offered(client: LanguageClient) -> None:
    uri = await _open(client, {"buildAndRun": None})   # (editors send null for an unset setting)
    assert TITLE in await _titles(client, uri)
    assert (await _execute(client, "omp-lsp.showConfiguration"))["buildAndRun"] is True


@pytest.mark.skipif(shutil.which("clang-22") is None, reason="the README's set-up installs clang-22")
async def test_a_progress_token_never_accepted_does_not_hold_the_build_back(client: LanguageClient) -> None:
    """The client announces work-done progress, and its window/workDoneProgress/create handler
    never answers: the build goes on without progress and answers."""
    asked: list[str] = []
    answer = asyncio.Event()

    async def not_answering(params: lsp.WorkDoneProgressCreateParams) -> None:
        asked.append(str(params.token))
        await answer.wait()

    client.protocol.fm.features[lsp.WINDOW_WORK_DONE_PROGRESS_CREATE] = not_answering
    uri = await _open(client, None)
    result = await _execute(client, "omp-lsp.buildAndRun", uri)
    assert result["same_output"] is True and result["runs"][1]["stdout"] == "42\n"
    assert all(shlex.split(b["command_line"]) == b["command"] for b in result["builds"])   # (to paste into a shell)
    assert any(token.startswith("omp-lsp-build") for token in asked)   # (it was asked, and not answered)
    assert not any(str(token).startswith("omp-lsp-build") for token in client.progress_reports)
    # the answers, late: the server takes them in its stride (and the client can shut down)
    answer.set()
    assert (await _execute(client, "omp-lsp.showConfiguration"))["buildAndRun"] is True
