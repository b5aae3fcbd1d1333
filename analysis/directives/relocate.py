"""Moving parse results to another place in a source: the directive parse cache.

Pragmas repeat (`end declare target`, the same `map` clauses in every kernel), and
the server re-analyses a file on every keystroke. A directive whose logical text and
line geometry equal one parsed before is not parsed again: the earlier result is
reused as it is when it stands at the same place, or copied with every span shifted
by the distance between the two directives. Parse results are therefore shared and
must be treated as read-only.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..syntax.diagnostics import Finding, Fix, Related
from ..syntax.records import fields
from .nodes import (
    LAZY_CLAUSE_FIELDS,
    LAZY_FIELDS,
    Clause,
    ContextSelector,
    Directive,
    Expr,
    InteropSpec,
    ListItem,
    Modifier,
    Subscript,
    TraitProperty,
    TraitSelector,
    TraitSet,
    install_relocation,
)
from .source import RawDirective

_NODE_TYPES = (Expr, Subscript, ListItem, Modifier, TraitProperty, TraitSelector, TraitSet, ContextSelector,
               InteropSpec, Clause, Directive, Finding, Related, Fix)


def _plan(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Field names holding spans, single child nodes, and lists (of nodes or of lists)."""
    spans, children, lists = [], [], []
    for f in fields(cls):
        kind = str(f.type)
        if f.name.endswith("span") or f.name == "edits":
            spans.append(f.name)
        elif kind.startswith("list"):
            lists.append(f.name)
        elif any(t.__name__ in kind for t in _NODE_TYPES):
            children.append(f.name)
    return tuple(spans), tuple(children), tuple(lists)


_PLANS: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {cls: _plan(cls) for cls in _NODE_TYPES}


def shifted(value: Any, delta: int) -> Any:
    """A copy of a parse result (a node, a finding, or a list of them) with all spans moved by `delta`."""
    if type(value) is list:
        return [shifted(v, delta) for v in value]
    return _SHIFT[type(value)](value, delta)


def _shifter_source(cls: type) -> str:
    """The source of a function that copies one `cls` with its spans moved, its plan unrolled
    (the parse cache copies tens of thousands of nodes in a large file: a loop over the plan
    per node cost twice as much)."""
    spans, children, lists = _PLANS[cls]
    out = [f"def _shift_{cls.__name__}(value, delta):", "    fields = value.__dict__.copy()",
           "    if '_template' in fields:"]
    if cls is Clause:   # a moved clause: read what it has not moved yet
        out += ["        for key in LAZY_CLAUSE_FIELDS:", "            getattr(value, key)",
                "        fields = value.__dict__.copy()"]
    out += ["        del fields['_template']", "        fields.pop('_delta', None)"]
    for key in spans:
        out.append(f"    v = fields[{key!r}]")
        moved = "tuple(((s[0] + delta, s[1] + delta), text) for s, text in v)" if key == "edits" \
            else "(v[0] + delta, v[1] + delta)"
        out.append(f"    if v is not None: fields[{key!r}] = {moved}")
    for key in children:
        out += [f"    v = fields[{key!r}]", f"    if v is not None and type(v) in _PLANS: fields[{key!r}] = _SHIFT[type(v)](v, delta)"]
    for key in lists:
        out += [f"    v = fields[{key!r}]",
                f"    if v is not None: fields[{key!r}] = [_SHIFT[type(x)](x, delta) if type(x) in _PLANS "
                "else shifted(x, delta) if type(x) is list else x for x in v]"]
    out += [f"    new = _new({cls.__name__})", "    new.__dict__.update(fields)", "    return new"]
    return "\n".join(out)


class _Shifters(dict[type, Callable[[Any, int], Any]]):
    """The copying function of each node class, made when a node of it is first copied (most
    runs copy few kinds, and a small file none: making them all cost 5 ms of every start)."""

    def __missing__(self, cls: type) -> Callable[[Any, int], Any]:
        scope: dict[str, Any] = {"_SHIFT": self, "_PLANS": _PLANS, "LAZY_CLAUSE_FIELDS": LAZY_CLAUSE_FIELDS,
                                 "shifted": shifted, "_new": object.__new__, cls.__name__: cls}
        exec(_shifter_source(cls), scope)
        made: Callable[[Any, int], Any] = scope[f"_shift_{cls.__name__}"]
        self[cls] = made
        return made


_SHIFT = _Shifters()


def moved_directive(template: Directive, delta: int, raw: RawDirective) -> Directive:
    """A cached directive at another place: its own spans now, its clause tree when first read."""
    # (what the template keeps made from itself, at its place, is not copied: its clause index,
    # its effective selector; the copy makes its own)
    fields = {key: value for key, value in template.__dict__.items() if not key.startswith("_")}
    for key in LAZY_FIELDS:
        fields.pop(key, None)
    for key in ("name_span", "argument_span"):
        span = fields[key]
        if span is not None:
            fields[key] = (span[0] + delta, span[1] + delta)
    if fields["argument"] is not None:
        fields["argument"] = shifted(fields["argument"], delta)
    fields["raw"] = raw
    fields["_template"] = template
    fields["_delta"] = delta
    new = object.__new__(Directive)
    new.__dict__.update(fields)
    return new


_CLAUSE_SPANS = ("span", "name_span", "args_span")
_CLAUSE_CHILDREN = ("keyword", "category", "selector")


def moved_clause(template: Clause, delta: int) -> Clause:
    """A cached clause at another place: its spans and small parts now, its list items,
    modifiers and expressions when first read (see Clause.__getattr__)."""
    fields = template.__dict__.copy()
    for key in LAZY_CLAUSE_FIELDS:
        fields.pop(key, None)
    for key in _CLAUSE_SPANS:
        span = fields[key]
        if span is not None:
            fields[key] = (span[0] + delta, span[1] + delta)
    for key in _CLAUSE_CHILDREN:
        child = fields[key]
        if child is not None:
            fields[key] = shifted(child, delta)
    fields["_template"] = template
    fields["_delta"] = delta
    new = object.__new__(Clause)
    new.__dict__.update(fields)
    return new


install_relocation(shifted, moved_clause)
