"""Help inside OpenMP directives: completion and semantic tokens."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from omp_lsp.analysis.check import TOKEN_LEGEND, Document, Span, complete, directive_tokens

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer

log = logging.getLogger("omp_lsp.server")

# Code the build does not compile is a comment to the editor, as clangd reports it.
INACTIVE = "comment"
LEGEND = (*TOKEN_LEGEND, INACTIVE)


def _lines(doc: Document, span: Span) -> list[Span]:
    """The lines of `span` in the live text, each without its line end (blank lines left out)."""
    out = []
    lines = doc.lines
    first, last = lines.line_of(span[0]), lines.line_of(max(span[0], span[1] - 1))
    for n in range(first, last + 1):
        lo, hi = lines.line_span(n)
        lo, hi = max(lo, span[0]), min(hi, span[1])
        if hi > lo and doc.source[lo:hi].strip():
            out.append((lo, hi))
    return out


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
                    lsp.SemanticTokensLegend(token_types=list(LEGEND), token_modifiers=[]))
    async def semantic_tokens(ls: OmpLanguageServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | None:
        """The inside of OpenMP directives (directive, clauses, modifiers, names, selectors), and
        the branches the build does not compile as comments (as clangd shows inactive code: both
        editors grey them out)."""
        state = await ls.ready(params.text_document.uri)
        if state is None:
            return None
        analysis = ls.analyses[state.path]
        try:
            data: list[int] = []
            last_line = last_char = 0
            tokens = [(state.from_base(span), kind) for span, kind in
                      directive_tokens(analysis.directives, analysis.document.source)]
            configuration = analysis.configuration
            for span in configuration.inactive if configuration is not None else ():
                tokens.extend((line, INACTIVE) for line in _lines(state.doc, state.from_base(span)))
            tokens.sort(key=lambda token: token[0])
            for (lo, hi), kind in tokens:
                line, char = state.doc.lines.position(lo, ls.encoding)
                end_line, end_char = state.doc.lines.position(hi, ls.encoding)
                if end_line != line or end_char <= char:
                    continue
                delta_char = char - last_char if line == last_line else char
                data.extend((line - last_line, delta_char, end_char - char, LEGEND.index(kind), 0))
                last_line, last_char = line, char
            return lsp.SemanticTokens(data=data)
        except Exception:
            log.exception("semantic tokens failed for %s", params.text_document.uri)
            return None
