"""Running a compiler or a built program: an argument list (never a shell), in a given folder and
environment, with output captured up to a cap and a timeout that bounds the whole run, output
included. However the run ends (its program exits, the timeout, a cancel, this process told to
stop), every process it started is killed: its process group, and on Linux whatever left the
group too (supervision.py says how).
"""
from __future__ import annotations

import os
import select
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO

from omp_lsp.analysis.check import dataclass

from . import supervision

OUTPUT_CAP = 1 << 20        # bytes of stdout (and of stderr) kept per process
DEFAULT_TIMEOUT = 60.0      # seconds
# After the run's processes were killed, how long the pipes are read for what is left in them: they
# end at once then, unless a process the run could not be told from (see supervision.py) holds them.
DRAIN_SECONDS = 0.5


@dataclass(frozen=True)
class Process:
    """What one process did."""
    command: tuple[str, ...]
    exit_code: int | None     # None: killed at the timeout, cancelled (or never started)
    stdout: bytes
    stderr: bytes
    seconds: float            # wall time
    timed_out: bool = False
    truncated: bool = False   # more output than the cap was written (and dropped)
    error: str = ""           # why it did not start, or "cancelled"

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


def run(command: Sequence[str], cwd: str, env: Mapping[str, str] | None = None, timeout: float = DEFAULT_TIMEOUT,
        cap: int = OUTPUT_CAP, cancel: threading.Event | None = None) -> Process:
    """Run `command` in `cwd` with `env` added to this process's environment, in a session (and
    process group) of its own. The run ends when the program exits, at the timeout, when
    `cancel` is set or when this process stops (supervision.stop); then every process it started
    is killed, and output past `cap` bytes per stream is read and dropped."""
    if (cancel is not None and cancel.is_set()) or supervision.stopping():
        return Process(tuple(command), None, b"", b"", 0.0, error="cancelled")
    marker = supervision.new_marker()
    full_env = {**os.environ, **(env or {}), supervision.MARKER: marker}
    start = time.perf_counter()
    try:
        proc = supervision.spawn(lambda: subprocess.Popen(
            list(command), cwd=cwd, env=full_env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True))
    except OSError as err:
        return Process(tuple(command), None, b"", b"", time.perf_counter() - start, error=str(err))
    assert proc.stdout is not None and proc.stderr is not None
    out, errors = _Capped(proc.stdout, cap), _Capped(proc.stderr, cap)
    ended = _Ended(proc.pid)
    timed_out = cancelled = False
    settled = False
    try:
        timed_out, cancelled = _read_until_end(proc, ended, (out, errors), start + timeout, cancel)
        cancelled = cancelled or supervision.stopping()
        _end(proc, marker, timed_out or cancelled)
        settled = True
        _drain((out, errors), time.perf_counter() + DRAIN_SECONDS)
    finally:   # (also when this thread is interrupted: a signal to the command line)
        if not settled:
            _end(proc, marker, True)
        ended.close()
        out.close()
        errors.close()
    seconds = time.perf_counter() - start
    return Process(tuple(command), None if timed_out or cancelled else proc.returncode, out.data(), errors.data(),
                   seconds, timed_out, out.dropped or errors.dropped, "cancelled" if cancelled else "")


def _read_until_end(proc: subprocess.Popen[bytes], ended: _Ended, streams: tuple[_Capped, ...], deadline: float,
                    cancel: threading.Event | None) -> tuple[bool, bool]:
    """Read the streams until the program exits, the deadline or a cancel: (timed out, cancelled)."""
    poller = select.poll()
    for stream in streams:
        poller.register(stream.fd, select.POLLIN)
    if ended.fd is not None:
        poller.register(ended.fd, select.POLLIN)
    while True:
        if (cancel is not None and cancel.is_set()) or supervision.stopping():
            return False, True
        left = deadline - time.perf_counter()
        if left <= 0:
            return True, False
        # (a cancel is looked for every 50 ms, the program's end without a pidfd every 10 ms)
        wait = left if cancel is None else min(left, 0.05)
        ready = {fd for fd, _ in poller.poll(1000 * (wait if ended.fd is not None else min(wait, 0.01)))}
        for stream in streams:
            if stream.fd in ready and not stream.read():
                poller.unregister(stream.fd)
        exited = ended.fd in ready if ended.fd is not None else proc.poll() is not None
        if exited:
            return False, False


def _end(proc: subprocess.Popen[bytes], marker: str, killed: bool) -> None:
    """Kill what is left of the run (`killed`: its program too, which may still run), wait for
    its program and reap the rest."""
    victims = supervision.end(proc.pid, marker, killed)
    if killed:
        proc.kill()   # (where there is no /proc: its group was killed, and it, unless it left it)
    proc.wait()
    supervision.reap(proc.pid, marker, victims)


def _drain(streams: tuple[_Capped, ...], deadline: float) -> None:
    """Read what is left in the pipes, up to their end or the deadline."""
    poller = select.poll()
    live = [s for s in streams if not s.ended]
    for stream in live:
        poller.register(stream.fd, select.POLLIN)
    while live:
        left = deadline - time.perf_counter()
        if left <= 0:
            return
        ready = {fd for fd, _ in poller.poll(1000 * left)}
        for stream in [s for s in live if s.fd in ready]:
            if not stream.read():
                poller.unregister(stream.fd)
                live.remove(stream)


class _Ended:
    """A pidfd for a process (Linux 5.3): it becomes readable as soon as the process ends, so the
    run wakes then. (Without one the run polls every 10 ms; `Popen.wait(timeout)` polls with sleeps
    that grow to 50 ms, which added 25 ms on average to every compiler and program run.)"""

    def __init__(self, pid: int) -> None:
        try:
            self.fd: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):
            self.fd = None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)


class _Capped:
    """One output pipe, read as it fills, keeping the first `cap` bytes."""

    def __init__(self, pipe: IO[bytes], cap: int) -> None:
        self.pipe = pipe
        self.fd = pipe.fileno()
        self.cap = cap
        self.chunks: list[bytes] = []
        self.kept = 0
        self.dropped = False
        self.ended = False

    def read(self) -> bool:
        """Read what the pipe holds; False at its end."""
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            self.ended = True
            return False
        room = self.cap - self.kept
        if room > 0:
            self.chunks.append(chunk[:room])
            self.kept += min(room, len(chunk))
        if len(chunk) > max(room, 0):
            self.dropped = True
        return True

    def close(self) -> None:
        self.pipe.close()

    def data(self) -> bytes:
        return b"".join(self.chunks)
