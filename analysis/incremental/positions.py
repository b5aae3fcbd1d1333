"""Edits that change no meaning, and where positions move after them.

Most keystrokes in a large file do not change what the analysis would say: text typed into a
comment, blanks inside a directive, a word retyped the same. `inert_edit` proves that for one
edit by looking at the edit alone (never the whole file):

- the syntax tree kept its structure and the new text lies inside a comment or a `#pragma`
  line's text (C/C++), or the edited lines are comment lines before and after (Fortran, whose
  directives are comment lines to the grammar and to the program model);
- the directives on the lines around the edit (a window closed under continuation lines) parse
  to the same result before and after, position for position, where positions after the edit
  move by its length;
- C/C++: the file's `#define`d names are unchanged (pragmas are macro-expanded).

The analysis of the text before the edit is then the analysis of the text after it, with every
position moved (`PositionLog`). A finding with an end exactly at the edit is the one exception:
whether text typed there belongs to it is not known, so such an edit is not inert for it.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ..directives.nodes import Directive
from ..directives.parser import parse_directive
from ..directives.source import RawDirective, extract
from ..file_analysis import defined_macros, macro_definitions
from ..syntax.diagnostics import Finding
from ..syntax.document import ByteEdit, Language, Span
from ..syntax.padding import Padding
from ..syntax.records import fields, replace

MAX_WINDOW_LINES = 400   # a longer run of directive lines is re-analysed as a whole file

_FORTRAN_COMMENT_LINE = re.compile(rb"[ \t]*(?:!|\r?$)", re.MULTILINE)
_FIXED_COMMENT_LINE = re.compile(rb"(?:[cC*!]|[ \t]*(?:!|\r?$))", re.MULTILINE)
_FORTRAN_NEIGHBOUR = re.compile(rb"[ \t]*(?:[!#]|\r?$)")            # comment, directive, cpp, blank
_FIXED_NEIGHBOUR = re.compile(rb"(?:[cC*!]|[ \t]*(?:[!#]|\r?$))")


class PositionLog:
    """The edits applied since an analysis was made, in order: positions of that analysis moved
    to the current text (`to_new`) and back (`to_old`). `padding`: the analysed text had blanks
    added at the ends of directive lines (the language server's, see padding.py); they come off
    first."""

    def __init__(self, padding: Padding | None = None) -> None:
        self.edits: list[ByteEdit] = []
        self.padding = padding if padding is not None and len(padding) else None

    def __len__(self) -> int:
        return len(self.edits)

    @property
    def moves(self) -> bool:
        """Whether any position of the analysed text is elsewhere in the current one."""
        return bool(self.edits) or self.padding is not None

    def add(self, edit: ByteEdit) -> None:
        self.edits.append(edit)

    def to_new(self, offset: int, end: bool = False) -> int:
        """Where an offset of the analysed text is now. Text typed exactly at a span's start
        comes before it, at its end after it (`end=True` for the end of a span)."""
        if self.padding is not None:
            offset = self.padding.to_real(offset)
        for e in self.edits:
            offset = _end_to_new(e, offset) if end else _start_to_new(e, offset)
        return offset

    def span_to_new(self, span: Span) -> Span:
        return self.to_new(span[0]), max(self.to_new(span[0]), self.to_new(span[1], end=True))

    def to_old(self, offset: int) -> int:
        """Where an offset of the current text was in the analysed text (inside typed text: the
        place it was typed at)."""
        for e in reversed(self.edits):
            if offset >= e.new_end:
                offset -= e.delta
            elif offset > e.start:
                offset = e.start
        return self.padding.to_padded(offset) if self.padding is not None else offset

    def carries(self, spans: Iterable[Span]) -> bool:
        """`carries` for spans of the analysed text."""
        if self.padding is not None:
            to_real = self.padding.to_real
            spans = [(to_real(a), to_real(b)) for a, b in spans]
        return carries(spans, self.edits)


def _start_to_new(e: ByteEdit, x: int) -> int:
    if x < e.start:
        return x
    if x >= e.old_end:
        return x + e.delta
    return e.start


def _end_to_new(e: ByteEdit, x: int) -> int:
    if x <= e.start:
        return x
    if x > e.old_end:
        return x + e.delta
    return e.new_end


def inert_edit(old: bytes, new: bytes, edit: ByteEdit, language: Language, version: int) -> bool:
    """Whether `edit` (turning `old` into `new`) leaves the analysis unchanged but for positions."""
    if language.is_fortran:
        if not (comment_lines(old, edit.start, edit.old_end, language)
                and comment_lines(new, edit.start, edit.new_end, language)):
            return False
        macros: frozenset[str] = frozenset()
    else:
        if not edit.inert or _edited_macros(old, edit.start, edit.old_end) != _edited_macros(new, edit.start, edit.new_end):
            return False
        macros = defined_macros(new)   # the same as before: only the edited lines could change them
    before = directive_window(old, edit.start, edit.old_end, language)
    after = directive_window(new, edit.start, edit.new_end, language)
    if before is None or after is None or before[0] != after[0] or before[1] + edit.delta != after[1]:
        return False
    relative = ByteEdit(edit.start - before[0], edit.old_end - before[0], edit.new_end - before[0])
    return _equal(window_directives(old, before, language, version, macros),
                  window_directives(new, after, language, version, macros),
                  relative)


def _edited_macros(source: bytes, start: int, end: int) -> list[str]:
    """The names #defined on the lines from `start` to `end` (the rest of the file is unchanged)."""
    hi = source.find(b"\n", end)
    return macro_definitions(source, source.rfind(b"\n", 0, start) + 1, len(source) if hi < 0 else hi)


def comment_lines(source: bytes, start: int, end: int, language: Language) -> bool:
    """Every line from `start` to `end` is a comment (or blank) line."""
    pattern = _FIXED_COMMENT_LINE if language is Language.FORTRAN_FIXED else _FORTRAN_COMMENT_LINE
    at = source.rfind(b"\n", 0, start) + 1
    while True:
        if not pattern.match(source, at):
            return False
        nl = source.find(b"\n", at)
        if nl < 0 or nl >= end:
            return True
        at = nl + 1


def directive_window(source: bytes, start: int, end: int, language: Language) -> Span | None:
    """Whole lines around [start, end), grown over neighbouring lines that may belong to the same
    directives (directive, comment, blank and preprocessor lines in Fortran; backslash-continued
    lines in C/C++): the directives inside are whole. None when that is too long."""
    lo = source.rfind(b"\n", 0, start) + 1
    hi = source.find(b"\n", end)
    hi = len(source) if hi < 0 else hi
    for _ in range(MAX_WINDOW_LINES):
        if lo == 0:
            break
        prev = source.rfind(b"\n", 0, lo - 1) + 1
        if not _joins(source, prev, lo - 1, language):
            break
        lo = prev
    else:
        return None
    for _ in range(MAX_WINDOW_LINES):
        if hi >= len(source):
            break
        nxt = source.find(b"\n", hi + 1)
        nxt = len(source) if nxt < 0 else nxt
        if not _joins(source, hi + 1, nxt, language, following=True) and not _continued(source, hi, language):
            break
        hi = nxt
    else:
        return None
    return lo, hi


def _joins(source: bytes, line_start: int, line_end: int, language: Language, following: bool = False) -> bool:
    """Whether a neighbouring line (`line_end`: its newline) may be part of a directive of the window."""
    if language.is_fortran:
        pattern = _FIXED_NEIGHBOUR if language is Language.FORTRAN_FIXED else _FORTRAN_NEIGHBOUR
        return bool(pattern.match(source, line_start, line_end + 1))
    if following:
        return False
    return source[line_start:line_end].rstrip(b"\r").endswith(b"\\")


def _continued(source: bytes, line_end: int, language: Language) -> bool:
    """C/C++: the line ending at `line_end` continues on the next one."""
    return not language.is_fortran and source[:line_end].rstrip(b"\r").endswith(b"\\")


def window_directives(source: bytes, window: Span, language: Language, version: int, macros: frozenset[str],
                      shift: int = 0) -> list[tuple[Directive, list[Finding]]]:
    """The directives of the window's whole lines with the parser's findings, positions relative
    to the window moved by `shift` (the window's start: positions in the file). The last line's
    newline is read too: a literal left open there is unterminated, as in the file."""
    raws = extract(source[window[0]:window[1] + 1], language)
    return [parse_directive(_moved_raw(raw, shift) if shift else raw, language, version, macros) for raw in raws]


def _moved_raw(raw: RawDirective, delta: int) -> RawDirective:
    return replace(raw, span=(raw.span[0] + delta, raw.span[1] + delta),
                   sentinel=(raw.sentinel[0] + delta, raw.sentinel[1] + delta),
                   segments=[(logical, source + delta) for logical, source in raw.segments],
                   problems=[replace(p, span=(p.span[0] + delta, p.span[1] + delta)) for p in raw.problems])


_SKIPPED_FIELDS = frozenset({"body", "segments"})   # the raw text: its meaning is compared instead


def _equal(a: object, b: object, edit: ByteEdit) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple))
        return len(a) == len(b) and all(_equal(x, y, edit) for x, y in zip(a, b))
    if hasattr(type(a), "__record_fields__"):
        for f in fields(a):
            if f.name in _SKIPPED_FIELDS:
                continue
            x, y = getattr(a, f.name), getattr(b, f.name)
            if f.name.endswith("span") or f.name == "sentinel":
                if x is None or y is None:
                    if x is not y:
                        return False
                elif not _span_matches(x, y, edit):
                    return False
            elif f.name == "edits":
                if len(x) != len(y) or any(not _span_matches(s, t, edit) or u != v for (s, u), (t, v) in zip(x, y)):
                    return False
            elif not _equal(x, y, edit):
                return False
        return True
    return a == b


def _span_matches(old: Span, new: Span, edit: ByteEdit) -> bool:
    """`new` is `old` moved by the edit; an end at the edit itself may fall anywhere in the new text."""
    return _point_matches(old[0], new[0], edit, _start_to_new) and _point_matches(old[1], new[1], edit, _end_to_new)


def _point_matches(old: int, new: int, edit: ByteEdit, move: Callable[[ByteEdit, int], int]) -> bool:
    if edit.start <= old <= edit.old_end:
        return edit.start <= new <= edit.new_end
    return move(edit, old) == new


def anchors(findings: Iterable[Finding], path: str | None = None) -> list[Span]:
    """The spans of this file that findings end at: their own, their fixes' edits, and related
    locations in this file (`path`: other files' findings pointing into it)."""
    out: list[Span] = []
    for f in findings:
        if path is None:
            out.append(f.span)
            out.extend(s for fix in f.fixes for s, _ in fix.edits)
        out.extend(r.span for r in f.related if (r.path is None if path is None else r.path == path))
    return out


def carries(spans: Iterable[Span], edits: list[ByteEdit]) -> bool:
    """Whether spans can be moved through `edits` (in order): none has an end at an edit, where
    whether the typed text belongs to it is not known."""
    current = list(spans)
    for e in edits:
        if any(e.start <= a <= e.old_end or e.start <= b <= e.old_end for a, b in current):
            return False
        current = [(_start_to_new(e, a), max(_start_to_new(e, a), _end_to_new(e, b))) for a, b in current]
    return True


def touches(findings: Iterable[Finding], edit: ByteEdit) -> bool:
    """Whether a finding of this file has an end at the edit (it cannot be carried over)."""
    return not carries(anchors(findings), [edit])


def moved(finding: Finding, log: PositionLog) -> Finding:
    """A finding of the analysed text at its place in the current text: its span, its fixes'
    edits and its related locations in the same file (locations in other files move with theirs)."""
    if not log.moves:
        return finding
    related = [replace(r, span=log.span_to_new(r.span)) if r.path is None else r for r in finding.related]
    fixes = [replace(fix, edits=tuple((log.span_to_new(s), text) for s, text in fix.edits)) for fix in finding.fixes]
    return replace(finding, span=log.span_to_new(finding.span), related=related, fixes=fixes)


__all__ = ["PositionLog", "anchors", "carries", "inert_edit", "moved", "touches"]
