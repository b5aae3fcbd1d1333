"""Which procedures run on the device: inlay hints with the implying chain, and the chain's links."""
from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from omp_lsp.analysis.device_view import hints
from omp_lsp.analysis.propagation import Step

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer

log = logging.getLogger("omp_lsp.server")


def where(ls: OmpLanguageServer, step: Step) -> str:
    """`label ([file.c:12](file:///…/file.c#L12))`: a link to a step of a chain, in the file's current text."""
    location = ls.location(step.path, step.span) if step.path else None
    if location is None:
        return step.label
    line = location.range.start.line + 1
    return f"{step.label} ([{os.path.basename(step.path)}:{line}]({location.uri}#L{line}))"


def register(server: OmpLanguageServer) -> None:
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
