"""Code actions: the rules' quick fixes (carried on the diagnostics), "mark explicitly", and "Build
and run on host and device" (build_run)."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from omp_lsp.analysis.check import hints, mark_fix

from . import build_run

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer

log = logging.getLogger("omp_lsp.server")


def register(server: OmpLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix,
                                                             lsp.CodeActionKind.RefactorRewrite,
                                                             build_run.SOURCE_KIND]))
    async def code_action(ls: OmpLanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        uri = params.text_document.uri
        state = await ls.ready(uri)
        if state is None:
            return None
        analysis = ls.analyses[state.path]
        out: list[lsp.CodeAction] = []
        try:
            # the rules' quick fixes, carried on the diagnostics the client sends back (byte spans
            # of the text they were published for)
            for diagnostic in params.context.diagnostics:
                data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
                for fix in data.get("fixes", []) if isinstance(data.get("fixes"), list) else []:
                    edits = [lsp.TextEdit(ls.to_range(state.doc, (int(s[0]), int(s[1]))), str(t))
                             for (s, t) in fix["edits"]]
                    out.append(lsp.CodeAction(str(fix["title"]), kind=lsp.CodeActionKind.QuickFix,
                                              diagnostics=[diagnostic], edit=lsp.WorkspaceEdit(changes={uri: edits})))
            lo, hi = ls.offset(state, params.range.start), ls.offset(state, params.range.end)
            keys = []
            for h in hints(ls.graph, state.path, analysis.document.source):
                name = h.declaration.symbol.name_span
                if name[0] <= hi and lo <= h.offset:
                    keys.append(h.fact.key)
            for key in dict.fromkeys(keys):
                fix = mark_fix(analysis.context, ls.graph, key) if analysis.context is not None else None
                if fix is None:
                    continue
                edits = [lsp.TextEdit(ls.span_range(state, span), text) for span, text in fix.edits]
                out.append(lsp.CodeAction(fix.title, kind=lsp.CodeActionKind.RefactorRewrite,
                                          edit=lsp.WorkspaceEdit(changes={uri: edits})))
            run = build_run.action(ls, state)
            if run is not None:
                out.append(run)
        except Exception:
            log.exception("code actions failed for %s", uri)
        only = params.context.only
        if only:   # the kinds asked for, and their sub-kinds ("source" takes "source.buildAndRun")
            wanted = [str(getattr(k, "value", k)) for k in only]
            out = [a for a in out if (kind := str(getattr(a.kind, "value", a.kind))) and
                   any(kind == k or kind.startswith(f"{k}.") for k in wanted)]
        return out or None
