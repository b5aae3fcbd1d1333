"""The real server (`omp-lsp --stdio`) fed exact bytes, as a broken or hostile client writes them:
framing it can still read is read; framing it cannot read on ends it with one line on stderr and
status 1 (the editor starts it again); every malformed message gets the JSON-RPC error the
specification names, one log line, no traceback and no pop-up. Then random valid and invalid
messages and edit sequences against one server process: every request answered, the server alive."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from raw_client import TEXT, TIMEOUT, URI, RawServer, frame


@pytest.fixture
def server() -> Any:
    raw = RawServer().start()
    yield raw
    raw.close()
    assert not any("Traceback" in line for line in raw.stderr), "".join(raw.stderr)
    assert not [m for m in raw.seen if m.get("method") == "window/showMessage"], "a pop-up"
    for message in raw.seen:
        if "error" in message:
            assert set(message["error"]) <= {"code", "message"}, message   # (no traceback in error.data)


def _shutdown_body(msg_id: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "shutdown"}).encode()


# ---------------------------------------------------------------------------------- framing


@pytest.mark.parametrize("header", [b"content-length: %d\r\n\r\n", b"  Content-Length :  %d  \r\n\r\n",
                                    b"Content-Length: %d\n\n", b"Content-Type: application/vscode-jsonrpc; "
                                    b"charset=utf-8\nCONTENT-LENGTH:%d\r\n\r\n", b"\r\nContent-Length: %d\r\n\r\n"])
def test_header_names_in_any_case_padded_or_with_lf_only_lines_are_read(server: RawServer, header: bytes) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}}).encode()
    server.write(header % len(body) + body)
    assert server.answer(7) == {"jsonrpc": "2.0", "id": 7, "result": None}
    server.alive()
    assert server.errors() == []


def test_a_content_length_longer_than_its_body_is_found_out(server: RawServer) -> None:
    # followed by the next message: its start is not read as part of the body
    server.write(b"Content-Length: 90\r\n\r\n" + _shutdown_body(7)[:-1].replace(b'"shutdown"', b'"$/x"') + b"}")
    body = json.dumps({"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}}).encode()
    server.write(frame(body))
    assert server.answer(8)["result"] is None
    # followed by nothing: a client waiting for the answer gets it
    server.write(b"Content-Length: 500\r\n\r\n" + body.replace(b'"id": 8', b'"id": 9'))
    assert server.answer(9)["result"] is None
    server.alive()
    assert server.errors() == []
    assert server.lines_with("exceeds its message", 2) == 2


def _fatal(server: RawServer, words: str) -> None:
    """The server ended with status 1 and said why in one line."""
    assert server.ended() == 1
    assert len(server.errors()) == 1, server.stderr
    line = server.errors()[0]
    assert line.startswith("omp-lsp: error: cannot read the client's messages: ") and words in line, line


def test_a_content_length_shorter_than_its_body_ends_the_server_with_one_line(server: RawServer) -> None:
    body = _shutdown_body(7)
    server.write(b"Content-Length: %d\r\n\r\n" % (len(body) - 12) + body + frame(_shutdown_body(8)))
    # the part read is not JSON: answered as such; the rest is no header: nothing further can be read
    assert server.next(lambda m: "error" in m) == {"jsonrpc": "2.0", "id": None, "error": {
        "code": -32700, "message": server.seen[-1]["error"]["message"]}}
    _fatal(server, "not a message header")


def test_a_body_without_a_header_ends_the_server_with_one_line(server: RawServer) -> None:
    server.write(_shutdown_body(7) + b"\r\n")
    _fatal(server, "not a message header")


def test_a_header_without_content_length_ends_the_server_with_one_line(server: RawServer) -> None:
    server.write(b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + _shutdown_body(7))
    _fatal(server, "without Content-Length")


@pytest.mark.parametrize("length", [b"99999999999999", b"10000000000", b"268435457", b"9" * 5000, b"-5", b"0x10"])
def test_an_absurd_content_length_is_refused_at_once(server: RawServer, length: bytes) -> None:
    # (a length is refused before it is read or allocated: the server does not wait for the bytes)
    server.write(b"Content-Length: " + length + b"\r\n\r\n{}")
    _fatal(server, "larger than the limit of 268435456 bytes" if length.isdigit() else "is not a number")


def test_the_input_ending_inside_a_message_ends_the_server(server: RawServer) -> None:
    server.write(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"")
    assert server.proc.stdin is not None
    server.proc.stdin.close()
    _fatal(server, "the input ended inside a message")


def test_over_tcp_a_framing_error_ends_the_server_with_one_line() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "omp_lsp", "--tcp", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        for _ in range(600):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
                break
            except OSError:
                assert proc.poll() is None, "the server did not start"
                time.sleep(0.1)
        with sock:
            sock.sendall(b"content-length: 10000000000\r\n\r\n")
            _, stderr = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 1
        assert stderr.decode().splitlines() == ["omp-lsp: error: cannot read the client's messages: a message of "
                                                "10000000000 bytes is larger than the limit of 268435456 bytes; exiting"]
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


# ---------------------------------------------------------------------------------- JSON-RPC errors


def test_malformed_json_is_answered_with_a_parse_error_and_no_pop_up(server: RawServer) -> None:
    for body in (b"{not json", b'{"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover"', b"[" * 100_000):
        server.write(frame(body))
        answer = server.next(lambda m: "error" in m)
        assert answer["id"] is None and answer["error"]["code"] == -32700
    server.alive()
    assert server.errors() == []
    assert server.lines_with("-32700", 3) == 3   # one line each


def test_a_request_with_invalid_utf8_is_answered(server: RawServer) -> None:
    body = (b'{"jsonrpc": "2.0", "id": 12, "method": "textDocument/hover", "params": {"textDocument": '
            b'{"uri": "file:///\xff\xfe.c"}, "position": {"line": 0, "character": 0}}}')
    answer = server.write(frame(body)) or server.answer(12)
    assert answer["error"]["code"] == -32700 and "UTF-8" in answer["error"]["message"]
    server.alive()


def test_an_unknown_method_is_method_not_found_with_or_without_params(server: RawServer) -> None:
    assert server.request("omp-lsp/noSuchThing")["error"]["code"] == -32601
    assert server.request("omp-lsp/noSuchThing", {"a": 1})["error"]["code"] == -32601
    assert server.request("textDocument/formatting", {"textDocument": {"uri": URI}, "options": {
        "tabSize": 4, "insertSpaces": True}})["error"]["code"] == -32601
    server.send({"jsonrpc": "2.0", "method": "omp-lsp/noSuchNotification"})   # ignored
    server.send({"jsonrpc": "2.0", "method": "$/noSuchNotification"})
    server.send({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": URI}}})
    server.alive()
    # one line each; none for $/ notifications or an LSP notification the server does without
    assert server.lines_with("noSuch", 3) == 3
    assert server.lines_with("formatting", 1) == 1
    assert not [line for line in server.stderr if "didSave" in line]


@pytest.mark.parametrize("payload", [
    {"jsonrpc": "2.0", "id": None, "method": "textDocument/hover", "params": {}},
    {"jsonrpc": "2.0", "id": [1], "method": "shutdown"},
    {"jsonrpc": "2.0", "id": 1.5, "method": "shutdown"},
    {"jsonrpc": "2.0", "id": True, "method": "shutdown"},
    {"jsonrpc": "1.0", "id": None, "method": "shutdown"},
    {"jsonrpc": "2.0", "id": None, "method": 5},
    [{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}],
    "shutdown",
    None,
])
def test_an_invalid_request_is_answered_with_a_null_id(server: RawServer, payload: Any) -> None:
    server.send(payload)
    answer = server.next(lambda m: "error" in m)
    assert answer["id"] is None and answer["error"]["code"] == -32600, answer
    server.alive()


def test_a_request_whose_id_is_readable_gets_its_error_under_that_id(server: RawServer) -> None:
    server.send({"jsonrpc": "1.0", "id": 21, "method": "textDocument/hover"})
    assert server.answer(21)["error"]["code"] == -32600
    server.send({"jsonrpc": "2.0", "id": "s", "method": "textDocument/hover", "params": 5})
    assert server.answer("s")["error"]["code"] == -32600
    answer = server.request("textDocument/hover", {"textDocument": 5, "position": "here"})
    assert answer["error"]["code"] == -32602 and "textDocument/hover" in answer["error"]["message"]


@pytest.mark.parametrize("arguments", [None, [], [5], [URI, URI], [{"uri": URI}], [None]])
@pytest.mark.parametrize("command", ["omp-lsp.buildAndRun", "omp-lsp.showOffloadEntries"])
def test_bad_command_arguments_are_invalid_params(server: RawServer, command: str, arguments: Any) -> None:
    server.open()
    answer = server.request("workspace/executeCommand", {"command": command, "arguments": arguments})
    assert answer["error"]["code"] == -32602 and "a document URI" in answer["error"]["message"]
    server.alive()
    assert server.errors() == []


@pytest.mark.parametrize(("command", "named"), [("omp-lsp.noSuchCommand", "'omp-lsp.noSuchCommand'"),
                                               ("x\n\x1b[31m\ud800", "'x\\n\\x1b[31m\\ud800'")])
def test_an_unknown_command_is_invalid_params_naming_it_and_the_known_ones(server: RawServer, command: str,
                                                                           named: str) -> None:
    """One line of ours (the name as Python writes a string: no newline or escape reaches the
    user), no traceback (the fixture checks error.data)."""
    answer = server.request("workspace/executeCommand", {"command": command, "arguments": [URI]})
    assert answer["error"] == {"code": -32602, "message": f"Invalid params: unknown command {named}; known: "
                               "omp-lsp.buildAndRun, omp-lsp.showConfiguration, omp-lsp.showDeviceMap, "
                               "omp-lsp.showOffloadEntries"}
    server.alive()
    assert server.errors() == []


def test_requests_after_shutdown_are_invalid_requests_and_exit_ends_it(server: RawServer) -> None:
    assert server.request("shutdown") == {"jsonrpc": "2.0", "id": 1001, "result": None}
    answer = server.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}})
    assert answer["error"]["code"] == -32600
    assert server.request("shutdown")["error"]["code"] == -32600
    server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {}})   # (dropped)
    server.send({"jsonrpc": "2.0", "method": "exit"})
    assert server.ended() == 0


def test_did_change_versions_out_of_order_are_applied_with_one_line(server: RawServer) -> None:
    server.open(version=5)
    # each edit retypes line 1 ("#pragma omp targte"): the last one received is the text
    for version, directive in [(7, "#pragma omp parallel"), (6, "#pragma omp barier"), (3, "#pragma omp targte"),
                               (6, "#pragma omp tasc"), (4, "int y;")]:
        server.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": URI, "version": version}, "contentChanges": [{
                "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 100}},
                "text": directive}]}})
    published = server.next(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"].get("version") == 4)
    assert published["params"]["diagnostics"] == []   # (the text the client has: "int y;" on line 1)
    server.alive()
    assert server.errors() == []
    assert server.lines_with("out of order", 1) == 1


# ---------------------------------------------------------------------------------- random messages


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=8)
_METHODS = ["textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion",
            "textDocument/documentSymbol", "textDocument/semanticTokens/full", "textDocument/inlayHint",
            "textDocument/codeAction", "textDocument/diagnostic", "workspace/executeCommand", "omp-lsp/x",
            "textDocument/didChange", "textDocument/didOpen", "textDocument/didClose", "$/cancelRequest", "$/x"]
_POSITION = st.fixed_dictionaries({"line": st.integers(0, 2**64), "character": st.integers(0, 2**64)})
_SMALL_POSITION = st.fixed_dictionaries({"line": st.integers(0, 8), "character": st.integers(0, 40)})
_EDIT_TEXT = st.sampled_from(["", "x", "\n", "é😀", "#pragma omp target", "map(tofrom: x)", "/*", "*/", "\\\n", "}"])


@st.composite
def _valid_request(draw: Any) -> dict[str, Any]:
    method = draw(st.sampled_from(_METHODS[:9]))
    document = {"uri": draw(st.sampled_from([URI, "file:///never-opened.c", "untitled:x"]))}
    params: dict[str, Any] = {"textDocument": document}
    if method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
        params["position"] = draw(_POSITION | _SMALL_POSITION)
    elif method == "textDocument/references":
        params.update(position=draw(_SMALL_POSITION), context={"includeDeclaration": draw(st.booleans())})
    elif method in ("textDocument/inlayHint", "textDocument/codeAction"):
        params["range"] = {"start": draw(_SMALL_POSITION), "end": draw(_POSITION | _SMALL_POSITION)}
        if method == "textDocument/codeAction":
            params["context"] = {"diagnostics": []}
    return {"jsonrpc": "2.0", "method": method, "params": params}


@st.composite
def _edit(draw: Any) -> dict[str, Any]:
    change: dict[str, Any] = {"text": draw(_EDIT_TEXT)}
    if draw(st.integers(0, 9)):
        start, end = sorted([draw(_SMALL_POSITION), draw(_SMALL_POSITION)], key=lambda p: (p["line"], p["character"]))
        change["range"] = {"start": start, "end": end}
    else:
        change["text"] = TEXT + change["text"]   # (a whole-text change now and then)
    return {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": URI, "version": draw(st.integers(-2, 10**6))}, "contentChanges": [change]}}


@st.composite
def _invalid_message(draw: Any) -> Any:
    kind = draw(st.integers(0, 5))
    if kind == 0:   # any JSON value
        return draw(_JSON)
    if kind == 1:   # bytes that are rarely JSON or UTF-8
        return draw(st.binary(max_size=40))
    if kind == 2:   # a method with params of any shape
        message = {"jsonrpc": "2.0", "method": draw(st.sampled_from(_METHODS)), "params": draw(_JSON)}
    elif kind == 3:   # any envelope
        message = draw(st.dictionaries(st.sampled_from(["jsonrpc", "method", "params", "id", "result", "error"]),
                                       _JSON, max_size=5))
        if isinstance(message.get("method"), str) and message["method"] in ("exit", "shutdown", "initialize"):
            del message["method"]
    elif kind == 4:   # a command with arguments of any shape
        message = {"jsonrpc": "2.0", "method": "workspace/executeCommand", "params": {"command": draw(st.sampled_from(
            ["omp-lsp.buildAndRun", "omp-lsp.showOffloadEntries", "omp-lsp.showConfiguration", "nope"])),
            "arguments": draw(st.lists(st.none() | st.integers() | st.just({"uri": URI}), max_size=2) | st.none())}}
    else:   # a cancellation of anything
        message = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": draw(_JSON)}}
    if draw(st.booleans()):
        message["id"] = draw(_JSON)
    return message


_MESSAGE = st.one_of(_valid_request(), _edit(), _invalid_message())


@pytest.fixture(scope="module")
def one_server() -> Any:
    raw = RawServer().start()
    raw.open()
    yield raw
    raw.close()
    assert not any("Traceback" in line for line in raw.stderr), "".join(raw.stderr)


@settings(max_examples=int(os.environ.get("EXAMPLES", "100")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(messages=st.lists(st.tuples(_MESSAGE, st.booleans()), min_size=1, max_size=12))
def test_random_messages_are_all_answered_and_the_server_lives(one_server: RawServer,
                                                              messages: list[tuple[Any, bool]]) -> None:
    server = one_server
    awaited: set[Any] = set()   # the ids of the requests sent
    nulls = 0                   # requests whose id cannot be read: each is answered to a null id
    for message, is_request in messages:
        if isinstance(message, bytes):   # (JSON or not, an object or not: not counted)
            server.write(frame(message))
            continue
        if isinstance(message, dict) and is_request and "id" not in message and "method" in message:
            message = {**message, "id": next(server.ids)}
        if not isinstance(message, dict):
            nulls += 1
        elif "method" in message and "id" in message:
            msg_id = message["id"]
            if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                awaited.add(msg_id)
            else:
                nulls += 1
        server.send(message)
    server.seen.clear()
    sentinel = f"sentinel-{next(server.ids)}"   # (no random id is that long)
    server.send({"jsonrpc": "2.0", "id": sentinel, "method": "textDocument/hover",
                 "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}})
    assert "result" in server.answer(sentinel)
    while awaited - {m.get("id") for m in server.seen if "method" not in m}:
        server.next(lambda m: "method" not in m)
    answers = [m for m in server.seen if "method" not in m]
    for answer in answers:
        assert answer["jsonrpc"] == "2.0" and ("result" in answer) != ("error" in answer), answer
        if "error" in answer:
            error = answer["error"]
            assert isinstance(error["code"], int) and isinstance(error["message"], str), answer
            assert set(error) <= {"code", "message"}, answer
        event(f"answer: {answer['error']['code'] if 'error' in answer else 'result'}")
    assert sum(m["id"] is None for m in answers) >= nulls
    assert server.proc.poll() is None
