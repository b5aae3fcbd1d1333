"""The editor's open documents as the server keeps them.

Each holds the live text (a `Document`, edited in place with `tree.edit` + reparse) and knows how
the analysis the server has for its file relates to that text: the analysis was made of an
earlier text with blanks added at the ends of its lines (analysis.syntax.padding), and `log`
holds the padding and the edits made since. While every one of those edits is inert
(`analysis.incremental.positions`), the analysis is exact for the live text once positions are moved through
the log. An edit inside one directive made while the log holds no edit is applied to the analysed
text itself, and only what it changes is analysed again (`analysis.incremental.directive_edit`); any other
edit asks for a new analysis, made while the editor goes on, unless it is one in code that
changes nothing the analysis read: inside a C/C++ function body (`analysis.incremental.procedure_edit`) or
a Fortran execution-part statement (`analysis.incremental.statement_edit`).
"""
from __future__ import annotations

import asyncio
from typing import Any

from omp_lsp.analysis.check import (
    ByteEdit,
    Document,
    FileAnalysis,
    Padding,
    PositionLog,
    Span,
    inert_edit,
    reanalyse_directive,
    reanalyse_procedure,
    reanalyse_statement,
)

MAX_LOGGED_EDITS = 64   # then the next edit is analysed afresh: moving positions costs per edit


class Inflight:
    """An analysis being made of a snapshot of the text, and the edits made since it was taken."""

    def __init__(self, padding: Padding | None = None) -> None:
        self.log = PositionLog(padding)
        self.exact = True        # every edit since the snapshot is inert


class OpenDocument:
    def __init__(self, uri: str, path: str, doc: Document) -> None:
        self.uri = uri
        self.path = path
        self.doc = doc
        self.log = PositionLog()     # edits since the text the file's analysis was made of
        self.exact = False           # the analysis and `log` describe the live text
        self.inflight: Inflight | None = None
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.retokenize = False      # analysed again for another file's sake: ask the editor for its tokens
        self.pulled: list[Any] | None = None   # pull diagnostics: what the client got last,
        self.pull_id = 0                        # and its number (the report's resultId)

    def edited(self, old: bytes, edit: ByteEdit, openmp_version: int, anchors: list[Span]) -> None:
        """Record one applied edit. `anchors`: spans of the file's analysis (base positions) that
        findings end at; an edit at one of them cannot be carried over (see incremental.touches)."""
        wanted = self.exact or (self.inflight is not None and self.inflight.exact)
        inert = wanted and inert_edit(old, self.doc.source, edit, self.doc.language, openmp_version)
        if self.inflight is not None:   # anchors are checked when that analysis is in
            self.inflight.exact = self.inflight.exact and inert and len(self.inflight.log) < MAX_LOGGED_EDITS
            self.inflight.log.add(edit)
        self.log.add(edit)
        self.exact = self.exact and inert and len(self.log) <= MAX_LOGGED_EDITS and self.log.carries(anchors)

    def retyped(self, analysis: FileAnalysis | None, edit: ByteEdit) -> FileAnalysis | None:
        """The analysis after `edit` (just applied) when the analysis described the text before it
        exactly and the edit is one directive's (that directive re-analysed, the rest kept) or one
        in code that changes nothing the rules read: in a function body (C/C++) or an
        execution-part statement (Fortran) (everything kept, moved)."""
        if analysis is None or not self.exact or self.log.edits or self.inflight is not None \
                or self.log.padding is None:
            return None
        padding = self.log.padding
        at, end, text = padding.to_padded(edit.start), padding.to_padded(edit.old_end), self.doc.source[edit.start:edit.new_end]
        done = reanalyse_directive(analysis, padding, at, end, text)
        if done is None and not edit.inert:   # (an inert edit costs nothing: see `edited`)
            again = reanalyse_statement if self.doc.language.is_fortran else reanalyse_procedure
            done = again(analysis, padding, at, end, text)
        if done is None:
            return None
        self.log = PositionLog(done[1])
        return done[0]

    def to_base(self, offset: int) -> int:
        """A byte offset of the live text in the analysed text."""
        return self.log.to_old(offset)

    def from_base(self, span: Span) -> Span:
        return self.log.span_to_new(span)
