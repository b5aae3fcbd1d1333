"""Hover text for the parts of an OpenMP directive: the directive, a clause, a modifier or
keyword, a context-selector set, selector or property. Read from the directive, clause and
trait tables (their `doc` texts are the project's own words); markdown, plain data.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..directives.nodes import Clause, Directive, TraitProperty
from ..directives.parser import allowed_in, version_text
from ..directives.tables import CLAUSES, DIRECTIVES
from ..directives.traits import EXPR, SETS_BY_NAME, SelectorSpec, known_arch, known_isa
from ..syntax.document import Span

if TYPE_CHECKING:
    from ..semantics.context import FileContext


def _inside(span: Span | None, offset: int) -> bool:
    return span is not None and span[0] <= offset <= span[1]


def _since(since: object) -> str:
    first = since[0] if isinstance(since, tuple) else since
    text = f"OpenMP {version_text(first)}"  # type: ignore[arg-type]
    if isinstance(since, tuple):
        text += f" to {version_text(since[1])}"
    return text


def describe(ctx: FileContext, offset: int) -> tuple[Span, str] | None:
    """(the part's span, markdown) for the directive part at `offset`, or None."""
    for d in ctx.directives:
        if d.span[0] <= offset <= d.span[1]:
            return _directive(ctx, d, offset)
    return None


def _directive(ctx: FileContext, d: Directive, offset: int) -> tuple[Span, str] | None:
    spec = DIRECTIVES.get(d.name)
    if _inside(d.name_span, offset):
        if spec is None:
            return None
        lines = [f"**{d.name}** — {spec.kind} directive, {_since(spec.since)}", "", spec.doc]
        allowed = sorted(c for c, since in spec.clauses.items() if allowed_in(since, ctx.version))
        if allowed:
            lines += ["", f"Clauses in OpenMP {version_text(ctx.version)}: {', '.join(allowed)}"]
        return d.name_span, "\n".join(lines).strip()
    for c in d.clauses:
        if _inside(c.span, offset):
            return _clause(ctx, d, c, offset)
    return None


def _clause(ctx: FileContext, d: Directive, c: Clause, offset: int) -> tuple[Span, str] | None:
    cspec = CLAUSES.get(c.name)
    if cspec is None:
        return None
    if _inside(c.name_span, offset):
        dspec = DIRECTIVES.get(d.name)
        since = dspec.clauses.get(c.name) if dspec is not None else None
        where = f"on {d.name} since {_since(since)}" if since is not None else f"not a clause of {d.name}"
        lines = [f"**{c.name}** — clause, {where}", "", cspec.doc]
        if cspec.unique:
            lines += ["", "May appear at most once on a directive."]
        return c.name_span, "\n".join(lines).strip()
    for m in (*c.modifiers, *(k for k in (c.keyword, c.category) if k is not None)):
        if _inside(m.span, offset):
            role = "modifier" if m in c.modifiers else "argument"
            since = cspec.modifier_since.get(m.name) or cspec.modifier_since.get(f"{m.name}()")
            extra = f", {_since(since)}" if since else ""
            return m.span, f"**{m.name}** — {role} of the {c.name} clause{extra}"
    if c.selector is not None:
        for s in c.selector.sets:
            spec = SETS_BY_NAME.get(s.name)
            if _inside(s.name_span, offset) and spec is not None:
                names = ", ".join(sel.name for sel in spec.selectors)
                score = "" if spec.score else " (no score allowed)"
                return s.name_span, (f"**{s.name}** — context selector set, {_since(spec.since)}{score}\n\n"
                                     f"Selectors: {names}")
            for sel in s.selectors:
                sspec = next((x for x in spec.selectors if x.name == sel.name), None) if spec else None
                if _inside(sel.name_span, offset) and sspec is not None:
                    values = f"\n\nProperties: {', '.join(sorted(sspec.values))}" if sspec.values else ""
                    return sel.name_span, (f"**{sel.name}** — selector of the {s.name} set, "
                                           f"{_since(sspec.since)}{values}")
                for prop in sel.properties:
                    if _inside(prop.span, offset) and sspec is not None:
                        return prop.span, _property(s.name, sel.name, sspec, prop)
    return None


_KNOWN_BY_NAME = {"arch": known_arch, "isa": known_isa}


def _property(set_name: str, selector: str, sspec: SelectorSpec, prop: TraitProperty) -> str:
    """A trait property: whose it is and whether the toolchains know it."""
    text = f"**{prop.text}** — property of the {selector} selector ({set_name} set)"
    key = prop.name.lower() if prop.name else None
    if sspec.properties == EXPR:
        return text + "\n\nAn expression, evaluated where the variant is chosen."
    if key is None or prop.is_string:
        return text
    if sspec.values:
        known = key in sspec.values
        return text + ("\n\nOne of the values the OpenMP Additional Definitions document lists." if known else
                       f"\n\nNot one of the listed values: {', '.join(sorted(sspec.values))}.")
    check = _KNOWN_BY_NAME.get(selector)
    if check is not None:
        return text + ("\n\nA name the clang or gcc toolchains match." if check(key) else
                       "\n\nNot a name omp-lsp knows any toolchain to match (OMP362): this variant may never be chosen.")
    return text


__all__ = ["describe"]
