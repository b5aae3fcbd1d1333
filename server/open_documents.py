"""The editor's open documents as the server keeps them.

Each holds the live text (a `Document`, edited in place) and knows how
the analysis the server has for its file relates to that text: the analysis was made of an
earlier text with blanks added at the ends of its lines (analysis.syntax.padding), and `log`
holds the padding and the edits made since. While every one of those edits is inert
(`analysis.incremental.positions`), the analysis is exact for the live text once positions are moved through
the log. An edit inside one directive made while the log holds no edit is applied to the analysed
text itself, and only what it changes is analysed again (`analysis.incremental.directive_edit`); any other
edit asks for a new analysis, made while the editor goes on, unless it is one in code that
changes nothing the analysis read: inside a C/C++ function body (`analysis.incremental.procedure_edit`) or
a Fortran execution-part statement (`analysis.incremental.statement_edit`).

Applying an edit only edits the text and its line index (`applied`): the analysis takes the edits
later, all that came meanwhile at once (`take_pending`), those that touch each other merged into
one, and the tree follows them then (one reparse for each run): a fast typist's keystrokes cost one
re-analysis of the directive they are in, not one each. Edits made while the file is analysed
afresh wait for that analysis and are taken into it once it is in.
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
# Places edited and not yet taken into the analysis; more, and the file is analysed afresh (taking
# each costs about a directive's re-analysis; each holds the text before it until then).
MAX_PENDING = 24


class Inflight:
    """An analysis being made of a snapshot of the text (the edits made since wait in
    `OpenDocument.pending`, to be taken into it once it is in)."""

    def __init__(self, padding: Padding | None = None) -> None:
        self.padding = padding
        self.exact = True        # still worth finishing


def merged(first: ByteEdit, then: ByteEdit) -> ByteEdit | None:
    """Two edits in a row as one, when the second touches the text the first made (`then`'s
    offsets are in the text after `first`); None when they are apart."""
    if then.start > first.new_end or then.old_end < first.start:
        return None
    return ByteEdit(min(first.start, then.start), first.old_end + max(0, then.old_end - first.new_end),
                    max(first.new_end, then.old_end) + then.delta, first.inert and then.inert)


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
        # edits applied to `doc` and not yet taken into the analysis: (text before, edit), in order
        self.pending: list[tuple[bytes, ByteEdit]] = []
        self.stepped: asyncio.Future[None] | None = None   # done when the analysis task takes a step
        self.retokenize = False      # analysed again for another file's sake: ask the editor for its tokens
        self.pulled: list[Any] | None = None   # pull diagnostics: what the client got last,
        self.pull_id = 0                        # and its number (the report's resultId)

    def applied(self, old: bytes, edit: ByteEdit) -> None:
        """Record an edit just applied to `doc` (the text before it: `old`), for the analysis to
        take later (`take_pending`)."""
        if self.pending:
            before, last = self.pending[-1]
            together = merged(last, edit)
            if together is not None:
                self.pending[-1] = (before, together)
                return
        self.pending.append((old, edit))
        if len(self.pending) > MAX_PENDING or (edit.start == 0 and edit.old_end == len(old) > 0):
            self.outdated()   # too much to take in, or the whole text replaced: analysed afresh

    def outdated(self) -> None:
        """The analysis no longer leads to the live text: the file is analysed afresh (and one
        being made of an earlier text is dropped)."""
        self.pending = []
        self.exact = False
        if self.inflight is not None:
            self.inflight.exact = False

    def take_pending(self) -> list[tuple[bytes, ByteEdit, bytes]]:
        """The edits not yet taken into the analysis, as (text before, edit, text after), but for
        those that changed nothing: a character typed and deleted again before the analysis came
        to it (a fast typist's bursts are half such runs) leaves the analysis and tree as they are."""
        pending, self.pending = self.pending, []
        after = [before for before, _ in pending[1:]] + [self.doc.source]
        taken: list[tuple[bytes, ByteEdit, bytes]] = []
        for (before, edit), text in zip(pending, after):
            if text != before:
                taken.append((before, edit, text))
            elif taken:   # the run before it ends at an equal text: at this one's (the next starts there)
                taken[-1] = (*taken[-1][:2], text)
            else:
                self.doc.tree_unchanged(before, text)
        return taken

    def edited(self, old: bytes, new: bytes, edit: ByteEdit, openmp_version: int, anchors: list[Span]) -> None:
        """Take one edit (`old` became `new`) into the log. `anchors`: spans of the file's analysis
        (base positions) that findings end at; an edit at one of them cannot be carried over (see
        incremental.touches)."""
        inert = self.exact and inert_edit(old, new, edit, self.doc.language, openmp_version)
        self.log.add(edit)
        self.exact = self.exact and inert and len(self.log) <= MAX_LOGGED_EDITS and self.log.carries(anchors)

    def retyped(self, analysis: FileAnalysis | None, edit: ByteEdit, new: bytes) -> FileAnalysis | None:
        """The analysis after `edit` (which made `new`) when the analysis described the text
        before it exactly and the edit is one directive's (that directive re-analysed, the rest
        kept) or one in code that changes nothing the rules read: in a function body (C/C++) or an
        execution-part statement (Fortran) (everything kept, moved)."""
        if analysis is None or not self.exact or self.log.edits or self.inflight is not None \
                or self.log.padding is None:
            return None
        padding = self.log.padding
        at, end, text = padding.to_padded(edit.start), padding.to_padded(edit.old_end), new[edit.start:edit.new_end]
        done = reanalyse_directive(analysis, padding, at, end, text, structure_kept=edit.inert)
        if done is None and not edit.inert:   # (an inert edit costs nothing: see `edited`)
            again = reanalyse_statement if self.doc.language.is_fortran else reanalyse_procedure
            done = again(analysis, padding, at, end, text)
        if done is None:
            return None
        self.log = PositionLog(done[1])
        return done[0]

    @property
    def current(self) -> bool:
        """The analysis and `log` describe the live text: every edit taken, none being analysed."""
        return self.exact and not self.pending and self.inflight is None

    def step(self) -> None:
        """The analysis task took a step: whoever waits for it looks again (`next_step`)."""
        if self.stepped is not None and not self.stepped.done():
            self.stepped.set_result(None)
        self.stepped = None

    async def next_step(self) -> None:
        """Until the analysis task takes a step or ends."""
        if self.task is None or self.task.done():
            return
        if self.stepped is None:
            self.stepped = asyncio.get_running_loop().create_future()
        await asyncio.wait([asyncio.shield(self.task), self.stepped], return_when=asyncio.FIRST_COMPLETED)

    def to_base(self, offset: int) -> int:
        """A byte offset of the live text in the analysed text."""
        return self.log.to_old(offset)

    def from_base(self, span: Span) -> Span:
        return self.log.span_to_new(span)
