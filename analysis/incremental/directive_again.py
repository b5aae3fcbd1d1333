"""One edited directive's share of the semantic passes made again, for directive_edit: a
declare target directive's marks (`rebind`, `bound_again`, and whether the nohost marks OMP206
reads changed), a declare variant directive's record (`resolved_again`, Fortran's
`fortran_resolved_again`). Each equals what the
pass builds afresh for the new text; tests/test_directive_edit.py compares them on random edits."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..semantics.declare_target import (
    BIND_C_MARKS,
    COMMON_MARKS,
    INTERFACE_MARKS,
    SHARED_MARKS,
    UNDECLARED_MARKS,
    Binding,
    Mark,
    bind,
    directive_marks,
)
from ..semantics.variants import Variants, resolve_record, variant_record
from ..semantics.variants_fortran import Variant, resolve_directive

if TYPE_CHECKING:
    from ..semantics.context import FileContext
    from ..syntax.document import Span


def nohost_marks_changed(old: Binding, new: Binding, i: int) -> bool:
    """Whether rebinding directive `i` changed NOHOST_MARKS (by name, which is safe: the
    declarations a mark names and their redeclarations share it)."""
    own = [*old.own(i), *new.own(i)]
    if any(m.device_type == "nohost" for m in own):
        return True
    names = {s.name for m in own for s in m.symbols}
    return any(m.device_type == "nohost" and any(s.name in names for s in m.symbols) for m in new.marks)


def parts_changed(old: Binding, new: Binding, ctx: FileContext, i: int) -> set[str]:
    """The parts of a binding (declare_target.BINDING_PARTS, but NOHOST_MARKS) that rebinding
    directive `i` may have changed: those its own marks, before or after, belong to."""
    own = [*old.own(i), *new.own(i)]
    if not ctx.document.language.is_fortran:
        # (a declaration it marked or marks that another directive marks too: which is first may change)
        shared = any(m.directive != i for s in {id(s): s for m in own for s in m.symbols}.values() for m in new.of(s))
        return {SHARED_MARKS} if shared else set()
    out: set[str] = set()
    if any(s.bind_name for m in own for s in m.symbols):
        out.add(BIND_C_MARKS)
    if any(m.item is not None and m.item.common_block for m in own):
        out.add(COMMON_MARKS)
    if own and any(s.interface_body for s in ctx.model.directive_scope(ctx.directives[i].span[0]).ancestors()):
        out.add(INTERFACE_MARKS)
    # an item naming nothing (only such a name in a host's list keeps an inner one from being
    # reported: a name the host declares is found by the inner lookup)
    if any(not m.symbols for m in own):
        out.add(UNDECLARED_MARKS)
    return out


def rebind(old: Binding, ctx: FileContext, i: int) -> Binding:
    """`bind` after declare target directive `i` (not a begin/end region's) was edited and kept its
    shape: its own marks read again, the others kept (directive_edit)."""
    own = directive_marks(ctx, ctx.model, i, ctx.directives[i])
    at = next((k for k, m in enumerate(old.marks) if m.directive == i and m.region is None), None)
    kept = [m for m in old.marks if m.directive != i or m.region is not None]
    if at is None:   # it had none: its place is after the marks of the directives before it
        at = next((k for k, m in enumerate(kept) if m.directive > i or m.region is not None), len(kept))
    new = Binding(kept[:at] + own + kept[at:], old.regions, old.directives)
    new.indexed_again(old, i, own)
    return new


def bound_again(old: Binding, ctx: FileContext, i: int) -> Binding | None:
    """`bind` after the begin declare target directive `i` was edited (its device_type or
    indirect clause) and kept its shape: bound afresh. None when the marks of another directive
    changed with it (a nested region taking its device type from it): directive_edit then
    leaves the file to a fresh analysis."""
    new = bind(ctx)
    if any(_facts(old.own(k)) != _facts(new.own(k)) for k in old.directives if k != i):
        return None
    return new


def _facts(marks: list[Mark]) -> list[tuple[str, int, int, tuple[int, ...], str, bool, bool, bool, Span,
                                          int | None]]:
    return [(m.kind, id(m.item), id(m.clause), tuple(map(id, m.symbols)), m.device_type, m.device_type_explicit,
             m.indirect, m.explicit, m.span, m.region) for m in marks]


def resolved_again(old: Variants, ctx: FileContext, index: int) -> Variants:
    """`old` (of the same program model and directive places) with the declare variant
    directive at `index` resolved anew: its contents changed, nothing the others read did
    (regions and region functions depend on begin/end directives alone)."""
    out = Variants(list(old.directives), old.regions, old.region_functions, old.types)
    out.__dict__.update((k, v) for k, v in old.__dict__.items() if k.startswith("_"))   # lookup tables
    at = next(k for k, rec in enumerate(out.directives) if rec.index == index)
    rec = out.directives[at] = variant_record(index, ctx.directives[index], out)
    if out.types is not None and ctx.document.tree is not None:
        resolve_record(ctx, out, rec)
    return out


def fortran_resolved_again(old: list[Variant], ctx: FileContext, index: int) -> list[Variant]:
    """`variants_fortran.variants` after the declare variant directive at `index` was edited and
    kept its shape: its entry resolved anew (also when its contents are the same: an entry holds
    its directive), the others kept (each is resolved from its own directive and the program
    model, which the edit kept)."""
    out = [v for v in old if v.index != index]
    new = resolve_directive(ctx, index, ctx.directives[index])
    if new is not None:
        out.insert(next((k for k, v in enumerate(out) if v.index > index), len(out)), new)
    return out
