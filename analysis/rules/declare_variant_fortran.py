"""Fortran declare variant restrictions (OMP302, OMP305, OMP306, OMP309, OMP310, OMP313-OMP316).

The directives are resolved by `variants_fortran` (base procedure, variant procedure, construct
selector set). Rules stay silent where the model is unsure: a name a module of another file could
bring in, a scope marked incomplete, a type the model cannot read. The directive-only checks
(OMP301, OMP308, OMP311, repeated adjust_args arguments) live in `declare_variant` for every
language; context selectors in their own module.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..model.file_model import (
    ENTRY,
    FUNCTION,
    GENERIC,
    PROCEDURE,
    PROCEDURE_POINTER,
    TYPE,
    VARIABLE,
    Scope,
    Symbol,
)
from ..semantics.call_graph import USE
from ..semantics.context import FileContext
from ..semantics.variants_fortran import (
    EXPRESSION_TRAITS,
    SUBPROGRAMS,
    Identity,
    Lookup,
    Variant,
    identity,
    lexical_context,
    lookup,
    mentioned_as_procedure,
    not_c_ptr,
    procedure_scope,
    source_names,
    unit_of,
)
from ..syntax.diagnostics import Finding, Related
from .registry import rule

_NOT_A_SPECIFIC = {
    GENERIC: ("a generic name", "name one of its specific procedures instead"),
    PROCEDURE_POINTER: ("a procedure pointer", "name the procedure it points to instead"),
    ENTRY: ("an entry name", "name the subprogram that contains the ENTRY statement instead"),
}


# -- shared helpers ------------------------------------------------------------------------------
def _fortran_variants(ctx: FileContext) -> list[Variant]:
    """Every resolved directive: for the rules that compare directives."""
    if not ctx.document.language.is_fortran:
        return []
    return ctx.fortran_variants


def _own(ctx: FileContext) -> Iterator[Variant]:
    """For per-directive rules: the resolved directives, one at a time (FileContext.own_fortran_variants)."""
    if not ctx.document.language.is_fortran:
        return iter(())
    return ctx.own_fortran_variants()


def _line(ctx: FileContext, offset: int) -> int:
    return ctx.document.lines.line_of(offset) + 1


def _unit_name(scope: Scope) -> str:
    if scope.kind == "program" and not scope.name:
        return "the main program"
    if scope.interface_body:
        return f"the interface body of '{scope.name}'"
    return f"{scope.kind} '{scope.name}'" if scope.name else scope.kind


def _base_name(v: Variant) -> str:
    if v.base is not None:
        return v.base.name
    return v.base_item.text if v.base_item is not None else "the base procedure"


def _base_scope(ctx: FileContext, v: Variant) -> Scope | None:
    """The subprogram or interface body of the base procedure (None: not in this file, or unsure)."""
    if v.base is None:
        return None
    if v.scope.kind in SUBPROGRAMS and v.scope.symbol is v.base:
        found: Scope | None = v.scope
    else:
        found = procedure_scope(ctx.model, v.base)
    return found if found is not None and found.complete else None


def _construct_text(construct: tuple[tuple[str, str], ...]) -> str:
    if not construct:
        return "no construct selector set"
    return "construct={" + ", ".join(name + (f"({props})" if props else "") for name, props in construct) + "}"


# -- OMP302: the variant (or base) name is not a procedure ---------------------------------------
def _why_not_a_procedure(ctx: FileContext, v: Variant, name: str, found: Lookup) -> tuple[str, Symbol | None] | None:
    """Why `name` certainly denotes no procedure in the directive's scope, or None when it may."""
    if any(s.is_procedure for s in found.symbols) or not found.certain:
        return None
    key = name.lower()
    skip = [d.span for d in ctx.directives] + [s.span for s in found.symbols]
    if mentioned_as_procedure(ctx, key, v.scope, skip):
        return None  # `name(...)` or `call name` makes it an external procedure, declared or not
    unit = unit_of(v.scope)
    if found.symbols:
        sym = found.symbols[0]
        if sym.kind == VARIABLE:
            if "parameter" in sym.specifiers:
                return f"a named constant in {_unit_name(sym.scope)}", sym
            if "dummy" in sym.specifiers:
                return (f"a dummy argument of {_unit_name(sym.scope)} that is not declared as a procedure "
                        "(EXTERNAL, an interface body or a procedure declaration statement)"), sym
            return f"a variable of {_unit_name(sym.scope)}", sym
        if sym.kind == TYPE:
            return "a derived type", sym
        return None
    if unit.interface_body and unit.parent is not None and \
            lookup(ctx, key, unit.parent).procedure is not None:
        return (f"not declared in {_unit_name(unit)}: an interface body does not see its host's names; "
                f"add 'import :: {name}' to it"), None
    external = next((s for s in ctx.model.named(key) if s.kind == FUNCTION and s.definition
                     and s.scope.kind == "file"), None)
    if external is not None:
        return (f"not declared in {_unit_name(unit)}: it is an external subprogram of this file, which "
                f"{_unit_name(unit)} does not know by name; declare it there with an interface body or an "
                "EXTERNAL statement"), external
    return (f"not declared in {_unit_name(unit)}: declare the procedure (or use the module that defines it) "
            "in this scoping unit"), None


@rule("OMP302", per_directive=True)
def variant_not_a_procedure(ctx: FileContext) -> Iterator[Finding]:
    """variant-proc-name (or base-proc-name) that does not name a procedure."""
    for v in _own(ctx):
        if v.scope.kind in ("file", "interface", "type"):
            continue  # no scoping unit to look in (OMP315 reports where the directive is)
        checks = [(v.variant_item, v.variant, "variant")]
        if v.base_item is not None and v.base_lookup is not None and v.base is None:
            checks.append((v.base_item, v.base_lookup, "base procedure"))
        for item, found, role in checks:
            name = item.name or item.text
            why = _why_not_a_procedure(ctx, v, name, found)
            if why is None:
                continue
            text, sym = why
            where = "defined" if sym is not None and sym.kind == FUNCTION else "declared"
            related = [Related(sym.name_span, f"'{sym.name}' is {where} here")] if sym is not None else []
            yield Finding("OMP302", f"the {role} '{name}' of this declare variant directive does not name a "
                          f"procedure: '{name}' is {text}", item.span, related=related)


# -- OMP305, OMP306: the variant is a base procedure -----------------------------------------------
@rule("OMP305", per_directive=True)
def variant_is_the_base(ctx: FileContext) -> Iterator[Finding]:
    """The variant is the base procedure itself."""
    for v in _own(ctx):
        base = v.base_identity
        if base is not None and v.variant_identity == base:
            yield Finding("OMP305", f"'{v.variant_item.text}' is the base procedure itself: the variant of a "
                          "declare variant directive must be a different procedure", v.variant_item.span)


@rule("OMP306")
def variant_is_a_base(ctx: FileContext) -> Iterator[Finding]:
    """The variant is itself the base procedure of another declare variant directive."""
    found = _fortran_variants(ctx)
    bases: dict[Identity, list[Variant]] = {}
    for v in found:
        if v.base_identity is not None:
            bases.setdefault(v.base_identity, []).append(v)
    for v in found:
        ident = v.variant_identity
        if ident is None or ident == v.base_identity:
            continue  # OMP305's business
        other = next((w for w in bases.get(ident, []) if w is not v), None)
        if other is None:
            continue
        yield Finding(
            "OMP306",
            f"the variant '{v.variant_item.text}' is itself the base procedure of another declare variant "
            f"directive (line {_line(ctx, other.directive.span[0])}): variant replacement does not nest, so when "
            f"'{v.variant_item.text}' is called in place of '{_base_name(v)}' its own variants are not applied; "
            "name the final variant here instead",
            v.variant_item.span,
            related=[Related(other.directive.name_span, f"'{v.variant_item.text}' has a variant here")])


# -- OMP309, OMP310: adjust_args ---------------------------------------------------------------------
def _dummies(scope: Scope) -> dict[str, Symbol]:
    return {s.key: s for s in scope.symbols if "dummy" in s.specifiers}


@rule("OMP309", per_directive=True)
def adjust_args_not_a_dummy(ctx: FileContext) -> Iterator[Finding]:
    """An adjust_args argument that is not a dummy argument of the base procedure."""
    for v in _own(ctx):
        clauses = v.directive.clauses_named("adjust_args")
        if not clauses:
            continue
        scope = _base_scope(ctx, v)
        if scope is None or scope.symbol is None:
            continue
        dummies = _dummies(scope)
        names = ", ".join(s.name for s in dummies.values())  # in the order of the header
        have = f"its dummy arguments are {names}" if names else f"'{scope.symbol.name}' has no dummy arguments"
        for c in clauses:
            for item in c.items:
                if item.name is None or not item.is_plain_name or item.name.lower() in dummies:
                    continue
                yield Finding("OMP309", f"'{item.text}' is not a dummy argument of the base procedure "
                              f"'{scope.symbol.name}' ({have}): adjust_args names arguments of the base procedure",
                              item.span, related=[Related(scope.symbol.name_span, f"'{scope.symbol.name}' is "
                                                          "declared here")])


@rule("OMP310", per_directive=True)
def need_device_ptr_not_c_ptr(ctx: FileContext) -> Iterator[Finding]:
    """A need_device_ptr argument whose declared type is not type(c_ptr)."""
    for v in _own(ctx):
        clauses = [c for c in v.directive.clauses_named("adjust_args")
                   if any(m.name.startswith("need_device_ptr") for m in c.modifiers)]
        if not clauses:
            continue
        scope = _base_scope(ctx, v)
        if scope is None:
            continue
        dummies = _dummies(scope)
        for c in clauses:
            for item in c.items:
                sym = dummies.get((item.name or "").lower()) if item.is_plain_name else None
                if sym is None or sym.kind != VARIABLE:
                    continue
                declared = not_c_ptr(ctx, scope, sym)
                if declared is None:
                    continue
                yield Finding("OMP310", f"'{item.text}' is declared {declared}: a need_device_ptr argument must be "
                              "a dummy argument of type(c_ptr) (from iso_c_binding)", item.span,
                              related=[Related(sym.span, f"'{sym.name}' is declared here")])


# -- OMP313, OMP314: construct selector sets -------------------------------------------------------
@rule("OMP313")
def construct_sets_differ(ctx: FileContext) -> Iterator[Finding]:
    """The same procedure made a variant by directives whose construct selector sets differ."""
    first: dict[Identity, Variant] = {}
    for v in _fortran_variants(ctx):
        ident = v.variant_identity
        if ident is None or v.construct is None:
            continue
        earlier = first.setdefault(ident, v)
        if earlier is v or earlier.construct == v.construct:
            continue
        assert earlier.construct is not None
        yield Finding(
            "OMP313",
            f"'{v.variant_item.text}' is made a variant with {_construct_text(v.construct)} here but with "
            f"{_construct_text(earlier.construct)} at line {_line(ctx, earlier.directive.span[0])}: every declare "
            f"variant directive that names '{v.variant_item.text}' must give it the same construct selector set",
            v.variant_item.span, related=[Related(earlier.variant_item.span, "the other construct selector set")])


@rule("OMP314")
def variant_called_out_of_context(ctx: FileContext) -> Iterator[Finding]:
    """A variant called directly where the OpenMP context lacks the construct traits its
    construct selector set names. Decided only where the context is known: inside a target
    region (the context stops there), in the main program, and, for the target trait alone,
    in procedures that never run on the device."""
    found = _fortran_variants(ctx)
    by_variant: dict[Identity, list[Variant]] = {}
    for v in found:
        ident = v.variant_identity
        if ident is not None:
            by_variant.setdefault(ident, []).append(v)
    # Every directive names known construct traits. Not dispatch: calling a dispatch variant
    # directly (with device pointers and an interop object of one's own) is how dispatch is bypassed.
    wanted = {ident: vs for ident, vs in by_variant.items()
              if all(v.construct_traits and "dispatch" not in (v.construct_traits or ()) for v in vs)}
    if not wanted:
        return
    model = ctx.model
    keys = {ident[-1] for ident in wanted}
    resolved: dict[tuple[str, int], Identity | None] = {}
    for ref in model.references:
        if not ref.call or ref.key not in keys:
            continue
        k = (ref.key, id(ref.scope))
        if k not in resolved:
            proc = lookup(ctx, ref.key, ref.scope).procedure
            resolved[k] = identity(proc) if proc is not None else None
        ident = resolved[k]
        vs = wanted.get(ident) if ident is not None else None
        if not vs:
            continue
        unit = unit_of(ref.scope)
        if unit.kind not in ("program", *SUBPROGRAMS) or unit.interface_body or not unit.complete:
            continue
        sets = [v.construct_traits or () for v in vs]
        context = lexical_context(ctx, ref.span[0], unit)
        if context is None:
            continue
        traits, closed = context
        if closed or unit.kind == "program":
            if any(set(s) <= traits for s in sets):
                continue
            missing = [t for t in sets[0] if t not in traits]
            if "target" in missing:
                where = "outside any target region"
            elif closed:
                where = (f"in a target region without a {' '.join(missing)} construct inside it (the OpenMP "
                         "context of a call starts at its target construct)")
            else:
                where = f"outside any {' '.join(missing)} construct"
        else:
            if not all("target" in s for s in sets) or unit.symbol is None:
                continue
            own = identity(unit.symbol)
            if own in by_variant or _may_run_on_device(ctx, unit.symbol):
                continue  # a variant's body, or a procedure that may run on the device
            missing = ["target"]
            where = f"in {_unit_name(unit)}, which never runs inside a target region"
        v = vs[0]
        yield Finding(
            "OMP314",
            f"'{ref.name}' is a variant for {_construct_text(v.construct or ())} but is called directly {where}: "
            f"call the base procedure '{_base_name(v)}' and let the variant be chosen, or call "
            f"'{ref.name}' only inside a {' '.join(missing)} construct",
            ref.span, related=[Related(v.variant_item.span, f"'{ref.name}' is declared a variant here")])


def _may_run_on_device(ctx: FileContext, procedure: Symbol) -> bool:
    """Device code as propagation finds it, or referenced other than by a call (a procedure
    argument: its callers are unknown), or anything when the model is unsure of the file."""
    if not ctx.model.complete:
        return True
    graph = ctx.device_graph
    key = graph.files[ctx.path].key_of(procedure)
    if key is None:
        return True
    return graph.device_code(key) or any(e.target == key and e.kind == USE for e in graph.edges(ctx.path))


# -- OMP315: placement ---------------------------------------------------------------------------
def _outside_specification_part(v: Variant) -> str | None:
    """Where the directive is, when that is not a specification part."""
    scope = v.scope
    offset = v.directive.span[0]
    if scope.kind == "file":
        return "outside any program unit"
    if scope.kind == "interface":
        return "in an interface block but outside any interface body"
    if scope.kind == "type":
        return "inside a derived-type definition"
    part = scope.spec_part
    if part is None or part[0] <= offset < part[1]:
        return None
    if scope.kind in ("module", "submodule") or any(c.span[0] < offset for c in scope.children if c.kind in SUBPROGRAMS):
        return f"after the CONTAINS statement of {_unit_name(scope)}"
    return f"in the execution part of {_unit_name(scope)}"


@rule("OMP315", per_directive=True)
def placement(ctx: FileContext) -> Iterator[Finding]:
    """base-proc-name that is a generic name, procedure pointer or entry name; the directive
    outside a specification part; base-proc-name omitted outside a subprogram."""
    for v in _own(ctx):
        if not ctx.model.complete:
            return
        d = v.directive
        if not v.scope.complete:
            continue
        where = _outside_specification_part(v)
        if where is not None:
            yield Finding("OMP315", f"a declare variant directive must be in a specification part, but this one is "
                          f"{where}: move it up among the declarations of the base procedure (or of its "
                          "interface body)", d.name_span)
            continue
        if v.base_item is not None and v.base_lookup is not None and v.base is not v.scope.symbol:
            kinds = {s.kind for s in v.base_lookup.symbols}
            bad = next((s for s in v.base_lookup.symbols if s.kind in _NOT_A_SPECIFIC), None)
            if bad is not None and not kinds & {FUNCTION, PROCEDURE, VARIABLE}:
                what, advice = _NOT_A_SPECIFIC[bad.kind]
                yield Finding("OMP315", f"the base procedure '{v.base_item.text}' is {what}: base-proc-name must "
                              f"name a specific procedure; {advice}", v.base_item.span,
                              related=[Related(bad.name_span, f"'{bad.name}' is declared here")])
        if v.base_item is None and v.scope.kind not in SUBPROGRAMS and v.scope.kind != "block":
            yield Finding("OMP315", f"this declare variant directive has no base-proc-name, so it applies to the "
                          f"enclosing subroutine or function, but it is in {_unit_name(v.scope)}: write "
                          f"'declare variant(base-proc-name:{v.variant_item.text})' naming the base procedure",
                          d.argument_span or d.name_span)


# -- OMP316: match expressions ---------------------------------------------------------------------
@rule("OMP316", per_directive=True)
def match_variable_not_accessible(ctx: FileContext) -> Iterator[Finding]:
    """A local variable of the base procedure in a match-clause expression: the expression is
    evaluated at each call site, where the local does not exist."""
    for v in _own(ctx):
        scope = v.scope
        if scope.kind not in SUBPROGRAMS or v.base is None or scope.symbol is not v.base or not scope.complete:
            continue
        match = v.directive.clause("match")
        if match is None or match.selector is None:
            continue
        spans = []
        for trait_set in match.selector.sets:
            for sel in trait_set.selectors:
                if sel.score is not None:
                    spans.append(sel.score.span)
                if sel.name.lower() in EXPRESSION_TRAITS:
                    spans.extend(p.span for p in sel.properties if not p.is_string)
        for span in spans:
            for key, name_span in source_names(ctx, span):
                sym = next((s for s in scope.declared(key) if s.kind == VARIABLE), None)
                if sym is None or "dummy" in sym.specifiers or "parameter" in sym.specifiers or sym.common is not None:
                    continue
                yield Finding(
                    "OMP316",
                    f"'{sym.name}' is a local variable of '{scope.symbol.name}': a match expression is evaluated "
                    f"at each call site of '{scope.symbol.name}', where '{sym.name}' is not accessible; use a "
                    "dummy argument or a module variable", name_span,
                    related=[Related(sym.name_span, f"'{sym.name}' is declared here")])
