"""A raw LSP client over stdio for the tests that must write exact bytes or messages a real client
would not send (tests/test_server_faults.py, test_server_transports.py, test_run_supervision.py):
`omp-lsp --stdio` as a subprocess, its answers read strictly as they come, its stderr kept."""
from __future__ import annotations

import itertools
import json
import queue
import subprocess
import sys
import threading
import time
from typing import Any

TIMEOUT = 60.0
URI = "file:///work/faults.c"
TEXT = "int x;\n#pragma omp targte\nvoid f(void) {\n#pragma omp target map(to: x)\n{}\n}\n"


def frame(payload: Any) -> bytes:
    """A message as the base protocol frames it (`payload`: bytes as they are, else JSON)."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawServer:
    """`omp-lsp --stdio` as a subprocess, written to byte by byte. Its answers are read strictly
    (CRLF headers, an exact Content-Length, a JSON object) as they come; stderr is kept.
    `env`: the server's environment (default: this process's); `args`: more command-line arguments."""

    def __init__(self, env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "omp_lsp", "--stdio", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.stderr: list[str] = []
        self.ids = itertools.count(1000)
        self._readers = [threading.Thread(target=read, daemon=True) for read in (self._read_stdout, self._read_stderr)]
        for reader in self._readers:
            reader.start()

    def _read_stdout(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = out.read(1)
                if not byte:
                    self.messages.put(None)
                    return
                header += byte
            fields = dict(line.split(b": ", 1) for line in header[:-4].split(b"\r\n"))
            body = out.read(int(fields[b"Content-Length"]))
            self.messages.put(json.loads(body))

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def write(self, raw: bytes) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(raw)
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise AssertionError(f"the server ended: {''.join(self.stderr)}") from None

    def send(self, payload: Any) -> None:
        self.write(frame(payload))

    def next(self, predicate: Any) -> dict[str, Any]:
        """The next message the predicate accepts (the ones before it are kept in `seen`)."""
        while True:
            message = self.messages.get(timeout=TIMEOUT)
            assert message is not None, f"the server ended: {''.join(self.stderr)}"
            self.seen.append(message)
            if predicate(message):
                return message

    def answer(self, msg_id: Any) -> dict[str, Any]:
        return self.next(lambda m: "method" not in m and m.get("id") == msg_id)

    def request(self, method: str, params: Any = None) -> dict[str, Any]:
        msg_id = next(self.ids)
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, **({} if params is None else {"params": params})})
        return self.answer(msg_id)

    def start(self, root_uri: str | None = None, capabilities: dict[str, Any] | None = None) -> RawServer:
        """`initialize` (answered) and `initialized`."""
        self.request("initialize", {"processId": None, "rootUri": root_uri, "capabilities": capabilities or {}})
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        return self

    def open(self, text: str = TEXT, uri: str = URI, version: int = 1, language: str = "c") -> None:
        self.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": language, "version": version, "text": text}}})

    def alive(self) -> None:
        """It still answers."""
        assert self.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}})

    def ended(self) -> int:
        """Its exit status, once it ends by itself (its stdout and stderr then read to their end:
        the messages left are kept in `seen`)."""
        code = self.proc.wait(timeout=TIMEOUT)
        while (message := self.messages.get(timeout=TIMEOUT)) is not None:
            self.seen.append(message)
        for reader in self._readers:
            reader.join(TIMEOUT)
        return code

    def lines_with(self, words: str, expected: int) -> int:
        """How many stderr lines hold `words`, once `expected` of them have come or TIMEOUT passed:
        the server writes a line before it answers the next message, but stderr is read by its
        own thread, which may not have read it yet when that answer arrives."""
        deadline = time.monotonic() + TIMEOUT
        while (count := sum(words in line for line in self.stderr)) < expected and time.monotonic() < deadline:
            time.sleep(0.01)
        return count

    def errors(self) -> list[str]:
        """The lines of stderr that are not warnings (the lenient readings' and bad messages' lines)."""
        return [line for line in self.stderr if not line.startswith("omp-lsp: WARNING:")]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        for reader in self._readers:   # (to the pipes' end: the fixture reads the whole stderr)
            reader.join(TIMEOUT)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except BrokenPipeError:   # (stdin: what was left unwritten)
                    pass
