"""Keeping a file's analysis after an edit inside one function body that no rule read.

Typing in code mostly happens inside function bodies, and most rules never look inside one: the
C/C++ program model reads a body only when someone asks (model.FileModel.expand), and records
which bodies were read (FileModel.body_reads, kept as AnalysisTrace.bodies). An edit inside the
body of a function F can change nothing any rule read when:

- it stays on one line that is not a preprocessor line (nor continues one) and not a directive
  line, and F holds no directive;
- outside F's body the syntax tree is the same, moved: F starts where it did and ends moved by
  the edit, its ancestors likewise, no syntax error lies outside the body in either tree, and F's
  tree node has an error in both or in neither (rules ask whether a declaration has one);
- no directive stands right before F (a construct there would take F as its extent); the
  directives and the #defined names are the same, moved;
- no rule read F's body, and neither the old nor the new body spells a word that a search of
  the whole text or tree by a rule depended on (rules.body_words: `using`, `enum`, `typedef`,
  the runtime routines `FileContext.mentions` looked for).

A fresh analysis of the new text then reads exactly what the last one read (all of it outside
F, the same but for its place), so every rule would find the same: the findings are kept, moved.
tests/test_procedure_edit.py checks that against fresh analyses on random edits. The program
model and the structures built from it are built again on demand for the new text (they hold
the old tree's nodes); the directives come from the parse cache.
"""
from __future__ import annotations

import re
from bisect import bisect_left

from .check import AnalysisTrace, FileAnalysis, conclude
from .diagnostics import Finding, Fix
from .directives.nodes import Directive, Reads
from .directives.parser import parse_directive
from .directives.structure import association, c_structure_moved
from .padding import Padding
from .records import replace
from .rules import FileContext, RuleTrace
from .syntax import Document, LineIndex, Span, parse_from

_FUNCTION = "function_definition"
_BLANKS = re.compile(rb"(?:\s|/\*.*?\*/|//[^\n]*)*", re.DOTALL)


class _Moved(Exception):
    """A position inside the replaced text: the finding read what the edit changed."""


def reanalyse(old: FileAnalysis, padding: Padding, start: int, old_end: int,
              text: bytes) -> tuple[FileAnalysis, Padding] | None:
    """The analysis of `old`'s (padded) text with [start, old_end) replaced by `text`, and the
    padding then; None when the edit is not one this can keep the analysis for."""
    trace, ctx, doc = old.trace, old.context, old.document
    if trace is None or ctx is None or trace.bodies is None or old.internal_errors \
            or doc.language.is_fortran or doc.stale_tree or doc._tree is None:
        return None
    src = doc.source
    if any(c in text for c in b"\r\n") or any(c in src[start:old_end] for c in b"\r\n") \
            or padding.on_line(src, old_end) is not None:
        return None
    new_src = src[:start] + text + src[old_end:]
    line = src.rfind(b"\n", 0, start) + 1
    if _preprocessor(src, line) or _preprocessor(new_src, line):
        return None
    new_end = start + len(text)
    delta = new_end - old_end
    document = Document(new_src, doc.language, doc.version, LineIndex.edited(new_src, doc.lines, start, old_end, new_end))
    parse_from(document, doc)
    found = _unchanged_outside(doc, document, start, old_end, new_end)
    if found is None:
        return None
    function, body = found
    if _near_directive(old, trace, function, body) \
            or any(lo < body[1] and body[0] < hi for lo, hi in trace.bodies) \
            or any(w in src[body[0]:body[1]] or w in new_src[body[0]:body[1] + delta] for w in trace.words):
        return None
    line_end = new_src.find(b"\n", line)
    if b"pragma" in new_src[line:line_end if line_end >= 0 else len(new_src)].lower():
        return None   # (`_Pragma` typed: a new directive) The #defined names are those of
        # other lines: the same.
    moved = _moved_directives(old, trace, start, delta)
    if moved is None:
        return None
    directives, problems, ids = moved
    try:
        structure = c_structure_moved(document, directives, old.structure,
                                      [_moved(f, start, old_end, delta) for f in old.structure.findings])
        traces = {r: RuleTrace([_moved(f, start, old_end, delta) for f in t.findings], t.errors,
                               _renamed(t.reads, ids), t.owners)
                  for r, t in trace.rules.items()}
        bodies = [_moved_span(s, start, old_end, delta) for s in trace.bodies]
        expanded = [_moved_span(s, start, old_end, delta) for s in trace.expanded]
    except _Moved:
        return None
    context = FileContext(document, directives, structure, ctx.version, ctx.path, ctx.macros)
    # The model, when built, reads first the bodies the rules had it read: what the call graph
    # finds depends on it (as in the context of a fresh analysis, after its rules).
    context.__dict__["_expand_first"] = expanded
    findings = [f for found in problems for f in found]
    for t in traces.values():
        findings.extend(t.findings)
    analysis = FileAnalysis(document, directives, structure,
                            conclude(findings, document, directives, trace.options), [], context,
                            AnalysisTrace(trace.options, problems, traces, bodies=bodies, words=trace.words,
                                          expanded=expanded))
    return analysis, padding.moved(old_end, delta)


def _preprocessor(src: bytes, line: int) -> bool:
    """Whether the line starting at `line` is a preprocessor line or continues one (or any line:
    a backslash at the end of the line before joins the two)."""
    first = src[line:line + 256].lstrip(b" \t")[:1]
    return first == b"#" or (line >= 2 and src[line - 2:line] == b"\\\n") or (line >= 3 and src[line - 3:line] == b"\\\r\n")


def _unchanged_outside(old: Document, new: Document, start: int, old_end: int,
                       new_end: int) -> tuple[int, Span] | None:
    """Where the outermost function whose body holds the edit in both trees starts, and the old
    span of its body (braces included), when the trees are the same outside it (moved)."""
    assert old.tree is not None
    if new.tree is None:
        return None
    delta = new_end - old_end
    a = _outermost_function(old.tree.root_node, start, old_end)
    b = _outermost_function(new.tree.root_node, start, new_end)
    if a is None or b is None or a.has_error != b.has_error:
        return None
    body_a, body_b = a.child_by_field_name("body"), b.child_by_field_name("body")
    assert body_a is not None and body_b is not None
    if (body_a.start_byte, body_a.end_byte + delta) != (body_b.start_byte, body_b.end_byte):
        return None
    x, y = a, b
    while x is not None and y is not None:   # the function and its ancestors: the same, moved
        if x.type != y.type or x.start_byte != y.start_byte or x.end_byte + delta != y.end_byte \
                or x.child_count != y.child_count:
            return None
        x, y = x.parent, y.parent
    if x is not None or y is not None:
        return None
    body = (body_a.start_byte, body_a.end_byte)
    if _error_outside(old.tree.root_node, body) or _error_outside(new.tree.root_node, (body[0], body[1] + delta)):
        return None
    return a.start_byte, body


def _outermost_function(root, start: int, end: int):  # type: ignore[no-untyped-def]
    """The outermost function definition whose body's braces hold [start, end) strictly inside."""
    node = root.descendant_for_byte_range(start, max(start, end - 1))
    found = None
    while node is not None:
        if node.type == _FUNCTION:
            body = node.child_by_field_name("body")
            if body is not None and body.type == "compound_statement" and body.start_byte < start \
                    and end < body.end_byte:
                found = node
            elif found is not None:
                return None   # the edit reaches outside a nested function's body
        node = node.parent
    return found


def _error_outside(root, body: Span) -> bool:  # type: ignore[no-untyped-def]
    """Whether the tree has a syntax error (or missing node) outside `body`."""
    stack = [root]
    while stack:
        node = stack.pop()
        if not node.has_error or (node.start_byte, node.end_byte) == body and node.type == "compound_statement":
            continue
        if node.is_error or node.is_missing:
            return True
        stack.extend(node.children)
    return False


def _near_directive(old: FileAnalysis, trace: AnalysisTrace, function: int, body: Span) -> bool:
    """Whether a directive lies inside the function's body, or a construct right before the
    function (only blanks and comments between), which takes the whole function as its extent
    (a declarative directive there reads the function's declaration, not its body)."""
    if trace.starts is None:
        trace.starts = [d.span[0] for d in old.directives]
    i = bisect_left(trace.starts, body[0])
    if i < len(trace.starts) and trace.starts[i] < body[1]:
        return True
    if i == 0 or association(old.directives[i - 1]) not in ("block", "loop", "statement"):
        return False
    return _BLANKS.fullmatch(old.document.source, min(old.directives[i - 1].span[1], function), function) is not None


def _moved_directives(old: FileAnalysis, trace: AnalysisTrace, start: int, delta: int
                      ) -> tuple[list[Directive], list[list[Finding]], dict[int, int]] | None:
    """The directives after an edit at `start` (none inside the edited text): those before it
    as they are, those after it moved by `delta` (parsed from the cache, as a fresh analysis
    would), with their parser findings, and the ids of the moved ones by their old ids."""
    assert trace.starts is not None
    k = bisect_left(trace.starts, start)
    directives, problems = old.directives[:k], trace.problems[:k]
    ids: dict[int, int] = {}
    language, version, macros = old.document.language, old.context.version, old.context.macros  # type: ignore[union-attr]
    for d in old.directives[k:]:
        raw = d.raw
        try:
            moved, found = parse_directive(replace(
                raw, span=(raw.span[0] + delta, raw.span[1] + delta),
                sentinel=(raw.sentinel[0] + delta, raw.sentinel[1] + delta),
                segments=[(logical, at + delta) for logical, at in raw.segments],
                problems=[replace(p, span=(p.span[0] + delta, p.span[1] + delta)) for p in raw.problems]),
                language, version, macros)
        except Exception:   # (the parser failed on it last time too, or the analysis has no trace)
            return None
        ids[id(d)] = id(moved)
        directives.append(moved)
        problems.append(found)
    return directives, problems, ids


def _renamed(reads: Reads, ids: dict[int, int]) -> Reads:
    """Reads of directives moved to the ids of their successors (others kept: structures)."""
    if not ids:
        return reads
    return {(ids[key] if key > 0 else -ids[-key]) if abs(key) in ids else key: keys for key, keys in reads.items()}


def _moved_span(span: Span, start: int, old_end: int, delta: int) -> Span:
    if span[0] == span[1]:
        at = _moved_offset(span[0], start, old_end, delta, True)
        return at, at
    return _moved_offset(span[0], start, old_end, delta, True), _moved_offset(span[1], start, old_end, delta, False)


def _moved_offset(offset: int, start: int, old_end: int, delta: int, opens: bool) -> int:
    """An offset of the old text in the new one. What opens at an insertion point moves with the
    text after it, what closes there stays; an offset inside the replaced bytes has no place."""
    if offset < start or (not opens and offset == start):
        return offset
    if offset > old_end or (opens and offset == old_end):
        return offset + delta
    raise _Moved


def _moved(f: Finding, start: int, old_end: int, delta: int) -> Finding:
    if f.span[1] < start and all(s[1] < start for fix in f.fixes for s, _ in fix.edits) \
            and all(r.span[1] < start for r in f.related if r.path is None):
        return f   # before the edit: shared as it is
    return replace(f, span=_moved_span(f.span, start, old_end, delta),
                   related=[replace(r, span=_moved_span(r.span, start, old_end, delta)) if r.path is None else r
                            for r in f.related],
                   fixes=[Fix(fix.title, tuple((_moved_span(s, start, old_end, delta), t) for s, t in fix.edits))
                          for fix in f.fixes])

