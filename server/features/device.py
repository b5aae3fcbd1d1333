"""Which procedures run on the device: inlay hints with the implying chain, the chain's links, and
the command `omp-lsp.showDeviceMap` (the workspace's map, as `omp-lsp --device-map` prints it)."""
from __future__ import annotations

import io
import logging
import os
from typing import TYPE_CHECKING, Any, cast

from lsprotocol import types as lsp
from omp_lsp.analysis.check import Step, hints
from pygls.lsp.server import LanguageServer

from ..report import device_rows, write_device_map_text

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer

log = logging.getLogger("omp_lsp.server")

SHOW_DEVICE_MAP = "omp-lsp.showDeviceMap"


def where(ls: OmpLanguageServer, step: Step) -> str:
    """`label ([file.c:12](file:///…/file.c#L12))`: a link to a step of a chain, in the file's current text."""
    location = ls.location(step.path, step.span) if step.path else None
    if location is None:
        return step.label
    line = location.range.start.line + 1
    return f"{step.label} ([{os.path.basename(step.path)}:{line}]({location.uri}#L{line}))"


def register(server: OmpLanguageServer) -> None:
    # (pygls reads a command handler's type hints to convert its arguments: they must resolve at
    # run time, where OmpLanguageServer cannot be imported from here)
    @server.command(SHOW_DEVICE_MAP)
    async def show_device_map(ls: LanguageServer, *uris: str) -> dict[str, Any]:
        """The device map of the workspace (of the files `uris` name, when given): returned as
        `--device-map --format json` writes it, and logged as its text table."""
        ls = cast("OmpLanguageServer", ls)
        await ls.wait_indexed()
        for uri in uris:
            await ls.settled(uri)
        files = {path: a.document.lines for path, a in ls.analyses.items()}
        wanted = {ls.path_of(u) for u in uris} or None
        rows = device_rows(ls.graph, files, wanted)
        text = io.StringIO()
        write_device_map_text(ls.graph, files, text, wanted)
        ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Info, text.getvalue()))
        return {"propagation": ls.graph.mode, "entities": rows}

    @server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT)
    async def inlay_hint(ls: OmpLanguageServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint] | None:
        state = await ls.ready(params.text_document.uri)
        if state is None:
            return None
        analysis = ls.analyses[state.path]
        try:
            span = (ls.offset(state, params.range.start), ls.offset(state, params.range.end) + 1)
            out = []
            for h in hints(ls.graph, state.path, analysis.document.source, span):
                chain = " → ".join(where(ls, s) for s in h.fact.chain) or \
                    "the declare target procedures that call it (flang passes a caller's device type on)"
                at = state.from_base((h.offset, h.offset))[1]
                out.append(lsp.InlayHint(
                    position=lsp.Position(*state.doc.lines.position(at, ls.encoding)), label=h.label,
                    kind=lsp.InlayHintKind.Type, padding_left=True,
                    tooltip=lsp.MarkupContent(lsp.MarkupKind.Markdown, f"Implied by: {chain}")))
            return out
        except Exception:
            log.exception("inlay hints failed for %s", params.text_document.uri)
            return None
