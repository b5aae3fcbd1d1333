"""Quick fixes that delete text, made tidy on Fortran continuation lines.

Rules delete exactly the clause or list item at fault. When that leaves a directive
continuation line holding nothing but its sentinel (`!$omp&`, `c$omp&`) the line itself
must go, or the fixed directive has an empty continuation; in free form the `&` that
announced the removed last line goes with it.
"""
from __future__ import annotations

import re
from bisect import bisect_right

from .diagnostics import Finding, Fix
from .document import Span
from .records import replace

# What may remain on a continuation line that held only the deleted text: the sentinel with its
# continuation marks, blanks and a trailing comment.
_EMPTY_CONTINUATION = re.compile(rb"[ \t]*[!cC*]\$omp[ \t]*&?[ \t]*&?[ \t]*(?:!.*)?", re.IGNORECASE)
_EMPTY_FREE_CONTINUATION = re.compile(rb"[ \t]*!\$omp[ \t]*&?[ \t]*&?[ \t]*(?:!.*)?", re.IGNORECASE)


def tidy(findings: list[Finding], source: bytes, fixed_form: bool, directive_spans: list[Span]) -> list[Finding]:
    """The same findings, with deletions widened to whole continuation lines where needed."""
    starts = [s[0] for s in directive_spans]
    out = []
    for f in findings:
        fixes = [_tidy_fix(fix, source, fixed_form, directive_spans, starts) for fix in f.fixes]
        out.append(f if all(a is b for a, b in zip(fixes, f.fixes)) else replace(f, fixes=fixes))
    return out


def _tidy_fix(fix: Fix, src: bytes, fixed_form: bool, spans: list[Span], starts: list[int]) -> Fix:
    edits = []
    changed = False
    for (a, b), text in fix.edits:
        widened = _whole_line(src, a, b, fixed_form, spans, starts) if text == "" else None
        if widened is not None:
            changed = True
            a, b = widened
        edits.append(((a, b), text))
    return Fix(fix.title, tuple(edits)) if changed else fix


def _whole_line(src: bytes, a: int, b: int, fixed_form: bool, spans: list[Span], starts: list[int]) -> Span | None:
    i = bisect_right(starts, a) - 1
    if i < 0 or not (spans[i][0] <= a and b <= spans[i][1]):
        return None
    d_start, d_end = spans[i]
    line_start = src.rfind(b"\n", 0, a) + 1
    line_end = src.find(b"\n", b)
    line_end = len(src) if line_end < 0 else line_end
    if line_start <= d_start:
        return None  # the directive's first line: never removed whole
    rest = src[line_start:a] + src[b:line_end]
    pattern = _EMPTY_CONTINUATION if fixed_form else _EMPTY_FREE_CONTINUATION
    if pattern.fullmatch(rest.rstrip(b"\r")) is None:
        return None
    start = line_start - 1  # with the newline before it: the previous line keeps its own
    if not fixed_form and line_end >= d_end:
        # the last line of a free-form directive: the previous line's trailing '&' must go too
        prev = src[:start].rstrip(b" \t\r")
        comment = _comment_start(prev)
        code = prev[:comment].rstrip(b" \t") if comment is not None else prev
        if code.endswith(b"&"):
            return (len(code[:-1].rstrip(b" \t")), line_end) if comment is None else None
    return (start, line_end)


def _comment_start(line_text: bytes) -> int | None:
    """Offset (in the given bytes) of a '!' comment after the directive text on the last line."""
    last = line_text.rfind(b"\n") + 1
    body = line_text[last:]
    sentinel = body.lower().find(b"$omp")
    if sentinel < 0:
        return None
    at = body.find(b"!", sentinel + 4)
    return last + at if at >= 0 else None
