"""Spare blanks at the ends of directive lines, so that typing inside a directive moves nothing else.

The language server analyses an open document's text with `PAD` blanks added at the end of
every directive line (before a C continuation backslash, which must end its line). Blanks there
change no meaning: a directive's text and span are the same with or without them (its span ends
with its line, see directives.source.extract). When the user types inside a directive, the
server takes the typed bytes from that line's blanks, so every position after the line stays
where it was, and the analysis of the rest of the file can be kept (`directive_edit`).

`Padding` maps offsets between the padded text and the real one.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from .syntax import Language

PAD = 24   # bytes a directive line can grow by before the file is analysed afresh

# Lines that may hold (part of) a directive. Padding a line that is not one changes nothing either.
_C_PRAGMA = re.compile(rb"^[ \t]*#[ \t]*pragma[ \t]+omp\b", re.MULTILINE)
_FREE_SENTINEL = re.compile(rb"^[ \t]*!\$omp", re.MULTILINE | re.IGNORECASE)
_FIXED_SENTINEL = re.compile(rb"^[cC*!]\$omp", re.MULTILINE | re.IGNORECASE)


class Padding:
    """Where blanks were added: `starts` are offsets of the padded text, `sizes` how many."""

    def __init__(self, starts: list[int], sizes: list[int], before: list[int] | None = None) -> None:
        self.starts = starts
        self.sizes = sizes
        if before is None:   # blanks added before pad i
            before = [0] * (len(sizes) + 1)
            for i, n in enumerate(sizes):
                before[i + 1] = before[i] + n
        self.before = before
        self.real_starts = [s - b for s, b in zip(starts, before)]

    def __len__(self) -> int:
        return len(self.starts)

    def to_real(self, offset: int) -> int:
        """An offset of the padded text in the real text (inside added blanks: where they start)."""
        i = bisect_right(self.starts, offset)
        if i and offset < self.starts[i - 1] + self.sizes[i - 1]:
            return self.real_starts[i - 1]
        return offset - self.before[i]

    def to_padded(self, offset: int) -> int:
        """An offset of the real text in the padded text (a line's end: before its added blanks)."""
        return offset + self.before[bisect_left(self.real_starts, offset)]

    def on_line(self, padded: bytes, offset: int) -> int | None:
        """The index of the pad on the line holding `offset` of the padded text (None: it has none)."""
        i = bisect_right(self.starts, offset)
        if i and offset <= self.starts[i - 1] + self.sizes[i - 1]:
            return i - 1   # inside the blanks, or at their end
        line_end = padded.find(b"\n", offset)
        if i < len(self.starts) and (line_end < 0 or self.starts[i] < line_end):
            return i
        return None

    def moved(self, at: int, delta: int) -> Padding:
        """The padding after the text from `at` on (no pad inside the edited text) moved by `delta`."""
        i = bisect_left(self.starts, at)
        return Padding(self.starts[:i] + [s + delta for s in self.starts[i:]], self.sizes, self.before)

    def consumed(self, index: int, delta: int) -> Padding:
        """The padding after the text before pad `index` grew by `delta` bytes taken from that pad
        (negative: shrank, and the pad grew)."""
        starts = list(self.starts)
        sizes = list(self.sizes)
        starts[index] += delta
        sizes[index] -= delta
        before = self.before[:index + 1] + [b - delta for b in self.before[index + 1:]]
        return Padding(starts, sizes, before)


def pad(source: bytes, language: Language) -> tuple[bytes, Padding]:
    """The source with `PAD` blanks at the end of every directive line, and where they are."""
    ends = sorted(set(_directive_line_ends(source, language)))
    if not ends:
        return source, Padding([], [])
    pieces: list[bytes] = []
    starts: list[int] = []
    previous = 0
    blanks = b" " * PAD
    for k, end in enumerate(ends):
        pieces.append(source[previous:end])
        pieces.append(blanks)
        starts.append(end + k * PAD)
        previous = end
    pieces.append(source[previous:])
    return b"".join(pieces), Padding(starts, [PAD] * len(ends))


def _directive_line_ends(source: bytes, language: Language) -> list[int]:
    """Where blanks may go on each directive line: its end (before CR LF), or before the backslash
    that continues a C pragma, on every line of it."""
    if language is Language.FORTRAN_FIXED:
        pattern = _FIXED_SENTINEL
    elif language.is_fortran:
        pattern = _FREE_SENTINEL
    else:
        pattern = _C_PRAGMA
    if (b"$" if language.is_fortran else b"pragma") not in source:
        return []
    out: list[int] = []
    for m in pattern.finditer(source):
        at = m.start()
        while True:
            end = source.find(b"\n", at)
            end = len(source) if end < 0 else end
            content_end = end - 1 if end > at and source[end - 1] == 0x0D else end
            continued = not language.is_fortran and content_end > at and source[content_end - 1] == 0x5C
            out.append(content_end - 1 if continued else content_end)
            if not continued or end >= len(source):
                break
            at = end + 1
    return out
