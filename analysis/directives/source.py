"""Find OpenMP directives in source text and join their continuation lines.

Each directive becomes a `RawDirective`: the bytes after the sentinel (`#pragma omp`,
`_Pragma("omp`, `!$omp`, `c$omp`, ...) as one logical line with continuations and
comments removed, plus the segment map that takes every byte of that logical line back
to its exact place in the source. Nothing here knows directive names.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

from ..syntax.document import Language, Span
from ..syntax.records import dataclass, field

if TYPE_CHECKING:
    import tree_sitter

Form = Literal["pragma", "_Pragma", "free", "fixed"]


@dataclass
class Problem:
    """Something wrong with the directive's lines themselves (reported as OMP004)."""
    span: Span
    message: str


@dataclass
class RawDirective:
    form: Form
    span: Span                # the whole directive in the source, all its lines
    sentinel: Span            # "#pragma omp" / "!$omp" on the first line
    body: bytes               # logical text after the sentinel
    # (logical start, source start) of each contiguous piece of `body`
    segments: list[tuple[int, int]]
    problems: list[Problem] = field(default_factory=list)
    in_macro: bool = False    # inside a #define: no placement or extent

    def source_offset(self, index: int) -> int:
        """Source byte of logical byte `index` (the end of the body maps after its last byte)."""
        if index >= len(self.body) and self.body:
            return self.source_offset(len(self.body) - 1) + 1
        i = bisect_right(self.segments, (index, 1 << 62)) - 1
        logical, source = self.segments[max(i, 0)]
        return source + (index - logical)

    def source_span(self, start: int, end: int) -> Span:
        """Source span of logical [start, end); an empty range maps to an empty span."""
        if end <= start:
            at = self.source_offset(start)
            return at, at
        return self.source_offset(start), self.source_offset(end - 1) + 1


class _Builder:
    """Accumulates logical bytes and their segment map."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.segments: list[tuple[int, int]] = []
        self.length = 0

    def add(self, data: bytes, source_start: int) -> None:
        if not data:
            return
        if not self.segments or self._source_end() != source_start:
            self.segments.append((self.length, source_start))
        self.parts.append(data)
        self.length += len(data)

    def _source_end(self) -> int:
        logical, source = self.segments[-1]
        return source + (self.length - logical)

    def build(self) -> tuple[bytes, list[tuple[int, int]]]:
        return b"".join(self.parts), self.segments or [(0, 0)]


def _rstrip(body: bytes, segments: list[tuple[int, int]], at: int) -> tuple[bytes, list[tuple[int, int]]]:
    """The body without trailing blanks, and only the segments that still map part of it."""
    body = body.rstrip(b" \t\r")
    return body, [seg for seg in segments if seg[0] < len(body)] or [(0, at)]


# ---------------------------------------------------------------- C and C++

# Searched without a leading `^[ \t]*`: a pattern that starts with the literal '#' lets the regex
# engine skip ahead quickly, where `^` under re.M is tried at every byte. `_at_line_start` then
# keeps only the matches that the anchored pattern would find.
# Group 1: the rest of a line that needs no careful scan (no continuation, comment or literal),
# so the common pragma is taken whole from one match; None when the scanner must read it.
_PRAGMA = re.compile(rb"#[ \t]*pragma[ \t]+omp(?![A-Za-z0-9_$])"
                     rb"(?:([^\n\\\"'/]*(?:/(?![/*])[^\n\\\"'/]*)*)(?=\n|\Z))?")
_UNDERSCORE_PRAGMA = re.compile(rb'_Pragma[ \t]*\([ \t]*(?:u8|u|U|L)?"[ \t]*omp(?![A-Za-z0-9_$])')
# A pragma line that needs the careful scanner: continuation, comment or literal.
_NEEDS_SCAN = re.compile(rb'[\\"\']|/[/*]')
_SKIP_NODES = frozenset({"comment", "string_literal", "raw_string_literal", "char_literal",
                         "system_lib_string", "string_content"})
_MACRO_NODES = frozenset({"preproc_def", "preproc_function_def"})


def _c_pragma(src: bytes, sentinel: Span) -> RawDirective:
    body_start = sentinel[1]
    line_end = src.find(b"\n", body_start)
    if line_end < 0:
        line_end = len(src)
    first = src[body_start:line_end]
    if not _NEEDS_SCAN.search(first):
        body = first.rstrip(b" \t\r")
        return RawDirective("pragma", (sentinel[0], body_start + len(body)), sentinel, body,
                            [(0, body_start)])
    return _scan_c_pragma(src, sentinel)


# The bytes `_scan_c_pragma` acts on, outside and inside a literal opened by each quote.
_SCAN = re.compile(rb"[\\\n\r\"'/]")
_SCAN_QUOTED = {0x22: re.compile(rb'[\\\n\r"]'), 0x27: re.compile(rb"[\\\n\r']")}


def _scan_c_pragma(src: bytes, sentinel: Span) -> RawDirective:
    """Byte scanner for pragma lines with backslash continuations, comments or literals."""
    out = _Builder()
    problems: list[Problem] = []
    i = sentinel[1]
    n = len(src)
    run_start = i
    quote = 0
    end = n

    def flush(upto: int) -> None:
        out.add(src[run_start:upto], run_start)

    while i < n:
        # Every other byte only moves on: jump to the next one that may matter.
        found = (_SCAN_QUOTED[quote] if quote else _SCAN).search(src, i)
        if found is None:
            i = n
            continue
        i = found.start()
        c = src[i]
        if c == 0x5C and src[i + 1:i + 2] in (b"\n", b"\r"):  # backslash-newline: splice
            flush(i)
            i += 3 if src[i + 1:i + 3] == b"\r\n" else 2
            run_start = i
            if i >= n:
                problems.append(Problem((i - 2, i), "the pragma's last line ends with '\\' but the file ends"))
            continue
        if c == 0x0A or (c == 0x0D and src[i + 1:i + 2] == b"\n"):
            if quote:
                problems.append(Problem((run_start, i), "unterminated string or character literal"))
            end = i
            break
        if quote:
            if c == 0x5C:
                i += 2
                continue
            if c == quote:
                quote = 0
            i += 1
            continue
        if c in (0x22, 0x27):
            quote = c
        elif c == 0x2F and src[i + 1:i + 2] == b"/":   # line comment: to the end of the (spliced) line
            flush(i)
            j = i
            while j < n:
                if src[j] == 0x0A:
                    if (j > 0 and src[j - 1] == 0x5C) or (src[j - 1] == 0x0D and src[j - 2] == 0x5C):
                        j += 1
                        continue
                    break
                j += 1
            out.add(b" ", i)
            i = j
            run_start = i
            end = j
            break
        elif c == 0x2F and src[i + 1:i + 2] == b"*":   # block comment: may span lines
            flush(i)
            close = src.find(b"*/", i + 2)
            if close < 0:
                problems.append(Problem((i, i + 2), "unterminated comment in the pragma"))
                i = n
                run_start = n
                end = n
                break
            out.add(b" ", i)
            i = close + 2
            run_start = i
            continue
        i += 1
    else:
        end = n
    flush(min(i, n) if i <= n else n)
    body, segments = _rstrip(*out.build(), sentinel[1])
    directive = RawDirective("pragma", sentinel, sentinel, body, segments, problems)
    last = directive.source_offset(len(directive.body)) if directive.body else sentinel[1]
    directive.span = (sentinel[0], max(last, end) if problems else last)
    return directive


def _underscore_pragma(src: bytes, match: re.Match[bytes]) -> RawDirective | None:
    """`_Pragma("omp ...")`: the string's content, escapes removed, is the directive."""
    start = match.start()
    omp_end = match.end()
    out = _Builder()
    i = omp_end
    run_start = i
    n = len(src)
    while i < n and src[i] not in (0x22, 0x0A):
        if src[i] == 0x5C and i + 1 < n:
            nxt = src[i + 1:i + 3]
            if nxt[:1] == b"\n" or nxt == b"\r\n":  # backslash-newline: spliced away (phase 2)
                out.add(src[run_start:i], run_start)
                i += 1 + (2 if nxt == b"\r\n" else 1)
                run_start = i
                continue
            out.add(src[run_start:i], run_start)
            if nxt[:1] in (b'"', b"\\"):  # destringizing: \" and \\ stand for the escaped byte
                out.add(nxt[:1], i + 1)
            else:                          # any other escape is kept as written
                out.add(src[i:i + 2], i)
            i += 2
            run_start = i
            continue
        i += 1
    out.add(src[run_start:i], run_start)
    body, segments = out.build()
    problems = []
    if i >= n or src[i] != 0x22:
        problems.append(Problem((start, i), "unterminated string in _Pragma"))
        end = i
    else:
        close = re.compile(rb"[ \t]*\)").match(src, i + 1)
        end = close.end() if close else i + 1
        if close is None:
            problems.append(Problem((start, i + 1), "_Pragma is missing its closing ')'"))
    body, segments = _rstrip(body, segments, omp_end)
    return RawDirective("_Pragma", (start, end), (start, omp_end), body, segments, problems)


_DISABLED_IF = re.compile(rb"#[ \t]*if[ \t]+(?:0|false)\b")  # at a line start: see _at_line_start


def _at_line_start(src: bytes, at: int) -> bool:
    """Only blanks and tabs stand between the start of the line and `at` (the `^[ \\t]*` of re.M)."""
    line_start = src.rfind(b"\n", 0, at) + 1
    return line_start == at or not src[line_start:at].strip(b" \t")


def _may_be_disabled(src: bytes) -> bool:
    """Some line of the file starts with `#if 0` or `#if false`."""
    return any(_at_line_start(src, m.start()) for m in _DISABLED_IF.finditer(src))


def _c_context(tree: tree_sitter.Tree | None, offset: int, may_be_disabled: bool = True) -> str:
    """'skip' inside comments and literals, 'macro' inside a #define, else 'code'."""
    if tree is None:
        return "code"
    node = tree.root_node.descendant_for_byte_range(offset, offset + 1)
    if node is not None and node.type == "preproc_directive" and not may_be_disabled:
        return "code"  # the '#pragma' token of a real pragma line, and no '#if 0' in the file
    child = None
    while node is not None:
        if node.type in _SKIP_NODES and node.start_byte < offset:
            return "skip"
        if node.type == "comment":
            return "skip"
        if node.type in _MACRO_NODES:
            return "macro"
        if node.type == "preproc_if" and child is not None and _disabled_branch(node, child):
            return "skip"
        child, node = node, node.parent
    return "code"


def _disabled_branch(node: tree_sitter.Node, child: tree_sitter.Node) -> bool:
    """`#if 0` ... (the first branch) is never compiled."""
    condition = node.child_by_field_name("condition")
    alternative = node.child_by_field_name("alternative")
    if condition is None or condition.text not in (b"0", b"false"):
        return False
    return alternative is None or child.start_byte < alternative.start_byte


def extract_c(src: bytes, tree: tree_sitter.Tree | None) -> list[RawDirective]:
    found: list[RawDirective] = []
    may_be_disabled = b"if" in src and _may_be_disabled(src)
    for m in _PRAGMA.finditer(src):
        start = m.start()
        if found and start < found[-1].span[1]:
            continue  # text of the previous pragma (after a backslash-newline or in its comment)
        if not _at_line_start(src, start):
            continue
        context = _c_context(tree, start, may_be_disabled)
        if context == "skip":
            continue
        rest = m.group(1)
        if rest is None:
            directive = _c_pragma(src, (start, m.end()))
        else:  # what _c_pragma makes of a line without '\\', quotes or comments
            body_start = m.start(1)
            body = rest.rstrip(b" \t\r")
            directive = RawDirective("pragma", (start, body_start + len(body)), (start, body_start), body,
                                     [(0, body_start)])
        directive.in_macro = context == "macro"
        found.append(directive)
    if b"_Pragma" in src:
        pragma_starts = [d.span[0] for d in found]
        pragma_ends = [d.span[1] for d in found]
        last_end = 0
        for m in _UNDERSCORE_PRAGMA.finditer(src):
            i = bisect_right(pragma_starts, m.start()) - 1
            if m.start() < last_end or (i >= 0 and m.start() < pragma_ends[i]):
                continue  # inside a #pragma line or the previous _Pragma: part of its text
            context = _c_context(tree, m.start())
            if context == "skip":
                continue
            underscore = _underscore_pragma(src, m)
            if underscore is not None:
                underscore.in_macro = context != "code"
                found.append(underscore)
                last_end = underscore.span[1]
        found.sort(key=lambda d: d.span[0])
    return found


# ---------------------------------------------------------------- Fortran

_FREE_SENTINEL = re.compile(rb"^[ \t]*(!\$omp)(?=[ \t&\r\n]|$)", re.M | re.I)
_FREE_ANY_LINE = re.compile(rb"[ \t]*(!\$omp)(?=[ \t&\r\n]|$)", re.I)
_BLANK_OR_COMMENT = re.compile(rb"[ \t]*(?:!(?!\$).*)?\r?")
_FIXED_SENTINEL = re.compile(rb"^[!cC*]\$[oO][mM][pP]", re.M)
FIXED_LINE_LENGTH = 72


def unquoted(text: bytes, byte: int) -> Iterator[int]:
    """Offsets of `byte` outside Fortran character literals ('...' or "...")."""
    quote = 0
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = 0
        elif c in (0x22, 0x27):
            quote = c
        elif c == byte:
            yield i


def split_fortran_comment(line: bytes) -> int:
    """Length of a Fortran directive line's content before a '!' comment (quotes respected)."""
    bang = line.find(b"!")
    if bang < 0:
        return len(line)
    if b"'" not in line[:bang] and b'"' not in line[:bang]:
        return bang  # the usual line: no quote before the first '!'
    return next(unquoted(line, 0x21), len(line))


def _lines(src: bytes) -> list[tuple[int, int]]:
    """(start, end-without-terminator) of every line."""
    spans = []
    start = 0
    n = len(src)
    while start <= n:
        end = src.find(b"\n", start)
        if end < 0:
            end = n
        content_end = end - 1 if end > start and src[end - 1] == 0x0D else end
        spans.append((start, content_end))
        if end >= n:
            break
        start = end + 1
    return spans


def extract_free(src: bytes) -> list[RawDirective]:
    found: list[RawDirective] = []
    consumed_until = -1
    alternatives: list[Span] = []  # other #if branches of continuation lines: not directives of their own
    for m in _FREE_SENTINEL.finditer(src):
        if m.start() < consumed_until or any(a <= m.start() < b for a, b in alternatives):
            continue  # a continuation line of the previous directive
        directive, consumed_until, skipped = _free_directive(src, m.span(1))
        alternatives.extend(skipped)
        found.append(directive)
    return found


_CPP_LINE = re.compile(rb"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)?\b")


def _cpp_word(src: bytes, start: int) -> bytes | None:
    """The keyword of a preprocessor line starting at `start` (b"" for #define, #include ...), or None."""
    m = _CPP_LINE.match(src, start)
    return None if m is None else (m.group(1) or b"")


def _line_end(src: bytes, start: int) -> int:
    e = src.find(b"\n", start)
    return len(src) if e < 0 else e


def _skip_alternatives(src: bytes, start: int) -> int:
    """From an #else/#elif line at `start`: the start of its #endif line (the first branch is
    the one that counts, as for C pragmas)."""
    depth = 0
    pos = start
    n = len(src)
    while pos < n:
        pos = _line_end(src, pos) + 1
        word = _cpp_word(src, pos) if pos < n else None
        if word in (b"if", b"ifdef", b"ifndef"):
            depth += 1
        elif word == b"endif":
            if depth == 0:
                return pos
            depth -= 1
    return n


def _after_directive(src: bytes, start: int, open_levels: int) -> list[Span]:
    """The alternative branches (#else ... #endif) of the #if levels a directive's continuation
    lines opened and left open: their !$omp lines continue the same directive in another
    configuration, so they are no directives of their own."""
    out: list[Span] = []
    depth = 0
    pos = start
    n = len(src)
    while pos < n and open_levels > 0:
        word = _cpp_word(src, pos)
        if word in (b"if", b"ifdef", b"ifndef"):
            depth += 1
        elif word == b"endif":
            if depth == 0:
                open_levels -= 1
            else:
                depth -= 1
        elif word in (b"else", b"elif", b"elifdef", b"elifndef") and depth == 0:
            end = _skip_alternatives(src, pos)
            out.append((pos, end))
            pos = end
            continue
        pos = _line_end(src, pos) + 1
    return out


def _free_directive(src: bytes, sentinel: Span) -> tuple[RawDirective, int, list[Span]]:
    out = _Builder()
    problems: list[Problem] = []
    n = len(src)
    pos = sentinel[1]
    last_content = sentinel[1]
    join_tight = False
    open_levels = 0  # #if levels opened between continuation lines and not yet closed
    while True:
        line_end = src.find(b"\n", pos)
        if line_end < 0:
            line_end = n
        line = src[pos:line_end].rstrip(b"\r")
        content = line[:split_fortran_comment(line)].rstrip(b" \t")
        continued = content.endswith(b"&")
        if continued:
            content = content[:-1]
        if content:
            if join_tight:
                out.add(content, pos)
            else:
                if out.length:
                    out.add(b" ", pos - 1)
                out.add(content, pos)
            last_content = pos + len(content)
        if not continued:
            end = last_content
            next_start = line_end
            break
        amp = pos + len(content)
        last_content = amp + 1
        # Find the continuation line, skipping blank and comment lines, and preprocessor lines
        # (of #if branches, the first counts).
        nxt = line_end + 1
        cont = None
        while nxt < n:
            m = _FREE_ANY_LINE.match(src, nxt)
            if m:
                cont = m
                break
            e = src.find(b"\n", nxt)
            e = n if e < 0 else e
            word = _cpp_word(src, nxt)
            if word in (b"if", b"ifdef", b"ifndef"):
                open_levels += 1
            elif word in (b"else", b"elif", b"elifdef", b"elifndef"):
                nxt = _skip_alternatives(src, nxt)
                continue
            elif word == b"endif":
                open_levels = max(0, open_levels - 1)
            elif word is None and not _BLANK_OR_COMMENT.fullmatch(src[nxt:e]):
                break
            nxt = e + 1
        if cont is None:
            problems.append(Problem((amp, amp + 1), "the directive continues with '&' but the next line is not an !$omp line"))
            end = amp + 1
            next_start = line_end
            break
        pos = cont.end(1)
        lead = re.match(rb"[ \t]*&", src[pos:pos + 80])
        if lead:
            pos += lead.end()
            join_tight = True
        else:
            join_tight = False
    body, segments = out.build()
    skipped = _after_directive(src, next_start + 1, open_levels) if open_levels else []
    return RawDirective("free", (sentinel[0], end), sentinel, body, segments, problems), next_start, skipped


def _fixed_comment_line(line: bytes) -> bool:
    """Blank, 'c'/'*'/'!' in column 1, or only a '!' comment ('!' not in column 6)."""
    stripped = line.lstrip(b" \t")
    if not stripped.strip() or line[:1] in b"cC*!":
        return True
    return stripped[:1] == b"!" and len(line) - len(stripped) != 5


def extract_fixed(src: bytes) -> list[RawDirective]:
    found: list[RawDirective] = []
    current: tuple[_Builder, Span, int, list[Problem]] | None = None

    def finish() -> None:
        if current is not None:
            out, sentinel, end, problems = current
            body, segments = out.build()
            found.append(RawDirective("fixed", (sentinel[0], end), sentinel, body, segments, problems))

    for start, end in _lines(src):
        line = src[start:end]
        if not _FIXED_SENTINEL.match(line):
            if current is not None and _fixed_comment_line(line):
                continue  # blank and comment lines may stand between continuation lines
            finish()
            current = None
            continue
        col6 = line[5:6]
        text = line[6:FIXED_LINE_LENGTH]
        content_len = split_fortran_comment(text)
        content = text[:content_len].rstrip(b" \t")
        content_start = start + min(6, len(line))  # a short line has no column 7
        if col6 in (b"", b" ", b"0", b"\t"):
            finish()
            out = _Builder()
            out.add(content, content_start)
            current = (out, (start, start + 5), content_start + len(content), [])
        elif current is None:
            out = _Builder()
            out.add(content, content_start)
            current = (out, (start, start + 5), content_start + len(content),
                       [Problem((start, start + 6), "continuation line with no directive line before it")])
        else:
            out, sentinel, _, problems = current
            if out.length:
                out.add(b" ", content_start - 1)
            out.add(content, content_start)
            current = (out, sentinel, content_start + len(content), problems)
    finish()
    return found


def extract(src: bytes, language: Language, tree: tree_sitter.Tree | None = None) -> list[RawDirective]:
    """Every OpenMP directive of a source, in source order.

    A directive line's span ends at the end of its last line: the blanks (and a comment) after
    its text belong to it. So the span stays put while text is typed inside the directive and
    blanks after it absorb the change (the language server's padded text, see padding.py)."""
    if language is Language.FORTRAN:
        found = extract_free(src) if b"$" in src else []
    elif language is Language.FORTRAN_FIXED:
        found = extract_fixed(src) if b"$" in src else []
    else:
        found = extract_c(src, tree) if b"omp" in src else []
    for raw in found:
        if raw.form != "_Pragma" and not raw.in_macro:
            end = _line_end(src, raw.span[1])
            raw.span = (raw.span[0], end - 1 if end > raw.span[1] and src[end - 1] == 0x0D else end)
    return found

