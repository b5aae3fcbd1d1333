"""A language-server client for the benchmarks: `python -m omp_lsp --stdio` spoken to over a
real stdio connection with JSON-RPC, the arrival time of every publishDiagnostics, and the
server's memory (RSS)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path


class Server:
    """A language server process spoken to over stdio with JSON-RPC. `progress`: announce
    work-done progress, so that the end of the workspace index can be waited for (`wait_indexed`).
    `args`: more command-line arguments (`-j N`)."""

    def __init__(self, root: Path, progress: bool = False, args: tuple[str, ...] = ()) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "omp_lsp", "--stdio", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.diagnostics: dict[tuple[str, int], float] = {}   # (uri, version) -> last arrival time
        self.published: dict[str, int] = {}                   # uri -> diagnostics in its last publish
        self.progress_ended = 0                               # work-done progress ends seen
        self.first_progress_end: float | None = None          # when the first one arrived
        self.responses: dict[int, object] = {}
        self.cond = threading.Condition()
        self.write_lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        capabilities = {"window": {"workDoneProgress": True}} if progress else {}
        self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": capabilities,
                                    "workspaceFolders": [{"uri": root.as_uri(), "name": "bench"}]})
        self.notify("initialized", {})

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        with self.write_lock:   # (the reader thread answers the server's requests)
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(out.read(length))
            now = time.perf_counter()
            with self.cond:
                method = message.get("method")
                if method == "textDocument/publishDiagnostics":
                    params = message["params"]
                    self.diagnostics[(params["uri"], params.get("version"))] = now
                    self.published[params["uri"]] = len(params["diagnostics"])
                elif method == "$/progress" and message["params"]["value"].get("kind") == "end":
                    self.progress_ended += 1
                    if self.first_progress_end is None:
                        self.first_progress_end = now
                elif "id" in message and method is not None:
                    self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})   # server requests
                elif "id" in message:
                    self.responses[message["id"]] = message.get("result")
                self.cond.notify_all()

    def request(self, method: str, params: dict, timeout: float = 120) -> object:
        self.next_id += 1
        ident = self.next_id
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        with self.cond:
            if not self.cond.wait_for(lambda: ident in self.responses, timeout):
                raise TimeoutError(method)
            return self.responses.pop(ident)

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_diagnostics(self, uri: str, version: int | None, timeout: float = 120) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: (uri, version) in self.diagnostics, timeout):
                raise TimeoutError(f"diagnostics for {uri} version {version}")
            return self.diagnostics[(uri, version)]

    def wait_indexed(self, timeout: float = 600) -> None:
        """Until the workspace index is complete (its progress ended; needs `progress`)."""
        with self.cond:
            if not self.cond.wait_for(lambda: self.progress_ended > 0, timeout):
                raise TimeoutError("workspace index")

    def rss_mb(self) -> float:
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def worker_rss_mb(self) -> list[float]:
        """The RSS of each of the server's worker processes now (its index's)."""
        found = []
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"{entry.path}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"{entry.path}/cmdline", "rb") as f:
                    if parent != self.proc.pid or b"spawn_main" not in f.read():
                        continue
                with open(f"{entry.path}/status") as f:
                    found.extend(int(line.split()[1]) / 1024 for line in f if line.startswith("VmRSS:"))
            except (OSError, ValueError, IndexError):
                continue
        return found

    def cpu_seconds(self) -> float:
        """The server's CPU time so far (user and system): its work, whatever else the machine runs."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            return float("nan")

    def wait_idle(self, quiet: float = 1.0, timeout: float = 120) -> float:
        """Until the server has used (almost) no CPU for `quiet` seconds; the seconds waited."""
        start = time.perf_counter()
        while time.perf_counter() - start < timeout:
            before = self.cpu_seconds()
            time.sleep(quiet)
            if self.cpu_seconds() - before < 0.02 * quiet:
                break
        return time.perf_counter() - start

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=30)
            self.notify("exit", {})
            self.proc.wait(timeout=30)
        except Exception:
            self.proc.kill()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]
