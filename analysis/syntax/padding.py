"""Spare blanks at the ends of lines, so that typing on one line moves nothing after it.

The language server analyses an open document's text with `PAD` blanks added at the end of
every line (before a C continuation backslash, which must end its line). Blanks there change
no meaning: a directive's text and span are the same with or without them (its span ends with
its line, see directives.source.extract), and so are the code's tokens. When the user types, the
server takes the typed bytes from that line's blanks, so every position after the line stays
where it was, and the analysis of the rest of the file can be kept (`directive_edit` for an
edit inside a directive, `procedure_edit` for one inside a function body).

`Padding` maps offsets between the padded text and the real one.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from operator import sub
from typing import NamedTuple

from .document import Language

PAD = 24   # bytes a line can grow by before the file is analysed afresh

_LINE_END = re.compile(rb"\\?\r?\n")


class Typed(NamedTuple):
    """An edit on one line of a padded text (`Padding.typed`)."""
    source: bytes      # the padded text after it
    index: int  # type: ignore[assignment]  # a field shadowing tuple.index, which NamedTuple allows
    # (`index`: the line's pad; `Padding.consumed(index, delta)` is the padding then)
    delta: int         # bytes the text before the pad grew by
    line: int          # where the edited line starts
    line_end: int      # where its pad started: the line's text ends there (plus `delta` after)

    @property
    def changed_end(self) -> int:
        """Where the changed bytes end, in the text before and after alike: the edit and the
        line's blanks are as long before as after."""
        return self.line_end + max(self.delta, 0)


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

    @property
    def real_starts(self) -> list[int]:
        """Where the pads start in the real text (made when asked: a keystroke that consumes a pad
        would otherwise pay a new int for every line)."""
        return list(map(sub, self.starts, self.before))

    def __len__(self) -> int:
        return len(self.starts)

    def to_real(self, offset: int) -> int:
        """An offset of the padded text in the real text (inside added blanks: where they start)."""
        i = bisect_right(self.starts, offset)
        if i and offset < self.starts[i - 1] + self.sizes[i - 1]:
            return self.starts[i - 1] - self.before[i - 1]
        return offset - self.before[i]

    def to_padded(self, offset: int) -> int:
        """An offset of the real text in the padded text (a line's end: before its added blanks)."""
        starts, before = self.starts, self.before
        return offset + before[bisect_left(range(len(starts)), offset, key=lambda i: starts[i] - before[i])]

    def on_line(self, padded: bytes, offset: int) -> int | None:
        """The index of the pad on the line holding `offset` of the padded text (None: it has none)."""
        i = bisect_right(self.starts, offset)
        if i and offset <= self.starts[i - 1] + self.sizes[i - 1]:
            return i - 1   # inside the blanks, or at their end
        line_end = padded.find(b"\n", offset)
        if i < len(self.starts) and (line_end < 0 or self.starts[i] < line_end):
            return i
        return None

    def typed(self, padded: bytes, start: int, old_end: int, text: bytes) -> Typed | None:
        """The padded text with [start, old_end) replaced by `text` and the blanks of that line
        taking up the difference; None when the edit leaves its line or the blanks are too few."""
        k = self.on_line(padded, old_end)
        if k is None:
            return None
        pad_start, delta = self.starts[k], len(text) - (old_end - start)
        if old_end > pad_start or delta > self.sizes[k]:
            return None
        tail = padded[old_end:pad_start]
        whole = memoryview(padded)   # (the new text copied once: a keystroke in a large file)
        if delta >= 0:
            new = b"".join((whole[:start], text, tail, whole[pad_start + delta:]))
        else:
            new = b"".join((whole[:start], text, tail, b" " * -delta, whole[pad_start:]))
        return Typed(new, k, delta, padded.rfind(b"\n", 0, start) + 1, pad_start)

    def consumed(self, index: int, delta: int) -> Padding:
        """The padding after the text before pad `index` grew by `delta` bytes taken from that pad
        (negative: shrank, and the pad grew)."""
        starts = list(self.starts)
        sizes = list(self.sizes)
        starts[index] += delta
        sizes[index] -= delta
        before = self.before[:index + 1]
        before.extend(map((-delta).__add__, self.before[index + 1:]))
        return Padding(starts, sizes, before)


def pad(source: bytes, language: Language) -> tuple[bytes, Padding]:
    """The source with `PAD` blanks at the end of every line, and where they are."""
    ends = _line_ends(source, language)
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


def _line_ends(source: bytes, language: Language) -> list[int]:
    """Where blanks may go on each line: its end (before CR LF), or (C/C++) before the backslash
    that continues it."""
    c = not language.is_fortran
    out = [m.start() if c or m.group()[:1] != b"\\" else m.start() + 1 for m in _LINE_END.finditer(source)]
    if not source.endswith(b"\n"):
        out.append(len(source) - 1 if c and source.endswith(b"\\") else len(source))
    return out
