"""Navigation from directives: definition and references of list items and variant names, and the
outline (target regions, declare target directives and their items, declare variants)."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from omp_lsp.analysis.check import Outline, find_definition, find_references, outline

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer

log = logging.getLogger("omp_lsp.server")

_OUTLINE_KINDS = {"target region": lsp.SymbolKind.Event, "declare target": lsp.SymbolKind.Namespace,
                  "declare target item": lsp.SymbolKind.Variable, "declare variant": lsp.SymbolKind.Function}


async def _navigate(ls: OmpLanguageServer, params: lsp.DefinitionParams | lsp.ReferenceParams,
                    find: Callable[..., list[tuple[str, tuple[int, int]]]], what: str) -> list[lsp.Location] | None:
    """Locations `find` gives for the name under the cursor in a directive (None: nothing)."""
    state = await ls.ready(params.text_document.uri)
    context = ls.analyses[state.path].context if state is not None else None
    if state is None or context is None:
        return None
    try:
        found = find(context, ls.offset(state, params.position), ls.graph)
        return [loc for path, span in found if (loc := ls.location(path, span)) is not None] or None
    except Exception:
        log.exception("%s failed for %s", what, params.text_document.uri)
        return None


def register(server: OmpLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: OmpLanguageServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        """From a name in a directive's list (a clause item, a variant name) to its definition."""
        return await _navigate(ls, params, find_definition, "definition")

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: OmpLanguageServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        return await _navigate(ls, params, find_references, "references")

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbols(ls: OmpLanguageServer,
                               params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
        state = await ls.ready(params.text_document.uri)
        context = ls.analyses[state.path].context if state is not None else None
        if state is None or context is None:
            return None

        def convert(o: Outline) -> lsp.DocumentSymbol:
            return lsp.DocumentSymbol(name=o.name, kind=_OUTLINE_KINDS[o.kind], range=ls.span_range(state, o.span),
                                      selection_range=ls.span_range(state, o.selection), detail=o.kind,
                                      children=[convert(c) for c in o.children] or None)
        try:
            return [convert(o) for o in outline(context)]
        except Exception:
            log.exception("document symbols failed for %s", params.text_document.uri)
            return None
