"""The JSON-RPC protocol as omp-lsp runs it: pygls' own, with every malformed message answered.

A message's body comes in through `OmpProtocol.receive` (server/framing.py finds the bodies).
Whatever is wrong with it gets the JSON-RPC error the specification names, answered to the
request's id where one can be read (else to a null id), and one line in the log: no traceback,
in the answer or on stderr, and no pop-up (the user cannot act on a client's malformed message).
A handler that fails (a bug) is answered with InternalError and logged with its traceback.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable, Generator
from concurrent.futures import Future
from typing import Any

from cattrs import transform_error
from lsprotocol import types as lsp
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcParseError,
    JsonRpcRequestCancelled,
)
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage

from .escaping import unicode_values

log = logging.getLogger("omp_lsp.server")


class OmpProtocol(LanguageServerProtocol):
    """pygls' protocol, reading each message itself (see the module's docstring)."""

    def receive(self, body: bytes) -> None:
        """Handle one message's body."""
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as err:
            # the id, if it can be read, so that the client stops waiting for the answer
            found = _loads(body.decode("utf-8", "replace"))
            self._refuse(_id_of(found), JsonRpcParseError.CODE,
                         f"Parse error: the message is not valid UTF-8 (byte {err.start})")
            return
        data = _loads(text)
        if isinstance(data, _Unparsed):
            self._refuse(None, JsonRpcParseError.CODE, f"Parse error: the message is not JSON ({data.reason})")
            return
        if not isinstance(data, dict):
            self._refuse(None, JsonRpcInvalidRequest.CODE, "Invalid request: a message is a JSON object"
                         + (" (LSP sends no batches)" if isinstance(data, list) else ""))
            return
        if "method" not in data:
            self._receive_response(data)
            return
        method = data["method"]
        request = "id" in data
        msg_id = _id_of(data)
        problem = _envelope_problem(data)
        if problem is not None:
            if request:   # a notification is never answered
                self._refuse(msg_id, JsonRpcInvalidRequest.CODE, f"Invalid request: {problem}")
            else:
                log.warning("malformed notification: %s", problem)
            return
        if self._shutdown and method != lsp.EXIT:
            if request:
                self._refuse(msg_id, JsonRpcInvalidRequest.CODE, f"Invalid request: {method} after shutdown")
            return
        message_type = self.get_message_type(method)
        if not self._handles(method):
            if request:
                self._refuse(msg_id, JsonRpcMethodNotFound.CODE, f"Method not found: {method}")
            elif message_type is None and not method.startswith("$/"):
                # (one of LSP's that the server does without, like didSave, or $/ ones, which may be
                # ignored: the specification, are not worth a line)
                log.warning("notification for an unknown method %r ignored", method)
            return
        if message_type is None:   # one of ours, without an LSP type: params are optional
            data = {**data, "params": data.get("params")}
            message_type = JsonRPCRequestMessage if request else JsonRPCNotification
        try:
            message = self._converter.structure(data, message_type)
        except Exception as err:
            detail = "; ".join(transform_error(err)[:3])
            if request:
                self._refuse(msg_id, JsonRpcInvalidParams.CODE, f"Invalid params: the params do not fit {method}: {detail}")
            else:
                log.warning("malformed %s notification: %s", method, detail)
            return
        if request and not hasattr(message, "id"):   # (pygls would take it for a notification: no answer)
            self._refuse(msg_id, JsonRpcInvalidRequest.CODE, f"Invalid request: {method} is a notification")
            return
        try:
            self.handle_message(message)
        except Exception:   # a bug: the server never dies of one message
            log.exception("could not handle a %s message", method)
            if request:
                self._refuse(msg_id, JsonRpcInternalError.CODE, f"Internal error: could not handle {method}")

    def _handles(self, method: str) -> bool:
        return method in self.fm.builtin_features or method in self.fm.features or method == lsp.CANCEL_REQUEST

    def _receive_response(self, data: dict[str, Any]) -> None:
        """The client's answer to one of the server's requests (never answered: a malformed one is
        logged)."""
        msg_id = _id_of(data)
        if msg_id is None or data.get("jsonrpc") != "2.0" or ("result" in data) == ("error" in data):
            log.warning("malformed message (neither a request, a notification nor an answer) ignored")
            return
        try:
            if "error" in data:
                message: Any = self._converter.structure(data, lsp.ResponseErrorMessage)
            else:
                result_type = self._result_types.pop(msg_id, None) or JsonRPCResponseMessage
                message = self._converter.structure(data, result_type)
        except Exception as err:
            log.warning("malformed answer to request %r: %s", msg_id, "; ".join(transform_error(err)[:3]))
            future = self._request_futures.pop(msg_id, None)
            if future is not None and not future.done():   # the request it answers fails
                future.set_exception(JsonRpcInvalidParams(message="malformed answer"))
            return
        self.handle_message(message)

    def _refuse(self, msg_id: int | str | None, code: int, message: str) -> None:
        """An error answer (to a null id when the request's id cannot be read)."""
        log.warning("answered %s: %s", code, message)
        self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        """$/cancelRequest: the request under way stops (one answered already, or unknown, is
        common and not worth a line)."""
        if not isinstance(msg_id, (int, str)):
            log.warning("$/cancelRequest with an id that is neither an integer nor a string: ignored")
            return
        self.cancel_request(msg_id)

    def cancel_request(self, msg_id: int | str) -> None:
        """Stop the client's request `msg_id` if it is under way, as its $/cancelRequest does: it is
        answered RequestCancelled and its command's step is cancelled with it (on the event loop)."""
        future = self._request_futures.pop(msg_id, None)
        if future is not None:
            future.cancel()

    # pygls runs a request with steps (a generator: `workspace/executeCommand`, whose step is the
    # command's coroutine) under two futures: the request's, which $/cancelRequest and `shutdown`
    # cancel and which answers, and the step's, under a made-up id, which nothing cancelled, so
    # that a cancelled build ran on, and which stayed in the table of requests under way for good.
    # A step now ends with its request, and leaves the table when done.
    _stepping: Future[Any] | None = None   # the request whose generator is taking its next step

    def _run_generator(self, future: Future[Any] | None, *, gen: Generator[Any, Any, Any],
                       result_future: Future[Any]) -> None:
        outer, self._stepping = self._stepping, result_future
        try:
            super()._run_generator(future, gen=gen, result_future=result_future)
        finally:
            self._stepping = outer

    def _execute_handler(self, msg_id: Any, handler: Callable[..., Any], callback: Callable[[Future[Any]], None],
                         args: tuple[Any, ...] | None = None, kwargs: dict[str, Any] | None = None) -> None:
        request = self._stepping
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        step = self._request_futures.get(msg_id) if request is not None else None
        if request is not None and step is not None and step is not request:
            request.add_done_callback(lambda done: step.cancel() if done.cancelled() else None)
            step.add_done_callback(lambda _: self._request_futures.pop(msg_id, None))

    def _send_handler_result(self, future: Future[Any], *, msg_id: int | str) -> None:
        """A request's answer: its result, or the error it raised (a JSON-RPC error as it is, any
        other exception, a bug, as InternalError with its traceback in the log only)."""
        self._request_futures.pop(msg_id, None)
        if future.cancelled():
            self._send_response(msg_id, error=lsp.ResponseError(
                JsonRpcRequestCancelled.CODE, f"Request {msg_id!r} was cancelled"))
            return
        error = future.exception()
        if error is None:
            try:
                self._send_response(msg_id, result=future.result())
                return
            except BrokenPipeError:
                raise
            except Exception as err:   # a result that cannot be sent
                error = err
        if isinstance(error, JsonRpcException):
            log.warning("request %r: %s", msg_id, error.message)
            self._send_response(msg_id, error=lsp.ResponseError(error.code, error.message))
        else:
            log.error("request %r failed", msg_id, exc_info=error)
            self._send_response(msg_id, error=lsp.ResponseError(
                JsonRpcInternalError.CODE, f"Internal error: {type(error).__name__}: {error}"))

    def _check_handler_result(self, future: Future[Any]) -> None:
        """A notification handler that raised: a bug, logged (the client waits for nothing). Its
        future leaves the table of requests under way, where pygls puts it under a made-up id
        and leaves it (one a keystroke, kept for good)."""
        for msg_id in [k for k, f in self._request_futures.items() if f is future]:
            del self._request_futures[msg_id]
        if not future.cancelled() and (error := future.exception()) is not None:
            log.error("a notification handler failed", exc_info=error)

    def _send_response(self, msg_id: Any, result: Any | None = None,
                       error: lsp.ResponseError | None = None) -> None:
        if error is not None and isinstance(error.data, dict) and "traceback" in error.data:
            error = lsp.ResponseError(error.code, error.message)   # (pygls' own: kept out of answers)
        super()._send_response(msg_id, result, error)

    @lsp_method(lsp.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Any:
        """pygls' own, cancelling the requests under way over a copy of their table (cancelling
        one answers it, which takes it out of the table: pygls' loop then fails)."""
        user_handler = self.fm.features.get(lsp.SHUTDOWN)
        if user_handler is not None:
            yield user_handler, args, None
        current = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()
        self._shutdown = True
        return None

    @lsp_method(lsp.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: lsp.ExecuteCommandParams) -> Generator[Any, Any, Any]:
        """pygls' own, but a command it does not know gets a message of ours naming the known ones
        (InvalidParams still: the command is a parameter of the request, which the server has),
        and a command's answer (JSON: file names, source text) is valid Unicode, as the JSON
        report is: a file name's bytes that are not UTF-8 would reach the client as lone
        surrogates, which strict JSON parsers refuse."""
        if params.command not in self.fm.commands:
            raise JsonRpcInvalidParams(message=f"Invalid params: unknown command {params.command[:80]!r}; "
                                       f"known: {', '.join(sorted(self.fm.commands))}")
        return unicode_values((yield from super().lsp_workspace__execute_command(params)))

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Any:
        """The server keeps its own copy of each open document (features/sync.py): pygls' copy
        is left as it was opened, not edited on every keystroke (which splits the whole text
        into lines: a few ms in a large file)."""
        user_handler = self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)
        if user_handler is not None:
            yield user_handler, (params,), None


class _Unparsed:
    def __init__(self, reason: str) -> None:
        self.reason = reason


def _loads(text: str) -> Any:
    """The JSON value, or an `_Unparsed` saying why there is none."""
    try:
        return json.loads(text)
    except ValueError as err:
        return _Unparsed(str(err))
    except RecursionError:
        return _Unparsed("nested too deeply")


def _id_of(data: Any) -> int | str | None:
    """The message's id if it is one a request may have (an integer or a string), else None."""
    msg_id = data.get("id") if isinstance(data, dict) else None
    return msg_id if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) else None


def _envelope_problem(data: dict[str, Any]) -> str | None:
    """What is wrong with a request's or notification's envelope, if anything."""
    if data.get("jsonrpc") != "2.0":
        return 'the "jsonrpc" member must be "2.0"'
    if not isinstance(data["method"], str):
        return "the method must be a string"
    if "id" in data and _id_of(data) is None:
        return "the id must be an integer or a string"
    if "params" in data and not isinstance(data["params"], (dict, list)) and data["params"] is not None:
        return "params must be an object or an array"
    return None
