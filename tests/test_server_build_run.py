"""The code action "Build and run on host and device" and its commands, end to end through the
server with pytest-lsp (both client profiles): progress, the result, the summary, and the build's
diagnostics published and cleared by the next build that succeeds. Real compilers (clang-22)."""
from __future__ import annotations

import ast
import asyncio
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import (
    answer_requests,
    mark,
    pulls,
    record_notifications,
    wait_diagnostics,
    wait_notification,
)
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from test_build_and_run import (
    LINK_C as PROGRAM,  # a global the device needs but lacks (OMP502)
)

pytestmark = pytest.mark.skipif(shutil.which("clang-22") is None, reason="the README's set-up installs clang-22")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=["visual-studio-code", "neovim"])
async def client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    record_notifications(lsp_client)
    answer_requests(lsp_client)
    (tmp_path / ".omp-lsp.toml").write_text('toolchain = "clang-22"\n')
    capabilities = client_capabilities(request.param)
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities,
                                                             root_uri=from_fs_path(str(tmp_path))))
    lsp_client.folder = tmp_path  # type: ignore[attr-defined]
    lsp_client.progress = bool(capabilities.window and capabilities.window.work_done_progress)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _build(client: LanguageClient, uri: str) -> dict:
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), lsp.CodeActionContext([])))
    [action] = [a for a in actions or [] if a.title == "Build and run on host and device"]
    # (lsprotocol's client side reads any item with a "command" key as a Command, so a CodeAction
    # that carries one arrives with its command object as the repr of a dict)
    command = ast.literal_eval(action.command) if isinstance(action, lsp.Command) else action.command
    if isinstance(command, lsp.Command):
        command = {"command": command.command, "arguments": command.arguments}
    assert command["command"] == "omp-lsp.buildAndRun" and command["arguments"] == [uri]
    return await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command["command"], command["arguments"]))


async def test_build_and_run_reports_a_device_link_failure_then_clears_it(client: LanguageClient) -> None:
    path = client.folder / "prog.c"  # type: ignore[attr-defined]
    path.write_text(PROGRAM)
    uri = from_fs_path(str(path))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "c", 1, PROGRAM)))
    await wait_diagnostics(client, uri, 1)
    start = mark(client)
    result = await _build(client, uri)
    assert result["toolchain"] == "llvm-22" and [b["ok"] for b in result["builds"]] == [True, False]
    [link] = [d for d in result["builds"][1]["diagnostics"] if d["code"] == "OMP502"]
    assert (link["file"], link["line"]) == (str(path), 2)
    shown = await wait_notification(client, lsp.WINDOW_SHOW_MESSAGE, after=start)
    assert "device build failed" in shown.message
    seen = client.seen[start:]  # type: ignore[attr-defined]
    if client.progress:  # type: ignore[attr-defined]
        # (the build's progress: the workspace index's may end meanwhile)
        kinds = [p.value["kind"] if isinstance(p.value, dict) else p.value.kind for name, p in seen
                 if name == lsp.PROGRESS and str(p.token).startswith("omp-lsp-build")]
        assert kinds[0] == "begin" and kinds[-1] == "end"
    if not any(name == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS for name, _ in seen):
        return   # a pull client: asked to pull again (test_server covers pulling)
    published = [p for name, p in seen if name == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS and p.uri == uri][-1]
    # the analysis saw it coming (OMP404); the build shows it happen (OMP502)
    assert sorted((d.code, d.range.start.line) for d in published.diagnostics) == [("OMP404", 2), ("OMP502", 1)]
    # the global marked declare target (in the editor, unsaved): the next build succeeds and clears it
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=2, uri=uri),
        [lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(3, 34), lsp.Position(3, 34)),
                                              text=", counter")]))
    await wait_diagnostics(client, uri, 2)
    start = mark(client)
    result = await _build(client, uri)
    assert result["same_output"] is True and [r["stdout"] for r in result["runs"]] == ["6\n", "6\n"]
    assert result["runs"][1]["offloaded"] is True
    await wait_notification(client, lsp.WINDOW_SHOW_MESSAGE, after=start)
    published = [p for name, p in client.seen[start:] if name == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS  # type: ignore[attr-defined]
                 and p.uri == uri][-1]
    assert [d.code for d in published.diagnostics if str(d.code).startswith("OMP50")] == []   # (the build's: gone)
    entries = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("omp-lsp.showOffloadEntries", [uri]))
    assert {"kind": "variable", "name": "counter", "target": "x86_64-unknown-linux-gnu"} in entries


HEADER = "static inline int twice(int x) { return 2 * y; }\n"   # y: undeclared
INCLUDING = """\
#include <stdio.h>
#include "util.h"
int main(void) {
  int r = 0;
#pragma omp target map(tofrom: r)
  r = twice(21);
  printf("%d\\n", r);
  return 0;
}
"""


async def test_a_build_error_in_a_project_header_is_published_for_the_header_and_cleared(client: LanguageClient) -> None:
    """The header is not open: its diagnostics are pushed (no pull reaches a file that is not
    open). Opened, they show with its own; the next build that succeeds clears them."""
    folder: Path = client.folder  # type: ignore[attr-defined]
    (folder / "util.h").write_text(HEADER)
    (folder / "prog.c").write_text(INCLUDING)
    uri, header = from_fs_path(str(folder / "prog.c")), from_fs_path(str(folder / "util.h"))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "c", 1, INCLUDING)))
    await wait_diagnostics(client, uri, 1)
    start = mark(client)
    result = await _build(client, uri)
    [error] = [d for d in result["builds"][0]["diagnostics"] if d["severity"] == "error"]
    assert (error["file"], error["line"], error["code"]) == (str(folder / "util.h"), 1, "OMP501")
    pushed = await wait_notification(client, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, lambda p: p.uri == header, start)
    column = HEADER.index("y;")
    assert [(d.code, d.range.start.line, d.range.start.character, d.source) for d in pushed.diagnostics] == [
        ("OMP501", 0, column, "omp-lsp build")]
    # opened in the editor: shown with the file's own diagnostics (a pulling client gets them by
    # pulling, and the pushed copy is withdrawn so that it does not show them twice)
    start = mark(client)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(header, "c", 1, HEADER)))
    if pulls(client):
        withdrawn = await wait_notification(client, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, lambda p: p.uri == header, start)
        assert list(withdrawn.diagnostics) == []
    assert [d.code for d in await wait_diagnostics(client, header, 1, start)] == ["OMP501"]
    # mended (on disk, where the compiler reads it, and in the editor): the next build clears them
    (folder / "util.h").write_text(HEADER.replace("* y", "* x"))
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=2, uri=header),
        [lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(0, column), lsp.Position(0, column + 1)),
                                              text="x")]))
    await wait_diagnostics(client, header, 2)
    start = mark(client)
    result = await _build(client, uri)
    assert result["same_output"] is True and result["runs"][1]["stdout"] == "42\n"
    await wait_notification(client, lsp.WINDOW_SHOW_MESSAGE, after=start)
    assert await wait_diagnostics(client, header, 2, start) == []


async def test_a_toolchain_setting_that_names_none_installed_says_so(client: LanguageClient) -> None:
    path = client.folder / "prog.c"  # type: ignore[attr-defined]
    path.write_text(INCLUDING.replace('#include "util.h"\n', "").replace("twice(21)", "42"))
    # (the editor's settings win over the project file's toolchain = "clang-22")
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings={"omp-lsp": {"toolchain": "icx"}}))
    uri = from_fs_path(str(path))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "c", 1, path.read_text())))
    await wait_diagnostics(client, uri, 1)
    start = mark(client)
    result = await _build(client, uri)
    assert result["toolchain"] is None and result["builds"] == []
    assert result["notes"][0].startswith("the toolchain setting names icx, which compiles no c here (found: llvm-22")
    shown = await wait_notification(client, lsp.WINDOW_SHOW_MESSAGE, after=start)
    assert "icx" in shown.message


def _pgrep(command: str) -> bool:
    return bool(subprocess.run(["pgrep", "-f", command], capture_output=True, check=False).stdout)


async def _running(command: str) -> bool:
    """Whether a process runs this command line."""
    return await asyncio.to_thread(_pgrep, command)


async def test_a_new_build_of_the_same_file_cancels_the_one_running(client: LanguageClient) -> None:
    """The first build's host run waits on a shell's sleep; a second request for the file stops
    it (the whole process group: no sleep is left), and the first command answers nothing."""
    marker = f"{time.time_ns() % 10_000_000}.75"
    slow = INCLUDING.replace('#include "util.h"\n', "#include <stdlib.h>\n").replace(
        "twice(21)", "42").replace("  printf", f'  system("sleep {marker}");\n  printf')
    path = client.folder / "prog.c"  # type: ignore[attr-defined]
    path.write_text(slow)
    uri = from_fs_path(str(path))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "c", 1, slow)))
    await wait_diagnostics(client, uri, 1)
    first = asyncio.ensure_future(_build(client, uri))
    for _ in range(600):   # until the host run sleeps
        if await _running(f"sleep {marker}"):
            break
        await asyncio.sleep(0.05)
    else:
        pytest.fail("the first build's run never started")
    quick = slow.replace(f'  system("sleep {marker}");\n', "")
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=2, uri=uri), [lsp.TextDocumentContentChangeWholeDocument(quick)]))
    second = await _build(client, uri)
    assert second["same_output"] is True and second["runs"][0]["stdout"] == "42\n"
    assert await asyncio.wait_for(first, 60) is None
    assert not await _running(f"sleep {marker}")
