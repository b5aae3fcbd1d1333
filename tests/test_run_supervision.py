"""Nothing a build or run started outlives it (codegen/supervision.py): programs whose children
leave the process group (`setsid()`, `setpgid(0, 0)`) and keep the output pipe open, run through
the runner, `omp-lsp run` and the server; the timeout bounds the run, output included; signals
to `omp-lsp run` (SIGTERM, SIGINT, SIGHUP) and to the server, `shutdown` + `exit`, `$/cancelRequest`
and a cancel of the build's progress during a build, end every process and remove every temporary
folder. Each program notes its processes' ids in files, and the test
checks that none of them is alive after."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from omp_lsp.codegen.runner import run
from pygls.uris import from_fs_path
from raw_client import RawServer, frame

HANG_GUARD = 120.0   # seconds: far beyond any outcome tested here; only a hang reaches it
ESCAPES = {"setsid": ("os.setsid()", "setsid()"), "setpgid": ("os.setpgid(0, 0)", "setpgid(0, 0)")}
needs_clang = pytest.mark.skipif(shutil.which("clang-22") is None, reason="the README's set-up installs clang-22")

# A parent that prints, forks a child that leaves its process group, keeps stdout open and
# sleeps, then sleeps itself (argv: the folder for the ids, the escape, the parent's sleep).
PYTHON_PROGRAM = """\
import os, sys, time
def note(name):
    path = os.path.join(sys.argv[1], name)
    with open(path + ".part", "w") as f:
        f.write(str(os.getpid()))
    os.replace(path + ".part", path)
print("parent", flush=True)
if os.fork() == 0:
    exec(sys.argv[2])
    note("child")
    print("child", flush=True)
    time.sleep(300)
    os._exit(0)
note("parent")
time.sleep(float(sys.argv[3]))
"""

C_PROGRAM = """\
#include <stdio.h>
#include <unistd.h>

static void note(const char *name) {
  char path[4096], part[4100];
  snprintf(path, sizeof path, "%s/%s", PIDS, name);
  snprintf(part, sizeof part, "%s.part", path);
  FILE *f = fopen(part, "w");
  fprintf(f, "%d", (int)getpid());
  fclose(f);
  rename(part, path);
}

int main(void) {
  printf("started\\n");
  fflush(stdout);
  if (fork() == 0) {
    ESCAPE;
    note("child");
    sleep(300);
    return 0;
  }
  note("parent");
  sleep(PARENT_SLEEP);
  return 0;
}
"""


def _c_program(folder: Path, pids: Path, escape: str, parent_sleep: int) -> Path:
    source = folder / "escape.c"
    source.write_text(f'#define PIDS "{pids}"\n#define ESCAPE {ESCAPES[escape][1]}\n'
                      f"#define PARENT_SLEEP {parent_sleep}\n" + C_PROGRAM)
    return source


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie does not: it only waits to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _noted(pids: Path) -> list[int]:
    return [int(p.read_text()) for p in pids.iterdir() if not p.name.endswith(".part")]


def _wait_noted(pids: Path, count: int) -> list[int]:
    deadline = time.monotonic() + HANG_GUARD
    while len(noted := _noted(pids)) < count:
        assert time.monotonic() < deadline, "the program did not start"
        time.sleep(0.05)
    return noted


def _assert_all_gone(pids: list[int]) -> None:
    """No noted process runs (SIGKILL is sent before the run ends; its delivery is a moment)."""
    assert pids
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in pids if _alive(p)] == []


def _folders_left(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("omp-lsp-"))


# --- the runner -----------------------------------------------------------------------------------

def _python_run(tmp_path: Path, escape: str, parent_sleep: float, **options: Any) -> tuple[Any, list[int]]:
    pids = tmp_path / "pids"
    pids.mkdir(exist_ok=True)
    done = run([sys.executable, "-c", PYTHON_PROGRAM, str(pids), ESCAPES[escape][0], str(parent_sleep)],
               str(tmp_path), **options)
    return done, _noted(pids)


@pytest.mark.parametrize("escape", ESCAPES)
def test_a_child_that_left_the_group_holding_the_output_ends_with_its_program(tmp_path: Path, escape: str) -> None:
    """The program exits at once; its child holds stdout: the run ends then, the child killed."""
    done, pids = _python_run(tmp_path, escape, 0.0, timeout=HANG_GUARD)
    assert done.exit_code == 0 and not done.timed_out and done.seconds < HANG_GUARD / 2
    assert done.stdout.startswith(b"parent\n") and len(pids) == 2
    _assert_all_gone(pids)


@pytest.mark.parametrize("escape", ESCAPES)
def test_the_timeout_bounds_a_run_whose_child_left_the_group_holding_the_output(tmp_path: Path,
                                                                                escape: str) -> None:
    done, pids = _python_run(tmp_path, escape, 300.0, timeout=2.0)
    assert done.timed_out and done.exit_code is None and done.seconds < HANG_GUARD / 2
    assert b"parent\n" in done.stdout and len(pids) == 2
    _assert_all_gone(pids)


@pytest.mark.parametrize("escape", ESCAPES)
def test_a_cancel_ends_a_run_whose_child_left_the_group(tmp_path: Path, escape: str) -> None:
    cancel = threading.Event()
    pids = tmp_path / "pids"
    pids.mkdir()
    threading.Thread(target=lambda: (_wait_noted(pids, 2), cancel.set()), daemon=True).start()
    done, noted = _python_run(tmp_path, escape, 300.0, timeout=HANG_GUARD, cancel=cancel)
    assert done.error == "cancelled" and done.exit_code is None and len(noted) == 2
    _assert_all_gone(noted)


def test_a_grandchild_that_left_the_group_after_its_parent_ended_is_killed(tmp_path: Path) -> None:
    """A daemon's double fork: the child forks, its child calls setsid, the child exits."""
    pids = tmp_path / "pids"
    pids.mkdir()
    script = ("import os, sys, time\nif os.fork() == 0:\n    if os.fork() == 0:\n        os.setsid()\n"
              f"        open({str(pids / 'grandchild')!r}, 'w').write(str(os.getpid()))\n"
              "        time.sleep(300)\n    os._exit(0)\nos.wait()\n"
              f"while not os.path.exists({str(pids / 'grandchild')!r}): time.sleep(0.01)\n")
    done = run([sys.executable, "-c", script], str(tmp_path), timeout=HANG_GUARD)
    assert done.exit_code == 0 and done.seconds < HANG_GUARD / 2
    _assert_all_gone(_noted(pids))


def test_runs_side_by_side_each_end_only_their_own_processes(tmp_path: Path) -> None:
    """A run's orphan (a double fork) is handed to this process while the run goes on: another
    run that ends meanwhile leaves it alone (the marker tells them apart); its own run's end kills it."""
    pids = tmp_path / "pids"
    pids.mkdir()
    grandchild = str(pids / "grandchild")
    script = ("import os, time\nif os.fork() == 0:\n    if os.fork() == 0:\n        os.setsid()\n"
              f"        open({grandchild!r} + '.part', 'w').write(str(os.getpid()))\n"
              f"        os.replace({grandchild!r} + '.part', {grandchild!r})\n"
              "        time.sleep(300)\n    os._exit(0)\nos.wait()\ntime.sleep(300)\n")
    cancel = threading.Event()
    first: list[Any] = []
    running = threading.Thread(target=lambda: first.append(run([sys.executable, "-c", script], str(tmp_path),
                                                               timeout=HANG_GUARD, cancel=cancel)))
    running.start()
    try:
        [orphan] = _wait_noted(pids, 1)
        other = run(["sh", "-c", "sleep 0.2 & echo done"], str(tmp_path), timeout=HANG_GUARD)
        assert other.stdout == b"done\n" and _alive(orphan)
    finally:
        cancel.set()
        running.join(HANG_GUARD)
    assert first[0].error == "cancelled"
    _assert_all_gone([orphan])


# --- omp-lsp run ----------------------------------------------------------------------------------

def _omp_lsp(args: list[str], tmp: Path, **options: Any) -> subprocess.Popen[Any]:
    return subprocess.Popen([sys.executable, "-m", "omp_lsp", *args], env={**os.environ, "TMPDIR": str(tmp)},
                            **options)


@needs_clang
@pytest.mark.parametrize("escape", ESCAPES)
def test_omp_lsp_run_times_out_a_program_whose_child_left_the_group(tmp_path: Path, escape: str) -> None:
    # (the timeout bounds each build too: long enough for clang-22 on a busy machine)
    pids, tmp = tmp_path / "pids", tmp_path / "tmp"
    pids.mkdir()
    tmp.mkdir()
    source = _c_program(tmp_path, pids, escape, parent_sleep=300)
    cli = _omp_lsp(["run", str(source), "--toolchain", "clang-22", "--timeout", "12", "--no-config", "--format",
                    "json"], tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, _ = cli.communicate(timeout=HANG_GUARD)
    report = json.loads(out)
    assert cli.returncode == 1 and [(r["timed_out"], r["stdout"]) for r in report["runs"]] == [
        (True, "started\n"), (True, "started\n")]
    _assert_all_gone(_noted(pids))   # (both runs' parents and children)
    assert _folders_left(tmp) == []


@needs_clang
@pytest.mark.parametrize(("number", "status", "said"), [(signal.SIGTERM, 143, "terminated"),
                                                        (signal.SIGINT, 130, "interrupted"),
                                                        (signal.SIGHUP, 129, "hung up")])
def test_a_signal_to_omp_lsp_run_mid_run_ends_it_with_its_program_and_folder(
        tmp_path: Path, number: int, status: int, said: str) -> None:
    pids, tmp = tmp_path / "pids", tmp_path / "tmp"
    pids.mkdir()
    tmp.mkdir()
    source = _c_program(tmp_path, pids, "setsid", parent_sleep=300)
    cli = _omp_lsp(["run", str(source), "--toolchain", "clang-22", "--timeout", "600", "--no-config"], tmp,
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        noted = _wait_noted(pids, 2)   # (the host run is under way)
        assert _folders_left(tmp) != []
        cli.send_signal(number)
        _, err = cli.communicate(timeout=HANG_GUARD)
    finally:
        cli.kill()
    assert cli.returncode == status and err == f"omp-lsp run: {said}: the builds and runs were stopped\n"
    _assert_all_gone(noted)
    assert _folders_left(tmp) == []


# --- the server -----------------------------------------------------------------------------------

@dataclass
class _Building:
    server: RawServer
    noted: list[int]   # the program's processes: its parent and the child that left its group
    tmp: Path          # the server's TMPDIR
    token: str | None  # the build's progress token (when the client shows progress)


def _server_building(tmp_path: Path, progress: bool = False) -> _Building:
    """A server over stdio running buildAndRun (request id 2) on a program whose host run never
    ends (a 600 s sleep; the server's run timeout is 60 s): once both processes run. `progress`:
    the client shows work-done progress (and accepts every token)."""
    pids, tmp, project = tmp_path / "pids", tmp_path / "tmp", tmp_path / "project"
    for folder in (pids, tmp, project):
        folder.mkdir()
    (project / ".omp-lsp.toml").write_text('toolchain = "clang-22"\n')
    source = _c_program(project, pids, "setsid", parent_sleep=600)
    uri = from_fs_path(str(source))
    server = RawServer(env={**os.environ, "TMPDIR": str(tmp)})
    try:
        server.start(from_fs_path(str(project)), {"window": {"workDoneProgress": True}} if progress else {})
        server.open(source.read_text(), uri)
        server.send({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
                     "params": {"command": "omp-lsp.buildAndRun", "arguments": [uri]}})
        token = None
        while progress and token is None:   # (the workspace index's progress may come first)
            create = server.next(lambda m: m.get("method") == "window/workDoneProgress/create")
            server.send({"jsonrpc": "2.0", "id": create["id"], "result": None})
            if create["params"]["token"].startswith("omp-lsp-build-"):
                token = create["params"]["token"]
        noted = _wait_noted(pids, 2)
    except BaseException:
        server.close()
        raise
    assert _folders_left(tmp) != []   # (the live copy's folder and the build's)
    return _Building(server, noted, tmp, token)


def _no_traceback(server: RawServer) -> None:
    assert not any("Traceback" in line for line in server.stderr), "".join(server.stderr)


@needs_clang
def test_sigterm_to_the_server_mid_build_ends_the_program_and_removes_the_folders(tmp_path: Path) -> None:
    building = _server_building(tmp_path)
    server = building.server
    try:
        server.proc.send_signal(signal.SIGTERM)
        assert server.ended() == 143
    finally:
        server.close()
    _assert_all_gone(building.noted)
    assert _folders_left(building.tmp) == []
    _no_traceback(server)


@needs_clang
def test_the_client_leaving_mid_build_ends_the_program_and_the_server(tmp_path: Path) -> None:
    """The end of the server's input (the editor quit): the build stops with the server."""
    building = _server_building(tmp_path)
    server = building.server
    assert server.proc.stdin is not None
    start = time.monotonic()
    try:
        server.proc.stdin.close()
        assert server.ended() == 1
    finally:
        server.close()
    assert time.monotonic() - start < 30   # (a hang guard: the run's timeout is 60 s)
    _assert_all_gone(building.noted)
    assert _folders_left(building.tmp) == []


@needs_clang
@pytest.mark.parametrize(("methods", "status"), [(["shutdown", "exit"], 0), (["exit"], 1)])
def test_shutdown_and_exit_mid_build_end_the_server_promptly_without_a_traceback(
        tmp_path: Path, methods: list[str], status: int) -> None:
    """The host run would time out after 60 s: the server exits long before, having ended it
    (`exit` without `shutdown` too, with the protocol's status 1)."""
    building = _server_building(tmp_path)
    server = building.server
    start = time.monotonic()
    try:
        # (stdin left open: a client may close it only once the server has exited)
        server.write(b"".join(frame({"jsonrpc": "2.0", "method": method, **({"id": 3} if method == "shutdown"
                                                                            else {})})
                              for method in methods))
        assert server.ended() == status
    finally:
        server.close()
    assert time.monotonic() - start < 30   # (a hang guard: the run's timeout is 60 s)
    _assert_all_gone(building.noted)
    assert _folders_left(building.tmp) == []
    _no_traceback(server)


def _stopped_as_cancelled(building: _Building) -> None:
    """The build request (id 2) is answered RequestCancelled, once; its program and the child
    that left its group end, its folders go; the server goes on answering, and ends cleanly."""
    server = building.server
    try:
        answer = server.answer(2)
        assert answer["error"]["code"] == -32800 and "result" not in answer
        _assert_all_gone(building.noted)
        deadline = time.monotonic() + HANG_GUARD
        while _folders_left(building.tmp) and time.monotonic() < deadline:   # (the build's thread removes them)
            time.sleep(0.05)
        assert _folders_left(building.tmp) == []
        assert server.request("shutdown")["result"] is None
        server.send({"jsonrpc": "2.0", "method": "exit"})
        assert server.ended() == 0
    finally:
        server.close()
    assert [m for m in server.seen if m.get("id") == 2 and "method" not in m] == [answer]   # (answered once)
    _no_traceback(server)


@needs_clang
def test_cancelling_build_and_run_ends_the_program_and_removes_the_folders(tmp_path: Path) -> None:
    """$/cancelRequest for the buildAndRun command under way stops the build."""
    building = _server_building(tmp_path)
    building.server.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}})
    _stopped_as_cancelled(building)


@needs_clang
def test_cancelling_the_progress_of_build_and_run_stops_it_as_cancel_request_does(tmp_path: Path) -> None:
    """The user cancels the build's progress (window/workDoneProgress/cancel, offered: the
    progress is cancellable): the build stops, and its request is answered, as for its
    $/cancelRequest; the progress ends."""
    building = _server_building(tmp_path, progress=True)
    building.server.send({"jsonrpc": "2.0", "method": "window/workDoneProgress/cancel",
                          "params": {"token": building.token}})
    _stopped_as_cancelled(building)
    progress = [m["params"]["value"] for m in building.server.seen
                if m.get("method") == "$/progress" and m["params"]["token"] == building.token]
    assert [(v["kind"], v.get("cancellable")) for v in progress] == [("begin", True), ("end", None)]
