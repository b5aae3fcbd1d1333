"""What a target region may contain (OMP205, OMP206, OMP211, OMP212, OMP214-OMP217).

The rules read the facts of `analysis.regions` (each target region's extent, the directives,
calls and member accesses inside it, the code beside a nested teams) and resolve names with
the program model. They stay silent where the source does not decide: a name the model
cannot resolve, a directive a macro stands in for, a scope the model is unsure of, a type
defined elsewhere.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..model.file_model import (
    FUNCTION,
    THREAD,
    VARIABLE,
    FileModel,
    Scope,
    Symbol,
    is_target_region,
)
from ..model.regions import (
    Branch,
    MemberAccess,
    Regions,
    TargetRegion,
    device_ancestor,
)
from ..semantics.context import FileContext
from ..syntax.diagnostics import Finding, Fix, Related
from ..syntax.document import Language
from .registry import rule

if TYPE_CHECKING:
    from ..directives.nodes import Clause, Directive, ListItem
    from ..semantics.declare_target import Binding, Mark

# Constructs that affect the device data environment or start device execution: inside a
# target region (or in code that only runs on a device) their behaviour is unspecified
# (5.1 2.14.5, 2.22: a nested `target` without `device(ancestor: ...)` likewise).
DEVICE_DATA_DIRECTIVES = frozenset({"target data", "target enter data", "target exit data", "target update"})

# Routines whose result is unspecified when called in a target region (5.1 2.14.5).
DEFAULT_DEVICE_ROUTINES = frozenset({"omp_set_default_device", "omp_get_default_device", "omp_get_num_devices"})

# The OpenMP API runtime routines (5.0 to 6.0, C/C++ and Fortran names alike): none may be
# called in a target region with device(ancestor: ...). A table rather than the reserved
# `omp_` prefix: a user's own `omp_something` is not reported.
RUNTIME_ROUTINES = frozenset({
    # parallel regions and thread teams
    "omp_set_num_threads", "omp_get_num_threads", "omp_get_max_threads", "omp_get_thread_num",
    "omp_get_num_procs", "omp_in_parallel", "omp_set_dynamic", "omp_get_dynamic", "omp_get_cancellation",
    "omp_set_nested", "omp_get_nested", "omp_set_schedule", "omp_get_schedule", "omp_get_thread_limit",
    "omp_get_supported_active_levels", "omp_set_max_active_levels", "omp_get_max_active_levels",
    "omp_get_level", "omp_get_ancestor_thread_num", "omp_get_team_size", "omp_get_active_level",
    # thread affinity
    "omp_get_proc_bind", "omp_get_num_places", "omp_get_place_num_procs", "omp_get_place_proc_ids",
    "omp_get_place_num", "omp_get_partition_num_places", "omp_get_partition_place_nums",
    "omp_set_affinity_format", "omp_get_affinity_format", "omp_display_affinity", "omp_capture_affinity",
    # teams
    "omp_get_num_teams", "omp_get_team_num", "omp_set_num_teams", "omp_get_max_teams",
    "omp_set_teams_thread_limit", "omp_get_teams_thread_limit",
    # tasking
    "omp_get_max_task_priority", "omp_in_final", "omp_in_explicit_task", "omp_is_free_agent",
    "omp_ancestor_is_free_agent", "omp_fulfill_event",
    # resource relinquishing
    "omp_pause_resource", "omp_pause_resource_all",
    # devices
    "omp_set_default_device", "omp_get_default_device", "omp_get_num_devices", "omp_get_device_num",
    "omp_is_initial_device", "omp_get_initial_device", "omp_get_device_from_uid", "omp_get_uid_from_device",
    "omp_get_device_num_teams", "omp_set_device_num_teams", "omp_get_device_teams_thread_limit",
    "omp_set_device_teams_thread_limit",
    # device memory
    "omp_target_alloc", "omp_target_free", "omp_target_is_present", "omp_target_is_accessible",
    "omp_target_memcpy", "omp_target_memcpy_rect", "omp_target_memcpy_async", "omp_target_memcpy_rect_async",
    "omp_target_memset", "omp_target_memset_async", "omp_target_associate_ptr", "omp_target_disassociate_ptr",
    "omp_get_mapped_ptr",
    # locks
    "omp_init_lock", "omp_init_nest_lock", "omp_init_lock_with_hint", "omp_init_nest_lock_with_hint",
    "omp_destroy_lock", "omp_destroy_nest_lock", "omp_set_lock", "omp_set_nest_lock", "omp_unset_lock",
    "omp_unset_nest_lock", "omp_test_lock", "omp_test_nest_lock",
    # timing
    "omp_get_wtime", "omp_get_wtick",
    # interoperability
    "omp_get_num_interop_properties", "omp_get_interop_int", "omp_get_interop_ptr", "omp_get_interop_str",
    "omp_get_interop_name", "omp_get_interop_type_desc", "omp_get_interop_rc_desc",
    # memory management
    "omp_init_allocator", "omp_destroy_allocator", "omp_set_default_allocator", "omp_get_default_allocator",
    "omp_alloc", "omp_aligned_alloc", "omp_calloc", "omp_aligned_calloc", "omp_realloc", "omp_free",
    "omp_get_memspace_num_resources", "omp_get_submemspace", "omp_get_devices_memspace",
    "omp_get_device_memspace", "omp_get_devices_and_host_memspace", "omp_get_device_and_host_memspace",
    "omp_get_devices_all_memspace", "omp_get_devices_allocator", "omp_get_device_allocator",
    "omp_get_devices_and_host_allocator", "omp_get_device_and_host_allocator", "omp_get_devices_all_allocator",
    # tools and environment
    "omp_control_tool", "omp_display_env",
})

_THREAD_WORDS = (b"_Thread_local", b"thread_local", b"__thread")  # C11, C++11, GNU
_NON_LOCAL = frozenset({"file", "namespace", "class", "module", "submodule"})
_MAX_RELATED = 8


def _target_related(ctx: FileContext, region: TargetRegion, text: str = "the target region starts here") -> Related:
    return Related(ctx.directives[region.index].name_span, text)


def _ancestor_related(ctx: FileContext, region: TargetRegion) -> Related:
    d = ctx.directives[region.index]
    clause = next((c for c in d.clauses_named("device") if c.modifier("ancestor") is not None), None)
    return Related(clause.span if clause is not None else d.name_span,
                   "device(ancestor: ...) makes this region run on the parent device")


# -- OMP205 ------------------------------------------------------------------------------------
@rule("OMP205")
def construct_in_ancestor_region(ctx: FileContext) -> Iterator[Finding]:
    regions = ctx.regions
    ancestors = [r for r in regions.targets if r.ancestor]
    if not ancestors:
        return
    directives = ctx.directives
    for r in ancestors:
        d = directives[r.index]
        if d.name != "target":
            inner = d.name[len("target "):]
            yield Finding("OMP205", f"'{d.name}' with device(ancestor: ...) opens a '{inner}' construct inside a "
                          "region that runs on the parent device, where no OpenMP construct is allowed; use a plain "
                          "'target' construct", d.name_span, related=[_ancestor_related(ctx, r)])
        for j in regions.directives_in(r.span):
            inner_d = directives[j]
            # constructs are executable directives; declarative ones (declare target with a
            # list, allocate) and metadirectives (which may resolve to nothing) are left alone
            if inner_d.spec is None or inner_d.spec.kind != "executable" or regions.at(inner_d.span[0]) is not r:
                continue
            yield Finding("OMP205", f"'{inner_d.name}' inside a target region with device(ancestor: ...): no OpenMP "
                          "construct may appear in a region that runs on the parent device; move it out of the "
                          "region", inner_d.name_span, related=[_ancestor_related(ctx, r)])
    for call in regions.calls():
        if call.key in RUNTIME_ROUTINES:
            r2 = regions.at(call.span[0])
            if r2 is not None and r2.ancestor:
                yield Finding("OMP205", f"'{call.name}' is an OpenMP runtime routine, which may not be called in a "
                              "target region with device(ancestor: ...); call it outside the region",
                              call.span, related=[_ancestor_related(ctx, r2)])


# -- OMP206 ------------------------------------------------------------------------------------
def _device_affecting(d: Directive) -> bool:
    if d.end_of is not None:
        return False
    if d.name in DEVICE_DATA_DIRECTIVES:
        return True
    # a macro may stand for device(ancestor: ...): then the nested target is legal
    return is_target_region(d) and not d.uses_macros and not device_ancestor(d)


@rule("OMP206", per_directive=True)
def device_construct_in_device_code(ctx: FileContext) -> Iterator[Finding]:
    regions = ctx.regions
    binding = ctx.nohost_binding   # (of the binding, only the nohost marks matter)
    nohost = binding is not None and any(m.device_type == "nohost" for m in binding.marks)
    if not regions.targets and not nohost:
        return
    for _, d in ctx.each_directive():
        if not _device_affecting(d):
            continue
        r = regions.at(d.span[0])
        if r is not None:
            if r.ancestor:
                continue  # the region runs on the host: OMP205 reports any construct there
            outer = ctx.directives[r.index].name
            yield Finding("OMP206", f"'{d.name}' inside a '{outer}' region: device constructs nested in a target "
                          "region have unspecified behaviour; move it before or after the target construct"
                          + ("" if d.name in DEVICE_DATA_DIRECTIVES else " (or add device(ancestor: 1) to run it "
                             "on the host)"), d.name_span, related=[_target_related(ctx, r)])
        elif nohost:
            assert binding is not None
            found = _device_only_function(ctx, binding, d.span[0])
            if found is not None:
                name, marks = found
                yield Finding("OMP206", f"'{d.name}' in '{name}', which is declare target device_type(nohost) and so "
                              "only runs on a device, where device constructs have unspecified behaviour; move it "
                              "to host code", d.name_span,
                              related=[Related(ctx.directives[m.directive].name_span,
                                               f"'{name}' made device-only here") for m in marks])


def _device_only_function(ctx: FileContext, binding: Binding, offset: int) -> tuple[str, list[Mark]] | None:
    """The function holding `offset` when every declare target mark of it says nohost."""
    model = ctx.model
    fortran = ctx.document.language.is_fortran
    scope = model.scope_at(offset).enclosing(*(("subroutine", "function") if fortran else ("function",)))
    if scope is None or scope.symbol is None:
        return None
    symbol = scope.symbol
    same = [symbol] if fortran else [s for s in model.named(symbol.key) if _same_entity(s, symbol)]
    marks = [m for s in same for m in binding.of(s)]
    if marks and all(m.device_type == "nohost" for m in marks):
        return symbol.name, marks
    return None


def _same_entity(found: Symbol, symbol: Symbol) -> bool:
    """The same declaration, or a redeclaration of it outside any function."""
    return found is symbol or (found.kind == symbol.kind and found.qualified == symbol.qualified
                               and found.scope.kind in _NON_LOCAL and symbol.scope.kind in _NON_LOCAL)


# -- name resolution ---------------------------------------------------------------------------
def _resolve(model: FileModel, key: str, offset: int) -> Symbol | None:
    """The declaration a name at `offset` refers to (Fortran: also from modules of this file it uses)."""
    fortran = model.language.is_fortran
    hits = model.visible(key, offset, before=not fortran)
    if hits:
        return hits[0]
    if not fortran:
        return None
    modules = {s.name.lower(): s for s in model.root.children if s.kind == "module"}
    for scope in model.scope_at(offset).ancestors():
        for used in scope.uses:
            module = modules.get(used)
            found = module.declared(key) if module is not None else []
            if found:
                return found[0]
    return None


# -- OMP211 ------------------------------------------------------------------------------------
@rule("OMP211")
def threadprivate_in_target(ctx: FileContext) -> Iterator[Finding]:
    regions = ctx.regions
    device_functions = ctx.has_declare_target
    if not regions.targets and not device_functions:
        return
    model = ctx.model
    fortran = ctx.document.language.is_fortran
    if not model.threadprivate and (fortran or not any(word in ctx.document.source for word in _THREAD_WORDS)):
        return  # neither a threadprivate directive nor a thread-local declaration
    seen: set[tuple[int, int]] = set()
    cache: dict[int, list[Related] | None] = {}
    functions: dict[int, tuple[str, list[Mark]] | None] = {}
    for ref in model.references:
        if ref.call:
            continue
        region = regions.at(ref.span[0])
        device: tuple[str, list[Mark]] | None = None
        if region is None:
            if not device_functions:
                continue
            # 5.1 2.14.5: the code of a target region includes the device procedures it calls
            device = _declare_target_function(ctx, ref.scope, functions)
            if device is None:
                continue
        symbol = _resolve(model, ref.key, ref.span[0])
        where = region.index if region is not None else -1 - id(ref.scope.enclosing("function", "subroutine"))
        if symbol is None or symbol.kind != VARIABLE or (where, id(symbol)) in seen:
            continue
        if id(symbol) not in cache:
            cache[id(symbol)] = _threadprivate(ctx, model, symbol)
        related = cache[id(symbol)]
        if related is None:
            continue
        seen.add((where, id(symbol)))
        what = "thread-local" if symbol.storage == THREAD else "threadprivate"
        if region is not None:
            yield Finding("OMP211", f"'{ref.name}' is {what}: accessing it in a target region has unspecified "
                          "behaviour (the device has no per-thread host copies); copy it into an ordinary variable "
                          "before the target construct and use that", ref.span,
                          related=[*related, _target_related(ctx, region)])
            continue
        assert device is not None
        name, marks = device
        yield Finding("OMP211", f"'{ref.name}' is {what}: accessing it in '{name}', which is declare target, has "
                      "unspecified behaviour when it runs on a device (the device has no per-thread host copies); "
                      "pass the value in as an argument instead", ref.span,
                      related=[*related, *(Related(ctx.directives[m.directive].name_span,
                                                   f"'{name}' made declare target here") for m in marks[:2])])


def _declare_target_function(ctx: FileContext, scope: Scope,
                             cache: dict[int, tuple[str, list[Mark]] | None]) -> tuple[str, list[Mark]] | None:
    """The function holding `scope` when it is declare target for the device (some mark, none
    of them device_type(host)), with its marks; None otherwise."""
    fortran = ctx.document.language.is_fortran
    function = scope.enclosing(*(("subroutine", "function") if fortran else ("function",)))
    if function is None or function.symbol is None:
        return None
    if id(function) not in cache:
        symbol = function.symbol
        model = ctx.model
        same = [symbol] if fortran else [s for s in model.named(symbol.key) if _same_entity(s, symbol)]
        marks = [m for s in same for m in ctx.binding.of(s) if m.kind == "enter"]
        on_device = bool(marks) and all(m.device_type != "host" for m in marks)
        cache[id(function)] = (symbol.name, marks) if on_device else None
    return cache[id(function)]


def _threadprivate(ctx: FileContext, model: FileModel, symbol: Symbol) -> list[Related] | None:
    """Where a variable is made threadprivate (or declared thread-local); None when it is not."""
    if symbol.storage == THREAD:
        # `_Thread_local`/`thread_local` variables are threadprivate in OpenMP (5.1 2.21.1.1), and
        # clang rejects them in device code ("thread-local storage is not supported")
        return [Related(symbol.name_span, f"'{symbol.name}' declared thread-local here")]
    directives = ctx.directives
    out = []
    for i in model.threadprivate.get(symbol.key, []):
        named = _resolve(model, symbol.key, directives[i].span[0])
        if named is not None and _same_entity(named, symbol):
            out.append(Related(directives[i].span, f"'{symbol.name}' made threadprivate here"))
    if symbol.common is not None:
        block = f"/{symbol.common}/"
        for i in model.threadprivate.get(block, []):
            if any(b.scope is symbol.scope for b in model.visible(block, directives[i].span[0], before=False)):
                out.append(Related(directives[i].span, f"common block {block} of '{symbol.name}' made "
                                   "threadprivate here"))
    return out or None


# -- OMP212 ------------------------------------------------------------------------------------
@rule("OMP212")
def default_device_routine_in_target(ctx: FileContext) -> Iterator[Finding]:
    if not ctx.mentions(DEFAULT_DEVICE_ROUTINES):
        return
    regions = ctx.regions
    for call in regions.calls():
        if call.key not in DEFAULT_DEVICE_ROUTINES:
            continue
        region = regions.at(call.span[0])
        if region is None or region.ancestor:
            continue  # an ancestor region runs on the host (and OMP205 reports any runtime call there)
        yield Finding("OMP212", f"the result of '{call.name}' called in a target region is unspecified; call it "
                      "on the host before the target construct and pass the value in", call.span,
                      related=[_target_related(ctx, region)])


# -- OMP214 ------------------------------------------------------------------------------------
@rule("OMP214")
def internal_procedure_in_target(ctx: FileContext) -> Iterator[Finding]:
    if not ctx.document.language.is_fortran:
        return
    regions = ctx.regions
    if not regions.targets:
        return
    model = ctx.model
    internal = {id(s.symbol): s for s in model.root.walk() if s.internal and s.symbol is not None}
    if not internal:
        return
    host_uses: dict[int, list[Symbol]] = {}
    for ref in model.references:
        if not ref.call:
            continue
        region = regions.at(ref.span[0])
        if region is None:
            continue
        callee = _resolve(model, ref.key, ref.span[0])
        scope = internal.get(id(callee)) if callee is not None and callee.kind == FUNCTION else None
        if scope is None or not scope.complete or scope.parent is None or not scope.parent.complete:
            continue
        if id(scope) not in host_uses:
            # a declare target variable of the host exists on the device itself: using it is fine
            host_uses[id(scope)] = [s for s in _host_associated(model, scope)
                                    if not (ctx.has_declare_target and ctx.binding.of(s))]
        used = host_uses[id(scope)]
        if not used:
            continue
        names = ", ".join(f"'{s.name}'" for s in used[:3]) + (" ..." if len(used) > 3 else "")
        host = scope.parent.name or "main program"
        yield Finding("OMP214", f"internal procedure '{scope.name}' uses {names} of its host '{host}' by host "
                      "association, which has unspecified behaviour when it is called in a target region; pass "
                      "them as arguments", ref.span,
                      related=[*(Related(s.name_span, f"'{s.name}' declared in the host '{host}'")
                                 for s in used[:_MAX_RELATED]), _target_related(ctx, region)])


def _host_associated(model: FileModel, scope: Scope) -> list[Symbol]:
    """The variables of the host that the internal procedure `scope` uses, in order of first use."""
    host = scope.parent
    inner = {id(s) for s in scope.walk()}
    found: list[Symbol] = []
    for ref in model.references:
        if ref.call or id(ref.scope) not in inner:
            continue
        owner = next((s for s in ref.scope.ancestors() if s.declared(ref.key)), None)
        if owner is not host:
            continue
        assert owner is not None   # (the host of an internal procedure)
        symbol = owner.declared(ref.key)[0]
        # named constants have no storage: using them is harmless
        if symbol.kind == VARIABLE and "parameter" not in symbol.specifiers and symbol not in found:
            found.append(symbol)
    return found


# -- OMP217 ------------------------------------------------------------------------------------
_BRANCH_ADVICE = {
    "return": "a target region cannot return from the function that holds it; set a flag (map it from "
              "the device) and return after the construct",
    "goto": "a target region is a structured block that can only be left at its end; jump to a label "
            "inside the region instead",
    "break": "it would leave the target region, which can only be left at its end; end the region's "
             "work with a flag instead",
    "continue": "it would leave the target region, which can only be left at its end; end the region's "
                "work with a flag instead",
}


@rule("OMP217", per_directive=True)
def branch_out_of_target(ctx: FileContext) -> Iterator[Finding]:
    regions = ctx.regions
    fortran = ctx.document.language.is_fortran
    by_directive = regions.by_directive()
    for index, d in ctx.each_directive_at(by_directive):
        region = by_directive[index]
        if d.raw.in_macro:
            continue  # what a macro's construct applies to is not seen
        for branch in regions.branches_out(region):
            yield Finding("OMP217", _branch_message(branch, d.name, fortran), branch.span,
                          related=[_target_related(ctx, region)])


def _branch_message(branch: Branch, construct: str, fortran: bool) -> str:
    kind = branch.kind
    if fortran:
        word = kind.upper().replace("GOTO", "GO TO")
        what = f"'{word}{' ' + branch.target if branch.target else ''}'"
        if kind in ("exit", "cycle"):
            named = f"construct '{branch.target}'" if branch.target else "DO loop"
            return (f"{what} leaves the '{construct}' region: the {named} it {'exits' if kind == 'exit' else 'cycles'} "
                    "is outside it, and a target region can only be left at its end; move the loop into the "
                    "region or end its work with a flag")
        if kind == "goto":
            return (f"{what} jumps to a label outside the '{construct}' region; {_BRANCH_ADVICE['goto']}")
        return f"{what} in a '{construct}' region: {_BRANCH_ADVICE['return']}"
    if kind == "goto":
        return f"'goto {branch.target}' jumps to a label outside the '{construct}' region; {_BRANCH_ADVICE['goto']}"
    if kind in ("break", "continue"):
        return (f"'{kind}' binds to no loop{' or switch' if kind == 'break' else ''} inside the '{construct}' "
                f"region: {_BRANCH_ADVICE[kind]}")
    return f"'return' in a '{construct}' region: {_BRANCH_ADVICE['return']}"


# -- OMP215 ------------------------------------------------------------------------------------
@rule("OMP215", per_directive=True)
def teams_beside_other_code(ctx: FileContext) -> Iterator[Finding]:
    regions = ctx.regions
    lines = ctx.document.lines
    by_directive = regions.by_directive()
    for index, d in ctx.each_directive_at(by_directive):
        nesting = regions.teams_nesting(by_directive[index])
        if nesting is None:
            continue
        teams = ctx.directives[nesting.teams]
        first = lines.line_of(nesting.outside[0][0]) + 1
        yield Finding("OMP215", f"this 'target' holds a nested '{teams.name}' construct, so it must contain nothing "
                      f"else; move the code outside the teams construct (first at line {first}) into it or before "
                      "the target construct", d.name_span,
                      related=[Related(teams.name_span, f"the nested '{teams.name}' construct"),
                               *(Related(span, "outside the teams construct")
                                 for span in nesting.outside[:_MAX_RELATED])])


# -- OMP216 ------------------------------------------------------------------------------------
@rule("OMP216", per_directive=True)
def structure_partly_mapped(ctx: FileContext) -> Iterator[Finding]:
    regions = ctx.regions
    by_directive = regions.by_directive()
    for index, d in ctx.each_directive_at(by_directive):
        if d.uses_macros or not _maps_members(ctx, d):
            continue
        elements = _mapped_elements(ctx, d)
        if not elements:
            continue
        region = by_directive[index]
        accesses = regions.member_accesses_in(region)   # (its own code: per_directive)
        for key, mapped in elements.items():
            yield from _unmapped_accesses(ctx, regions, region, key, mapped, accesses)


_MEMBER_MARKS = (b".", b"%")  # `s.a`, `p->a`, `s%a`


def _maps_members(ctx: FileContext, d: Directive) -> bool:
    """Whether a map clause's text may name a structure element (read before its list items,
    which most directives never need)."""
    source = ctx.document.source
    return any((c.args_span is not None and any(m in source[c.args_span[0]:c.args_span[1]] for m in _MEMBER_MARKS))
               or b"->" in source[c.span[0]:c.span[1]]
               for c in d.clauses_named("map"))


def _mapped_elements(ctx: FileContext, d: Directive) -> dict[str, list[tuple[Clause, ListItem]]]:
    """Structures of which the directive maps elements (`s.a`, `p->a`, `s%a`) but not the whole,
    by lookup key; each with the clause items that name its elements."""
    key_of = ctx.model.key_of if ctx.document.language.is_fortran else (lambda name: name)
    elements: dict[str, list[tuple[Clause, ListItem]]] = {}
    whole: set[str] = set()
    for clause in d.clauses:
        for item in clause.items:
            if item.name is None:
                whole.add(key_of(_leading_name(item.text)))  # unread (`s.c.d` in C): it may map anything
                continue
            key = key_of(item.name)
            if clause.name != "map" or not item.members:
                whole.add(key)  # mapped whole, or in a data-sharing clause: not partly mapped
            elif _member_follows_name(item):
                elements.setdefault(key, []).append((clause, item))
            else:
                whole.add(key)  # `s[i].a`: an element of one array element; not followed
    return {key: items for key, items in elements.items() if key not in whole}


def _leading_name(text: str) -> str:
    stripped = text.lstrip()
    end = 0
    while end < len(stripped) and (stripped[end].isalnum() or stripped[end] == "_"):
        end += 1
    return stripped[:end]


def _member_follows_name(item: ListItem) -> bool:
    """`s.a` / `p->a` / `s%a`: the first member belongs to the named variable itself."""
    if item.name_span is None:
        return False
    rest = item.text[item.name_span[1] - item.span[0]:].lstrip()
    return rest.startswith((".", "->", "%"))


def _unmapped_accesses(ctx: FileContext, regions: Regions, region: TargetRegion, key: str,
                       mapped: list[tuple[Clause, ListItem]], accesses: list[MemberAccess]) -> Iterator[Finding]:
    model = ctx.model
    d = ctx.directives[region.index]
    structure = _resolve(model, key, d.span[0])
    if structure is None or structure.kind != VARIABLE:
        return
    fortran = ctx.document.language.is_fortran
    arrow = "->" in mapped[0][1].text
    if any(("->" in item.text) != arrow for _, item in mapped):
        return  # both `p->a` and `p.a`-like forms: not one structure we can follow
    members = {m.lower() if fortran else m for _, item in mapped for m in item.members[:1]}
    components: frozenset[str] | None = None
    reported: set[str] = set()
    lo, hi = region.span
    for access in accesses:
        if not lo <= access.base_span[0] < hi or access.base_key != key or access.called:
            continue
        if access.arrow != arrow or access.member_key in members or access.member_key in reported:
            continue
        if ctx.document.language is Language.CPP and _static_member(model, access.member_key):
            continue  # `s.count` may name a static data member: no element of the object
        if _resolve(model, key, access.base_span[0]) is not structure:
            continue  # another variable of the same name (declared in the region)
        if access.arguments:
            # Fortran `s%f(x)` may call a type-bound procedure: only a component of a type
            # defined in this file is an element for sure
            if components is None:
                components = _fortran_components(ctx, regions, structure) or frozenset()
            if access.member_key not in components:
                continue
        reported.add(access.member_key)
        yield _partly_mapped(ctx, structure, access, mapped, fortran)


def _static_member(model: FileModel, key: str) -> bool:
    """A static data member of that name in some class of the file (non-static ones are FIELDs)."""
    return any(s.kind == VARIABLE and s.scope.kind == "class" for s in model.named(key))


def _fortran_components(ctx: FileContext, regions: Regions, symbol: Symbol) -> frozenset[str] | None:
    type_name = regions.declared_type(symbol.span)
    if type_name is None:
        return None
    for scope in ctx.model.root.walk():
        if scope.kind == "type" and scope.name.lower() == type_name:
            return regions.components(scope.span)
    return None


def _partly_mapped(ctx: FileContext, structure: Symbol, access: MemberAccess,
                   mapped: list[tuple[Clause, ListItem]], fortran: bool) -> Finding:
    src = ctx.document.source
    written = src[access.base_span[0]:access.member_span[1]].decode("utf-8", "replace")
    items = ", ".join(f"'{item.text}'" for _, item in mapped[:3])
    last = mapped[-1][1]
    operator = "%" if fortran else ("->" if access.arrow else ".")
    element = f"{last.name}{operator}{access.member}"
    fixes = []
    if ctx.document.language is not Language.FORTRAN_FIXED:
        fixes.append(Fix(f"Map '{element}' too", (((last.span[1], last.span[1]), f", {element}"),)))
    return Finding("OMP216", f"'{written}' is used in the target region, but only {items} of '{structure.name}' "
                   f"{'is' if len(mapped) == 1 else 'are'} mapped: map '{element}' too (or the whole "
                   f"'{structure.name}')", (access.base_span[0], access.member_span[1]),
                   related=[Related(item.span, f"'{item.text}' mapped here") for _, item in mapped[:_MAX_RELATED]],
                   fixes=fixes)
