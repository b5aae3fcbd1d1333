"""The call graph of a file made from the graph of its previous analysis, after an edit that
leaves most of it valid: an edit of one directive (`rebuilt_graph`, for directive_edit), inside one
C/C++ function body or of one Fortran statement (`graph_after_edit`, which the device graph calls
for each file it takes again, with procedure_edit's and statement_edit's hand-over). Each equals
the graph semantics.call_graph builds afresh; the tests compare them."""
from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from ..model.model_fortran import UNIT_KINDS
from ..semantics.call_graph import CBuilder, Edge, FileGraph, FortranBuilder, builder_of
from ..syntax.document import Document, Span, changed_span
from ..syntax.records import kept_with, replace

if TYPE_CHECKING:
    import tree_sitter

    from ..model.file_model import Reference, Scope
    from ..semantics.call_graph import FileFacts


def rebuilt_graph(ctx: FileFacts, base: FileGraph, rebuilt: frozenset[str]) -> FileGraph:
    """The graph of a file after an edit of one directive (directive_edit) changed only the
    structures named in `rebuilt`: "binding" (the marks are read anew) and "variants" (which
    edges a declare variant redirects on the device). The declarations, roots and references
    are `base`'s, of the same program model; lists that come out equal are `base`'s own, and
    `base` itself is the answer when nothing changed (the device graph then has nothing to do)."""
    graph = FileGraph(base.path, base.fortran, declared=base.declared, roots=base.roots, edges=base.edges,
                      has_main=base.has_main, user_includes=base.user_includes, line_of=base.line_of,
                      parts=base.parts)
    builder = builder_of(ctx, graph)
    builder.keys.update(base.keys)
    if "binding" in rebuilt:
        builder.bind_marks(base)
        if graph.marks == base.marks:
            graph.marks = base.marks
    else:
        graph.marks = base.marks
    if "variants" in rebuilt:
        if isinstance(builder, FortranBuilder):
            builder.programs(base)   # (the keys of what main programs hold)
        builder.device_variants()   # (sets every edge anew: graph.edges is base's list until one differs)
        if graph.edges == base.edges:
            graph.edges = base.edges
    if graph.marks is base.marks and graph.edges is base.edges:
        graph = base
    elif len(builder.keys) == len(base.keys):
        graph.keys = base.keys   # (no symbol's key was asked that base's keys lack)
    else:
        keys = {k: v for k, v in builder.keys.items() if v is not None}
        graph.keys = base.keys if keys == base.keys else keys
    ctx.__dict__["_file_graph"] = graph
    return graph


def graph_after_edit(ctx: FileFacts, path: str, old_ctx: FileFacts, old: FileGraph) -> FileGraph | None:
    """The graph of `ctx` built from `old` (the graph of `old_ctx`, whose text differs from
    `ctx`'s in one span inside the body of one C/C++ function): the references of that body are
    read again, every other edge is `old`'s, moved. The body's syntax and names must be the same
    in both trees (only literals, operators and blanks changed), and the declarations, marks and
    roots, read again, must come out as `old`'s (moved). None when any of that does not hold
    (the caller builds the graph afresh). Only the two texts and trees are compared: making the
    model read a body would change how the builder resolves the names in it."""
    graph = _graph_after_edit(ctx, path, old_ctx, old)
    facts = old.__dict__.get("_link_facts")
    if graph is not None and facts is not None and ctx.configuration is old_ctx.configuration \
            and graph.has_main == old.has_main and graph.signature() == old.signature():
        # what links it to other files is read from what the signature holds (declarations and
        # edges without positions) and the build's configuration: the same (programs.link_facts)
        graph.__dict__["_link_facts"] = facts
    return graph


def _graph_after_edit(ctx: FileFacts, path: str, old_ctx: FileFacts, old: FileGraph) -> FileGraph | None:
    doc, old_doc = ctx.document, old_ctx.document
    statement = ctx.__dict__.pop("_statement_read_again", None)
    if old.fortran:
        if statement is None or statement[0] is not old_ctx or old.parts is None:
            return None
        return _graph_after_statement_read_again(ctx, path, old, *statement[1:])
    if old.parts is None or doc.language is not old_doc.language or doc.tree is None \
            or old_doc.stale_tree or old_doc.tree is None:
        return None
    read_again = ctx.__dict__.pop("_read_again", None)
    if read_again is not None and read_again[0] is old_ctx:
        graph = _graph_after_body_read_again(ctx, path, old, read_again[1], read_again[2])
        if graph is not None:
            return graph
        # the body unread again: what a graph built afresh reads depends on it
        ctx.model.refresh_body(doc, *read_again[3:])
    start, old_end, new_end = changed_span(old_doc.source, doc.source)
    delta = new_end - old_end

    def moved(span: Span) -> Span:
        return span if span[0] < old_end else (span[0] + delta, span[1] + delta)
    body = _function_body(doc.tree.root_node, start, new_end)
    if body is None or len(ctx.directives) != len(old_ctx.directives) \
            or any(d.span[1] > start and d.span[0] < new_end for d in ctx.directives):
        return None
    lo, hi = body
    old_hi = hi - delta
    if _function_body(old_doc.tree.root_node, start, old_end) != (lo, old_hi) \
            or _body_shape(old_doc, (lo, old_hi)) != _body_shape(doc, (lo, hi)):
        return None   # the edit changed where the function ends, or the body's syntax or names
        # (what it declares: a local's name may change what a reference elsewhere finds)
    model = ctx.model
    graph = FileGraph(path, False, user_includes=tuple(i.header for i in model.includes if not i.system and i.header),
                      line_of=doc.lines.line_of)
    builder = CBuilder(ctx, graph)
    builder.declarations()
    builder.bind_marks()
    builder.find_roots()
    if [(d.key, d.kind, d.definition, d.name) for d in graph.declared] != \
            [(d.key, d.kind, d.definition, d.name) for d in old.declared] \
            or graph.marks != [replace(m, span=moved(m.span)) for m in old.marks] \
            or graph.roots != [replace(r, span=moved(r.span)) for r in old.roots] or graph.has_main != old.has_main:
        return None
    a, b = old.parts
    spliced: list[list[Edge]] = []
    for part, fresh in zip((old.edges[:a], old.edges[a:b]), builder.reference_edges((lo, hi))):
        inside = [k for k, e in enumerate(part) if lo <= e.span[0] < old_hi]
        at = inside[0] if inside else next((k for k, e in enumerate(part) if e.span[0] >= old_hi), len(part))
        end = inside[-1] + 1 if inside else at
        spliced.append([*(replace(e, device_target="") if e.device_target else e for e in part[:at]), *fresh,
                        *(replace(e, span=moved(e.span), device_target="") for e in part[end:])])
    graph.edges = spliced[0] + spliced[1]
    graph.parts = (len(spliced[0]), len(graph.edges))
    builder.static_locals()
    builder.device_variants()
    graph.keys = {k: v for k, v in builder.keys.items() if v is not None}
    ctx.__dict__["_file_graph"] = graph
    return graph


def _declared_starts(graph: FileGraph) -> list[int]:
    """Where the graph's declarations' names start, in order (kept with the graph, and handed on
    with its declarations: each keystroke in a body asks whether the body declares one)."""
    return kept_with(graph, "_declared_starts", graph.declared,
                     lambda: sorted(d.symbol.name_span[0] for d in graph.declared))


def _any_between(starts: list[int], lo: int, hi: int) -> bool:
    """Whether a start of the sorted `starts` is in [lo, hi)."""
    k = bisect_left(starts, lo)
    return k < len(starts) and starts[k] < hi


def _graph_after_body_read_again(ctx: FileFacts, path: str, old: FileGraph, before: Span,
                                 body: Span) -> FileGraph | None:
    """The graph of `ctx`, made by procedure_edit from `old`'s context with nothing moved but
    the end of one function on its last line, and the program model to read that function's
    body (inside its braces: `before` in the old text, `body` now) again: that body's
    references are read again, everything else is `old`'s. None when the body declared an
    entity of its own (procedure_edit leaves a body that spells `static` or `extern` alone)."""
    lo, hi = before
    if _any_between(_declared_starts(old), lo, hi):
        return None
    graph = FileGraph(path, False, declared=old.declared, marks=old.marks, roots=old.roots, has_main=old.has_main,
                      user_includes=old.user_includes, line_of=ctx.document.lines.line_of)
    graph.__dict__["_declared_starts"] = old.__dict__["_declared_starts"]   # (the same declarations)
    builder = CBuilder(ctx, graph)
    if _any_between(ctx.regions.target_starts(), lo, hi):
        # a kernel: its references inside target regions are its roots' (the same ones), or
        # host code's (device(ancestor: 1)); a region's root is numbered among those of its
        # unit, all in the body, unless the file is a fragment a function includes (one unit)
        graph.roots = []
        fragment = ctx.configuration is not None and ctx.configuration.includer is not None \
            and ctx.configuration.includer.function is not None
        builder.find_roots(None if fragment else before)
        if graph.roots != (old.roots if fragment else [r for r in old.roots if lo <= r.span[0] < hi]):
            return None
        graph.roots = old.roots
    # read as a graph built afresh reads it: the body unread before its references are
    fresh = builder.reference_edges(body)
    assert old.parts is not None   # (graph_after_edit checked it)
    a, b = old.parts
    spliced: list[list[Edge]] = []
    runs: list[tuple[int, int, int, int]] = []   # (the body's edges in old's list and in the new one)
    for base, part, new in zip((0, a), (old.edges[:a], old.edges[a:b]), fresh):
        at = bisect_left(part, lo, key=_edge_start)   # (each part is in source order)
        end = bisect_left(part, hi, at, key=_edge_start)
        start = sum(len(p) for p in spliced) + at
        runs.append((base + at, base + end, start, start + len(new)))
        spliced.append([*part[:at], *new, *part[end:]])
    graph.edges = spliced[0] + spliced[1]
    graph.parts = (len(spliced[0]), len(graph.edges))
    graph.edges.extend(old.edges[b:])   # what static locals elsewhere declare
    builder.device_variants(old)
    graph.signature_after(old, runs)
    graph.keys = {**old.keys, **{k: v for k, v in builder.keys.items() if v is not None}}
    ctx.__dict__["_file_graph"] = graph
    return graph


def _graph_after_statement_read_again(ctx: FileFacts, path: str, old: FileGraph, before: Span,
                                      refs: list[Reference], unresolved: list[Reference]) -> FileGraph | None:
    """The graph of `ctx`, made by statement_edit from `old`'s context with one execution-part
    statement (`before`: its old span) read again, nothing else moved: `refs` and `unresolved`
    are its references now; every other edge, and the declarations, marks and roots, are `old`'s.
    None when the roots found again differ (the caller builds the graph afresh)."""
    graph = FileGraph(path, True, declared=old.declared, marks=old.marks, roots=old.roots, has_main=old.has_main,
                      user_includes=old.user_includes, line_of=ctx.document.lines.line_of, keys=old.keys)
    builder = FortranBuilder(ctx, graph)
    builder.programs()
    if any(ref.target is not None for ref in [*refs, *unresolved]):
        # in a target region: the edges are its root's (the same ones), or host code's; a
        # region's root is numbered among its unit's, all inside the unit (and the units it
        # contains: theirs too)
        unit: Scope | None = ctx.model.scope_at(before[0], expand=False)
        while unit is not None and unit.kind not in UNIT_KINDS:
            unit = unit.parent
        within = unit.span if unit is not None else None
        graph.roots = []
        builder.find_roots(within)
        if graph.roots != (old.roots if within is None else
                           [r for r in old.roots if within[0] <= r.span[0] < within[1]]):
            return None
        graph.roots = old.roots
    assert old.parts is not None   # (graph_after_edit checked it)
    a, b = old.parts
    spliced: list[list[Edge]] = []
    runs: list[tuple[int, int, int, int]] = []   # (the statement's edges in old's list and in the new one)
    for base, part, new in zip((0, a), (old.edges[:a], old.edges[a:b]), builder.reference_edges(refs, unresolved)):
        at = bisect_left(part, before[0], key=_edge_start)
        end = bisect_left(part, before[1], at, key=_edge_start)
        start = sum(len(p) for p in spliced) + at
        runs.append((base + at, base + end, start, start + len(new)))
        spliced.append([*part[:at], *new, *part[end:]])
    graph.edges = [*spliced[0], *spliced[1], *old.edges[b:]]
    graph.parts = (len(spliced[0]), len(spliced[0]) + len(spliced[1]))
    builder.device_variants(old)   # (the statement's calls may be of a declare variant's base)
    graph.signature_after(old, runs)
    ctx.__dict__["_file_graph"] = graph
    return graph


def _body_shape(document: Document, body: Span) -> list[tuple[str, bytes]]:
    """The syntax nodes inside a function body in order, with the text of its names: equal
    shapes declare the same things (only literals, operators and blanks may differ)."""
    out: list[tuple[str, bytes]] = []
    src = document.source
    assert document.tree is not None
    stack = [document.tree.root_node.descendant_for_byte_range(body[0], max(body[0], body[1] - 1))]
    while stack:
        node = stack.pop()
        if node is None or node.end_byte <= body[0] or node.start_byte >= body[1]:
            continue
        text = src[node.start_byte:node.end_byte] if node.type.endswith("identifier") else b""
        out.append((node.type, text))
        stack.extend(reversed(node.children))
    return out


def _function_body(root: tree_sitter.Node, start: int, end: int) -> Span | None:
    """The inside (between the braces) of the body of the outermost function definition whose
    body holds [start, end)."""
    node = root.descendant_for_byte_range(start, max(start, end - 1))
    found: Span | None = None
    while node is not None:
        if node.type == "function_definition":
            body = node.child_by_field_name("body")
            if body is not None and body.type == "compound_statement" and body.start_byte < start \
                    and end < body.end_byte:
                found = (body.start_byte + 1, body.end_byte - 1)
            elif found is not None:
                return None   # the edit reaches outside a nested function's body
        node = node.parent
    return found


def _edge_start(e: Edge) -> int:
    return e.span[0]
