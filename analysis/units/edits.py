"""Edits that may change the build's configuration of a file.

The incremental paths (an edit of one directive, of one function body, of one Fortran
statement) keep the configuration the last analysis decided. They may only when the edit
cannot change it: it touches no preprocessor line (before or after the edit), no inactive
branch (whose text the analysis does not read), and no comment delimiter or line splice that
could turn a line into a directive line or out of one. Any other edit is analysed afresh.
"""
from __future__ import annotations

import re
from bisect import bisect_right

from ..syntax.document import ByteEdit, Span
from .configuration import Configuration

# a preprocessor line other than a `#pragma` (whose edits are the directives' own)
_PREPROCESSOR = re.compile(rb"^[ \t]*#(?![ \t]*pragma\b)", re.MULTILINE)
_COMMENT = re.compile(rb"/\*|\*/")
_DIRECTIVE_COMMENT = re.compile(rb"^[ \t]*#.*/[/*]", re.MULTILINE)


def _line_bounds(source: bytes, start: int, end: int) -> Span:
    """The whole lines holding [start, end)."""
    hi = source.find(b"\n", end)
    return source.rfind(b"\n", 0, start) + 1, len(source) if hi < 0 else hi


def _spliced_bounds(source: bytes, start: int, end: int) -> Span:
    """`_line_bounds`, from the first line of the logical line holding `start`: a directive
    continued over several lines is one line to the preprocessor, whose comments it blanks."""
    lo, hi = _line_bounds(source, start, end)
    while lo > 0:
        k = lo - 2   # (the last byte of the line before, its newline at lo - 1)
        while k >= 0 and source[k] in b" \t\r":
            k -= 1
        if k < 0 or source[k] != 0x5C:   # (a backslash)
            break
        lo = source.rfind(b"\n", 0, k) + 1
    return lo, hi


def _joined(text: bytes) -> bytes:
    """Lines with their splices removed (a comment in a directive's continuation line is on the
    `#` line for `_DIRECTIVE_COMMENT`)."""
    return re.sub(rb"\\[ \t]*\r?\n", b"", text) if b"\\" in text else text


def _risky(text: bytes, following: bytes) -> bool:
    """Whether these lines may decide which lines are preprocessor lines or what is blanked in
    them: one is (not a `#pragma`), one is a directive line with a comment (blanked), a comment
    opens or closes in them and not within them, or the last one is spliced to a `following`
    preprocessor line."""
    if b"#" in text and (_PREPROCESSOR.search(text) or (b"/" in text and _DIRECTIVE_COMMENT.search(text))):
        return True
    if b"*" in text and _unpaired_comment(text):
        return True
    return text.rstrip(b" \t\r").endswith(b"\\") and _PREPROCESSOR.match(following) is not None


def _unpaired_comment(text: bytes) -> bool:
    open_ = False
    for m in _COMMENT.finditer(text):
        opening = m.group() == b"/*"
        if opening == open_:
            return True     # `*/` with nothing open, or a second `/*` (the first one's text)
        open_ = opening
    return open_


def _next_line(source: bytes, hi: int) -> bytes:
    end = source.find(b"\n", hi + 1)
    return source[hi + 1:len(source) if end < 0 else end]


def touches_configuration(configuration: Configuration | None, source: bytes, at: int, end: int,
                          text: bytes) -> bool:
    """Whether replacing [at, end) of `source` (the text the analysis read) with `text` may
    change what `configuration` decided, or lies in text it blanked."""
    if configuration is not None and configuration.blanks and _meets(configuration.blanks, at, end):
        return True
    lo, hi = _spliced_bounds(source, at, end)
    if configuration is not None and configuration.comments and _meets(configuration.comments, lo, hi):
        return True   # a comment in the edited directive line: an edit may make it code, or a string
    following = _next_line(source, hi)
    return _risky(_joined(source[lo:hi]), following) or _risky(_joined(source[lo:at] + text + source[end:hi]), following)


def edits_preprocessor_lines(old: bytes, new: bytes, edit: ByteEdit) -> bool:
    """Whether an applied edit touched a preprocessor line (what files including this one read)."""
    lo, hi = _line_bounds(old, edit.start, edit.old_end)
    if _risky(old[lo:hi], _next_line(old, hi)):
        return True
    lo, hi = _line_bounds(new, edit.start, edit.new_end)
    return _risky(new[lo:hi], _next_line(new, hi))


def _meets(spans: list[Span], start: int, end: int) -> bool:
    """Whether [start, end] touches one of the sorted, disjoint spans (their ends included)."""
    i = bisect_right(spans, (end, 1 << 62)) - 1
    while i >= 0:
        lo, hi = spans[i]
        if hi < start:
            return False
        if lo <= end and start <= hi:
            return True
        i -= 1
    return False


__all__ = ["edits_preprocessor_lines", "touches_configuration"]
