"""Keeping a file's analysis after an edit inside one function body.

Typing in code mostly happens inside function bodies, and rules rarely look there: the C/C++
program model reads a body only when someone asks (model.FileModel.expand), and records which
bodies were read (FileModel.body_reads, kept as AnalysisTrace.bodies) and which spans were
searched for uses (FileModel.uses_read: AnalysisTrace.uses). An edit inside the body of a
function F can change nothing any rule read when:

- it replaces text on one line (new lines may be typed: Enter) that is not a preprocessor line
  (nor continues one) and not a directive line, and makes none;
- outside F's body the syntax tree is the same: F starts where it did and ends where it did (or
  moved by the edit, on the edited line), its ancestors likewise, and neither tree has a syntax
  error outside F's body; F's body has one in both trees or in neither (one inside makes F's
  scope incomplete, model_c, and the readers of F's type unsure, c_types), and then no
  definition nested in it (error recovery can make one): typing a statement, the first key
  makes an error and the last one mends it, and the keys between are kept;
- no construct stands right before F (it would take F as its extent); the directives and the
  #defined names are the same, moved;
- when F holds directives (a kernel), they are all executable, the block structure knows the
  extent of each construct, and the edited line lies outside every extent: what the constructs
  apply to is the same;
- no rule searched F for uses (references, first_use), and neither the old nor the new body
  spells a word that a search of the whole text or tree by a rule depended on (rules.body_words:
  `using`, `enum`, `typedef`, the runtime routines `FileContext.mentions` looked for);
- when a rule looked at what F declares (scope_at, expand) or F is a kernel, F declares the same
  things in the same blocks: the body's syntax is the same but for expression and return
  statements (`_declaring`), and it spells no `static` or `extern`.

A fresh analysis of the new text then reads exactly what the last one read (all of it outside
F, and what F declares, the same), so every rule would find the same: the findings are kept.
The server analyses a padded text (padding.py): the edit takes its room from the line's spare
blanks, so nothing after the line moves, and the directives, the block structure and the
traces are kept as they are. The program model, declare target binding, variants and target
regions are handed to the new context too, and the model reads F's body again when asked
(FileModel.refresh_body: what a body declares is its own, FileModel.locals); only the function's
end may move, when its closing brace ends the edited line. Where the call graph cannot read the
body again in place (a body declaring entities: static locals, externs, which no rule read), the
findings are kept on a new context whose structures are built again on demand.
tests/test_procedure_edit.py checks all of it against fresh analyses on random edits.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from ..directives.structure import association, c_structure_moved
from ..file_analysis import AnalysisTrace, FileAnalysis, Succession, conclude
from ..semantics.context import FileContext
from ..syntax.document import Document, Language, LineIndex, Span, parse_from, query, refresh_tree
from ..syntax.padding import Padding
from ..syntax.records import replace
from ..units.edits import touches_configuration
from .construct_edit import EXTENDED, moved_regions, rules_inside
from .line_edit import LineEdit, Moved

if TYPE_CHECKING:
    import tree_sitter

_FUNCTION = "function_definition"
# Words of declarations that make an entity of the program (static locals, extern declarations):
# the call graph keeps a body that spells one from being read again in place.
_ENTITIES = (b"static", b"extern")
_BLANKS = re.compile(rb"(?:\s|/\*.*?\*/|//[^\n]*)*", re.DOTALL)
_NEW_LINE = re.compile(rb"\n")
_LINE_NUMBER = re.compile(r"\bline \d")


def reanalyse(old: FileAnalysis, padding: Padding, start: int, old_end: int,
              text: bytes) -> tuple[FileAnalysis, Padding] | None:
    """The analysis of `old`'s (padded) text with [start, old_end) replaced by `text` and the
    line's spare blanks taking up the difference, and the padding then; None when the edit is
    not one this can keep the analysis for."""
    trace, ctx, doc = old.trace, old.context, old.document
    if trace is None or ctx is None or trace.bodies is None or old.internal_errors or doc.language.is_fortran:
        return None
    refresh_tree(doc)   # (after an edit of a directive: the tree of the text before it)
    if doc.stale_tree or doc._tree is None:
        return None
    if touches_configuration(ctx.configuration, doc.source, start, old_end, text):
        return None   # the build's configuration may change, or the edit is in text it does not compile
    src = doc.source
    if b"\r" in text.replace(b"\r\n", b"") or any(c in src[start:old_end] for c in b"\r\n"):
        return None   # (lines joined: the joint would hold the first one's spare blanks)
    typed = padding.typed(src, start, old_end, text)
    if typed is None:
        return None
    new_src, k, delta, line, pad_start = typed
    new_lines = [line, *(m.end() for m in _NEW_LINE.finditer(new_src, start, start + len(text)))]
    if _preprocessor(src, line) or any(_preprocessor(new_src, at) for at in new_lines) \
            or b"pragma" in new_src[line:pad_start + delta].lower() or b"pragma" in src[line:pad_start].lower():
        return None   # (`_Pragma` typed or edited: a directive) The #defined names are those of
        # other lines: the same.
    if len(new_lines) > 1 and any(_LINE_NUMBER.search(f.message) for f in old.findings):
        return None   # (a message that names a line after the edit would name another one now)
    edit = LineEdit(start, old_end, delta, pad_start)
    end = typed.changed_end
    lines = LineIndex.edited(new_src, doc.lines, start, end, end) if len(new_lines) > 1 \
        else LineIndex.same_lines(new_src, doc.lines)
    document = Document(new_src, doc.language, doc.version, lines)
    parse_from(document, doc, (start, end, end))
    found = _unchanged_outside(doc, document, edit)
    if found is None:
        return None
    function, body, node = found
    new_body = (body[0], edit.offset(body[1], False))
    inside = _directives_inside(old, trace, body)
    within = _constructs_holding(old, inside, (start, pad_start)) if inside else []
    if _construct_before(old, trace, function[0]) or within is None \
            or any(lo < body[1] and body[0] < hi for lo, hi in trace.uses) \
            or any(w in src[body[0]:body[1]] or w in new_src[new_body[0]:new_body[1]] for w in trace.words):
        return None
    # What rules read of the body (besides uses) is what it declares, and the structures built
    # from the kernel's directives read only that: the same when the declaring parts are.
    declarations_read = bool(inside) or any(lo < body[1] and body[0] < hi for lo, hi in trace.bodies)
    entities = any(w in src[body[0]:body[1]] or w in new_src[new_body[0]:new_body[1]] for w in _ENTITIES)
    if declarations_read:
        before, after = _declaring(doc, body), _declaring(document, new_body)
        if entities or before != after or (inside and _ERROR in (before[:1], after[:1])):
            return None   # (a syntax error in a kernel: what its constructs apply to may differ)
    # Nothing outside the body moved but (when its closing brace ends the edited line) the end of
    # the function: the structures are kept, the model reads the body again.
    if (body[1] > pad_start or not src[body[1]:pad_start].strip()) and not entities:
        kept = _kept(old, ctx, document, function, node, edit, within, one_line=len(new_lines) == 1)
        if kept is not None:
            return kept, padding.consumed(k, delta)
    if declarations_read:
        return None
    try:
        structure = c_structure_moved(document, old.directives, old.structure,
                                      [edit.finding(f) for f in old.structure.findings])
        moved = replace(edit.trace(trace), succession=None)
    except Moved:
        return None
    context = FileContext(document, old.directives, structure, ctx.version, ctx.path, ctx.macros, ctx.configuration)
    # The model, when built, reads first the bodies the rules had it read: what the call graph
    # finds depends on it (as in the context of a fresh analysis, after its rules).
    context.__dict__["_expand_first"] = moved.expanded
    analysis = FileAnalysis(document, old.directives, structure,
                            conclude(moved.findings(), document, old.directives, trace.options), [], context, moved)
    return analysis, padding.consumed(k, delta)


# Structures of the old context that stay valid when nothing outside one function body moved
# and the program model has read that body again (the type reader holds the old tree and
# caches by symbol; the call graph is built from the old one by DeviceGraph.update).
_NOT_KEPT = frozenset({"_facts", "_c_types", "_file_graph", "_device_graph", "_lowered_source",
                       "_owner", "_expand_first", "_read_again"})


def _kept(old: FileAnalysis, ctx: FileContext, document: Document, function: Span, node: tree_sitter.Node,
          edit: LineEdit, within: list[int], one_line: bool = False) -> FileAnalysis | None:
    """The analysis after an edit inside a function body that left everything outside it in
    place but the function's end (`function`: its old extent): the old findings and structures
    (what ended with the function moved), the program model with that body to be read again.
    When the edit is inside the extents of constructs (`within`), the target regions are built
    again and the rules that may have read that code run again (construct_edit)."""
    trace = old.trace
    assert trace is not None
    if ctx._model is not None and not ctx._model.reads_bodies_again(function):
        return None
    new_end = node.end_byte
    structure, findings = old.structure, old.findings
    if new_end != function[1] or within or any(edit.moves(f) for f in (*old.findings, *old.structure.findings)):
        try:
            among = _directives_inside(old, trace, function)
            structure = c_structure_moved(document, old.directives, old.structure,
                                          [edit.finding(f) for f in old.structure.findings], (edit.span, among))
            extents, old_extents = structure.extents, old.structure.extents
            if within and {i: extents[i] for i in among if i in extents} \
                    != {i: edit.span(old_extents[i]) for i in among if i in old_extents}:
                return None   # (what a construct applies to is not the same statement)
            trace = edit.trace(trace)
            variants = ctx._variants
            following = [(rec, edit.span(rec.following)) for rec in variants.directives
                         if rec.following is not None] if variants is not None else []
            model_reads = {key: [edit.span(s) for s in ctx._model.root.__dict__.get(key, ())]
                           for key in ("_read", "_expanded", "_used")} if ctx._model is not None else {}
        except Moved:
            return None
        findings = conclude(trace.findings(), document, old.directives, trace.options)
        for rec, span in following:   # (shared with the old analysis, which is given up)
            rec.following = span
        if ctx._model is not None:
            ctx._model.root.__dict__.update(model_reads)
            ctx._model.compact_reads()
    model = ctx._model
    if model is not None:
        model.refresh_body(document, function, node)
    context = FileContext(document, old.directives, structure, ctx.version, ctx.path, ctx.macros, ctx.configuration)
    for key in [k for k in ctx.__dict__ if k.startswith("_") and k not in _NOT_KEPT]:
        context.__dict__[key] = ctx.give_up(key)
    if within:
        moved_regions(context, edit)
    # the call graph reads that body again and keeps the rest (graph_edit.graph_after_edit)
    body = node.child_by_field_name("body")
    assert body is not None   # (_outermost_function found it)
    inside = (body.start_byte + 1, body.end_byte - 1)
    context.__dict__["_read_again"] = (ctx, (inside[0], inside[1] - (new_end - function[1])), inside,
                                       (function[0], new_end), node)
    # the cross-file findings are kept too, moved, while the device graph only moved (their
    # messages name no line: none was added or removed)
    trace = replace(trace, succession=Succession(ctx, 0, 0, set(), moved=edit) if one_line else None)
    if not within:
        return FileAnalysis(document, old.directives, structure, findings, [], context, trace)
    trace = rules_inside(trace, context, within)
    return FileAnalysis(document, old.directives, structure,
                        conclude(trace.findings(), document, old.directives, trace.options),
                        [e for t in trace.rules.values() for e in t.errors], context, trace)


def _preprocessor(src: bytes, line: int) -> bool:
    """Whether the line starting at `line` is a preprocessor line or continues one (or any line:
    a backslash at the end of the line before joins the two; spare blanks may stand before it)."""
    first = src[line:line + 256].lstrip(b" \t")[:1]
    before = src[max(0, line - 64):line].rstrip(b"\r\n").rstrip(b" ")
    return first == b"#" or before.endswith(b"\\")


def _unchanged_outside(old: Document, new: Document, edit: LineEdit) -> tuple[Span, Span, tree_sitter.Node] | None:
    """The old extent of the outermost function whose body holds the edit in both trees, the old
    span of its body (braces included) and its new tree node, when the trees are the same
    outside that body (moved); else None."""
    assert old.tree is not None
    if new.tree is None:
        return None
    a = _outermost_function(old.tree.root_node, edit.start, edit.old_end)
    b = _outermost_function(new.tree.root_node, edit.start, edit.old_end + edit.delta)
    if a is None or b is None or a.has_error != b.has_error \
            or _nested_definition(a, old.language) or _nested_definition(b, new.language):
        return None   # (A syntax error made or mended: readers of the function's type are sure or
        # not by it, c_types. A definition nested in a body, by error recovery, a GNU C nested
        # function, or the functions after a body whose closing brace a comment took: the model
        # then reads references twice, and what the call graph makes of them depends on what was
        # read first.)
    body_a, body_b = a.child_by_field_name("body"), b.child_by_field_name("body")
    assert body_a is not None and body_b is not None
    if (body_a.start_byte, edit.offset(body_a.end_byte, False)) != (body_b.start_byte, body_b.end_byte):
        return None
    x: tree_sitter.Node | None = a
    y: tree_sitter.Node | None = b
    while x is not None and y is not None:   # the function and its ancestors: the same, moved
        if x.type != y.type or x.start_byte != y.start_byte or edit.offset(x.end_byte, False) != y.end_byte \
                or x.child_count != y.child_count:
            return None
        x, y = x.parent, y.parent
    if x is not None or y is not None:
        return None
    body = (body_a.start_byte, body_a.end_byte)
    if _error_outside(old.tree.root_node, body) or _error_outside(new.tree.root_node, (body_b.start_byte, body_b.end_byte)):
        return None
    return (a.start_byte, a.end_byte), body, b


def _nested_definition(function: tree_sitter.Node, language: Language) -> bool:
    """Whether the function's body holds a function definition (a member function of a local
    class aside: the model reads a class's members with it)."""
    body = function.child_by_field_name("body")
    if body is None:
        return False
    import tree_sitter
    cursor = tree_sitter.QueryCursor(query(language, "(function_definition) @f"))
    cursor.set_byte_range(body.start_byte, body.end_byte)
    return any(node.start_byte > body.start_byte and node.parent is not None
               and node.parent.type != "field_declaration_list" for node in cursor.captures(function).get("f", ()))


def _outermost_function(root: tree_sitter.Node, start: int, end: int) -> tree_sitter.Node | None:
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


def _error_outside(root: tree_sitter.Node, body: Span) -> bool:
    """Whether the tree has a syntax error (or missing node) outside `body`."""
    stack = [root]
    while stack:
        node = stack.pop()
        if not node.has_error or ((node.start_byte, node.end_byte) == body and node.type == "compound_statement"):
            continue
        if node.is_error or node.is_missing:
            return True
        stack.extend(node.children)
    return False


def _construct_before(old: FileAnalysis, trace: AnalysisTrace, function: int) -> bool:
    """Whether a construct stands right before the function (only blanks and comments between):
    it takes the whole function as its extent (a declarative directive there reads the
    function's declaration, not its body)."""
    starts = trace.directive_starts(old.directives)
    i = bisect_left(starts, function)
    if i == 0 or association(old.directives[i - 1]) not in ("block", "loop", "statement"):
        return False
    return _BLANKS.fullmatch(old.document.source, min(old.directives[i - 1].span[1], function), function) is not None


def _directives_inside(old: FileAnalysis, trace: AnalysisTrace, body: Span) -> range:
    """The indices of the directives inside the body (or function)."""
    starts = trace.directive_starts(old.directives)
    return range(bisect_left(starts, body[0]), bisect_left(starts, body[1]))


def _constructs_holding(old: FileAnalysis, inside: range, edited: Span) -> list[int] | None:
    """The directives inside a function body (a kernel's) whose extents meet `edited` (from the
    edit to the end of its line), in source order: all executable, each construct's extent known
    to the block structure and, when it meets the edit, starting before it, and no edit between a
    construct and the start of its extent. None when that does not hold."""
    extents = old.structure.extents
    within: list[int] = []
    for i in inside:
        d = old.directives[i]
        if d.spec is None or d.spec.kind != "executable":
            return None   # (a declarative one names the body's declarations: the binding reads them)
        if association(d) in EXTENDED:
            extent = extents.get(i)
            if extent is None or d.span[1] <= edited[0] < extent[0]:
                return None   # (typed between a construct and its extent: what it applies to may change)
            if extent[0] < edited[1] and edited[0] < extent[1]:
                if extent[0] >= edited[0]:
                    return None
                within.append(i)   # (_kept checks that the extents read again are the same)
    return within


# Statements that declare nothing unless a node of _DECLARING_INSIDE is in them (`_declaring`
# leaves them out).
_PLAIN_STATEMENTS = frozenset({"expression_statement", "return_statement"})
_ERROR = [("ERROR", b"")]   # what a body with a syntax error starts with
_DECLARING_INSIDE = frozenset({"lambda_expression", "compound_statement", "class_specifier", "struct_specifier",
                               "union_specifier", "enum_specifier", "compound_literal_expression"})


def _declaring(document: Document, body: Span) -> list[tuple[str, bytes]]:
    """The syntax nodes of a function body in order, with the text of its names, but expression
    and return statements that declare nothing (no lambda, block or type): equal lists declare
    the same things in the same scopes. (A lambda's body is all there: the model reads what a
    lambda uses with what the body declares, model.lambdas.)"""
    out: list[tuple[str, bytes]] = []
    src = document.source
    assert document.tree is not None
    top = document.tree.root_node.descendant_for_byte_range(body[0], max(body[0], body[1] - 1))
    if top is not None and top.has_error:
        out.append(_ERROR[0])   # (the function's scope is incomplete then: model_c.read_body)
    stack = [(top, False)]
    while stack:
        node, in_lambda = stack.pop()
        if node is None or node.end_byte <= body[0] or node.start_byte >= body[1]:
            continue
        if node.type in _PLAIN_STATEMENTS and not in_lambda and not _declares(node):
            continue
        out.append((node.type, src[node.start_byte:node.end_byte] if node.type.endswith("identifier") else b""))
        in_lambda = in_lambda or node.type == "lambda_expression"
        stack.extend((child, in_lambda) for child in reversed(node.children))
    return out


def _declares(node: tree_sitter.Node) -> bool:
    stack = list(node.children)
    while stack:
        n = stack.pop()
        if n.type in _DECLARING_INSIDE:
            return True
        stack.extend(n.children)
    return False
