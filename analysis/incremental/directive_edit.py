"""Re-analysing one edited directive while keeping the analysis of the rest of the file.

Typing inside a directive usually changes that directive alone. The language server analyses a
padded text (padding.py): the typed bytes are taken from the blanks at the end of the edited
line, so every other position stays where it was, and so do the syntax tree, the block
structure, the program model and every structure built from them, provided that:

- the edit is inside one directive line, and the tree keeps its structure (C/C++: the text of a
  `#pragma` line; Fortran: comment lines, which is what `!$omp` lines are to the model);
- the directives around the edit parse as before, but for the edited one;
- the edited directive keeps its shape (`shape`): its name, spans, clause names and the other
  facts the structures read; and it is not one whose contents they read (`CONTENT_KINDS`).

Then only the rules that read something of the directive that changed are run again: while
the analysis ran, each rule's reads of directive contents were recorded (which clauses of which
directive, see syntax.reads); the others keep their findings. The result equals a
fresh analysis of the new padded text, which tests/test_directive_edit.py checks on random edits.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, cast

from ..directives.nodes import Directive
from ..directives.structure import is_delimited_declare_target
from ..file_analysis import AnalysisTrace, FileAnalysis, Succession, conclude
from ..model.regions import device_ancestor
from ..rules import (
    FileContext,
    Rule,
    RuleFunc,
    RuleTrace,
    active_rules,
    body_words,
    checked_again,
    run_rule,
)
from ..semantics.declare_target import BEGIN_DECLARE_TARGET, BINDING_PARTS, NOHOST_MARKS
from ..semantics.variants import DECLARE_VARIANT
from ..syntax.document import Document, LineIndex, Span, inside_comment_or_pragma, parse_text, parser_for
from ..syntax.padding import Padding
from ..syntax.reads import STRUCTURES, rename
from ..units.edits import touches_configuration
from .directive_again import (
    bound_again,
    fortran_resolved_again,
    nohost_marks_changed,
    parts_changed,
    rebind,
    resolved_again,
)
from .graph_edit import rebuilt_graph
from .positions import comment_lines, directive_window, window_directives

if TYPE_CHECKING:
    from ..directives.schema import DirectiveSpec
    from ..directives.source import Form
    from ..semantics.call_graph import FileGraph
    from ..syntax.diagnostics import Finding

# Directives whose contents the file's structures read in ways not redone here: threadprivate
# (the model), begin/end declare variant (the selectors of every variant inside). An edit of one
# is analysed afresh (an end directive's contents are clauses it may not have).
CONTENT_KINDS = frozenset({"end declare target", "begin declare variant", "end declare variant", "threadprivate"})
# Directives whose contents one structure reads, which is then built again for that directive:
# a declare target list goes into the binding (and from it the call graph's marks), and so does
# a begin declare target's device type (its region's marks); a declare variant goes into the
# variants (and from them which calls the call graph redirects on a device). Every rule that read
# the structure runs again; those that read the call graph only if it changed.
REBUILT = {"declare target": frozenset({"binding"}), BEGIN_DECLARE_TARGET: frozenset({"binding"}),
           "declare variant": frozenset({"variants"})}

# Structures built on demand that stay valid for the new text (the rest is rebuilt when read).
_KEPT = ("_model", "_binding", "_variants", "_regions", "_c_types", "_file_graph", "_fortran_variants")


def shape(d: Directive) -> tuple[str, Span, DirectiveSpec | None, str | None, str | None, bool, bool, Span, Span, Form,
                                bool, tuple[str, ...], bool, bool]:
    """What the structures read of a directive besides CONTENT_KINDS' contents: name, spans,
    form, clause names (block association), an unknown name's suggestion, whether it opens a
    declare target region (a malformed one opens none), device(ancestor)."""
    raw = d.raw
    clauses = d._clauses()
    return (d.name, d.name_span, d.spec, d.end_of, d.suggestion, d.uses_macros, is_delimited_declare_target(d),
            raw.span, raw.sentinel,
            raw.form, raw.in_macro, tuple(c.name for c in clauses), d.argument is None,
            any(c.name == "device" for c in clauses) and device_ancestor(d))


def reanalyse(old: FileAnalysis, padding: Padding, start: int, old_end: int,
              text: bytes, structure_kept: bool = False) -> tuple[FileAnalysis, Padding] | None:
    """The analysis of `old`'s (padded) text with [start, old_end) replaced by `text` and the
    line's blanks taking up the difference, and the padding then; None when the edit is not one
    this can do (the caller analyses the file afresh). `structure_kept`: the caller's tree of the
    real text, reparsed over the same edit, kept its structure and holds the typed text in a
    pragma or comment (`ByteEdit.inert` of `Document.tree_edit`); blanks at line ends parse as
    nothing, so the padded text need not be parsed again to know that (a reparse of a large file
    costs several ms a keystroke)."""
    trace, ctx, doc = old.trace, old.context, old.document
    if trace is None or ctx is None or len(trace.problems) != len(old.directives) \
            or any(not e.startswith("internal error in rule") for e in old.internal_errors):
        return None   # (a directive the parser failed on, or the block structure: the file again)
    if touches_configuration(ctx.configuration, doc.source, start, old_end, text):
        return None   # the build's configuration may change, or the edit is in text it does not compile
    src = doc.source
    if any(c in text for c in b"\r\n") or b"\n" in src[start:old_end]:
        return None
    directives = old.directives
    i = _holding(trace, directives, start, old_end)
    if i is None:
        return None
    d = directives[i]
    if d.raw.form == "_Pragma" or d.raw.in_macro:
        return None
    typed = padding.typed(src, start, old_end, text)
    if typed is None:
        return None
    new_src, k, delta, _, _ = typed
    if not _same_syntax(doc, new_src, start, typed.changed_end, start + len(text), structure_kept):
        return None
    new = _edited_directive(old, ctx, i, new_src, start, old_end)
    if new is None:
        return None
    d2, problems2 = new
    if shape(d2) != shape(d):
        return None
    changed = _changed_contents(d, d2)
    if changed and d.name in CONTENT_KINDS:
        return None   # (blanks typed in one change nothing)

    document = Document(new_src, doc.language, doc.version, LineIndex.same_lines(new_src, doc.lines))
    document._tree = doc._tree   # the same structure; the model's nodes are this tree's
    document.stale_tree = True
    document.tree_source = doc.tree_source if doc.stale_tree else doc.source
    bound = None
    if d.name == BEGIN_DECLARE_TARGET and changed and ctx._binding is not None:
        # a region's marks: bound afresh (on the old context's model, before anything is handed on)
        probe = FileContext(document, [d2 if k == i else x for k, x in enumerate(directives)], old.structure,
                            ctx.version, ctx.path, ctx.macros, ctx.configuration)
        probe._model = ctx._model
        bound = bound_again(ctx._binding, probe, i)
        if bound is None:
            return None
    context = FileContext(document, directives, old.structure, ctx.version, ctx.path, ctx.macros, ctx.configuration)
    rebuilt = REBUILT.get(d.name, frozenset()) if changed else frozenset()
    if "variants" in rebuilt:
        changed.add("variant")   # its record (FileContext.own_variants)
    if "binding" in rebuilt:
        changed.add("marks")     # its own marks (FileContext.own_marks)
    base = _hand_over(ctx, context, rebuilt)
    base_rebuilt = rebuilt   # (what the edit changed, before the derived names join it)
    directives[i] = d2   # the list is shared with the old analysis, which is given up
    by_name = ctx.__dict__.get("_by_name")
    if by_name is not None:   # FileContext.directives_named's index, with the successor in its place
        by_name = dict(by_name)
        by_name[d.name] = [(k, d2 if k == i else x) for k, x in by_name[d.name]]
        context.__dict__["_by_name"] = by_name
    if "binding" in rebuilt:
        if ctx._binding is None or bound is not None:
            rebuilt |= BINDING_PARTS   # (a region's marks: every part may hold them)
            if bound is not None:
                context._binding = bound
        else:
            context._binding = rebind(ctx._binding, context, i)
            if nohost_marks_changed(ctx._binding, context._binding, i):
                rebuilt |= {NOHOST_MARKS}
            rebuilt |= parts_changed(ctx._binding, context._binding, context, i)
    if "variants" in rebuilt and ctx._variants is not None:
        context._variants = resolved_again(ctx._variants, context, i)
    fortran_variants = context.__dict__.get("_fortran_variants")
    if fortran_variants is not None and d.name == DECLARE_VARIANT:
        context.__dict__["_fortran_variants"] = fortran_resolved_again(fortran_variants, context, i)
    if base is not None and rebuilt_graph(context, base, base_rebuilt) is not base:
        rebuilt |= {"device_graph"}
    problems = list(trace.problems)
    problems[i] = problems2

    handed = context._model   # (built while the rules run again when it is None)
    mark = handed.read_mark() if handed is not None else 0
    traces: dict[Rule[RuleFunc], RuleTrace] = {}
    for r in active_rules(context, trace.options.disabled):
        kept = trace.rules.get(r)
        if kept is None or (rebuilt and not rebuilt.isdisjoint(kept.reads.get(STRUCTURES, ()))) \
                or not changed.isdisjoint(kept.reads.get(-id(d), ())):   # read while checking others
            traces[r] = run_rule(r, context, True)
        elif not changed.isdisjoint(kept.reads.get(id(d), ())):
            traces[r] = checked_again(r, kept, context, i, id(d))
        else:   # what it read of the directive is the same in its successor
            rename(kept.reads, id(d), id(d2))   # (the old analysis is given up, as its directive list)
            traces[r] = kept
    findings = [f for found in problems for f in found]
    errors: list[str] = []
    for t in traces.values():
        findings.extend(t.findings)
        errors.extend(t.errors)
    analysis = FileAnalysis(document, directives, old.structure,
                            conclude(findings, document, directives, trace.options), errors, context,
                            AnalysisTrace(trace.options, problems, traces, trace.starts,
                                          Succession(ctx, id(d), id(d2), changed, rebuilt),
                                          _bodies_read(trace.bodies, context, mark),
                                          trace.words | body_words(context),
                                          context._model.expanded() if context._model is not None else trace.expanded,
                                          _uses_read(trace.uses, context)))
    return analysis, padding.consumed(k, delta)


def _uses_read(before: list[Span], context: FileContext) -> list[Span]:
    """The kept rules' searches for uses and those of the rules run again (a model handed on
    holds both; one built again only the latter)."""
    model = context._model
    return before if model is None else sorted({*before, *model.uses_read()})


def _bodies_read(before: list[Span] | None, context: FileContext, mark: int) -> list[Span] | None:
    """What the kept rules read of function bodies and what the rules run again read (from
    `mark` of the model's record on; the structures built again read only around directives)."""
    if before is None or context.__dict__.get("_read_all"):
        return None
    model = context._model
    now = model.reads_since(mark) if model is not None else []
    if model is not None:
        model.compact_reads()
    return None if now is None else list(dict.fromkeys([*before, *now]))   # (the same bodies, read again)


def _holding(trace: AnalysisTrace, directives: list[Directive], start: int, end: int) -> int | None:
    """The index of the directive whose span holds [start, end), after its first byte."""
    i = bisect_right(trace.directive_starts(directives), start) - 1
    if i < 0:
        return None
    span = directives[i].span
    return i if span[0] < start and end <= span[1] else None


def _same_syntax(doc: Document, new_src: bytes, start: int, end: int, typed_end: int,
                 structure_kept: bool = False) -> bool:
    """The edit [start, end) (the same length before and after) keeps the syntax tree's structure,
    and the typed text lies in a `#pragma` line's text (C/C++) or on comment lines (Fortran).
    `structure_kept`: the real text's tree found that already (C/C++)."""
    language = doc.language
    if language.is_fortran:
        return comment_lines(doc.source, start, end, language) and comment_lines(new_src, start, end, language)
    if structure_kept:
        return True
    tree = doc.tree
    parser = parser_for(language)
    if tree is None or parser is None:
        return False
    point = doc.lines.point(start)
    end_point = doc.lines.point(end)
    edited = tree.copy()
    edited.edit(start_byte=start, old_end_byte=end, new_end_byte=end, start_point=point,
                old_end_point=end_point, new_end_point=end_point)
    reparsed = parse_text(parser, language, new_src, edited, doc.source, (start, end, end))
    return not edited.changed_ranges(reparsed) and inside_comment_or_pragma(reparsed, start, typed_end)


def _edited_directive(old: FileAnalysis, ctx: FileContext, i: int, new_src: bytes, start: int,
                      old_end: int) -> tuple[Directive, list[Finding]] | None:
    """The edited directive parsed anew (with its parser findings), when the directives around
    it parse as before and the old text's parse there is the analysis's own."""
    doc = old.document
    window = directive_window(doc.source, start, old_end, doc.language)
    if window is None:
        return None
    version, macros = ctx.version, ctx.macros
    before = window_directives(doc.source, window, doc.language, version, macros, window[0])
    after = window_directives(new_src, window, doc.language, version, macros, window[0])
    d = old.directives[i]
    at = [j for j, (w, _) in enumerate(before) if w.span[0] == d.span[0]]
    if len(before) != len(after) or len(at) != 1:
        return None
    j = at[0]
    assert old.trace is not None
    if before[j] != (d, old.trace.problems[i]):
        return None   # the window does not reproduce the file's own parse (context the window lacks)
    if any(before[m] != after[m] for m in range(len(before)) if m != j):
        return None
    return after[j]


def _changed_contents(d: Directive, d2: Directive) -> set[str]:
    """The content keys (syntax.reads) whose values differ between the two."""
    changed: set[str] = set()
    clauses, clauses2 = d._clauses(), d2._clauses()
    if clauses != clauses2:
        changed.add("*")
        for name in {c.name for c in clauses}:
            if [c for c in clauses if c.name == name] != [c for c in clauses2 if c.name == name]:
                changed.add(name)
    if (d.__dict__["argument"], d.__dict__["argument_span"]) != (d2.__dict__["argument"], d2.__dict__["argument_span"]):
        changed.add("argument")
    return changed


def _hand_over(old: FileContext, new: FileContext, rebuilt: frozenset[str]) -> FileGraph | None:
    """Move the structures that stay valid to the new context (the old one then releases only
    what is its own). `rebuilt`: the structures the edit changed, which stay with the old
    context; the call graph is then returned, the base of the new one (`rebuilt_graph`)."""
    base = None
    for key in _KEPT:
        if key in old.__dict__:
            if key[1:] in rebuilt:
                continue
            value = old.give_up(key)
            if key == "_file_graph" and rebuilt:
                base = cast("FileGraph", value)
            else:
                new.__dict__[key] = value
    return base
