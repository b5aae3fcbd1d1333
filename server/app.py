"""The running language server: the one OmpLanguageServer with every feature attached, and the
loop that serves it. Kept apart from lsp.py so that the features, which use the server, sit above
it and the server class never imports them."""
from __future__ import annotations

import logging
from typing import Any

from omp_lsp.server.features import register_all
from omp_lsp.server.lsp import OmpLanguageServer

server = OmpLanguageServer()
register_all(server)


def start(tcp: int | None = None, host: str = "127.0.0.1", **_: Any) -> int:
    """Serve until `exit` or the end of the connection: 0 after `shutdown`, else 1."""
    logging.basicConfig(level=logging.WARNING, format="omp-lsp: %(levelname)s: %(message)s")
    if tcp is not None:
        server.start_tcp(host, tcp)
    else:
        server.start_io()
    return 0 if server.shutdown_received else 1
