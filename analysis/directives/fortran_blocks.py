"""A Fortran statement scanner for block structure (free and fixed form, no tree needed).

OpenMP block constructs must nest properly with Fortran's own blocks (IF, DO, SELECT,
BLOCK, ...) and cannot cross program units. This scanner finds just enough of the
Fortran structure for that: where those blocks open and close, and where a program
unit (or its executable part, at CONTAINS) ends.
"""
from __future__ import annotations

import re
from typing import Literal

from ..syntax.records import dataclass
from .source import split_fortran_comment, unquoted

Kind = Literal["open", "close", "label", "unit"]


@dataclass(frozen=True)
class BlockEvent:
    offset: int                 # byte offset of the statement
    kind: Kind                  # open/close a Fortran block, end of a labelled DO, end of a unit
    construct: str = ""         # do, if, select, block, ...
    label: bytes = b""          # labelled DO: the label that ends it


@dataclass(frozen=True)
class Statement:
    start: int      # first non-blank byte
    end: int        # end of the last line's content
    label: bytes
    text: bytes     # lower case, comments removed, continuation lines joined


_FREE_LABEL = re.compile(rb"[ \t]*(\d{1,5})[ \t]+")


def statements(src: bytes, fixed: bool) -> list[Statement]:
    """Code statements (directive and comment lines skipped), continuations joined, and those a
    `;` separates on one line apart (`do i = 1, n; a(i) = 0; end do`)."""
    found = _fixed_statements(src) if fixed else _free_statements(src)
    if not any(b";" in st.text for st in found):
        return found
    out: list[Statement] = []
    for st in found:
        out.extend(_separated(src, st) if b";" in st.text else (st,))
    return out




def _separated(src: bytes, st: Statement) -> list[Statement]:
    """A statement split at its `;`: at their exact places when it is one line, else each
    piece over the statement's whole extent."""
    one_line = b"\n" not in src[st.start:st.end]
    text = src[st.start:st.end] if one_line else st.text
    out: list[Statement] = []
    at = 0
    for cut in [*unquoted(text, 0x3B), len(text)]:   # the `;` that separate statements
        piece = text[at:cut]
        lead = len(piece) - len(piece.lstrip())
        body = piece.strip()
        if body:
            start, end = (st.start + at + lead, st.start + at + lead + len(body)) if one_line else (st.start, st.end)
            out.append(Statement(start, end, st.label if not out else b"", body.lower()))
        at = cut + 1
    return out or [st]


def _free_statements(src: bytes) -> list[Statement]:
    out: list[Statement] = []
    parts: list[bytes] = []
    start = end = 0
    label = b""
    continuing = False  # the previous line ended with '&'
    line_start = 0
    for line in src.split(b"\n"):
        here = line_start
        line_start += len(line) + 1
        bang = line.find(b"!")
        if bang >= 0:  # cut a trailing comment (the common case has no quote before the '!')
            body = line[:bang] if b"'" not in line[:bang] and b'"' not in line[:bang] else \
                line[:split_fortran_comment(line)]
        else:
            body = line
        body = body.rstrip()  # also drops a '\r'
        if not body:
            continue
        stripped = body.lstrip()
        if stripped[:1] == b"#":
            continue
        if continuing:
            parts.append(stripped[1:] if stripped[:1] == b"&" else stripped)
        else:
            if parts:
                out.append(Statement(start, end, label, b" ".join(parts).lower()))
            m = _FREE_LABEL.match(body) if stripped[:1].isdigit() else None
            label = m.group(1) if m else b""
            parts = [body[m.end():] if m else stripped]
            start = here + (m.end() if m else len(body) - len(stripped))
        continuing = body[-1:] == b"&"
        if continuing:
            parts[-1] = parts[-1][:-1]
        end = here + len(body)
    if parts:
        out.append(Statement(start, end, label, b" ".join(parts).lower()))
    return out


def fixed_comment_line(line: bytes) -> bool:
    """Whether a fixed-form line (without its line end) is a comment line: blank, C, c, *, ! or #
    in column 1, or nothing but a `!` comment (a `!` in column 6 marks a continuation instead)."""
    if not line.strip() or line[:1] in b"cC*!#":
        return True
    code = line.lstrip(b" \t")
    return code[:1] == b"!" and len(line) - len(code) != 5


def _fixed_statements(src: bytes) -> list[Statement]:
    out: list[Statement] = []
    parts: list[bytes] = []
    start = end = 0
    label = b""
    line_start = 0
    for raw in src.split(b"\n"):
        here = line_start
        line_start += len(raw) + 1
        line = raw.rstrip(b"\r")
        if fixed_comment_line(line):
            continue
        code = line[6:72]
        code = code[:split_fortran_comment(code)].rstrip()
        if line[5:6] not in (b"", b" ", b"0", b"\t") and parts:
            parts.append(code)
            end = here + 6 + len(code)
        else:
            if parts:
                out.append(Statement(start, end, label, b" ".join(parts).lower()))
            parts = [code]
            label = line[:5].strip()
            start = here + 6 + (len(code) - len(code.lstrip()))
            end = here + 6 + len(code)
    if parts:
        out.append(Statement(start, end, label, b" ".join(parts).lower()))
    return out


_NAME = rb"(?:[a-z_]\w*\s*:\s*)?"
# (group 2: the `=` of a loop control, which a comma must follow: `done = .true.` assigns)
_DO_OPEN = re.compile(_NAME + rb"do(?:\s+(\d+))?(?:\s*,?\s*(?:[a-z_]\w*\s*(=)|while\s*\(|concurrent\s*\()|\s*$)")
_IF_THEN = re.compile(_NAME + rb"if\s*\(.*\)\s*then$")
_SELECT = re.compile(_NAME + rb"select\s*(?:case|type|rank)\s*\(")
_BLOCK = re.compile(_NAME + rb"block$")
_ASSOCIATE = re.compile(_NAME + rb"associate\s*\(")
_CRITICAL = re.compile(_NAME + rb"critical(?:\s*\(.*\))?$")
_TEAM = re.compile(_NAME + rb"change\s*team\s*\(")
_WHERE_FORALL = re.compile(_NAME + rb"(where|forall)\s*\(")
_CLOSE = re.compile(rb"end\s*(do|if|select|associate|where|forall|critical|team|block(?!\s*data))\b")
_UNIT_END = re.compile(rb"(?:end|end\s*(?:subroutine|function|program|module|submodule|procedure|block\s*data)\b.*"
                       rb"|contains)$")


# The first words of every statement the patterns above can match, to skip the others quickly.
_BLOCK_WORDS = (b"do", b"if", b"select", b"block", b"associate", b"critical", b"change", b"where", b"forall",
                b"end", b"contains")
_CONSTRUCT_NAME = re.compile(rb"[a-z_]\w*\s*:(?!:)")


def closing_paren(text: bytes, open_at: int) -> int | None:
    """Where the parenthesis opened at `open_at` closes, or None when it does not."""
    depth = 0
    for i in range(open_at, len(text)):
        c = text[i]
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return i
    return None


def _closes_paren_at_end(text: bytes, open_at: int) -> bool:
    """True when the parenthesis opened at `open_at` closes at the end of the statement."""
    close = closing_paren(text, open_at)
    return close is not None and not text[close + 1:].strip()


def _top_level_comma(text: bytes, at: int) -> bool:
    """Whether a comma outside parentheses and character literals follows `at` (a loop
    control's `e1, e2`)."""
    depth = quote = 0
    for c in text[at:]:
        if quote:
            quote = 0 if c == quote else quote
        elif c in (0x27, 0x22):
            quote = c
        elif c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
        elif c == 0x2C and depth == 0:
            return True
    return False


def block_events(stmts: list[Statement]) -> list[BlockEvent]:
    """Opening and closing of Fortran blocks, ends of labelled DOs and unit boundaries."""
    events: list[BlockEvent] = []
    for st in stmts:
        t = st.text.strip()
        if st.label:
            events.append(BlockEvent(st.start, "label", label=st.label))
        if not t.startswith(_BLOCK_WORDS) and not _CONSTRUCT_NAME.match(t):
            continue  # an ordinary statement (most of them): no block opens or closes here
        if _UNIT_END.match(t):
            events.append(BlockEvent(st.start, "unit"))
            continue
        m = _CLOSE.match(t)
        if m:
            events.append(BlockEvent(st.start, "close", m.group(1).decode()))
            continue
        m = _DO_OPEN.match(t)
        if m and (m.group(2) is None or _top_level_comma(t, m.end())):
            if m.group(1):
                events.append(BlockEvent(st.start, "open", "do", label=m.group(1)))
            else:
                events.append(BlockEvent(st.start, "open", "do"))
            continue
        for regex, construct in ((_IF_THEN, "if"), (_SELECT, "select"), (_BLOCK, "block"),
                                 (_ASSOCIATE, "associate"), (_CRITICAL, "critical"), (_TEAM, "team")):
            if regex.match(t):
                events.append(BlockEvent(st.start, "open", construct))
                break
        else:
            m = _WHERE_FORALL.match(t)
            if m and _closes_paren_at_end(t, m.end() - 1):
                events.append(BlockEvent(st.start, "open", m.group(1).decode()))
    # A statement's own label closes DOs after the statement itself was read.
    events.sort(key=lambda ev: (ev.offset, ev.kind == "label"))
    return events
