"""The JSON-RPC protocol as omp-lsp runs it: pygls' own, with malformed messages answered."""
from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, lsp_method

log = logging.getLogger("omp_lsp.server")

_ANSWERED = object()   # a malformed message already dealt with (see OmpProtocol)


class OmpProtocol(LanguageServerProtocol):
    """pygls' protocol, answering a request whose params do not fit the method with an error
    response (pygls would show a message and leave the client waiting) and dropping a malformed
    notification with a log line."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as err:
            if "method" not in data:
                raise
            log.warning("malformed %s message: %s", data.get("method"), err.message)
            if "id" in data:
                self._send_response(data["id"], error=lsp.ResponseError(code=err.code, message=(
                    f"{err.message}: the params do not fit {data.get('method')}")))
            return _ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is not _ANSWERED:
            super().handle_message(message)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Any:
        """The server keeps its own copy of each open document (features/sync.py): pygls' copy
        is left as it was opened, not edited on every keystroke (which splits the whole text
        into lines: a few ms in a large file)."""
        user_handler = self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)
        if user_handler is not None:
            yield user_handler, (params,), None
