"""Work-done progress the server starts (the workspace index, build and run), in the clients that
show it."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

log = logging.getLogger("omp_lsp.server")

# Seconds a client may take to accept a progress token: one that announces work-done progress but
# never answers window/workDoneProgress/create must not hold the work back (it goes on without).
CREATE_TIMEOUT = 2.0


async def begin_progress(ls: LanguageServer, token: str, begin: lsp.WorkDoneProgressBegin) -> str | None:
    """`token` created and begun; None (no progress to report) when the client does not show
    progress, refuses the token, or does not answer within CREATE_TIMEOUT."""
    window = ls.client_capabilities.window
    if window is None or not window.work_done_progress:
        return None
    creating = asyncio.ensure_future(ls.work_done_progress.create_async(token))
    creating.add_done_callback(lambda done: done.cancelled() or done.exception())   # (a late failure: no warning)
    try:
        # (shielded: the request stays pending, so that a late answer still finds it)
        await asyncio.wait_for(asyncio.shield(creating), CREATE_TIMEOUT)
    except TimeoutError:
        log.warning("window/workDoneProgress/create: no answer in %.0f s; going on without progress", CREATE_TIMEOUT)
        return None
    except Exception as err:   # a client that refuses the token gets no progress
        log.warning("window/workDoneProgress/create failed (%s); going on without progress", err)
        return None
    ls.work_done_progress.begin(token, begin)
    return token


def on_cancel(ls: LanguageServer, token: str, cancel: Callable[[], None]) -> None:
    """Call `cancel` (on the event loop) when the client cancels the progress `token`
    (window/workDoneProgress/cancel: pygls cancels the token's future)."""
    future = ls.work_done_progress.tokens.get(token)
    if future is not None:
        future.add_done_callback(lambda done: cancel() if done.cancelled() else None)


def end_progress(ls: LanguageServer, token: str, end: lsp.WorkDoneProgressEnd) -> None:
    """End the progress `token`, and forget it (pygls keeps every token it was given, with what
    a cancel of it would call)."""
    ls.work_done_progress.end(token, end)
    ls.work_done_progress.tokens.pop(token, None)
