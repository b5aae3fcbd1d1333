"""Keeping the processes a run starts inside the run: when it ends, times out or is cancelled, or
when this process is told to stop, every process it started is gone.

A process group is not enough: a program's child that calls `setsid()` or `setpgid(0, 0)` leaves
the group, and when its parent ends it is handed to init, out of reach. On Linux this process
therefore makes itself a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`, any user, any
kernel since 3.4): such orphans are handed to it instead, so every process a run started stays
below this one in the process tree. Each run's processes carry a marker in their environment
(`OMP_LSP_RUN`), inherited across `fork` and `exec`, which says which run an orphan came from
when runs go on side by side. A run ends by killing its process group, every process below its
program, and every process below this one that carries its marker, then reaping what was
handed to this process. A cgroup would hold them without markers, but creating one needs a
delegated, writable cgroup v2 tree, which CI containers and many sessions do not give a plain
user (the development machines offer read-only cgroup v1 hierarchies only).

Where there is no subreaper (other systems), only the process group is killed: a child that
leaves it can outlive the run there.

The command line and the server declare the process their own (`own_process`): then orphans that
dropped the marker (a program that cleared its environment) are killed too once no run is under
way, and `stop` ends every process below this one. Called as a library (tests), only what a run's
marker or tree identifies is touched: the caller's other children are not ours.
"""
from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from subprocess import Popen

MARKER = "OMP_LSP_RUN"
_PR_SET_CHILD_SUBREAPER = 36
_REAP_SECONDS = 2.0      # how long ending a run waits for the processes it killed to be gone

_lock = threading.Lock()          # spawning and reaping: a run's own process is reaped by its runner only
_spawned: set[int] = set()        # the runs' own processes (each waited for by its runner)
_tokens = itertools.count(1)
_stopping = threading.Event()
_folders: set[str] = set()        # temporary folders in use


class _State:
    owned = False                  # this process is omp-lsp's own (own_process)
    subreaper: bool | None = None  # None: not tried yet


_state = _State()


def subreaper() -> bool:
    """Make this process a child subreaper, once (Linux); whether it is one."""
    if _state.subreaper is None:
        _state.subreaper = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes  # (here: only what runs pays for its import)
                libc = ctypes.CDLL(None, use_errno=True)
                _state.subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                pass
    return _state.subreaper


def own_process() -> None:
    """Declare this process omp-lsp's own (the command line, the server): every process below
    it was started by a run. (It becomes a subreaper at its first run.)"""
    _state.owned = True


def stopping() -> bool:
    return _stopping.is_set()


def new_marker() -> str:
    """A marker value for one run: unique in this process, and naming it."""
    return f"{os.getpid()}-{next(_tokens)}"


def spawn(start: Callable[[], Popen[bytes]]) -> Popen[bytes]:
    """Start a run's process (`start` returns a Popen) and register it, so that no other run
    reaps it."""
    subreaper()
    with _lock:
        proc = start()
        _spawned.add(proc.pid)
    return proc


def end(pid: int, marker: str, alive: bool) -> dict[int, int]:
    """End the run whose process is `pid`: kill its process group, and when it may be `alive`
    (the timeout, a cancel) the processes below it and those carrying `marker`. What was killed:
    pid -> start time, for `reap`. (`pid` itself is its runner's to wait for.)"""
    _kill_group(pid)
    if not alive:
        return {}
    table = _table()
    victims = {p: table[p][1] for p in _below(table, pid) | {pid} if p in table}
    victims.update(_marked(table, marker.encode()))
    _kill(victims)
    return victims


def reap(pid: int, marker: str, killed: dict[int, int]) -> None:
    """After the run's own process `pid` was waited for: kill and reap what is left of the run
    below this process (orphans handed to it; `killed`: what `end` killed), until nothing is, or
    `_REAP_SECONDS`."""
    with _lock:
        _spawned.discard(pid)
    if not _has_children():   # (the common case, decided by one system call: nothing is left)
        return
    killed = dict(killed)
    deadline = time.monotonic() + _REAP_SECONDS
    while True:
        table = _table()
        with _lock:
            idle = not _spawned
            found = _marked(table, marker.encode())
            if _state.owned and idle:
                found.update((p, table[p][1]) for p in _below(table, os.getpid()))
            _kill(found)
            killed.update(found)
            left = _reap_children(table, killed)
        if not left or time.monotonic() > deadline:
            return
        time.sleep(0.005)


def stop() -> None:
    """This process was told to stop: refuse new runs and kill what runs (every process below
    this one when it is omp-lsp's own; else the runs' processes, their trees and markers). Safe
    in a signal handler: it takes no lock, and reaping is left to the runs' runners."""
    _stopping.set()
    table = _table()
    me = os.getpid()
    if _state.owned:
        victims = {p: table[p][1] for p in _below(table, me)}
    else:
        victims = _marked(table, f"{me}-".encode(), prefix=True)
        for pid in list(_spawned):
            victims.update((p, table[p][1]) for p in _below(table, pid) | {pid} if p in table)
    _kill(victims)


@contextlib.contextmanager
def temporary_folder(prefix: str) -> Iterator[str]:
    """A fresh temporary folder, removed on leaving; `remove_folders` removes those still in use
    (this process is stopping)."""
    folder = tempfile.mkdtemp(prefix=prefix)
    _folders.add(folder)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        _folders.discard(folder)


def remove_folders(wait: float = 0.0) -> None:
    """Remove the temporary folders still in use, after waiting up to `wait` seconds for their
    users to finish (and remove them themselves)."""
    deadline = time.monotonic() + wait
    while _folders and time.monotonic() < deadline:
        time.sleep(0.02)
    for folder in list(_folders):
        shutil.rmtree(folder, ignore_errors=True)
        _folders.discard(folder)


# --- the process table ---------------------------------------------------------------------------

def _table() -> dict[int, tuple[int, int, str]]:
    """Every process: pid -> (parent pid, start time, state), from /proc (empty elsewhere)."""
    table: dict[int, tuple[int, int, str]] = {}
    try:
        entries = os.scandir("/proc")
    except OSError:
        return table
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat.rsplit(b")", 1)[-1].split()   # (the name, in parentheses, may hold anything)
            if len(fields) > 19:
                table[int(entry.name)] = (int(fields[1]), int(fields[19]), fields[0].decode())
    return table


def _below(table: dict[int, tuple[int, int, str]], root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    out: set[int] = set()
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        if pid not in out:
            out.add(pid)
            todo.extend(children.get(pid, []))
    return out


def _marked(table: dict[int, tuple[int, int, str]], marker: bytes, prefix: bool = False) -> dict[int, int]:
    """The processes below this one whose environment holds `MARKER=marker` (or a value that
    starts with `marker`): pid -> start time."""
    entry = f"{MARKER}=".encode() + marker
    out: dict[int, int] = {}
    for pid in _below(table, os.getpid()):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                variables = f.read().split(b"\0")
        except OSError:
            continue
        if any(v.startswith(entry) if prefix else v == entry for v in variables):
            out[pid] = table[pid][1]
    return out


def _kill(victims: dict[int, int]) -> None:
    """SIGKILL each pid still the process that started at its start time (a pidfd holds it
    while its start time is checked, so a reused pid is never signalled)."""
    for pid, start in victims.items():
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            fd = None
        try:
            if _start_time(pid) != start:
                continue
            if fd is not None:
                signal.pidfd_send_signal(fd, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        finally:
            if fd is not None:
                os.close(fd)


def _start_time(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return int(f.read().rsplit(b")", 1)[-1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def _reap_children(table: dict[int, tuple[int, int, str]], killed: dict[int, int]) -> bool:
    """Reap this process's children that runs left: those killed, and (when the process is
    omp-lsp's own) any other dead one that is not a run's own process. Whether a killed one is
    still there. (Under `_lock`.)"""
    me = os.getpid()
    left = False
    for pid, (parent, start, state) in table.items():
        was_killed = killed.get(pid) == start
        if parent != me:
            left = left or was_killed   # (its parent, killed too, has not ended: it comes here then)
            continue
        if pid in _spawned or not (was_killed or (_state.owned and state == "Z")):
            continue
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        left = left or (was_killed and done == 0)
    return left


def _has_children() -> bool:
    """Whether this process has a child, alive or not (without reaping it)."""
    if not hasattr(os, "waitid"):   # (macOS: the slower way, by /proc, which it has not either)
        return True
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass

