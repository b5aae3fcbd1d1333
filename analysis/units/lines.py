"""Preprocessor lines: every `#` directive line of a C, C++ or preprocessed Fortran source.

A directive line starts with `#` (after blanks) at the start of a line that is not inside a
comment or a string, and runs to the first newline not escaped by a backslash. Its text is the
part after the directive's name with continuations spliced and comments replaced by one blank,
as the compiler's translation phases 1-3 leave it. Nothing here evaluates anything.
"""
from __future__ import annotations

import re

from ..syntax.records import dataclass


@dataclass(frozen=True)
class Line:
    start: int       # the line's first byte
    end: int         # the end of its last physical line (before the newline)
    keyword: str     # "if", "ifdef", "define", "include", "pragma" ..., "" for a null directive
    text: bytes      # after the keyword: continuations spliced, comments blanked, stripped
    comments: tuple[tuple[int, int], ...] = ()   # the comments inside it (source spans)


CONDITIONAL = frozenset({"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif"})
OPENING = frozenset({"if", "ifdef", "ifndef"})

_C_EVENT = re.compile(rb"#|/[*/]|\"|'")
_KEYWORD = re.compile(rb"#[ \t]*([A-Za-z_]\w*)?")
_SIMPLE_REST = re.compile(rb"[^\n\\/\"']*")   # a directive line with nothing to splice or strip
_SPECIAL = re.compile(rb"[\n\\/\"']")   # what the slower path looks at
_STRING = re.compile(rb'"(?:[^"\\\n]|\\(?:\r?\n|.))*"?')
_CHAR = re.compile(rb"'(?:[^'\\\n]|\\(?:\r?\n|.))*'?")
_RAW_PREFIX = re.compile(rb"(?:^|[^A-Za-z0-9_])(?:u8|u|U|L)?R$")
_RAW_OPEN = re.compile(rb'R"([^ ()\\\t\n]{0,16})\(')
_IDENT_END = re.compile(rb"[A-Za-z0-9_]$")


def _at_line_start(src: bytes, at: int) -> int:
    """The start of the line holding `at` when only blanks stand before `at` on it, else -1."""
    line = src.rfind(b"\n", 0, at) + 1
    return line if line == at or not src[line:at].strip(b" \t") else -1


def scan(source: bytes, fortran: bool = False) -> tuple[Line, ...]:
    """Every preprocessor directive line of `source`, in order (never raises). The last text's
    lines are kept: a file's includes are looked for just before it is configured."""
    if b"#" not in source:
        return ()
    key = (source, fortran)
    found = _RECENT.get(key)
    if found is None:
        found = tuple(_scan_fortran(source) if fortran else _scan_c(source))
        _RECENT.clear()
        _RECENT[key] = found
    return found


_RECENT: dict[tuple[bytes, bool], tuple[Line, ...]] = {}


def _scan_c(src: bytes) -> list[Line]:
    out: list[Line] = []
    n = len(src)
    pos = 0
    while pos < n:
        m = _C_EVENT.search(src, pos)
        if m is None:
            break
        at = m.start()
        c = src[at]
        if c == 0x23:   # '#'
            line = _at_line_start(src, at)
            if line < 0:
                pos = at + 1
                continue
            found, pos = _directive(src, line, at, comments_too=True)
            out.append(found)
        elif c == 0x2F:  # '/'
            if src[at + 1] == 0x2A:   # block comment
                close = src.find(b"*/", at + 2)
                pos = n if close < 0 else close + 2
            else:                      # line comment, continued by a backslash-newline
                pos = _logical_line_end(src, at)
        elif c == 0x22:  # '"'
            raw = _RAW_PREFIX.search(src, max(0, at - 3), at)
            opened = _RAW_OPEN.match(src, at - 1) if raw is not None else None
            if opened is not None:
                close = src.find(b")" + opened.group(1) + b'"', opened.end())
                pos = n if close < 0 else close + len(opened.group(1)) + 2
            else:
                pos = _STRING.match(src, at).end()   # type: ignore[union-attr]
        else:            # "'": a character literal, or a C++14 digit separator (1'000)
            if at > 0 and _IDENT_END.match(src, at - 1) and src[at + 1:at + 2].isalnum():
                pos = at + 1
            else:
                pos = _CHAR.match(src, at).end()   # type: ignore[union-attr]
    return out


_FORTRAN_HASH = re.compile(rb"^[ \t]*#", re.MULTILINE)


def _scan_fortran(src: bytes) -> list[Line]:
    """Fortran: directive lines are found by their first column; Fortran comments and strings
    cannot hold a line that starts with '#'. C comments on a directive line are blanked (cpp)."""
    out: list[Line] = []
    pos = 0
    while True:
        m = _FORTRAN_HASH.search(src, pos)
        if m is None:
            return out
        hash_at = m.end() - 1
        found, pos = _directive(src, m.start(), hash_at, comments_too=True)
        out.append(found)


def _logical_line_end(src: bytes, at: int) -> int:
    """The end of the line holding `at`, past backslash-newline splices (before the newline)."""
    while True:
        nl = src.find(b"\n", at)
        if nl < 0:
            return len(src)
        k = nl - 1
        if k >= 0 and src[k] == 0x0D:
            k -= 1
        if k >= 0 and src[k] == 0x5C:
            at = nl + 1
            continue
        return nl


def _directive(src: bytes, line: int, hash_at: int, comments_too: bool) -> tuple[Line, int]:
    """The directive line whose '#' is at `hash_at`; the offset to scan on from."""
    m = _KEYWORD.match(src, hash_at)
    assert m is not None
    keyword = (m.group(1) or b"").decode("ascii", "replace")
    body = m.end()
    simple = _SIMPLE_REST.match(src, body)
    assert simple is not None
    stop = simple.end()
    if stop >= len(src) or src[stop] == 0x0A:   # the common line: no splice, comment or literal
        end = stop - 1 if stop > body and src[stop - 1] == 0x0D else stop
        return Line(line, end, keyword, src[body:end].strip(b" \t\r\f\v")), end
    parts: list[bytes] = []
    comments: list[tuple[int, int]] = []
    i = body
    run = body
    n = len(src)
    end = n
    while i < n:
        found = _SPECIAL.search(src, i)
        if found is None:
            i = n
            break
        i = found.start()
        c = src[i]
        if c == 0x0A:
            end = i - 1 if i > 0 and src[i - 1] == 0x0D else i
            break
        if c == 0x5C and src[i + 1:i + 2] == b"\n":
            parts.append(src[run:i])
            i += 2
            run = i
            continue
        if c == 0x5C and src[i + 1:i + 3] == b"\r\n":
            parts.append(src[run:i])
            i += 3
            run = i
            continue
        if comments_too and c == 0x2F and src[i + 1:i + 2] == b"*":
            parts.append(src[run:i])
            parts.append(b" ")
            close = src.find(b"*/", i + 2)
            comments.append((i, n if close < 0 else close + 2))
            i = n if close < 0 else close + 2
            run = i
            continue
        if comments_too and c == 0x2F and src[i + 1:i + 2] == b"/":
            parts.append(src[run:i])
            comments.append((i, _logical_line_end(src, i)))
            i = _logical_line_end(src, i)
            run = i
            continue
        if c in (0x22, 0x27) and keyword != "error" and keyword != "warning":
            literal = (_STRING if c == 0x22 else _CHAR).match(src, i)
            assert literal is not None
            i = max(literal.end(), i + 1)
            continue
        i += 1   # a lone '/', or a backslash that splices nothing
    parts.append(src[run:min(i, n)])
    if i >= n:
        end = n
    text = b"".join(parts).strip(b" \t\r\f\v")
    return Line(line, end, keyword, text, tuple(comments)), end


__all__ = ["CONDITIONAL", "OPENING", "Line", "scan"]
