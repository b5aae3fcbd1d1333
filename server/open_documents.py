"""The editor's open documents as the server keeps them.

Each holds the live text (a `Document`, edited in place with `tree.edit` + reparse) and knows how
the analysis the server has for its file relates to that text: the analysis was made of an
earlier text, and `log` holds the edits made since. While every one of those edits is inert
(`analysis.incremental`), the analysis is exact for the live text once positions are moved through
the log; an edit that is not inert asks for a new analysis, made while the editor goes on.
"""
from __future__ import annotations

import asyncio
from typing import Any

from omp_lsp.analysis.incremental import PositionLog, carries, inert_edit
from omp_lsp.analysis.syntax import ByteEdit, Document, Span

MAX_LOGGED_EDITS = 64   # then the next edit is analysed afresh: moving positions costs per edit


class Inflight:
    """An analysis being made of a snapshot of the text, and the edits made since it was taken."""

    def __init__(self) -> None:
        self.log = PositionLog()
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
        self.exact = self.exact and inert and len(self.log) <= MAX_LOGGED_EDITS and carries(anchors, self.log.edits)

    def to_base(self, offset: int) -> int:
        """A byte offset of the live text in the analysed text."""
        return self.log.to_old(offset)

    def from_base(self, span: Span) -> Span:
        return self.log.span_to_new(span)
