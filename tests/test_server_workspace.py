"""End-to-end: cross-file rules in the server see every file of the workspace folder."""
from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import (
    answer_requests,
    mark,
    pulls,
    record_notifications,
    wait_diagnostics,
    wait_indexed,
    wait_notification,
)
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from workspace_check import fortran_workspace_file

CASE = Path(__file__).resolve().parent / "fixtures" / "workspaces" / "omp155_interface_mismatch"
PROFILES = ["visual-studio-code", "neovim"]


def _capabilities(profile: str) -> lsp.ClientCapabilities:
    """A profile's capabilities; "neovim+refresh": Neovim's, able to be asked to pull again."""
    capabilities = client_capabilities(profile.split("+")[0])
    if profile.endswith("+refresh"):
        assert capabilities.workspace is not None
        capabilities.workspace.diagnostics = lsp.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return capabilities


async def _start(client: LanguageClient, folder: Path, profile: str) -> None:
    client.folder = folder  # type: ignore[attr-defined]
    record_notifications(client)
    answer_requests(client)
    await client.initialize_session(lsp.InitializeParams(
        capabilities=_capabilities(profile), root_uri=from_fs_path(str(folder)),
        workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(folder)) or "", name="ws")]))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=PROFILES)
async def client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    (folder / "notes.txt").write_text("not a source file\n")
    (folder / "blob.f90").write_bytes(b"\0\1\2 binary")
    await _start(lsp_client, folder, request.param)
    await wait_indexed(lsp_client)
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, version: int = 1) -> str:
    uri = from_fs_path(str(path)) or ""
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id="fortran", version=version, text=path.read_text())))
    return uri


async def _kern_a_related(client: LanguageClient, folder: Path) -> lsp.Location:
    """main.f90 opened: its three OMP155 findings, and where kern_a's related information points."""
    main = _open(client, folder / "main.f90")
    diags = await wait_diagnostics(client, main, 1)
    assert sorted((d.code, d.range.start.line) for d in diags) == [("OMP155", 6), ("OMP155", 10), ("OMP155", 21)]
    kern_a = next(d for d in diags if d.range.start.line == 6)
    assert kern_a.related_information
    return kern_a.related_information[0].location


async def test_closed_files_of_the_folder_take_part_in_cross_file_rules(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    # related information points into the other (closed) file, with its own positions
    where = await _kern_a_related(client, folder)
    assert where.uri == from_fs_path(str(folder / "kernels.f90"))
    assert where.range.start.line == 2


async def test_fixing_the_other_file_republishes_this_one(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    main = _open(client, folder / "main.f90")
    assert len(await wait_diagnostics(client, main, 1)) == 3
    kernels = _open(client, folder / "kernels.f90")
    await wait_diagnostics(client, kernels, 1)
    before_edit = mark(client)
    # give kern_a the directive its interface body promises: main.f90 loses that error
    text = (folder / "kernels.f90").read_text().splitlines()
    line = next(i for i, t in enumerate(text) if "real, intent(inout) :: x" in t)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=kernels, version=2),
        [lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(line + 1, 0), lsp.Position(line + 1, 0)),
                                              text="  !$omp declare target\n")]))
    diags = await wait_diagnostics(client, main, 1, after=before_edit)
    assert sorted(d.range.start.line for d in diags) == [10, 21]


async def test_a_closed_file_changed_on_disk_is_read_again(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    # (the change is reported whether or not the client registered the server's watcher, as
    # editors with fixed watchers do; test_server_propagation checks the registration)
    main = _open(client, folder / "main.f90")
    assert len(await wait_diagnostics(client, main, 1)) == 3
    before = mark(client)
    # kernels.f90 (closed) gets the directive its interface body promises, on disk
    path = folder / "kernels.f90"
    text = path.read_text().splitlines()
    line = next(i for i, t in enumerate(text) if "real, intent(inout) :: x" in t)
    text.insert(line + 1, "  !$omp declare target")
    path.write_text("\n".join(text) + "\n")
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
        changes=[lsp.FileEvent(uri=from_fs_path(str(path)) or "", type=lsp.FileChangeType.Changed)]))
    diags = await wait_diagnostics(client, main, 1, after=before)
    assert sorted(d.range.start.line for d in diags) == [10, 21]
    # and when it goes away, its cross-file findings go with it
    before = mark(client)
    path.unlink()
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
        changes=[lsp.FileEvent(uri=from_fs_path(str(path)) or "", type=lsp.FileChangeType.Deleted)]))
    diags = await wait_diagnostics(client, main, 1, after=before)
    # only kern_e's remains: its definition is in main.f90 itself
    assert sorted(d.range.start.line for d in diags if d.code == "OMP155") == [21]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=PROFILES)
async def ignoring_client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    """The same workspace with kernels.f90 moved into a folder its .gitignore excludes."""
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    (folder / "generated").mkdir()
    (folder / "kernels.f90").rename(folder / "generated" / "kernels.f90")
    (folder / ".gitignore").write_text("# build products\n/generated/\n!keep.f90\n")
    await _start(lsp_client, folder, request.param)
    await wait_indexed(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_gitignored_files_are_not_indexed(ignoring_client: LanguageClient) -> None:
    folder: Path = ignoring_client.folder  # type: ignore[attr-defined]
    main = _open(ignoring_client, folder / "main.f90")
    diags = await wait_diagnostics(ignoring_client, main, 1)
    # kernels.f90 is not read: only kern_e's mismatch (its definition is in main.f90) remains
    assert sorted(d.range.start.line for d in diags if d.code == "OMP155") == [21]


# kernels.f90 under a name whose bytes are not UTF-8 (Latin-1 'é'): Linux file names are bytes
LATIN1_NAME = b"kern\xe9ls.f90"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=PROFILES)
async def latin1_client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    os.rename(folder / "kernels.f90", os.path.join(os.fsencode(folder), LATIN1_NAME))
    await _start(lsp_client, folder, request.param)
    await wait_indexed(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_related_information_in_a_file_whose_name_is_not_utf8(latin1_client: LanguageClient) -> None:
    """The other file's findings still reach this one, their related information pointing into
    it by its name's bytes, percent-encoded (as a file URI of any name is written)."""
    folder: Path = latin1_client.folder  # type: ignore[attr-defined]
    where = await _kern_a_related(latin1_client, folder)
    assert where.uri == Path(os.fsdecode(os.path.join(os.fsencode(folder), LATIN1_NAME))).as_uri()
    assert where.uri.endswith("/kern%E9ls.f90")
    assert where.range.start.line == 2


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=[*PROFILES, "neovim+refresh"])
async def early_client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    """The workspace with a hundred more files to index; the test opens a document at once."""
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    for k in range(100):
        (folder / f"extra{k}.f90").write_text(f"subroutine extra{k}(x)\n  real :: x\n  x = {k}.0\nend subroutine\n")
    await _start(lsp_client, folder, request.param)
    yield
    await lsp_client.shutdown_session()


async def test_a_document_opened_while_indexing_gets_its_cross_file_findings(early_client: LanguageClient) -> None:
    """Pushed: the document's own findings at once, the cross-file ones when the index is
    complete (published again, same version). Pulled: the pull waits for the index, unless the
    client can be asked to pull again (workspace/diagnostic/refresh) when it is complete."""
    main = _open(early_client, early_client.folder / "main.f90")  # type: ignore[attr-defined]
    workspace = early_client.capabilities.workspace  # type: ignore[union-attr]
    if pulls(early_client) and workspace is not None and workspace.diagnostics is not None:
        first = await wait_diagnostics(early_client, main, 1)   # at once, with what the index has so far
        await wait_indexed(early_client)
        if not any(d.code == "OMP155" for d in first):   # the index was not complete: a refresh follows
            for _ in range(500):
                if early_client.diagnostic_refresh_count:
                    break
                await asyncio.sleep(0.01)
            assert early_client.diagnostic_refresh_count >= 1
        diags = await wait_diagnostics(early_client, main, 1)
    elif pulls(early_client):
        diags = await wait_diagnostics(early_client, main, 1)
    else:
        params = await wait_notification(early_client, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                                         lambda p: p.uri == main and any(d.code == "OMP155" for d in p.diagnostics))
        diags = list(params.diagnostics)
    assert sorted((d.code, d.range.start.line) for d in diags) == [("OMP155", 6), ("OMP155", 10), ("OMP155", 21)]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=["visual-studio-code", "neovim+refresh"])
async def large_client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    """A workspace of 60 Fortran files of a thousand lines (seconds to index); nothing waited for."""
    folder = tmp_path / "ws"
    folder.mkdir()
    for k in range(60):
        (folder / f"unit{k}.f90").write_text(fortran_workspace_file(k, 1000))
    await _start(lsp_client, folder, request.param)
    yield
    await lsp_client.shutdown_session()


async def test_a_file_opened_at_once_has_its_diagnostics_before_the_index_is_complete(
        large_client: LanguageClient) -> None:
    """The opened file is analysed at once, beside the index: pushed, its first publish comes
    before the index's progress ends; pulled by a client that can be asked to pull again, the
    first pull is answered before then."""
    opened = _open(large_client, large_client.folder / "unit30.f90")  # type: ignore[attr-defined]

    def index_complete() -> bool:
        return any(getattr(report, "kind", None) == "end"
                   for reports in large_client.progress_reports.values() for report in reports)
    if pulls(large_client):
        await wait_diagnostics(large_client, opened, 1)
        assert not index_complete()
    else:
        await wait_notification(large_client, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, lambda p: p.uri == opened)
        assert not index_complete()
    await wait_indexed(large_client)


async def test_a_project_file_or_compile_commands_changed_on_disk_is_read_again(client: LanguageClient) -> None:
    """As clangd reloads its .clangd: a setting written in .omp-lsp.toml, or compile_commands.json's
    -fopenmp-version, applies without a restart."""
    folder: Path = client.folder  # type: ignore[attr-defined]
    path = folder / "enter.c"
    path.write_text("int x;\n#pragma omp declare target enter(x)\n")
    uri = from_fs_path(str(path)) or ""
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "c", 1, path.read_text())))
    assert [d.code for d in await wait_diagnostics(client, uri, 1)] == ["OMP007"]   # (enter: 5.2; default 5.1)

    async def changed(name: str, kind: lsp.FileChangeType, expected: list[str], version: str) -> None:
        start = mark(client)
        client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
            [lsp.FileEvent(from_fs_path(str(folder / name)) or "", kind)]))
        for _ in range(200):   # (a notification: what follows sees it once it is handled)
            config = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("omp-lsp.showConfiguration"))
            if config["openmpVersion"] == version:
                break
            await asyncio.sleep(0.02)
        assert config["openmpVersion"] == version
        codes = [d.code for d in await wait_diagnostics(client, uri, after=start)]
        assert codes == expected

    (folder / ".omp-lsp.toml").write_text('openmpVersion = "5.2"\n')
    await changed(".omp-lsp.toml", lsp.FileChangeType.Created, [], "5.2")
    (folder / ".omp-lsp.toml").unlink()
    (folder / "compile_commands.json").write_text(
        '[{"directory": ".", "file": "enter.c", "arguments": ["cc", "-fopenmp", "-fopenmp-version=50", "enter.c"]}]')
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
        [lsp.FileEvent(from_fs_path(str(folder / ".omp-lsp.toml")) or "", lsp.FileChangeType.Deleted)]))
    await changed("compile_commands.json", lsp.FileChangeType.Created, ["OMP007"], "5.0")


async def test_a_file_whose_name_is_not_utf8_opened_is_the_indexed_file(latin1_client: LanguageClient) -> None:
    """Opened, the file is the one the index read from disk (its name's bytes decoded from the
    URI's percent-escapes), not a second file beside it."""
    folder: Path = latin1_client.folder  # type: ignore[attr-defined]
    other = Path(os.fsdecode(os.path.join(os.fsencode(folder), LATIN1_NAME)))
    uri = other.as_uri()
    latin1_client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id="fortran", version=1, text=other.read_bytes().decode())))
    await wait_diagnostics(latin1_client, uri, 1)
    main = _open(latin1_client, folder / "main.f90")
    diags = await wait_diagnostics(latin1_client, main, 1)
    assert sorted((d.code, d.range.start.line) for d in diags) == [("OMP155", 6), ("OMP155", 10), ("OMP155", 21)]
    assert {r.location.uri for d in diags for r in d.related_information or []} <= {uri, main}
