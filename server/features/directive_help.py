"""Help inside OpenMP directives: completion and semantic tokens."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from omp_lsp.analysis.completion import complete
from omp_lsp.analysis.semantic_tokens import LEGEND as TOKEN_LEGEND
from omp_lsp.analysis.semantic_tokens import tokens as directive_tokens

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer

log = logging.getLogger("omp_lsp.server")

_COMPLETION_KINDS = {"directive": lsp.CompletionItemKind.Keyword, "clause": lsp.CompletionItemKind.Property,
                     "keyword": lsp.CompletionItemKind.EnumMember, "trait set": lsp.CompletionItemKind.Module,
                     "selector": lsp.CompletionItemKind.Field, "property": lsp.CompletionItemKind.Value,
                     "name": lsp.CompletionItemKind.Variable}


def register(server: OmpLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=[" ", "(", ",", ":", "{", "="]))
    async def completion(ls: OmpLanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        state = await ls.fresh(params.text_document.uri)   # the text at the cursor, blanks just typed included
        context = ls.analyses[state.path].context if state is not None else None
        if state is None or context is None:
            return None
        try:
            offset = ls.offset(state, params.position)
            out = []
            for item in complete(context, offset):
                edit = None
                if item.replace_from is not None:   # a multi-word directive name replaces what is typed of it
                    edit = lsp.TextEdit(ls.span_range(state, (item.replace_from, offset)), item.label)
                out.append(lsp.CompletionItem(
                    label=item.label, kind=_COMPLETION_KINDS.get(item.kind), detail=item.detail or None,
                    documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, item.documentation)
                    if item.documentation else None, filter_text=item.label, text_edit=edit))
            return lsp.CompletionList(is_incomplete=False, items=out)
        except Exception:
            log.exception("completion failed for %s", params.text_document.uri)
            return None

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                    lsp.SemanticTokensLegend(token_types=list(TOKEN_LEGEND), token_modifiers=[]))
    async def semantic_tokens(ls: OmpLanguageServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | None:
        """The inside of OpenMP directives: directive, clauses, modifiers, names, selectors."""
        state = await ls.ready(params.text_document.uri)
        if state is None:
            return None
        analysis = ls.analyses[state.path]
        try:
            data: list[int] = []
            last_line = last_char = 0
            for span, kind in directive_tokens(analysis.directives, analysis.document.source):
                lo, hi = state.from_base(span)
                line, char = state.doc.lines.position(lo, ls.encoding)
                end_line, end_char = state.doc.lines.position(hi, ls.encoding)
                if end_line != line or end_char <= char:
                    continue
                delta_char = char - last_char if line == last_line else char
                data.extend((line - last_line, delta_char, end_char - char, TOKEN_LEGEND.index(kind), 0))
                last_line, last_char = line, char
            return lsp.SemanticTokens(data=data)
        except Exception:
            log.exception("semantic tokens failed for %s", params.text_document.uri)
            return None
