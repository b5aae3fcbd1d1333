"""Moving parse results to another place in a source: the directive parse cache.

Pragmas repeat (`end declare target`, the same `map` clauses in every kernel), and
the server re-analyses a file on every keystroke. A directive whose logical text and
line geometry equal one parsed before is not parsed again: the earlier result is
copied with every span shifted by the distance between the two directives.
"""
from __future__ import annotations

from typing import Any

from ..diagnostics import Finding, Fix, Related
from .nodes import (Clause, ContextSelector, Directive, Expr, InteropSpec, ListItem, Modifier, Subscript,
                    TraitProperty, TraitSelector, TraitSet)

_NODES = frozenset({Expr, Subscript, ListItem, Modifier, TraitProperty, TraitSelector, TraitSet, ContextSelector,
                    InteropSpec, Clause, Directive, Finding, Related, Fix})


def shifted(value: Any, delta: int) -> Any:
    """A copy of a parse result (nodes, findings, lists of them) with all spans moved by `delta`."""
    if type(value) is list:
        return [shifted(v, delta) for v in value]
    if type(value) not in _NODES:
        return value
    new = object.__new__(type(value))
    fields: dict[str, Any] = {}
    for key, v in value.__dict__.items():
        if v is None or type(v) in (str, bool, int):
            fields[key] = v
        elif key.endswith("span"):
            fields[key] = (v[0] + delta, v[1] + delta)
        elif key == "edits":
            fields[key] = tuple(((s[0] + delta, s[1] + delta), text) for s, text in v)
        else:
            fields[key] = shifted(v, delta)
    new.__dict__.update(fields)
    return new
