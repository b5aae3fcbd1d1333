"""The workspace index in worker processes (`omp-lsp --stdio -j N`, server/index_jobs.py): the
workers run while the workspace is indexed, and every file's diagnostics are the same as with
the index made in the server alone (`-j 1`), headers read in their includers' translation units
and cross-file findings included."""
from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import TIMEOUT, answer_requests, pull_diagnostics, record_notifications
from lsprotocol import types as lsp
from omp_lsp.analysis.check import Language, Options, replace
from omp_lsp.analysis.units import DEFAULT, Environment, Includer
from omp_lsp.server.index_jobs import MIN_POOLED_FILES, Plan, same_build
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from raw_client import RawServer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from workspace_check import fortran_workspace_file

WORKSPACES = Path(__file__).resolve().parent / "fixtures" / "workspaces"
# Cross-file findings (OMP155, OMP403), and headers read inside their includers: walked before
# their includers (kernel.h, device_api.h, helpers.cpp) and after them (solver.h, vec.hpp).
CASES = ["omp155_interface_mismatch", "omp403_two_files", "header_fragment", "included_source"]
FILLERS = 20   # more files than a worker is started for
LANGUAGES = {".c": "c", ".h": "c", ".cpp": "cpp", ".hpp": "cpp", ".f90": "fortran"}


def _workspace(folder: Path) -> list[Path]:
    for case in CASES:
        shutil.copytree(WORKSPACES / case, folder / case)
    for k in range(FILLERS):
        (folder / f"filler{k}.f90").write_text(fortran_workspace_file(k, 300))
    return sorted(p for p in folder.rglob("*") if p.suffix in LANGUAGES)


def _server_pid(jobs: int) -> int | None:
    """This test run's `omp-lsp --stdio -j N` process."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            argv = Path(entry.path, "cmdline").read_bytes().split(b"\0")
            parent = int(Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and b"--stdio" in argv and b"-j" in argv and argv[argv.index(b"-j") + 1] == str(jobs).encode():
            return int(entry.name)
    return None


def _workers(pid: int) -> list[int]:
    """The process's spawned multiprocessing workers now."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            cmdline = Path(entry.path, "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


async def _index(client: LanguageClient, folder: Path, jobs: int, kill: bool = False) -> int:
    """Start the server on the folder; the most workers it had at once until the index ended.
    `kill`: kill the first worker seen (as the kernel's out-of-memory killer would)."""
    record_notifications(client)
    answer_requests(client)
    await client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("neovim"), root_uri=from_fs_path(str(folder)),
        workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(folder)) or "", name="ws")]))
    pid = _server_pid(jobs)
    assert pid is not None
    most = 0
    for _ in range(6000):
        workers = _workers(pid)
        most = max(most, len(workers))
        if kill and workers:
            os.kill(workers[0], signal.SIGKILL)
            kill = False
        if any(getattr(report, "kind", None) == "end" for reports in client.progress_reports.values()
               for report in reports):
            return most
        await asyncio.sleep(0.01)
    raise AssertionError("the index did not end")


async def _every_file(client: LanguageClient, paths: list[Path]) -> dict[str, list[tuple[object, ...]]]:
    """Each file opened alone (the others as the index has them): its diagnostics."""
    found = {}
    for path in paths:
        uri = from_fs_path(str(path)) or ""
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
            uri=uri, language_id=LANGUAGES[path.suffix], version=1, text=path.read_text())))
        diags = await pull_diagnostics(client, uri)
        found[path.name if path.parent.name.startswith("filler") else f"{path.parent.name}/{path.name}"] = sorted(
            (d.code, d.range.start.line, d.range.start.character, d.message) for d in diags)
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri)))
    return found


def _config(jobs: int) -> ClientServerConfig:
    return ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio", "-j", str(jobs)])


@pytest_lsp.fixture(config=_config(1))
async def alone(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=_config(2))
async def pooled(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def test_an_index_made_in_workers_gives_every_file_the_same_diagnostics(
        alone: LanguageClient, pooled: LanguageClient, tmp_path: Path) -> None:
    paths = _workspace(tmp_path / "ws")
    assert len(paths) >= MIN_POOLED_FILES
    assert await _index(alone, tmp_path / "ws", 1) == 0
    expected = await _every_file(alone, paths)
    assert await _index(pooled, tmp_path / "ws", 2) == 2
    assert await _every_file(pooled, paths) == expected
    # (and the cross-file findings are there: the comparison is not of empty lists)
    assert [d[:2] for d in expected["omp155_interface_mismatch/main.f90"]] == [("OMP155", 6), ("OMP155", 10),
                                                                               ("OMP155", 21)]
    assert [d[0] for d in expected["omp403_two_files/main.c"]].count("OMP403") == 2


async def test_a_worker_killed_while_indexing_leaves_a_complete_index(pooled: LanguageClient, tmp_path: Path) -> None:
    """The files of the dead worker, and those not yet analysed, are analysed in the server."""
    paths = _workspace(tmp_path / "ws")
    assert await _index(pooled, tmp_path / "ws", 2, kill=True) >= 1
    found = await _every_file(pooled, [p for p in paths if p.name == "main.f90" or p.parent.name == "omp403_two_files"])
    assert [d[:2] for d in found["omp155_interface_mismatch/main.f90"]] == [("OMP155", 6), ("OMP155", 10),
                                                                            ("OMP155", 21)]
    assert [d[0] for d in found["omp403_two_files/main.c"]].count("OMP403") == 2


def test_a_server_killed_while_indexing_leaves_no_worker_behind(tmp_path: Path) -> None:
    """Killed, the server cannot close its workers' queue: they notice that it ended, and end."""
    _workspace(tmp_path / "ws")
    for k in range(FILLERS, 10 * FILLERS):   # (seconds of indexing: the workers are there to be seen)
        (tmp_path / "ws" / f"filler{k}.f90").write_text(fortran_workspace_file(k, 300))
    server = RawServer(args=("-j", "2"))
    workers: list[int] = []
    try:
        server.start(from_fs_path(str(tmp_path / "ws")))
        deadline = time.monotonic() + TIMEOUT
        while len(workers := _workers(server.proc.pid)) < 2:
            assert time.monotonic() < deadline, "no worker was started"
            time.sleep(0.01)
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(timeout=TIMEOUT)
        while any(_alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "the workers outlived the server"
            time.sleep(0.05)
    finally:
        for pid in workers:   # (a worker left holds the server's pipes: the client could not close them)
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        server.close()


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_workers_analysis_is_taken_only_if_the_file_would_be_built_as_planned() -> None:
    header = b"#define N 4\n"
    unit = replace(DEFAULT, environment=Environment(definitions=(("D", "GPU"),)))
    plan = Plan("/ws/a.c", unit, Language.C, Options(), {"/ws/a.h": header})
    assert same_build(plan, unit, Language.C, Options(), {"/ws/a.h": header})
    assert same_build(plan, replace(unit), Language.C, Options(), dict(plan.overlay))
    # built otherwise now: another language, other options or macros, an includer found since,
    # an open header edited or opened or closed since
    assert not same_build(plan, unit, Language.CPP, Options(), {"/ws/a.h": header})
    assert not same_build(plan, unit, Language.C, Options(openmp_version=52), {"/ws/a.h": header})
    assert not same_build(plan, DEFAULT, Language.C, Options(), {"/ws/a.h": header})
    assert not same_build(plan, replace(unit, includer=Includer("/ws/main.c", 10, {})), Language.C, Options(),
                          {"/ws/a.h": header})
    assert not same_build(plan, unit, Language.C, Options(), {"/ws/a.h": bytes(bytearray(header))})
    assert not same_build(plan, unit, Language.C, Options(), {})
    assert not same_build(plan, unit, Language.C, Options(), {"/ws/a.h": header, "/ws/b.h": b""})


async def test_the_index_takes_a_workers_analysis_made_as_the_file_is_built_now(tmp_path: Path) -> None:
    """`index_document` with a worker's analysis: taken as it is when the file would still be
    built as planned; made again in the server when, meanwhile, an open header changed."""
    from omp_lsp.analysis.check import analyze, summarized
    from omp_lsp.server.lsp import OmpLanguageServer
    from omp_lsp.server.sources import read_source

    source = tmp_path / "a.c"
    source.write_text('#include "a.h"\nint x;\n#pragma omp declare target(x)\n')
    (tmp_path / "a.h").write_text("#define N 4\n")
    (tmp_path / ".omp-lsp.toml").write_text("")
    server = OmpLanguageServer()
    server.load_project_file([str(tmp_path)])   # (the folder the server builds in, as after `initialize`)

    def made_as(plan: Plan) -> tuple[Plan, object]:
        doc, _ = read_source(plan.path)
        assert doc is not None
        return plan, summarized(plan.path, analyze(doc, plan.options, plan.path, plan.unit))

    plan = server.plan(str(source))
    assert plan is not None
    doc, _ = read_source(str(source))
    made = made_as(plan)
    server.index_document(str(source), doc, made)   # type: ignore[arg-type]
    assert server.analyses[str(source)] is made[1]
    server.headers.overlay[str(tmp_path / "a.h")] = b"#define N 8\n"   # the header opened in the editor
    server.index_document(str(source), doc, made)   # type: ignore[arg-type]
    assert server.analyses[str(source)] is not made[1]


def test_workers_that_cannot_take_work_leave_every_file_to_the_server() -> None:
    """A pool that cannot start or take an analysis (here: already shut down) answers None for
    each file from then on, and the server analyses them itself."""
    from omp_lsp.server.index_jobs import IndexPool
    pool = IndexPool(2)
    pool.executor.shutdown()
    plan = Plan("/ws/a.c", DEFAULT, Language.C, Options(), {})
    assert pool.submit(plan) is None and pool.broken
    assert pool.submit(plan) is None
    pool.close()
