"""The running language server: the one OmpLanguageServer with every feature attached, and the
loop that serves it. Kept apart from lsp.py so that the features, which use the server, sit above
it and the server class never imports them."""
from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any, cast

from omp_lsp.server.features import register_all
from omp_lsp.server.features.build_run import end_builds, terminate_on_sigterm
from omp_lsp.server.framing import CHUNK, FramingError, MessageReader, stdin_chunks
from omp_lsp.server.lsp import OmpLanguageServer
from omp_lsp.server.protocol import OmpProtocol
from pygls.io_ import StdoutWriter

log = logging.getLogger("omp_lsp.server")

server = OmpLanguageServer()
register_all(server)
protocol = cast(OmpProtocol, server.protocol)   # (OmpLanguageServer makes it: protocol_cls)


def start(tcp: int | None = None, host: str = "127.0.0.1", jobs: int = 1, **_: Any) -> int:
    """Serve until `exit` or the end of the connection: 0 after `shutdown`, else 1. A stream the
    server cannot read on (server/framing.py) ends it with one line on stderr and status 1.
    `jobs`: the processes that index the workspace."""
    server.index_jobs = jobs
    logging.basicConfig(level=logging.WARNING, format="omp-lsp: %(levelname)s: %(message)s")
    terminate_on_sigterm()
    try:
        asyncio.run(_serve_tcp(host, tcp) if tcp is not None else _serve_stdio())
    except FramingError as err:
        print(f"omp-lsp: error: cannot read the client's messages: {err}; exiting", file=sys.stderr)
        return 1
    except BrokenPipeError:
        log.error("the connection to the client is lost")
        return 1
    except SystemExit:   # `exit` (pygls ends the process with the protocol's status)
        pass
    except Exception:   # a bug in the reading of messages: nothing more can be read
        log.exception("the server failed")
        return 1
    finally:
        end_builds()
    return 0 if server.shutdown_received else 1


async def _serve(read: Callable[[], Awaitable[bytes]]) -> None:
    """Hand each message read to the protocol, until the end of the stream."""
    reader = MessageReader(read)
    while (body := await reader.next_body()) is not None:
        for warning in reader.warnings:
            log.warning("%s", warning)
        reader.warnings.clear()
        protocol.receive(body)


async def _serve_stdio() -> None:
    protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    await _serve(stdin_chunks(sys.stdin.buffer, asyncio.get_running_loop()))


async def _serve_tcp(host: str, port: int) -> None:
    """One client connection on 127.0.0.1 (or `host`); the server ends with it."""
    ended: asyncio.Future[BaseException | None] = asyncio.get_running_loop().create_future()

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        protocol.set_writer(writer)
        try:
            await _serve(lambda: reader.read(CHUNK))
            outcome: BaseException | None = None
        except (FramingError, BrokenPipeError, ConnectionError, SystemExit) as err:
            outcome = err
        if not ended.done():
            ended.set_result(outcome)

    listening = await asyncio.start_server(connection, host, port)
    async with listening:
        outcome = await ended
    if outcome is not None:
        raise outcome
