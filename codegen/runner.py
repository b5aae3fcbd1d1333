"""Running a compiler or a built program: an argument list (never a shell), in a given folder and
environment, with a timeout that kills the whole process group and output captured up to a cap.
"""
from __future__ import annotations

import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO

from omp_lsp.analysis.check import dataclass

OUTPUT_CAP = 1 << 20        # bytes of stdout (and of stderr) kept per process
DEFAULT_TIMEOUT = 60.0      # seconds


@dataclass(frozen=True)
class Process:
    """What one process did."""
    command: tuple[str, ...]
    exit_code: int | None     # None: killed at the timeout (or never started)
    stdout: bytes
    stderr: bytes
    seconds: float            # wall time
    timed_out: bool = False
    truncated: bool = False   # more output than the cap was written (and dropped)
    error: str = ""           # why it did not start

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


def run(command: Sequence[str], cwd: str, env: Mapping[str, str] | None = None, timeout: float = DEFAULT_TIMEOUT,
        cap: int = OUTPUT_CAP, cancel: threading.Event | None = None) -> Process:
    """Run `command` in `cwd` with `env` added to this process's environment. The process gets
    a session (and process group) of its own: at the timeout, or when `cancel` is set, the whole
    group is killed, so nothing it started outlives it. Output past `cap` bytes per stream is
    read and dropped."""
    if cancel is not None and cancel.is_set():
        return Process(tuple(command), None, b"", b"", 0.0, error="cancelled")
    full_env = {**os.environ, **(env or {})}
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(list(command), cwd=cwd, env=full_env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    except OSError as err:
        return Process(tuple(command), None, b"", b"", time.perf_counter() - start, error=str(err))
    assert proc.stdout is not None and proc.stderr is not None
    readers = [_Capped(proc.stdout, cap), _Capped(proc.stderr, cap)]
    ended = _Ended(proc.pid)
    timed_out = cancelled = False
    deadline = start + timeout
    while proc.poll() is None:
        left = deadline - time.perf_counter()
        if left <= 0:
            timed_out = True
            break
        if cancel is not None and cancel.is_set():
            cancelled = True
            break
        # (a cancel is looked for every 50 ms; the process's end is seen at once)
        ended.wait(left if cancel is None else min(left, 0.05))
    ended.close()
    # (the group, also when the program ended but left children behind: they would hold the pipes)
    _kill_group(proc.pid)
    proc.wait()
    for reader in readers:
        reader.thread.join()
    seconds = time.perf_counter() - start
    out, errors = readers
    return Process(tuple(command), None if timed_out or cancelled else proc.returncode, out.data(), errors.data(),
                   seconds, timed_out, out.dropped or errors.dropped, "cancelled" if cancelled else "")


class _Ended:
    """Waits for a process to end, up to a timeout, and wakes as soon as it does: a pidfd (Linux
    5.3) becomes readable then. `Popen.wait(timeout)` instead polls with sleeps that grow to
    50 ms, which added 25 ms on average to every compiler and program run."""

    def __init__(self, pid: int) -> None:
        try:
            self.fd: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):   # (no pidfd here: poll every 10 ms instead)
            self.fd = None

    def wait(self, seconds: float) -> None:
        if self.fd is None:
            time.sleep(min(seconds, 0.01))
        else:
            select.select([self.fd], [], [], seconds)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)


class _Capped:
    """Reads a pipe to its end on a thread, keeping the first `cap` bytes."""

    def __init__(self, pipe: IO[bytes], cap: int) -> None:
        self.chunks: list[bytes] = []
        self.kept = 0
        self.dropped = False
        self.thread = threading.Thread(target=self._read, args=(pipe, cap), daemon=True)
        self.thread.start()

    def _read(self, pipe: IO[bytes], cap: int) -> None:
        with pipe:
            for chunk in iter(lambda: pipe.read1(65536), b""):  # type: ignore[attr-defined]
                room = cap - self.kept
                if room > 0:
                    self.chunks.append(chunk[:room])
                    self.kept += min(room, len(chunk))
                if len(chunk) > max(room, 0):
                    self.dropped = True

    def data(self) -> bytes:
        return b"".join(self.chunks)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
