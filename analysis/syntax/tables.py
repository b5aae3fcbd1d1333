"""Long tables of numbers in C and C++, hidden from the syntax tree.

tree-sitter keeps a node per token: a table of small numbers costs about 140 bytes of tree per
byte of text (a 10 MB initializer, 1.4 GB), while nothing in a run of numbers matters to the
analysis (no name, no call, no directive). Before a C or C++ text is parsed, each run of at least
`MIN_TABLE` bytes made only of numeric literals, separators and signs, between braces, is
blanked (newlines kept, so every offset and line stays where it was): `{1, 2, ..., 9}` parses as
`{ }`. The analysis reads the text itself, never the blanked copy.
"""
from __future__ import annotations

MIN_TABLE = 4096   # bytes: a shorter table costs at most about 0.6 MB of tree

Span = tuple[int, int]

_DIGITS = b"0123456789.'"
_LETTERS = b"abcdefABCDEFxXuUlLpP"   # hexadecimal digits, prefixes, suffixes and exponents
_SEPARATORS = b",+- \t\r\n"
# Every byte a table may hold -> b"a", any other -> b"b": a table is a long run of b"a".
_IN_TABLE = bytes(0x61 if b in _DIGITS + _LETTERS + _SEPARATORS else 0x62 for b in range(256))
# Within a run: digits -> d, letters -> L, separators -> s (a name starts with an L after an s).
_KINDS = bytes(0x64 if b in _DIGITS else 0x4C if b in _LETTERS else 0x73 for b in range(256))
_BLANK = bytes(b if b in b"\r\n" else 0x20 for b in range(256))
_RUN = b"a" * MIN_TABLE


def table_spans(source: bytes) -> list[Span]:
    """The byte spans of `source` blanked before parsing, in order."""
    for text, spans, _ in _recent:
        if text is source:   # (an edit's reparse asks again for the text before it)
            return spans
    commas = source.count(b",") if len(source) >= MIN_TABLE else 0
    _remember(source, _spans(source, commas), commas)
    return _recent[0][1]


def _spans(source: bytes, commas: int) -> list[Span]:
    if len(source) < MIN_TABLE or commas < MIN_TABLE // 16:
        return []   # (a table of MIN_TABLE bytes has commas; ordinary code is skipped at once)
    return _find_tables(source)


def spans_after_edit(before: list[Span], old: bytes, source: bytes, start: int, old_end: int,
                     new_end: int) -> list[Span]:
    """`table_spans(source)`, where `source` is `old` (whose spans were `before`) with [start,
    old_end) replaced by [start, new_end): the spans before, moved, when the edit touched none,
    the run of table bytes around it in the new text is too short to be one, and the texts' commas
    both pass `table_spans`' test or both fail it (a window around the edit read, not the whole
    text: a keystroke in a large file); else the whole text read."""
    known = None
    for text, spans, commas in _recent:
        if text is source:
            return spans
        if text is old:
            known = commas
    if known is None or len(source) < MIN_TABLE or len(old) < MIN_TABLE \
            or any(a <= old_end + 1 and start - 1 <= b for a, b in before):
        return table_spans(source)
    commas = known - old.count(b",", start, old_end) + source.count(b",", start, new_end)
    if (commas < MIN_TABLE // 16) != (known < MIN_TABLE // 16):
        return table_spans(source)   # (tables the test passed over before are looked for now, or not)
    lo, hi = max(0, start - MIN_TABLE - 1), min(len(source), new_end + MIN_TABLE + 1)
    window = source[lo:hi].translate(_IN_TABLE)
    left = window.rfind(b"b", 0, start - lo) + 1            # the run holding the edit: its start...
    right = window.find(b"b", new_end - lo)                 # ...and end, in the window
    if (left == 0 and lo > 0) or (right < 0 and hi < len(source)) or \
            (len(window) if right < 0 else right) - left >= MIN_TABLE:
        return table_spans(source)   # (a run that may be a table, or reaches past the window)
    delta = new_end - old_end
    spans = [] if commas < MIN_TABLE // 16 else \
        [span if span[1] < start else (span[0] + delta, span[1] + delta) for span in before]
    _remember(source, spans, commas)
    return spans


def _remember(source: bytes, spans: list[Span], commas: int) -> None:
    _recent[:] = [(source, spans, commas), *_recent[:1]]


# The last two texts looked at, their spans and their commas (a reparse asks for the text before
# the edit, which the parse before looked at). It keeps at most two texts alive.
_recent: list[tuple[bytes, list[Span], int]] = []


def _find_tables(source: bytes) -> list[Span]:
    classes = source.translate(_IN_TABLE)
    spans: list[Span] = []
    start = classes.find(_RUN)
    while start >= 0:
        end = classes.find(b"b", start)
        end = len(source) if end < 0 else end
        span = _table(source, start, end)
        if span is not None:
            spans.append(span)
        start = classes.find(_RUN, end)
    return spans


def _table(source: bytes, start: int, end: int) -> Span | None:
    """The part of the run [start, end) to blank, if it is numbers between braces: after a `{`
    (or a `}` ending an earlier row) and before a `}` (or a `{` starting the next row, whose
    comma is kept)."""
    before = source[start - 1:start] if start > 0 else b""
    after = source[end:end + 1]
    if before not in (b"{", b"}") or after not in (b"}", b"{"):
        return None
    kinds = source[start:end].translate(_KINDS)
    if kinds.startswith(b"L") or b"sL" in kinds or b"d" not in kinds:
        return None   # a name (or no number at all)
    if before == b"}" and after == b"{":
        comma = source.rfind(b",", start, end)
        return (start, comma) if comma >= 0 else None
    return start, end


def hide_tables(source: bytes, spans: list[Span]) -> bytes:
    """`source` with the spans blanked (the same object when there are none)."""
    if not spans:
        return source
    parts: list[bytes] = []
    at = 0
    for start, end in spans:
        parts += [source[at:start], source[start:end].translate(_BLANK)]
        at = end
    parts.append(source[at:])
    return b"".join(parts)


def same_tables(before: list[Span], after: list[Span], start: int, old_end: int, new_end: int) -> bool:
    """Whether an edit of [start, old_end) into [start, new_end) left the blanked spans as they
    were, only moved: a tree of the text before is then a tree of the text after, edited."""
    if len(before) != len(after):
        return False
    delta = new_end - old_end
    for (a, b), moved in zip(before, after, strict=True):
        if b < start:
            if moved != (a, b):
                return False
        elif a > old_end:
            if moved != (a + delta, b + delta):
                return False
        else:
            return False   # (the edit touches a table, or its edge)
    return True
