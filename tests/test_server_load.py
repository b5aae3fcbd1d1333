"""End-to-end: the server under a fast typist and many files. Edits sent as fast as a client can
(the server takes those that came meanwhile at once, bench/lsp_load.py times it) end with the
diagnostics of a fresh analysis of the last text; a file closed unsaved goes back to its disk
version in the other files' cross-file findings."""
from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import answer_requests, mark, record_notifications, wait_diagnostics, wait_indexed
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from check_speed import C_UNIT, F_UNIT, generate
from lsp_load import C_CONTINUED, edit_sites

CASE = Path(__file__).resolve().parent / "fixtures" / "workspaces" / "omp155_interface_mismatch"
SERVER = [sys.executable, "-m", "omp_lsp", "--stdio"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), params=["visual-studio-code", "neovim"])
async def client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    """A client on a copy of the omp155 workspace (main.f90 calls kernels.f90's procedures)."""
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    lsp_client.folder = folder  # type: ignore[attr-defined]
    record_notifications(lsp_client)
    answer_requests(lsp_client)
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities(request.param), root_uri=from_fs_path(str(folder)),
        workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(folder)) or "", name="ws")]))
    await wait_indexed(lsp_client)
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, uri: str, text: str, language: str) -> None:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))


def _fresh(path: str, text: str, fortran: bool) -> list[tuple[str, int, int]]:
    """(code, line, column) of what a fresh analysis of the whole text reports (an ASCII text:
    columns in any encoding)."""
    from omp_lsp.analysis import Document, Language
    from omp_lsp.analysis.workspace import analyze_workspace
    document = Document(text, Language.FORTRAN if fortran else Language.C)
    found = analyze_workspace({path: document})[path].findings
    return sorted((f.code, *document.lines.position(f.span[0], "utf-16")) for f in found)


@pytest.mark.parametrize("fortran", [False, True], ids=["c", "fortran"])
async def test_edits_sent_as_fast_as_a_client_can_end_with_a_fresh_analysis_of_the_last_text(
        client: LanguageClient, fortran: bool) -> None:
    """Words typed into numbers and names, some with a backspace after or deleted again, in
    directives' first lines, their continuation lines and code, all over the file, a keystroke a
    message (a few sometimes), never waiting for the server: the last version's diagnostics are
    those of the last text."""
    folder: Path = client.folder  # type: ignore[attr-defined]
    path = folder / ("typed.f90" if fortran else "typed.c")
    uri = from_fs_path(str(path)) or ""
    text = generate(F_UNIT if fortran else C_UNIT + C_CONTINUED, 1500)
    _open(client, uri, text, "fortran" if fortran else "c")
    await wait_diagnostics(client, uri, 1)
    lines = text.split("\n")
    sites = edit_sites(text, fortran)
    places = [site for kind in ("pragma", "continuation", "code") for site in sites[kind]]
    assert sites["continuation"] and sites["code"] and sites["pragma"]
    rng = random.Random(23)
    version = 1
    for _burst in range(10):   # bursts of words typed at places all over the file, some with a backspace after
        keystrokes: list[tuple[int, int, int, str]] = []   # line, first column, last column, typed
        for _ in range(6):
            line, column = rng.choice(places)
            word = "".join(rng.choice("1234x") for _ in range(rng.randint(1, 4)))
            for k, typed in enumerate(word):
                keystrokes.append((line, column + k, column + k, typed))
            chance = rng.random()
            if chance < 0.4:
                keystrokes.append((line, column + len(word) - 1, column + len(word), ""))
            elif chance < 0.6:   # deleted again: the text as it was (the server need not take it)
                keystrokes.append((line, column, column + len(word), ""))
        while keystrokes:
            changes: list[lsp.TextDocumentContentChangeEvent] = []
            for line, first, last, typed in keystrokes[:rng.choice([1, 1, 1, 3])]:   # (some messages carry several)
                lines[line] = lines[line][:first] + typed + lines[line][last:]
                changes.append(lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(lsp.Position(line, first), lsp.Position(line, last)), text=typed))
            del keystrokes[:len(changes)]
            version += 1
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), changes))
        diagnostics = await wait_diagnostics(client, uri, version)
        expected = _fresh(str(path), "\n".join(lines), fortran)
        assert sorted((str(d.code), d.range.start.line, d.range.start.character) for d in diagnostics) == expected
    assert expected, "the typing made findings"


async def test_a_file_closed_unsaved_goes_back_to_its_disk_version(client: LanguageClient) -> None:
    """kernels.f90 edited in the editor (kern_a given the directive main.f90's interface body
    promises) and closed without saving: main.f90's findings are the disk version's again."""
    folder: Path = client.folder  # type: ignore[attr-defined]
    main = from_fs_path(str(folder / "main.f90")) or ""
    kernels = from_fs_path(str(folder / "kernels.f90")) or ""
    _open(client, main, (folder / "main.f90").read_text(), "fortran")
    on_disk = sorted(d.range.start.line for d in await wait_diagnostics(client, main, 1))
    assert on_disk == [6, 10, 21]
    text = (folder / "kernels.f90").read_text()
    _open(client, kernels, text, "fortran")
    await wait_diagnostics(client, kernels, 1)
    before = mark(client)
    line = next(i for i, t in enumerate(text.splitlines()) if "real, intent(inout) :: x" in t)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=kernels, version=2),
        [lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(line + 1, 0), lsp.Position(line + 1, 0)),
                                              text="  !$omp declare target\n")]))
    assert sorted(d.range.start.line for d in await wait_diagnostics(client, main, 1, after=before)) == [10, 21]
    before = mark(client)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(kernels)))
    assert sorted(d.range.start.line for d in await wait_diagnostics(client, main, 1, after=before)) == on_disk


async def test_a_file_changed_on_disk_while_open_is_read_again_when_closed(client: LanguageClient) -> None:
    """Closing a file puts back the index's analysis of it only when the file on disk still has
    the text it was made from: kernels.f90 given kern_a's directive on disk while open (and no
    file-watcher event), then closed: main.f90's findings are those of the new disk text."""
    folder: Path = client.folder  # type: ignore[attr-defined]
    main = from_fs_path(str(folder / "main.f90")) or ""
    kernels = from_fs_path(str(folder / "kernels.f90")) or ""
    _open(client, main, (folder / "main.f90").read_text(), "fortran")
    assert sorted(d.range.start.line for d in await wait_diagnostics(client, main, 1)) == [6, 10, 21]
    text = (folder / "kernels.f90").read_text()
    _open(client, kernels, text, "fortran")
    await wait_diagnostics(client, kernels, 1)
    (folder / "kernels.f90").write_text(text.replace("  real, intent(inout) :: x\n  x = x + 1.0",
                                                     "  real, intent(inout) :: x\n  !$omp declare target\n  x = x + 1.0"))
    before = mark(client)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(kernels)))
    assert sorted(d.range.start.line for d in await wait_diagnostics(client, main, 1, after=before)) == [10, 21]
