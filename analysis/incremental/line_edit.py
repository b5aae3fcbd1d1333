"""An edit on one line of a padded text (padding.py), and where what the old text held is in
the new one: what follows the edit on its line moves, nothing after the line does (the line's
spare blanks take up the difference). procedure_edit and statement_edit move the kept
findings and structures with it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax.diagnostics import Finding, Fix, Related
from ..syntax.document import Span
from ..syntax.records import replace

if TYPE_CHECKING:
    from ..file_analysis import AnalysisTrace
    from ..rules import RuleTrace


class Moved(ValueError):
    """A position inside the replaced text: the finding read what the edit changed."""


class LineEdit:
    """The edit in the padded text: [start, old_end) replaced by bytes `delta` longer, the rest
    of its line up to `line_end` (where the line's spare blanks start) moved with it; nothing
    after the line moves (the blanks take up the difference)."""

    def __init__(self, start: int, old_end: int, delta: int, line_end: int) -> None:
        self.start, self.old_end, self.delta, self.line_end = start, old_end, delta, line_end

    def offset(self, offset: int, opens: bool) -> int:
        """An offset of the old text in the new one. What opens at an insertion point moves with
        the text after it, what closes there stays; an offset inside the replaced bytes has no
        place (Moved)."""
        if offset < self.start or (not opens and offset == self.start) or offset > self.line_end:
            return offset
        if offset > self.old_end or (opens and offset == self.old_end):
            return offset + self.delta
        raise Moved

    def span(self, span: Span) -> Span:
        if span[1] < self.start or span[0] > self.line_end:
            return span   # (before the edit or after its line: most spans of a file)
        if span[0] == span[1]:
            at = self.offset(span[0], True)
            return at, at
        return self.offset(span[0], True), self.offset(span[1], False)

    def finding(self, f: Finding, path: str | None = None, edited: str | None = None) -> Finding:
        """The finding with its positions in the edited file moved. `path`: the file it is for, and
        `edited`: the edited file, for a cross-file finding (default: both the edited file)."""
        if not self.moves(f, path, edited):
            return f   # before the edit or after its line: shared as it is
        here = path == edited
        return replace(f, span=self.span(f.span) if here else f.span,
                       related=[replace(r, span=self.span(r.span)) if _in(r, here, edited) else r for r in f.related],
                       fixes=[Fix(fix.title, tuple((self.span(s), t) for s, t in fix.edits)) if here else fix
                              for fix in f.fixes])

    def _rule_trace(self, t: RuleTrace) -> RuleTrace:
        findings = [self.finding(f) for f in t.findings]
        return t if all(a is b for a, b in zip(findings, t.findings)) else replace(t, findings=findings)

    def moves(self, f: Finding, path: str | None = None, edited: str | None = None) -> bool:
        """Whether a position of the finding (of `path`, see `finding`) lies where the edit moves
        text: in the edited file, on its line from the edit on."""
        here = path == edited
        spans = [r.span for r in f.related if _in(r, here, edited)]
        if here:
            spans += [f.span, *(s for fix in f.fixes for s, _ in fix.edits)]
        return any(self.start <= span[1] and span[0] <= self.line_end for span in spans)

    def trace(self, trace: AnalysisTrace) -> AnalysisTrace:
        """`trace` with every finding and span of a body read moved (Moved: one was inside the
        replaced text)."""
        span = self.span
        return replace(trace, problems=[[self.finding(f) for f in found] if found else found
                                        for found in trace.problems],   # (most directives have none)
                       rules={r: self._rule_trace(t) for r, t in trace.rules.items()},
                       bodies=None if trace.bodies is None else list(map(span, trace.bodies)),
                       expanded=list(map(span, trace.expanded)), uses=list(map(span, trace.uses)))


def _in(r: Related, here: bool, edited: str | None) -> bool:
    """Whether a related place is in the edited file (`here`: the finding's own file is)."""
    return here if r.path is None else r.path == edited
