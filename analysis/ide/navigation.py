"""Navigation from names inside OpenMP directives: go to definition, find references, and the
document's outline (target regions, declare target items, declare variants). Plain data with
(path, span) locations; the server turns them into LSP.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..directives.nodes import Directive, ListItem
from ..model.file_model import Symbol, is_target_region
from ..syntax.document import Span
from ..syntax.records import dataclass, field

if TYPE_CHECKING:
    from ..semantics.context import FileContext
    from ..semantics.propagation import DeviceGraph

Location = tuple[str, Span]


@dataclass(frozen=True)
class NameInDirective:
    name: str
    span: Span
    directive: Directive


def name_at(ctx: FileContext, offset: int) -> NameInDirective | None:
    """The list item or variant name under the cursor in a directive."""
    for d in ctx.directives:
        if not d.span[0] <= offset <= d.span[1]:
            continue
        items: list[ListItem] = list(d.argument or ())
        for c in d.clauses:
            items.extend(c.items)
        for item in items:
            if item.name is not None and item.name_span is not None and \
                    item.name_span[0] <= offset <= item.name_span[1]:
                return NameInDirective(item.name, item.name_span, d)
    return None


def _symbols(ctx: FileContext, found: NameInDirective) -> list[Symbol]:
    model = ctx.model
    key = model.key_of(found.name.rsplit("::", 1)[-1])
    if ctx.document.language.is_fortran:
        from ..semantics.variants_fortran import lookup
        return list(lookup(ctx, key, model.scope_at(found.directive.span[0])).symbols)
    hits = model.visible(key, found.span[0])
    # a declare variant or declare target may name a function declared after it
    return hits or [s for s in model.named(key) if s.scope is model.root or s.scope.kind in ("namespace", "class")]


def _keys(ctx: FileContext, graph: DeviceGraph, symbols: list[Symbol]) -> list[str]:
    """The workspace entity keys of this file's symbols, in order, without repeats."""
    fg = graph.files.get(ctx.path)
    if fg is None:
        return []
    return list(dict.fromkeys(k for k in (fg.key_of(s) for s in symbols) if k is not None))


def entity_key_at(ctx: FileContext, offset: int, graph: DeviceGraph) -> str | None:
    """The workspace entity a directive's list item names (for hover on `to(scale)`)."""
    found = name_at(ctx, offset)
    if found is None:
        return None
    return next(iter(_keys(ctx, graph, _symbols(ctx, found))), None)


def definition(ctx: FileContext, offset: int, graph: DeviceGraph | None = None) -> list[Location]:
    """Where the name under the cursor is defined: the definitions of a procedure or global in
    any file of the workspace (with `graph`), else its declarations in this file."""
    found = name_at(ctx, offset)
    if found is None:
        return []
    symbols = _symbols(ctx, found)
    if graph is not None:
        out: list[Location] = []
        for key in sorted(_keys(ctx, graph, symbols)):
            e = graph.entities.get(key)
            if e is not None:
                out.extend((p, d.symbol.name_span) for p, d in (e.definitions or e.declarations))
        if out:
            return out
    defined = [s for s in symbols if s.definition] or symbols
    return [(ctx.path, s.name_span) for s in defined]


def references(ctx: FileContext, offset: int, graph: DeviceGraph | None = None) -> list[Location]:
    """Every use of the name under the cursor: for a procedure or global, its declarations and
    references in every file of the workspace; for a local, its uses in its function."""
    found = name_at(ctx, offset)
    if found is None:
        return []
    symbols = _symbols(ctx, found)
    if graph is not None:
        keys = _keys(ctx, graph, symbols)
        if keys:
            out: list[Location] = []
            for key in keys:
                e = graph.entities.get(key)
                if e is None:
                    continue
                out.extend((p, d.symbol.name_span) for p, d in e.declarations)
                for path in graph.files:
                    out.extend((path, edge.span) for edge in graph.edges(path) if edge.target == key)
                    out.extend((path, m.span) for m in graph.files[path].marks if m.key == key and m.how == "list")
            return sorted(set(out))
    if not symbols:
        return []
    symbol = symbols[0]
    model = ctx.model
    unit = symbol.scope
    out = [(ctx.path, symbol.name_span)]
    for ref in model.references:
        if ref.key == symbol.key and unit.span[0] <= ref.span[0] < unit.span[1]:
            out.append((ctx.path, ref.span))
    return sorted(set(out))


# -- outline ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outline:
    name: str
    kind: str                       # "target region", "declare target", "declare variant"
    span: Span                      # the whole construct (or directive)
    selection: Span                 # the directive name
    children: list[Outline] = field(default_factory=list)


def outline(ctx: FileContext) -> list[Outline]:
    """Target regions, declare target directives (with their items) and declare variants."""
    out: list[Outline] = []
    lines = ctx.document.lines
    extents = ctx.structure.extents
    for i, d in enumerate(ctx.directives):
        if d.end_of is not None:
            continue
        line = lines.line_of(d.span[0]) + 1
        if is_target_region(d):
            end = max(d.span[1], (extents.get(i) or d.span)[1])
            closing = ctx.structure.pairs.get(i)
            if closing is not None:   # Fortran: through `!$omp end target`
                end = max(end, ctx.directives[closing].span[1])
            out.append(Outline(f"{d.name} (line {line})", "target region", (d.span[0], end), d.name_span))
        elif d.name in ("declare target", "begin declare target"):
            items = [*(d.argument or ()), *(item for c in d.clauses for item in c.items)]
            children = [Outline(item.name, "declare target item", item.span, item.name_span or item.span)
                        for item in items if item.name is not None]
            end_directive = ctx.structure.pairs.get(i)
            span = (d.span[0], ctx.directives[end_directive].span[1]) if end_directive is not None else d.span
            title = ", ".join(c.name for c in children) if children else f"line {line}"
            out.append(Outline(f"{d.name} {title}", "declare target", span, d.name_span, children))
        elif d.name in ("declare variant", "begin declare variant"):
            names = [item.name for item in d.argument or () if item.name is not None]
            out.append(Outline(f"{d.name} {':'.join(names)}".strip(), "declare variant", d.span, d.name_span))
    return out


__all__ = ["NameInDirective", "Outline", "definition", "entity_key_at", "name_at", "outline", "references"]
