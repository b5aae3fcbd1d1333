"""Clause restrictions of the target construct and its combined forms (OMP201–OMP204,
OMP207–OMP210, OMP213).

The rules read the clauses of each `target ...` directive (`is_target_region`), and the
program model where a list item's declaration matters. They stay silent where the
source does not decide: a directive a macro stands in for, an expression that is not a
constant, a type or allocator from a header, a `requires` directive that may come from
a user header or a module defined elsewhere.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..directives.nodes import Clause, Directive, Expr, ListItem
from ..directives.parser import allowed_in
from ..directives.schema import DirectiveSpec
from ..directives.tables import DIRECTIVES
from ..model.c_types import ARITHMETIC_TYPEDEFS
from ..model.constants import constant_value
from ..model.file_model import FUNCTION, MODULE, TYPE, VARIABLE, Scope, Symbol, is_target_region, is_target_region_name
from ..semantics.context import FileContext
from ..syntax.diagnostics import Finding, Fix, Related, Severity
from ..syntax.document import Language, Span
from .registry import rule

if TYPE_CHECKING:
    import tree_sitter

# ---------------------------------------------------------------------------------------------
# OpenMP facts
# ---------------------------------------------------------------------------------------------

# Words that are map types, with the version that introduced them (6.0 `storage`; the parser
# reports a map type the selected version does not know).
MAP_TYPES: dict[str, int] = {"to": 45, "from": 45, "tofrom": 45, "alloc": 45, "release": 45, "delete": 45,
                             "storage": 60}

# Map types each directive allows, from the version in which the set took effect. 5.2 made
# `tofrom` both map-entering and map-exiting; 6.0 added `storage`. `release` and `delete`
# never apply to a construct that maps on entry and unmaps on exit.
_ENTRY_EXIT = frozenset({"to", "from", "tofrom", "alloc"})
ALLOWED_MAP_TYPES: dict[str, tuple[tuple[int, frozenset[str]], ...]] = {
    "target": ((45, _ENTRY_EXIT), (60, _ENTRY_EXIT | {"storage"})),
    "target data": ((45, _ENTRY_EXIT), (60, _ENTRY_EXIT | {"storage"})),
    "target enter data": ((45, frozenset({"to", "alloc"})), (52, frozenset({"to", "tofrom", "alloc"})),
                          (60, frozenset({"to", "tofrom", "alloc", "storage"}))),
    "target exit data": ((45, frozenset({"from", "release", "delete"})),
                         (52, frozenset({"from", "tofrom", "release", "delete"})),
                         (60, frozenset({"from", "tofrom", "release", "delete", "storage"}))),
}
# Before 5.2 every map clause of these directives must name a map type (5.2 gave them defaults).
MAP_TYPE_REQUIRED_UNTIL: dict[str, int] = {"target enter data": 51, "target exit data": 51}

# The only clauses a target construct with device(ancestor: ...) may have.
ANCESTOR_CLAUSES = frozenset({"device", "firstprivate", "private", "defaultmap", "map"})

# Named device numbers: (first version that defines the name, its value; None = implementation defined).
DEVICE_CONSTANTS: dict[str, tuple[int, int | None]] = {
    "omp_initial_device": (52, -1),
    "omp_invalid_device": (52, None),
}
# Directives whose device clause names a device number (ancestor is checked separately).
DEVICE_DIRECTIVES = frozenset({"target data", "target enter data", "target exit data", "target update"})

# Predefined memory allocators (5.0), and the ones LLVM predefines in addition.
PREDEFINED_ALLOCATORS = frozenset({
    "omp_default_mem_alloc", "omp_large_cap_mem_alloc", "omp_const_mem_alloc", "omp_high_bw_mem_alloc",
    "omp_low_lat_mem_alloc", "omp_cgroup_mem_alloc", "omp_pteam_mem_alloc", "omp_thread_mem_alloc",
})
IMPLEMENTATION_ALLOCATORS = frozenset({
    "llvm_omp_target_host_mem_alloc", "llvm_omp_target_shared_mem_alloc", "llvm_omp_target_device_mem_alloc",
})
# Not an allocator: as an argument it selects the default allocator (def-allocator-var).
NULL_ALLOCATOR = "omp_null_allocator"

# Memory routines that take allocators: (0-based argument position, Fortran keyword) of each.
ALLOCATION_ROUTINES: dict[str, tuple[tuple[int, str], ...]] = {
    "omp_alloc": ((1, "allocator"),),
    "omp_aligned_alloc": ((2, "allocator"),),
    "omp_calloc": ((2, "allocator"),),
    "omp_aligned_calloc": ((3, "allocator"),),
    "omp_realloc": ((2, "allocator"), (3, "free_allocator")),
    "omp_free": ((1, "allocator"),),
}
# Directives inside a target region whose allocators the region's uses_allocators must list.
ALLOCATOR_DIRECTIVES = frozenset({"allocate", "allocators"})

# Fortran modules that cannot hold a user's requires directive.
INTRINSIC_MODULES = frozenset({
    "omp_lib", "omp_lib_kinds", "iso_c_binding", "iso_fortran_env", "ieee_arithmetic", "ieee_exceptions",
    "ieee_features",
})

_DATA_SHARING = ("private", "firstprivate")
_DEVICE_ADDRESS = ("is_device_ptr", "has_device_addr")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_LITERAL = re.compile(r"[-+]?\s*\d+")


# ---------------------------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------------------------

def _targets(ctx: FileContext) -> list[tuple[int, Directive]]:
    """Target constructs (plain and combined) that are `_as_written`. Found once per file: every
    rule here asks."""
    found = ctx.__dict__.get("_target_constructs")
    if found is None:   # (from the index by name: an edit of one directive hands that on, not this)
        names = [name for name in ctx.directive_names() if is_target_region_name(name)]
        found = ctx.__dict__["_target_constructs"] = [(i, d) for i, d in ctx.directives_named(*names) if _as_written(d)]
    return found


def _as_written(d: Directive) -> bool:
    """No macro stands in for part of the directive, nor does it lie in a #define (where neither
    the scope nor the position of its expansion is known)."""
    return not d.uses_macros and not d.raw.in_macro


def _combined(d: Directive) -> bool:
    return d.name != "target"


def _key(ctx: FileContext, item: ListItem) -> str | None:
    """What makes two list items name the same variable: the base name (Fortran: any case)."""
    if item.name is None:
        return None
    name = item.name.lower() if ctx.document.language.is_fortran else item.name
    return f"/{name}/" if item.common_block else name


def _version_set(table: tuple[tuple[int, frozenset[str]], ...], version: int) -> frozenset[str]:
    chosen = table[0][1]
    for since, allowed in table:
        if version >= since:
            chosen = allowed
    return chosen


def _words(names: frozenset[str] | set[str]) -> str:
    order = ("to", "from", "tofrom", "alloc", "storage", "release", "delete")
    return ", ".join(f"'{n}'" for n in order if n in names)


def _ancestor(d: Directive) -> tuple[Clause, Expr | None] | None:
    """The device clause with the ancestor modifier, and its expression."""
    c = d.clause("device")
    if c is None or c.modifier("ancestor") is None:
        return None
    return c, c.expr


# -- requires directives ------------------------------------------------------------------



def _enabled(ctx: FileContext, d: Directive, clause: str) -> bool | None:
    """Whether a requires directive asks for `clause` (6.0 `clause(false)` does not)."""
    c = d.clause(clause)
    if c is None:
        return False
    if c.expr is None:
        return True
    value = constant_value(ctx, c.expr)
    return None if value is None else value != 0


def _requires(ctx: FileContext, clause: str, span: Span, before: int | None) -> tuple[bool | None, Directive | None]:
    """Whether a requires directive with `clause` lies in `span` (and before `before`).

    (True, d) found; (False, None) none; (None, None) a macro hides what a requires directive asks."""
    unsure = False
    for _, d in ctx.directives_named("requires"):
        if not span[0] <= d.span[0] < span[1]:
            continue
        if before is not None and d.span[0] >= before:
            break
        if d.uses_macros:
            unsure = True
            continue
        state = _enabled(ctx, d, clause)
        if state:
            return True, d
        unsure = unsure or state is None
    return (None if unsure else False), None


def _program_unit(ctx: FileContext, offset: int) -> Scope | None:
    """Fortran: the program unit (outermost scope below the file) holding `offset`."""
    unit: Scope | None = None
    for s in ctx.model.scope_at(offset).ancestors():
        if s.parent is None:
            break
        unit = s
    return unit


def _module_scopes(ctx: FileContext) -> dict[str, Scope]:
    cached = ctx.__dict__.get("_target_clause_modules")
    if cached is None:
        cached = {s.name.lower(): s for s in ctx.model.root.children if s.kind == MODULE}
        ctx.__dict__["_target_clause_modules"] = cached
    return cached


def _requirement(ctx: FileContext, clause: str, offset: int, *, before: bool) -> bool | None:
    """Whether a `requires <clause>` directive applies at `offset` (None: the source cannot tell).

    C/C++: anywhere in the translation unit (before `offset` when `before`); a user header
    could hold one. Fortran: in the program unit (a compilation unit in OpenMP's terms) or
    in a module it uses; a module from another file could hold one."""
    src = ctx.document.source
    limit = offset if before else None
    if not ctx.document.language.is_fortran:
        found, _ = _requires(ctx, clause, (0, len(src)), limit)
        if found is False and ctx.model.user_includes(0, offset if before else None):
            return None
        return found
    unit = _program_unit(ctx, offset)
    if unit is None or not unit.complete:
        return None
    found, _ = _requires(ctx, clause, unit.span, limit)
    if found is not False:
        return found
    if ctx.model.user_includes(unit.span[0], offset if before else unit.span[1]):
        return None
    modules = _module_scopes(ctx)
    todo = [u for s in ctx.model.scope_at(offset).ancestors() for u in s.uses]
    todo += [u for s in unit.walk() for u in s.uses]
    seen: set[str] = set()
    while todo:
        name = todo.pop().lower()
        if name in seen or name in INTRINSIC_MODULES:
            continue
        seen.add(name)
        module = modules.get(name)
        if module is None:
            return None  # defined in another file: it may hold the requires directive
        found, _ = _requires(ctx, clause, module.span, None)
        if found is not False:
            return found
        todo.extend(u for s in module.walk() for u in s.uses)
    return False


# -- declarations ---------------------------------------------------------------------------

def _lookup(ctx: FileContext, key: str, offset: int) -> list[Symbol]:
    """Declarations of `key` visible at `offset`; Fortran also through USE of a module of this
    file (a module from another file, or a renaming USE, leaves the name unknown)."""
    model = ctx.model
    fortran = ctx.document.language.is_fortran
    hits = model.visible(key, offset, before=not fortran)
    if hits or not fortran:
        return hits
    modules = _module_scopes(ctx)
    for scope in model.scope_at(offset).ancestors():
        for name in scope.uses:
            module = modules.get(name.lower())
            if module is not None and module.complete:
                found = module.declared(key)
                if found:
                    return found
    return []


def _variable(ctx: FileContext, item: ListItem) -> Symbol | None:
    """The variable a plain list item names, when the model knows it for sure."""
    if not item.is_plain_name or item.name is None or item.name in ctx.macros:
        return None
    model = ctx.model
    if not model.complete:
        return None
    fortran = ctx.document.language.is_fortran
    hits = model.visible(model.key_of(item.name), item.span[0], before=not fortran)
    if len(hits) != 1 or hits[0].kind != VARIABLE or not hits[0].scope.complete:
        return None
    return hits[0]


_DECLARATION_NODES = frozenset({"declaration", "parameter_declaration", "optional_parameter_declaration",
                                "field_declaration", "type_definition"})
def _c_pointer_like(ctx: FileContext, sym: Symbol) -> bool | None:
    """Whether a C/C++ variable is a pointer, an array, or a reference to one (None when the
    source does not say: a typedef or class from a header, a template, `auto`)."""
    types = ctx.c_types
    ctype = types.variable(sym) if types is not None else None
    if ctype is None:
        return None
    if ctype.is_pointer or any(kind == "[]" for kind, _ in ctype.levels[-2:]):
        return True
    base = [kind for kind, _ in ctype.levels if kind not in ("&", "&&")]
    return False if ctype.known or (len(base) == 1 and base[0] in ARITHMETIC_TYPEDEFS) else None


def _fortran_c_ptr(ctx: FileContext, sym: Symbol) -> bool | None:
    """Whether a Fortran variable is of type C_PTR (None: its declaration does not say; any type
    name not defined in this file may be C_PTR renamed by a USE). Fortran files only: the
    import waits here so that a C check never loads the Fortran model."""
    from ..model.model_fortran import declared_c_ptr

    def defined_here(name: str) -> bool:
        types = _lookup(ctx, name, sym.name_span[0])
        return bool(types) and all(s.kind == TYPE for s in types)
    return declared_c_ptr(sym, defined_here)


# ---------------------------------------------------------------------------------------------
# OMP201: map types
# ---------------------------------------------------------------------------------------------

@rule("OMP201", per_directive=True)
def map_type_not_allowed(ctx: FileContext) -> Iterator[Finding]:
    known = {w for w, since in MAP_TYPES.items() if ctx.version >= since}
    for _, d in ctx.each_directive():
        kind = "target" if is_target_region(d) else d.name
        table = ALLOWED_MAP_TYPES.get(kind)
        if table is None or d.uses_macros:
            continue
        allowed = _version_set(table, ctx.version)
        required = ctx.version <= MAP_TYPE_REQUIRED_UNTIL.get(kind, 0)
        for c in d.clauses_named("map"):
            types = [m for m in c.modifiers if m.name in known]
            if not types and required and c.items:
                yield Finding("OMP201", f"a map clause of '{d.name}' must name its map type ({_words(allowed)}) "
                              "before OpenMP 5.2", c.name_span)
            for m in types:
                if m.name not in allowed:
                    yield Finding("OMP201", f"map type '{m.name}' is not allowed on '{d.name}'; use one of "
                                  f"{_words(allowed)}", m.span)


# ---------------------------------------------------------------------------------------------
# OMP202–OMP204: device(ancestor: ...)
# ---------------------------------------------------------------------------------------------

def _ancestor_targets(ctx: FileContext) -> Iterator[tuple[Directive, Clause, Expr | None]]:
    if ctx.version < 50:
        return  # no ancestor modifier before 5.0 (the parser reports it)
    for _, d in ctx.each_directive(_targets(ctx)):
        found = _ancestor(d)
        if found is not None:
            yield d, found[0], found[1]


@rule("OMP202", per_directive=True)
def ancestor_without_reverse_offload(ctx: FileContext) -> Iterator[Finding]:
    for d, device, _ in _ancestor_targets(ctx):
        if _requirement(ctx, "reverse_offload", d.span[0], before=True) is not False:
            continue
        later = _requires(ctx, "reverse_offload", (d.span[1], len(ctx.document.source)), None)[1]
        related = [Related(later.span, "this requires directive comes too late: it must precede the construct")] \
            if later is not None and not ctx.document.language.is_fortran else []
        where = "'#pragma omp requires reverse_offload' earlier in this file" \
            if not ctx.document.language.is_fortran else \
            "'!$omp requires reverse_offload' in this program unit or in a module it uses"
        yield Finding("OMP202", f"'device(ancestor: ...)' needs {where}", device.span, related=related)


@rule("OMP203", per_directive=True)
def ancestor_not_one(ctx: FileContext) -> Iterator[Finding]:
    for _, _, expr in _ancestor_targets(ctx):
        if expr is None:
            continue
        value = constant_value(ctx, expr)
        if value is not None and value != 1:
            yield Finding("OMP203", f"'device(ancestor: {expr.text.strip()})' must be 'ancestor: 1' (the parent "
                          "device of the enclosing target region; no other nesting level is defined)", expr.span,
                          fixes=[Fix("Change to 'ancestor: 1'", ((expr.span, "1"),))])


@rule("OMP204", per_directive=True)
def clause_with_ancestor(ctx: FileContext) -> Iterator[Finding]:
    for d, device, _ in _ancestor_targets(ctx):
        for c in d.clauses:
            if c.spec is None or c.name in ANCESTOR_CLAUSES:
                continue
            yield Finding("OMP204", f"'{c.name}' cannot appear with 'device(ancestor: ...)': only device, "
                          "firstprivate, private, defaultmap and map may", c.span,
                          related=[Related(device.span, "ancestor device given here")],
                          fixes=[Fix(f"Remove the '{c.name}' clause", ((c.span, ""),))])


# ---------------------------------------------------------------------------------------------
# OMP207, OMP208: list items in conflicting clauses
# ---------------------------------------------------------------------------------------------

@rule("OMP207", per_directive=True)
def mapped_and_private(ctx: FileContext) -> Iterator[Finding]:
    for _, d in ctx.each_directive(_targets(ctx)):
        if not d.clause("map"):
            continue
        # On combined constructs private goes to the innermost leaf that takes it and firstprivate
        # to teams/distribute/parallel/...: only a clause no other leaf takes stays on target
        # (`target simd firstprivate(y)`; flang rejects it beside map(y)).
        sharing = [n for n in _DATA_SHARING if not _combined(d) or _only_on_target(d, n, ctx.version)]
        if not sharing:
            continue
        mapped: dict[str, ListItem] = {}
        for c in d.clauses_named("map"):
            for item in c.items:
                key = _key(ctx, item)
                if key is not None:
                    mapped.setdefault(key, item)
        for c in d.clauses_named(*sharing):
            for item in c.items:
                key = _key(ctx, item)
                other = mapped.get(key) if key is not None else None
                if other is None:
                    continue
                related = [Related(other.span, f"'{other.text}' mapped here")]
                if not _combined(d):
                    yield Finding("OMP207", f"'{item.text}' is both mapped and {c.name} on this target construct; "
                                  "use one of them", item.span, related=related)
                elif ctx.version < 50:
                    yield Finding("OMP207", f"'{item.text}' is both mapped and {c.name} on '{d.name}', whose "
                                  f"{c.name} clause applies to the target construct; use one of them",
                                  item.span, related=related)
                else:
                    # 5.0+: the clause then applies to no leaf at all (clang accepts it, flang does not)
                    yield Finding("OMP207", f"'{item.text}' is mapped, so {c.name}({item.text}) on '{d.name}' "
                                  f"applies to no leaf construct (only target takes {c.name} here, and not for a "
                                  "mapped variable) and is ignored; use one of them", item.span,
                                  severity=Severity.WARNING, related=related)


def _only_on_target(d: Directive, clause: str, version: int) -> bool:
    """Whether a combined `target ...` construct applies `clause` to its target leaf alone:
    no other leaf construct (from the directive tables) takes it in `version`."""
    leaves = d.name.split()[1:]
    if not leaves or any(DIRECTIVES.get(leaf) is None for leaf in leaves):
        return False  # a leaf the tables do not know by one word: cannot tell
    return not any(_takes_spec(DIRECTIVES[leaf], clause, version) for leaf in leaves)


def _takes_spec(spec: DirectiveSpec, clause: str, version: int) -> bool:
    since = spec.clauses.get(clause)
    return since is not None and allowed_in(since, version)


@rule("OMP208", per_directive=True)
def device_address_conflict(ctx: FileContext) -> Iterator[Finding]:
    for _, d in ctx.each_directive(_targets(ctx)):
        if not d.clauses_named(*_DEVICE_ADDRESS):
            continue
        # Data-sharing clauses of a combined construct apply to an inner leaf.
        names = ("map", *_DEVICE_ADDRESS) + (() if _combined(d) else _DATA_SHARING)
        seen: dict[str, list[tuple[str, ListItem]]] = {}
        for c in d.clauses_named(*names):
            for item in c.items:
                key = _key(ctx, item)
                if key is None:
                    continue
                earlier = seen.setdefault(key, [])
                other = next(((n, x) for n, x in earlier if _conflict(n, c.name)), None)
                earlier.append((c.name, item))
                if other is not None:
                    yield Finding("OMP208", f"'{item.text}' is in '{c.name}' and in '{other[0]}' on this target "
                                  f"construct; {_advice(c.name, other[0])}", item.span,
                                  related=[Related(other[1].span, f"'{other[1].text}' in '{other[0]}' here")])


def _conflict(a: str, b: str) -> bool:
    """is_device_ptr / has_device_addr against each other, map and the data-sharing clauses."""
    return a != b and (a in _DEVICE_ADDRESS or b in _DEVICE_ADDRESS)


def _advice(a: str, b: str) -> str:
    if {a, b} == set(_DEVICE_ADDRESS):
        return "a list item takes one of them"
    return "a variable that already has a device address is neither mapped nor privatized; keep one clause"


# ---------------------------------------------------------------------------------------------
# OMP218: map list items that are no storage
# ---------------------------------------------------------------------------------------------

# Directives whose map (or motion) clauses take storage: the target constructs and the data ones.
_MAPPING_DIRECTIVES = frozenset({"target data", "target enter data", "target exit data"})
_MOTION_CLAUSES = ("to", "from")   # of target update


@rule("OMP218", per_directive=True)
def map_item_not_storage(ctx: FileContext) -> Iterator[Finding]:
    # (the target constructs of _targets, and the data ones: each checked with the clauses it has)
    kinds = [*(name for name in ctx.directive_names() if is_target_region_name(name)), *_MAPPING_DIRECTIVES,
             "target update"]
    for _, d in ctx.each_directive_named(kinds, _as_written):
        names = _MOTION_CLAUSES if d.name == "target update" else ("map",)
        for c in d.clauses_named(*names):
            for item in c.items:
                problem = _not_storage(ctx, item)
                if problem is not None:
                    yield Finding("OMP218", f"'{item.text}' in '{c.name}' {problem}", item.span)


def _not_storage(ctx: FileContext, item: ListItem) -> str | None:
    """What makes a list item no variable, array section or structure element (None: it may be one)."""
    if item.name is None or item.name in ctx.macros:
        return None
    if item.name == "this" and ctx.document.language is Language.CPP:
        return _this_problem(ctx, item)
    if item.is_plain_name:
        function = _named_function(ctx, item.name, item.span[0])
        if function is not None:
            return (f"names the {'subroutine' if _fortran_subroutine(ctx, function) else 'function'} "
                    f"'{function.name}', not a variable: only variables, array sections and structure "
                    "elements can be mapped; remove it (a procedure called in the region needs declare target, "
                    "not map)")
        return None
    if ctx.document.language is Language.CPP and len(item.members) == 1 and not item.subscripts:
        member = _member_function(ctx, item)
        if member is not None:
            return (f"names the member function '{member.name}', not a data member: only variables, array "
                    "sections and structure elements can be mapped; map the object or its data members")
    return None


def _this_problem(ctx: FileContext, item: ListItem) -> str | None:
    """`this` alone and `this` sections other than `this[:1]` (or `this[0:1]`, `this[0]`)."""
    if item.members:
        if len(item.members) == 1 and not item.subscripts:
            member = _member_function(ctx, item)
            if member is not None:
                return (f"names the member function '{member.name}', not a data member: only variables, array "
                        "sections and structure elements can be mapped; map '*this' or its data members")
        return None
    fix = "map 'this[:1]' or '*this' (the object this points to)"
    if not item.subscripts:
        return f"is a pointer value, not storage; {fix}"
    if len(item.subscripts) != 1 or len(item.subscripts[0]) != 1:
        return None
    sub = item.subscripts[0][0]
    if sub.stride is not None:
        return None
    lower = constant_value(ctx, sub.lower) if sub.lower is not None else 0
    if not sub.is_section:
        return f"must be 'this[0]' if subscripted; {fix}" if lower is not None and lower != 0 else None
    length = constant_value(ctx, sub.length) if sub.length is not None else None
    if lower is not None and lower != 0:
        return f"must start at 0: only the object this points to can be mapped; {fix}"
    if length is not None and length != 1:
        return f"must have length 1: only the object this points to can be mapped; {fix}"
    return None


def _named_function(ctx: FileContext, name: str, offset: int) -> Symbol | None:
    """The function a plain name surely names at `offset` (every visible declaration a
    function; Fortran: not a function's own result variable)."""
    model = ctx.model
    if not model.complete:
        return None
    key = model.key_of(name)
    if not any(s.kind == FUNCTION for s in model.named(key)):
        return None   # no function of that name outside bodies: no need to read the bodies
    hits = _lookup(ctx, key, offset)
    if not hits or any(s.kind != FUNCTION or not s.scope.complete for s in hits):
        return None
    if ctx.document.language.is_fortran:
        # inside a function its name is the result variable
        if any(s.symbol in hits for s in model.scope_at(offset).ancestors()):
            return None
    elif any(s.scope.kind not in ("file", "namespace", "class") for s in hits):
        return None  # in a body, `A obj(x, n);` reads as a function declaration but defines an object
    return hits[0]


def _fortran_subroutine(ctx: FileContext, symbol: Symbol) -> bool:
    if not ctx.document.language.is_fortran:
        return False
    return any(s.symbol is symbol and s.kind == "subroutine" for s in ctx.model.root.walk())


def _member_function(ctx: FileContext, item: ListItem) -> Symbol | None:
    """`this->f` / `s.f` where f is a member function (and no data member) of a class of
    this file: the class around the directive, or the declared class of `s`."""
    model = ctx.model
    if not model.complete or item.name is None or item.name in ctx.macros:
        return None
    text = item.text
    if item.name == "this":
        if "->" not in text:
            return None
        owner = model.scope_at(item.span[0]).enclosing("class")
    else:
        if "->" in text or "::" in text:
            return None
        owner = _class_of(ctx, item.name, item.span[0])
    if owner is None or not owner.complete:
        return None
    found = owner.declared(item.members[0])
    if not found or any(s.kind != FUNCTION for s in found):
        return None
    return found[0]


def _class_of(ctx: FileContext, name: str, offset: int) -> Scope | None:
    """The class of this file that a variable (not a pointer or reference) is declared with."""
    hits = ctx.model.visible(name, offset)
    if len(hits) != 1 or hits[0].kind != VARIABLE or ctx.c_types is None:
        return None
    ctype = ctx.c_types.variable(hits[0])
    if ctype is None or not ctype.known or len(ctype.levels) != 1:
        return None
    type_name = ctype.levels[0][0]
    classes = [s for s in ctx.model.root.walk() if s.kind == "class" and s.name == type_name]
    return classes[0] if len(classes) == 1 else None


# ---------------------------------------------------------------------------------------------
# OMP209: is_device_ptr list items
# ---------------------------------------------------------------------------------------------

@rule("OMP209", per_directive=True)
def device_pointer_type(ctx: FileContext) -> Iterator[Finding]:
    fortran = ctx.document.language.is_fortran
    if fortran and ctx.version < 51:
        return  # the C_PTR wording (and its deprecation) is 5.1's
    for _, d in ctx.each_directive(_targets(ctx)):
        for c in d.clauses_named("is_device_ptr"):
            for item in c.items:
                sym = _variable(ctx, item)
                if sym is None:
                    continue
                if fortran:
                    if _fortran_c_ptr(ctx, sym) is False:
                        yield Finding("OMP209", f"'{item.text}' is not of type C_PTR: it is treated as if it were in "
                                      "has_device_addr, which is deprecated in is_device_ptr; use "
                                      "has_device_addr for it", item.span, severity=Severity.WARNING,
                                      related=[Related(sym.span, f"'{sym.name}' declared here")])
                elif _c_pointer_like(ctx, sym) is False:
                    yield Finding("OMP209", f"'{item.text}' is not a pointer or an array; is_device_ptr takes "
                                  "pointers that hold device addresses (use has_device_addr for other variables)",
                                  item.span, related=[Related(sym.name_span, f"'{sym.name}' declared here")])


# ---------------------------------------------------------------------------------------------
# OMP210: device numbers and thread limits
# ---------------------------------------------------------------------------------------------

@rule("OMP210", per_directive=True)
def negative_device_or_thread_limit(ctx: FileContext) -> Iterator[Finding]:
    for _, d in ctx.each_directive():
        if d.uses_macros:
            continue
        device = d.clause("device")
        if device is not None and device.expr is not None and device.modifier("ancestor") is None \
                and (is_target_region(d) or d.name in DEVICE_DIRECTIVES):
            finding = _device_number(ctx, device.expr)
            if finding is not None:
                yield finding
        for c in d.clauses_named("thread_limit"):
            if len(c.exprs) != 1:
                continue
            value = constant_value(ctx, c.exprs[0])
            if value is not None and value <= 0:
                yield Finding("OMP210", f"'thread_limit({c.exprs[0].text.strip()})' must be positive", c.exprs[0].span)


def _device_number(ctx: FileContext, expr: Expr) -> Finding | None:
    text = expr.text.strip()
    named = DEVICE_CONSTANTS.get(text.lower() if ctx.document.language.is_fortran else text)
    if named is not None and ctx.version >= named[0]:
        return None
    value = constant_value(ctx, expr)
    if value is None or value >= 0:
        return None
    if ctx.version >= 52:
        if value == DEVICE_CONSTANTS["omp_initial_device"][1]:
            return None  # the value of omp_initial_device
        hint = ("use a device number from 0 to omp_get_num_devices(), or omp_initial_device / omp_invalid_device "
                "by name (the value of omp_invalid_device is implementation defined)")
    else:
        hint = ("use a device number from 0 to omp_get_num_devices() (the host is omp_get_initial_device(); "
                "omp_initial_device exists from OpenMP 5.2)")
    shown = f"'{text}'" if _LITERAL.fullmatch(text) else f"'{text}' (= {value})"
    return Finding("OMP210", f"device number {shown} is negative; {hint}", expr.span)


# ---------------------------------------------------------------------------------------------
# OMP213: allocators in target regions
# ---------------------------------------------------------------------------------------------

@rule("OMP213", per_directive=True)
def allocator_not_in_uses_allocators(ctx: FileContext) -> Iterator[Finding]:
    if ctx.version < 50:
        return  # no memory allocators before 5.0
    targets = _targets(ctx)
    if not targets:
        return
    extents = ctx.structure.extents
    for index, d in ctx.each_directive(targets):
        extent = extents.get(index)
        uses = {_key(ctx, item) for c in d.clauses_named("uses_allocators") for item in c.items}
        uses.discard(None)
        found = list(_clause_allocators(ctx, d))
        if extent is not None:
            found += _nested_allocators(ctx, index, extent)
            found += _routine_allocators(ctx, index, extent)
        missing = [f for f in found
                   if f[2] is None or _needs_listing(ctx, f[2], uses, on_target=d.span[0] <= f[1][0] < d.span[1])]
        if not missing or _requirement(ctx, "dynamic_allocators", d.span[0], before=False) is not False:
            continue  # `requires dynamic_allocators` (or what may hold one) lifts the restriction
        for what, span, expr in missing:
            yield _allocator_finding(ctx, d, what, span, expr)


def _clause_allocators(ctx: FileContext, d: Directive) -> Iterator[tuple[str, Span, Expr | None]]:
    """(where, span to report, allocator expression or None when the clause names none)."""
    for c in d.clauses_named("allocate"):
        expr = _allocate_clause_allocator(c)
        yield f"the allocate clause of '{d.name}'", (expr.span if expr is not None else c.name_span), expr


def _allocate_clause_allocator(c: Clause) -> Expr | None:
    for m in c.modifiers:
        if m.name in ("<expr>", "allocator") and m.args is not None:
            return m.args
    return None


def _nested_allocators(ctx: FileContext, index: int, extent: Span) -> list[tuple[str, Span, Expr | None]]:
    """Allocators of the directives inside the region (not inside a nested target region)."""
    out: list[tuple[str, Span, Expr | None]] = []
    directives = ctx.directives
    extents = ctx.structure.extents
    for j in range(index + 1, len(directives)):
        inner = directives[j]
        if inner.span[0] >= extent[1]:
            break
        if inner.span[0] < extent[0] or inner.uses_macros or _inside_other_target(ctx, j, index, extents):
            continue
        if inner.name in ALLOCATOR_DIRECTIVES or inner.clause("allocate") is not None:
            if inner.name == "allocate":
                c = inner.clause("allocator")
                expr = c.expr if c is not None else None
                out.append(("the allocate directive in the target region", (expr.span if expr is not None
                                                                             else inner.name_span), expr))
                continue
            out.extend(_clause_allocators(ctx, inner))
    return out


def _inside_other_target(ctx: FileContext, j: int, index: int, extents: dict[int, Span]) -> bool:
    start = ctx.directives[j].span[0]
    for k in range(index + 1, j):
        span = extents.get(k)
        if span is not None and is_target_region(ctx.directives[k]) and span[0] <= start < span[1]:
            return True
    return False


def _routine_allocators(ctx: FileContext, index: int, extent: Span) -> list[tuple[str, Span, Expr | None]]:
    """Allocator arguments of memory routines called in the region."""
    src = ctx.document.source
    if not ctx.mentions(ALLOCATION_ROUTINES):
        return []
    region = src[extent[0]:extent[1]].lower()
    # the text first: a Fortran file is parsed by tree-sitter only for the rules that need its tree
    if not any(name.encode() in region for name in ALLOCATION_ROUTINES) or ctx.document.tree is None:
        return []
    out: list[tuple[str, Span, Expr | None]] = []
    for name, args in _routine_calls(ctx, index, extent):
        for position, keyword in ALLOCATION_ROUTINES[name]:
            node = _argument(ctx, args, position, keyword)
            if node is not None:
                text = src[node.start_byte:node.end_byte].decode("utf-8", "replace")
                out.append((f"'{name}'", (node.start_byte, node.end_byte), Expr(text, (node.start_byte, node.end_byte))))
    return out


def _routine_calls(ctx: FileContext, index: int, extent: Span) -> Iterator[tuple[str, tree_sitter.Node]]:
    """(routine name, argument list node) of each call of an allocation routine in the region."""
    fortran = ctx.document.language.is_fortran
    model = ctx.model
    if not fortran:
        tree = ctx.document.tree
        assert tree is not None
        for ref in model.references:
            if not ref.call or ref.target != index or ref.name not in ALLOCATION_ROUTINES:
                continue
            if any(s.definition for s in model.named(ref.key)):
                continue  # the file defines its own function of that name
            node = tree.root_node.descendant_for_byte_range(ref.span[0], ref.span[1])
            call = node.parent if node is not None else None
            if call is not None and call.type == "call_expression":
                args = call.child_by_field_name("arguments")
                if args is not None:
                    yield ref.name, args
        return
    # Fortran: the model records subroutine calls only, so function references come from the tree.
    tree = ctx.document.tree
    assert tree is not None
    todo = [tree.root_node]
    while todo:
        node = todo.pop()
        if node.end_byte <= extent[0] or node.start_byte >= extent[1]:
            continue
        if node.type in ("call_expression", "subroutine_call"):
            name_node = next((c for c in node.named_children if c.type == "identifier"), None)
            args = next((c for c in node.named_children if c.type == "argument_list"), None)
            if name_node is not None and args is not None:
                name = ctx.document.source[name_node.start_byte:name_node.end_byte].decode("utf-8", "replace").lower()
                if name in ALLOCATION_ROUTINES and extent[0] <= node.start_byte \
                        and not any(s.kind == VARIABLE for s in model.visible(name, node.start_byte, before=False)):
                    yield name, args
        todo.extend(node.named_children)


def _argument(ctx: FileContext, args: tree_sitter.Node, position: int, keyword: str) -> tree_sitter.Node | None:
    """The argument node at `position`, or (Fortran) the one given by `keyword=`."""
    src = ctx.document.source
    positional = []
    for a in args.named_children:
        if a.type == "comment":
            continue
        if a.type == "keyword_argument":
            names = [c for c in a.named_children if c.type == "identifier"]
            if names and src[names[0].start_byte:names[0].end_byte].decode().lower() == keyword:
                return a.named_children[-1]
            continue
        positional.append(a)
    return positional[position] if position < len(positional) else None


def _needs_listing(ctx: FileContext, expr: Expr, uses: set[str | None], *, on_target: bool) -> bool:
    """Whether the allocator is a known one missing from uses_allocators.

    A predefined allocator counts only in an allocate clause of the target construct itself,
    where clang 22 rejects it; inside the region (nested constructs, allocation routines) the
    catalogue exempts predefined allocators, which every implementation provides on the device."""
    text = expr.text.strip()
    if not _IDENTIFIER.fullmatch(text) or text in ctx.macros:
        return False  # an expression or a macro: cannot tell
    fortran = ctx.document.language.is_fortran
    key = text.lower() if fortran else text
    if key in uses or key == NULL_ALLOCATOR:
        return False
    if key in PREDEFINED_ALLOCATORS or key in IMPLEMENTATION_ALLOCATORS:
        return on_target
    hits = _lookup(ctx, key, expr.span[0])
    return bool(hits) and all(s.kind == VARIABLE for s in hits) and hits[0].scope.complete


def _allocator_finding(ctx: FileContext, d: Directive, what: str, span: Span, expr: Expr | None) -> Finding:
    inside = d.span[0] <= span[0] < d.span[1]
    related = [] if inside else [Related(d.name_span, "the target construct")]
    if expr is None:
        return Finding("OMP213", f"{what} names no allocator; in a target region name one that the target "
                       "construct's 'uses_allocators' clause lists (or add 'requires dynamic_allocators')",
                       span, related=related)
    name = expr.text.strip()
    key = name.lower() if ctx.document.language.is_fortran else name
    predefined = key in PREDEFINED_ALLOCATORS or key in IMPLEMENTATION_ALLOCATORS
    fixes = [_add_uses_allocators(ctx, d, name)] if predefined and _takes(d, "uses_allocators", ctx.version) else []
    kind = "the predefined allocator" if predefined else "the allocator"
    return Finding("OMP213", f"{what} uses {kind} '{name}', which the target construct's 'uses_allocators' clause "
                   "does not list; list it there (or add 'requires dynamic_allocators')", span,
                   related=related, fixes=fixes)


def _takes(d: Directive, clause: str, version: int) -> bool:
    since = d.spec.clauses.get(clause) if d.spec is not None else None
    if since is None:
        return False
    first, last = since if isinstance(since, tuple) else (since, 1000)
    return first <= version <= last


def _add_uses_allocators(ctx: FileContext, d: Directive, name: str) -> Fix:
    end = max([d.name_span[1], *(c.span[1] for c in d.clauses)])
    return Fix(f"Add 'uses_allocators({name})'", (((end, end), f" uses_allocators({name})"),))
