"""Hover: on a procedure or variable, its device type and chain; on a directive's parts, what they mean."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from omp_lsp.analysis.check import Step, describe_directive_part, entity_at, entity_key_at

from .device import where

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer

log = logging.getLogger("omp_lsp.server")


def register(server: OmpLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: OmpLanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        state = await ls.ready(params.text_document.uri)
        if state is None:
            return None
        context = ls.analyses[state.path].context
        try:
            offset = ls.offset(state, params.position)
            key = entity_at(ls.graph, state.path, offset)
            if key is None and context is not None:
                key = entity_key_at(context, offset, ls.graph)   # a name in a directive's list
            fact = ls.graph.fact(key) if key is not None else None
            if fact is None:
                part = describe_directive_part(context, offset) if context is not None else None
                if part is None:
                    return None
                return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, part[1]), ls.span_range(state, part[0]))
            entity = ls.graph.entities[fact.key]
            if fact.device_type == "none":
                text = f"**{fact.name}**: host only (not declare target, not reached from device code)"
            elif fact.explicit:
                path, mark = entity.marks[0]
                text = (f"**{fact.name}**: declare target · {fact.device_type} (explicit, "
                        f"{where(ls, Step('marked here', path, mark.span))})")
            else:
                mode = " as flang generates it" if ls.graph.mode == "flang" else ""
                text = f"**{fact.name}**: declare target · {fact.device_type} (implicit{mode})"
                if fact.chain:   # (flang also marks what a device_type(host) procedure calls: no device chain)
                    text += f"\n\nChain: {' → '.join(where(ls, s) for s in fact.chain)}"
            return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text))
        except Exception:
            log.exception("hover failed for %s", params.text_document.uri)
            return None
