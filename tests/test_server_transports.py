"""`omp-lsp --tcp PORT` serves the same protocol over a socket."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

from raw_client import RawServer


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _send(sock: socket.socket, payload: dict) -> None:
    body = json.dumps(payload).encode()
    sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def _read(sock: socket.socket, buffer: bytearray) -> dict:
    while True:
        header_end = buffer.find(b"\r\n\r\n")
        if header_end >= 0:
            headers = bytes(buffer[:header_end]).decode()
            length = int(next(h.split(":")[1] for h in headers.split("\r\n") if h.lower().startswith("content-length")))
            if len(buffer) >= header_end + 4 + length:
                body = bytes(buffer[header_end + 4:header_end + 4 + length])
                del buffer[:header_end + 4 + length]
                return json.loads(body)
        chunk = sock.recv(65536)
        assert chunk, "server closed the connection"
        buffer.extend(chunk)


def test_tcp_server_publishes_diagnostics() -> None:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "omp_lsp", "--tcp", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "server did not start"
                time.sleep(0.1)
        buffer = bytearray()
        with sock:
            _send(sock, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"processId": None, "rootUri": None, "capabilities": {}}})
            reply = _read(sock, buffer)
            assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "omp-lsp"
            _send(sock, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
            _send(sock, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": "file:///t.c", "languageId": "c", "version": 1, "text": "#pragma omp targte\n"}}})
            while True:
                msg = _read(sock, buffer)
                if msg.get("method") == "textDocument/publishDiagnostics":
                    break
            assert [d["code"] for d in msg["params"]["diagnostics"]] == ["OMP001"]
            _send(sock, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
            while _read(sock, buffer).get("id") != 2:
                pass
            _send(sock, {"jsonrpc": "2.0", "method": "exit"})
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_no_arguments_start_the_server_on_stdio() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "omp_lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            chunk = proc.stdout.read(1)
            assert chunk, proc.stderr.read().decode() if proc.stderr else "server exited"
            header += chunk
        length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
        reply = json.loads(proc.stdout.read(length))
        assert reply["id"] == 1 and reply["result"]["capabilities"]["textDocumentSync"]
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_malformed_params_get_an_error_and_shutdown_and_exit_are_clean() -> None:
    server = RawServer()
    try:
        server.start()
        server.send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                     "params": {"textDocument": 5, "position": "here"}})
        reply = server.next(lambda m: m.get("id") == 2)
        assert reply["error"]["code"] == -32602 and "textDocument/hover" in reply["error"]["message"]
        server.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                     "params": {"textDocument": {"uri": "file:///t.c"}, "contentChanges": "x"}})
        server.send({"jsonrpc": "2.0", "id": 3, "method": "textDocument/definition",
                     "params": {"textDocument": {"uri": "file:///never-opened.c"},
                                "position": {"line": 10**6, "character": 10**6}}})
        assert server.next(lambda m: m.get("id") == 3).get("result") is None
        server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": "file:///t.c", "languageId": "c", "version": 1, "text": "#pragma omp targte\n"}}})
        published = server.next(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        assert [d["code"] for d in published["params"]["diagnostics"]] == ["OMP001"]
        server.send({"jsonrpc": "2.0", "id": 4, "method": "shutdown"})
        assert server.next(lambda m: m.get("id") == 4).get("result") is None
        server.send({"jsonrpc": "2.0", "method": "exit"})
        assert server.proc.wait(timeout=30) == 0
    finally:
        server.close()


def test_exit_without_shutdown_is_an_error_exit() -> None:
    """The protocol's rule: `exit` before `shutdown` ends the server with code 1."""
    server = RawServer()
    try:
        server.start()
        server.send({"jsonrpc": "2.0", "method": "exit"})
        assert server.proc.wait(timeout=30) == 1
    finally:
        server.close()
