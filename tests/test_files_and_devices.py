"""Named pipes, devices, symbolic link loops and unreadable folders, in the server's workspace
and given to `omp-lsp --check`: each is skipped or refused with one line, the rest is read, and
nothing waits forever (a pipe's open() waits for a writer; /dev/zero never ends).

The tests run as root here, and root lists a folder whose permissions are 000. The same code
path (listing a folder fails) is taken by a folder whose path is longer than PATH_MAX: listing
it fails with ENAMETOOLONG whoever asks. The permission case is added when not root.
"""
from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_lsp
from hypothesis import given, settings
from hypothesis import strategies as st
from lsp_helpers import answer_requests, mark, record_notifications, wait_diagnostics, wait_indexed
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from test_cli import run

CASE = Path(__file__).resolve().parent / "fixtures" / "workspaces" / "omp155_interface_mismatch"
ROOT_USER = os.geteuid() == 0
CLI_TIMEOUT = 60   # a hang fails the test instead of stalling the suite
BAD_C = "void f(void) {\n#pragma omp targte\n}\n"


def too_deep_folder(parent: Path) -> Path:
    """A chain of folders whose full path is longer than PATH_MAX (made through directory file
    descriptors, as no path can name the bottom); listing the deepest ones by path fails."""
    name = "d" * 200
    fd = os.open(parent, os.O_RDONLY)
    try:
        for _ in range(25):
            os.mkdir(name, dir_fd=fd)
            below = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = below
        source = os.open("deep.c", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(source, BAD_C.encode())
        os.close(source)
    finally:
        os.close(fd)
    return parent / name


def hostile_entries(folder: Path) -> list[str]:
    """Everything unreadable a careless workspace holds, in `folder`; the names that must be
    reported as skipped."""
    os.mkfifo(folder / "pipe.c")
    (folder / "zero.c").symlink_to("/dev/zero")
    (folder / "loop.c").symlink_to("loop.c")
    (folder / "cycle").symlink_to(".")   # a folder link: not followed, never reported
    (folder / "dangling.c").symlink_to("nowhere.c")   # gone: nothing to report
    too_deep_folder(folder)
    names = ["pipe.c", "zero.c", "loop.c", "File name too long"]
    if not ROOT_USER:
        locked = folder / "locked"
        locked.mkdir()
        (locked / "hidden.c").write_text(BAD_C)
        locked.chmod(0)
        names.append("locked")
    return names


# ------------------------------------------------------------------ the exclude patterns

def _fnmatch_excludes(rel: str, patterns: list[str]) -> bool:
    """What an exclude pattern means: fnmatch of the whole path or of one of its parts."""
    import fnmatch
    parts = rel.split("/")
    return any(fnmatch.fnmatchcase(text, p.rstrip("/")) for p in patterns if p.rstrip("/") for text in [rel, *parts])


_GLOBS = st.text(alphabet="ab.c*?[]!-/", max_size=7)
_NAMES = st.lists(st.text(alphabet="ab.c[]-*?!", min_size=1, max_size=5), min_size=1, max_size=3).map("/".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(_GLOBS, max_size=5), _NAMES)
def test_compiled_excludes_match_as_fnmatch_does(patterns: list[str], rel: str) -> None:
    from omp_lsp.server.sources import Excludes
    assert Excludes(patterns).excludes(rel) == _fnmatch_excludes(rel, patterns)


# ------------------------------------------------------------------ the server

@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    os.mkfifo(folder / ".gitignore")   # read at indexing: must not wait for a writer
    names = [".gitignore", *hostile_entries(folder)]
    yield folder, names
    if (folder / "locked").exists():
        (folder / "locked").chmod(0o755)   # so that pytest can remove it


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]))
async def client(lsp_client: LanguageClient, workspace: tuple[Path, list[str]]):
    folder, names = workspace
    lsp_client.folder = folder  # type: ignore[attr-defined]
    lsp_client.skipped_names = names  # type: ignore[attr-defined]
    record_notifications(lsp_client)
    answer_requests(lsp_client)
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=from_fs_path(str(folder)),
        workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(folder)) or "", name="ws")]))
    await wait_indexed(lsp_client)
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path) -> str:
    uri = from_fs_path(str(path)) or ""
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id="fortran", version=1, text=path.read_text())))
    return uri


# main.f90's cross-file findings: they need kernels.f90 from the index
ALL_INDEXED = [("OMP155", 6), ("OMP155", 10), ("OMP155", 21)]


def _skip_messages(client: LanguageClient) -> list[str]:
    return [params.message for method, params in client.seen  # type: ignore[attr-defined]
            if method == lsp.WINDOW_LOG_MESSAGE and "skipped" in params.message]


async def test_the_index_skips_what_it_cannot_read_says_so_once_and_keeps_the_rest(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    main = _open(client, folder / "main.f90")
    diags = await wait_diagnostics(client, main, 1)
    assert sorted((d.code, d.range.start.line) for d in diags) == ALL_INDEXED
    messages = _skip_messages(client)
    assert len(messages) == 1, messages
    assert "\n" not in messages[0]
    for name in client.skipped_names:  # type: ignore[attr-defined]
        assert name in messages[0], (name, messages[0])
    assert "cycle" not in messages[0] and "dangling" not in messages[0]


async def test_watched_file_events_for_a_pipe_and_a_device_are_not_read(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    main = _open(client, folder / "main.f90")
    assert sorted((d.code, d.range.start.line) for d in await wait_diagnostics(client, main, 1)) == ALL_INDEXED
    os.mkfifo(folder / "x.c")
    (folder / "z.c").symlink_to("/dev/zero")
    before = mark(client)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
        lsp.FileEvent(uri=from_fs_path(str(folder / "x.c")) or "", type=lsp.FileChangeType.Created),
        lsp.FileEvent(uri=from_fs_path(str(folder / "z.c")) or "", type=lsp.FileChangeType.Created),
        lsp.FileEvent(uri=from_fs_path(str(folder / "pipe.c")) or "", type=lsp.FileChangeType.Changed)]))
    # the server goes on answering: an edit of main.f90 gets its diagnostics, the same as before
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=main, version=2),
        [lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), text="")]))
    diags = await wait_diagnostics(client, main, 2, after=before)
    assert sorted((d.code, d.range.start.line) for d in diags) == ALL_INDEXED
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(main)))
    assert symbols


# ------------------------------------------------------------------ omp-lsp --check

def _error_line(r: object) -> str:
    """The one line a refused argument prints (and nothing on stdout, no traceback)."""
    assert r.stdout == ""  # type: ignore[attr-defined]
    lines = r.stderr.splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 and lines[0].startswith("omp-lsp: error: "), r.stderr  # type: ignore[attr-defined]
    return str(lines[0])


def test_a_named_pipe_given_by_name_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.c")
    r = run("--check", str(tmp_path / "x.c"), timeout=CLI_TIMEOUT)
    assert r.returncode == 2
    assert "x.c: cannot read: not a regular file (a named pipe)" in _error_line(r)


def test_a_named_pipe_as_compile_commands_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(BAD_C)
    os.mkfifo(tmp_path / "compile_commands.json")
    r = run("--check", str(tmp_path / "a.c"), "--compile-commands", str(tmp_path / "compile_commands.json"),
            timeout=CLI_TIMEOUT)
    assert r.returncode == 2
    assert "compile_commands.json: cannot read: not a regular file (a named pipe)" in _error_line(r)


def test_dev_zero_as_a_c_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "z.c").symlink_to("/dev/zero")
    r = run("--check", str(tmp_path / "z.c"), timeout=CLI_TIMEOUT)
    assert r.returncode == 2
    assert "z.c: cannot read: not a regular file (a character device)" in _error_line(r)


def test_a_symbolic_link_loop_given_by_name_is_refused(tmp_path: Path) -> None:
    (tmp_path / "loop.c").symlink_to("loop.c")
    r = run("--check", str(tmp_path / "loop.c"), timeout=CLI_TIMEOUT)
    assert r.returncode == 2
    assert "loop.c: cannot read: Too many levels of symbolic links" in _error_line(r)


def test_a_checked_folder_skips_what_it_cannot_read_and_checks_the_rest(tmp_path: Path) -> None:
    """Inside a folder, as a linter does: one warning line per skipped entry, the rest checked,
    the exit status from the findings."""
    (tmp_path / "bad.c").write_text(BAD_C)
    names = hostile_entries(tmp_path)
    try:
        r = run("--check", str(tmp_path), timeout=CLI_TIMEOUT)
    finally:
        if (tmp_path / "locked").exists():
            (tmp_path / "locked").chmod(0o755)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert "bad.c:2:" in r.stdout and "deep.c" not in r.stdout
    warnings = r.stderr.splitlines()
    assert len(warnings) == len(names), r.stderr
    assert all(line.startswith("omp-lsp: warning: ") and ": skipped: " in line for line in warnings), r.stderr
    for name in names:
        assert sum(name in line for line in warnings) == 1, (name, r.stderr)
