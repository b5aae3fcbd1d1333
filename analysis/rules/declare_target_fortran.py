"""Fortran-only declare target restrictions (OMP151–OMP163).

Per-file rules read the Fortran program model (`model_fortran`) and the binding of each
directive's list items; OMP155, OMP159 and OMP160 compare files of the workspace. A rule
stays silent wherever the model is unsure (a scope marked incomplete, a name it cannot
resolve): a false error is worse than a missed one.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ..model.file_model import (
    AUTOMATIC,
    COMMON,
    ENTRY,
    FUNCTION,
    GENERIC,
    MODULE,
    PROCEDURE,
    PROCEDURE_KINDS,
    PROCEDURE_POINTER,
    STATEMENT_FUNCTION,
    VARIABLE,
    FileModel,
    Scope,
    Symbol,
)
from ..model.model_fortran import implicit_none, saves_all
from ..semantics.context import FileContext, WorkspaceContext
from ..semantics.declare_target import BIND_C_MARKS, COMMON_MARKS, INTERFACE_MARKS, UNDECLARED_MARKS
from ..syntax.diagnostics import Finding, Fix, Related, Severity
from ..syntax.document import Language
from .registry import file_fact, rule, workspace_rule

if TYPE_CHECKING:
    from ..directives.fortran_blocks import Statement
    from ..directives.nodes import Directive, ListItem
    from ..semantics.declare_target import Mark

DECLARE_TARGET = "declare target"
LIST_CLAUSES = ("to", "enter", "link")
SUBPROGRAMS = ("subroutine", "function")
# Units whose specification part may hold a declare target directive naming a variable.
VARIABLE_UNITS = ("subroutine", "function", "program", "module", "submodule")
# Scoping units that hold COMMON statements and their declare target directives (OMP159).
COMMON_UNITS = ("subroutine", "function", "program", "module", "submodule")
_NOT_A_PROCEDURE = {
    GENERIC: "a generic name",
    PROCEDURE_POINTER: "a procedure pointer",
    ENTRY: "an entry name",
    STATEMENT_FUNCTION: "a statement function",
}


# -- shared helpers ----------------------------------------------------------------------------
def _applies(ctx: FileContext) -> bool:
    return ctx.document.language.is_fortran and ctx.has_declare_target


def _in_spec(scope: Scope, offset: int) -> bool:
    part = scope.spec_part
    return part is not None and part[0] <= offset < part[1]


def _has_list(d: Directive) -> bool:
    # (a directive too large to read, OMP013, is not the clause-less form)
    return d.unread or d.argument is not None or any(c.name in LIST_CLAUSES for c in d.clauses)


def _explicit_marks(ctx: FileContext) -> Iterator[tuple[Mark, Directive, ListItem, Scope]]:
    """Every explicit list item of the file's declare target directives, with the scope
    that holds the directive: one directive at a time (the rules that read these are
    per-directive, see FileContext.own_marks)."""
    model = ctx.model
    for _, d, marks in ctx.own_marks():
        if d.name != DECLARE_TARGET:
            continue
        scope = model.directive_scope(d.span[0])
        for mark in marks:
            if mark.item is not None and mark.explicit:
                yield mark, d, mark.item, scope


def _whole_variable(mark: Mark, item: ListItem) -> Symbol | None:
    """The variable a plain-name list item resolves to (None for parts, common blocks, others)."""
    if _part_of_another(item) or item.common_block:
        return None
    if not mark.symbols or any(s.kind != VARIABLE for s in mark.symbols):
        return None
    return mark.symbols[0]


def _is_blank_common(item: ListItem) -> bool:
    return item.name is None and item.text.replace(" ", "") == "//"


def _part_of_another(item: ListItem) -> bool:
    return item.name is not None and bool(item.subscripts or item.members)


def _symbols(model: FileModel, mark: Mark, scope: Scope) -> list[Symbol]:
    """The declarations a list item names: by host association (the binding), else by use
    association of a module defined in this file."""
    if mark.symbols:
        return mark.symbols
    item = mark.item
    if item is None or item.name is None:
        return []
    key = item.name.lower()
    if item.common_block:
        return []  # common blocks are not use associated
    modules = {s.name.lower(): s for s in model.root.children if s.kind == "module"}
    for s in scope.ancestors():
        for used in s.uses:
            module = modules.get(used)
            if module is not None:
                hits = module.declared(key)
                if hits:
                    return hits
    return []


def _use_associated(mark: Mark, symbols: list[Symbol]) -> bool:
    return bool(symbols) and not mark.symbols


def _line(ctx: FileContext, offset: int) -> int:
    return ctx.document.lines.line_of(offset) + 1


def _where(path: str, ctx: FileContext, offset: int) -> str:
    name = path.rsplit("/", 1)[-1] if path else "this file"
    return f"{name}:{_line(ctx, offset)}"


def _unit_name(scope: Scope) -> str:
    if scope.kind == "program" and not scope.name:
        return "the main program"
    return f"{scope.kind} '{scope.name}'" if scope.name else scope.kind


# -- OMP151, OMP153, OMP156: procedure list items -----------------------------------------------
@rule("OMP151", per_directive=True)
def not_a_procedure_name(ctx: FileContext) -> Iterator[Finding]:
    """A generic name, procedure pointer, entry name or statement function in the list."""
    if not _applies(ctx):
        return
    for mark, _d, item, scope in _explicit_marks(ctx):
        symbols = _symbols(ctx.model, mark, scope)
        kinds = {s.kind for s in symbols}
        if not kinds or kinds & {FUNCTION, VARIABLE, COMMON, PROCEDURE}:
            continue  # a specific procedure of the same name exists, or nothing is known
        bad = next((s for s in symbols if s.kind in _NOT_A_PROCEDURE), None)
        if bad is None:
            continue
        what = _NOT_A_PROCEDURE[bad.kind]
        advice = {
            GENERIC: "name the specific procedures instead",
            PROCEDURE_POINTER: "name the procedures it may point to instead",
            ENTRY: "name the subprogram that contains the ENTRY statement instead",
            STATEMENT_FUNCTION: "turn it into an internal or module function and name that",
        }[bad.kind]
        yield Finding("OMP151", f"'{item.text}' is {what} and cannot appear in a declare target directive: {advice}",
                      item.span, related=[Related(bad.name_span, f"'{bad.name}' is declared here")])


@rule("OMP153", per_directive=True)
def procedure_outside_its_specification_part(ctx: FileContext) -> Iterator[Finding]:
    """A subprogram named in a directive that is not in that subprogram's (or its interface
    body's) specification part: a 5.1 restriction that 5.2 (7.8.2) dropped, and that flang and
    gfortran do not enforce, so a warning up to 5.1 and nothing from 5.2."""
    if not _applies(ctx) or ctx.version >= 52:
        return
    for mark, _d, item, scope in _explicit_marks(ctx):
        symbols = mark.symbols
        if not symbols or any(s.kind != FUNCTION for s in symbols) or not scope.complete:
            continue
        if mark.kind == "link":
            continue  # a procedure in link is OMP112's business
        key = symbols[0].key
        own = scope.symbol
        if scope.kind in SUBPROGRAMS and own is not None and own.key == key and _in_spec(scope, item.span[0]):
            continue
        target = symbols[0]
        if target.scope is scope and target.definition:
            # Named from its host (a module naming its module procedure, a program or subprogram naming
            # its internal procedure): 5.1 asks for the procedure's own specification part, but flang,
            # gfortran and the OpenMP validation suite accept this form, so it is not reported.
            continue
        yield Finding(
            "OMP153",
            f"'{item.text}' is a procedure: OpenMP 5.1 requires a declare target directive naming it to be in the "
            f"specification part of '{target.name}' itself (or of its interface body); OpenMP 5.2 lifts this "
            "restriction and flang and gfortran accept it: move the directive there, or select OpenMP 5.2",
            item.span, Severity.WARNING,
            related=[Related(target.name_span, f"'{target.name}' is defined here"
                             if target.definition else f"interface body of '{target.name}'")])


@rule("OMP156", per_directive=True)
def procedure_declaration_elsewhere(ctx: FileContext) -> Iterator[Finding]:
    """A procedure declared by a procedure declaration statement, named in a directive outside
    the specification part that holds that statement."""
    if not _applies(ctx):
        return
    for mark, _d, item, scope in _explicit_marks(ctx):
        symbols = mark.symbols
        if not symbols or any(s.kind != PROCEDURE or "procedure" not in s.specifiers for s in symbols):
            continue
        declared = symbols[0]
        if declared.scope is scope and _in_spec(scope, item.span[0]):
            continue
        if not scope.complete or not declared.scope.complete:
            continue
        yield Finding(
            "OMP156",
            f"'{item.text}' is declared by a procedure declaration statement in {_unit_name(declared.scope)}: "
            "a declare target directive naming it must be in that same specification part",
            item.span, related=[Related(declared.name_span, "the procedure declaration statement")])


# -- OMP152: the clause-less form ---------------------------------------------------------------
@rule("OMP152", per_directive=True)
def clauseless_outside_subprogram(ctx: FileContext) -> Iterator[Finding]:
    """`!$omp declare target` without a list outside a subprogram's (or interface body's)
    specification part: there is no procedure for its implicit list."""
    if not _applies(ctx):
        return
    model = ctx.model
    for _, d in ctx.each_directive(ctx.directives_named(DECLARE_TARGET)):
        if _has_list(d):
            continue
        scope = model.directive_scope(d.span[0])
        if scope.kind in SUBPROGRAMS and _in_spec(scope, d.span[0]):
            continue
        if scope.kind == "block" or not scope.complete or (scope.kind == "file" and not model.complete):
            continue  # a BLOCK construct inside a subprogram: compilers accept it; unsure models stay silent
        if scope.kind in SUBPROGRAMS:
            where = f"the execution part of {_unit_name(scope)}"
            advice = "move it up into the specification part"
        elif scope.kind in ("module", "submodule", "program", "block data"):
            where = f"{_unit_name(scope)}, which is not a subroutine or function"
            advice = "name the procedures or variables in a list, or put the directive in each procedure"
        else:
            where = "no subroutine or function"
            advice = "put it in the specification part of the procedure it is meant for"
        yield Finding(
            "OMP152",
            f"a declare target directive without a list applies to the enclosing subroutine or function, "
            f"but this one is in {where}: {advice}", d.name_span)


# -- OMP154, OMP158: variables and common blocks in the wrong place -------------------------------
@rule("OMP154", "OMP158", per_directive=True)
def variable_placement(ctx: FileContext) -> Iterator[Finding]:
    """OMP154: a variable named outside the specification part of a subroutine, function,
    program or module. OMP158: the directive is not in the scoping unit that declares the
    variable or common block."""
    if not _applies(ctx):
        return
    model = ctx.model
    for mark, d, item, scope in _explicit_marks(ctx):
        if _part_of_another(item) or _is_blank_common(item) or not scope.complete:
            continue
        symbols = _symbols(model, mark, scope)
        if any(s.kind not in (VARIABLE, COMMON, PROCEDURE_POINTER) for s in symbols):
            continue
        what = f"common block '{item.text}'" if item.common_block else f"variable '{item.text}'"
        if any(s.kind == PROCEDURE_POINTER for s in symbols):
            what = f"procedure pointer '{item.text}'"
        if not symbols:
            what = f"'{item.text}'"
        if scope.kind not in VARIABLE_UNITS or scope.interface_body or not _in_spec(scope, d.span[0]):
            if scope.kind in ("block", "block data") or scope.interface_body:
                continue  # accepted by compilers; nothing certain to say
            if not symbols and scope.kind not in VARIABLE_UNITS:
                continue
            yield Finding(
                "OMP154",
                f"the declare target directive naming {what} must be in the specification part of a "
                "subroutine, function, program or module (it is in an execution part or outside any unit); "
                "move it up among the declarations", item.span)
            continue
        if not symbols:
            continue
        declared = symbols[0]
        if declared.scope is scope and not _use_associated(mark, symbols):
            continue
        how = "use associated" if _use_associated(mark, symbols) else "host associated"
        yield Finding(
            "OMP158",
            f"{what} is {how} here: a declare target directive must be in the scoping unit that declares it "
            f"({_unit_name(declared.scope)}); move the directive there",
            item.span, related=[Related(declared.name_span, f"'{declared.name}' is declared here")])


# -- OMP157, OMP161, OMP162: what a variable list item may be ------------------------------------
@rule("OMP157", per_directive=True)
def part_of_another_variable(ctx: FileContext) -> Iterator[Finding]:
    """An array element or section, structure component or type parameter inquiry."""
    if not _applies(ctx):
        return
    for _mark, _d, item, _scope in _explicit_marks(ctx):
        if not _part_of_another(item) or item.name is None:
            continue
        if item.subscripts:
            what = "an array element or section"
        elif item.members and item.members[-1].lower() in ("kind", "len"):
            what = "a type parameter inquiry or structure component"
        else:
            what = "a structure component"
        yield Finding(
            "OMP157",
            f"'{item.text}' is {what}: only whole variables can appear in a declare target directive; "
            f"name '{item.name}' instead", item.span,
            fixes=[Fix(f"Name the whole variable '{item.name}'", ((item.span, item.name),))])


@rule("OMP161", per_directive=True)
def common_or_equivalence_member(ctx: FileContext) -> Iterator[Finding]:
    """A variable in a common block or in an EQUIVALENCE statement; a blank common block."""
    if not _applies(ctx):
        return
    for mark, _d, item, _scope in _explicit_marks(ctx):
        if _is_blank_common(item):
            yield Finding("OMP161", "a blank common block cannot appear in a declare target directive: "
                          "give the common block a name and use /name/", item.span)
            continue
        sym = _whole_variable(mark, item)
        if sym is None:
            continue
        if sym.common is not None:
            block = f"/{sym.common}/" if sym.common else "the blank common block"
            advice = f"name the whole common block {block} instead" if sym.common else \
                "give the common block a name and name the block instead"
            yield Finding("OMP161", f"'{item.text}' is an element of {block} and cannot appear in a declare "
                          f"target directive: {advice}", item.span,
                          related=[Related(sym.name_span, f"'{sym.name}' is declared here")])
        elif sym.equivalenced:
            yield Finding("OMP161", f"'{item.text}' appears in an EQUIVALENCE statement and cannot appear in a "
                          "declare target directive", item.span,
                          related=[Related(sym.name_span, f"'{sym.name}' is declared here")])


@rule("OMP162", per_directive=True)
def not_saved(ctx: FileContext) -> Iterator[Finding]:
    """A variable that is neither in a module nor SAVE (explicitly or implicitly)."""
    if not _applies(ctx):
        return
    for mark, _d, item, scope in _explicit_marks(ctx):
        sym = _whole_variable(mark, item)
        if sym is None:
            continue
        if sym.scope is not scope or not scope.complete or sym.storage != AUTOMATIC:
            continue
        if sym.common is not None or sym.equivalenced or scope.kind not in SUBPROGRAMS:
            continue
        if "dummy" in sym.specifiers:
            message = (f"'{item.text}' is a dummy argument: a declare target variable must be declared in a "
                       "module or have the SAVE attribute")
        else:
            message = (f"'{item.text}' is a local variable without the SAVE attribute: a declare target variable "
                       "must be declared in a module or be SAVE; add the SAVE attribute (or an initializer), "
                       "or move it to a module")
        yield Finding("OMP162", message, item.span, related=[Related(sym.name_span, f"'{sym.name}' is declared here")])


# -- OMP163: internal procedures under a host device_type ---------------------------------------
@rule("OMP163")
def internal_procedure_under_device_type(ctx: FileContext) -> Iterator[Finding]:
    """An internal procedure contains a declare target directive while the host's directive
    has a device_type clause (that device type already applies to the internal procedure)."""
    if not _applies(ctx):
        return
    model = ctx.model
    located = [(d, model.directive_scope(d.span[0])) for d in ctx.directives if d.name == DECLARE_TARGET]
    for d, scope in located:
        inner = scope.enclosing(*SUBPROGRAMS)
        if inner is None or not inner.internal or inner.parent is None or inner.parent.kind not in SUBPROGRAMS:
            continue
        host = inner.parent
        host_directive = next((h for h, s in located if s is host and _marks_host(h, host)
                               and h.clause("device_type") is not None), None)
        if host_directive is None:
            continue
        dt = host_directive.clause("device_type")
        keyword = dt.keyword.name if dt is not None and dt.keyword is not None else "?"
        yield Finding(
            "OMP163",
            f"internal procedure '{inner.name}' cannot contain a declare target directive: its host "
            f"'{host.name}' is declare target with device_type({keyword}), which already applies to it; "
            "remove this directive", d.name_span,
            related=[Related(host_directive.name_span, f"the device_type of '{host.name}'")])


def _marks_host(d: Directive, host: Scope) -> bool:
    """The directive marks the host procedure itself: the clause-less form, or a list naming it."""
    if not _has_list(d):
        return True
    items = list(d.argument or []) + [i for c in d.clauses if c.name in LIST_CLAUSES for i in c.items]
    return any(i.name is not None and i.name.lower() == host.name.lower() for i in items)


# -- OMP164: program unit names ------------------------------------------------------------------
@rule("OMP164", per_directive=True)
def program_unit_name(ctx: FileContext) -> Iterator[Finding]:
    """A module name (a module of this file, or one a USE statement names) or the main program's
    own name in the list: neither is a variable, procedure or common block."""
    if not _applies(ctx):
        return
    for mark, _d, item, scope in _explicit_marks(ctx):
        if item.name is None or item.common_block or _part_of_another(item):
            continue
        what = _unit_named(mark, item.name.lower(), scope)
        if what is None:
            continue
        yield Finding(
            "OMP164",
            f"'{item.text}' is the name of {what}, which cannot appear in a declare target directive: a list item "
            "must be a variable, a procedure or a named common block (/name/); name those instead", item.span)


def _unit_named(mark: Mark, key: str, scope: Scope) -> str | None:
    """'a module' or 'the main program' when the list item names one, else None."""
    if mark.symbols:
        return "a module" if all(s.kind == MODULE for s in mark.symbols) else None
    if any(key in s.uses for s in scope.ancestors()):
        return "a module"   # a module of another file: a local entity cannot share its name
    if scope.kind == "program" and scope.name.lower() == key:
        return "the main program"
    return None


# -- OMP105 (Fortran): indirect without a list ------------------------------------------------
@rule("OMP105", per_directive=True)
def indirect_without_list(ctx: FileContext) -> Iterator[Finding]:
    """`!$omp declare target indirect[(...)]` with no to/enter/link clause: "If the directive has
    a clause, it must contain at least one to clause or at least one link clause" (5.1; enter in
    5.2). In C/C++ `declare target indirect` opens a delimited region and is left to the shared rule."""
    if not _applies(ctx):
        return
    for _, d in ctx.each_directive(ctx.directives_named(DECLARE_TARGET)):
        if d.argument is not None or d.uses_macros or not d.clauses or _has_list(d):
            continue
        if d.clause("indirect") is None or any(c.spec is None for c in d.clauses):
            continue  # without indirect the shared OMP105 rule reports it; an unknown clause is OMP002's
        word = "enter" if ctx.version >= 52 else "to"
        unit = ctx.model.directive_scope(d.span[0]).enclosing(*SUBPROGRAMS)
        name = unit.name if unit is not None and unit.name else "name"
        yield Finding(
            "OMP105",
            f"this declare target directive has clauses but no '{word}' or 'link' clause: 'indirect' applies to "
            f"the procedures of its '{word}' clause and this one names none; write "
            f"'!$omp declare target {word}({name}) indirect...'", d.name_span)


# -- workspace rules ---------------------------------------------------------------------------
def _fortran_files(ws: WorkspaceContext) -> list[str]:
    return [p for p in ws.paths if ws.fortran(p)]


def _scope_of(model: FileModel, symbol: Symbol) -> Scope | None:
    return next((s for s in model.root.walk() if s.symbol is symbol), None)


def _fortran_and_any(ctx: FileContext, found: Callable[[FileContext], Iterator[object]]) -> bool:
    """A Fortran file in which `found` finds something (a fact that singles out the file)."""
    return ctx.document.language.is_fortran and next(found(ctx), None) is not None


def _interface_marks(ctx: FileContext) -> Iterator[tuple[Scope, Mark]]:
    """The declare target marks of interface bodies on their own procedure."""
    binding = ctx.binding_part(INTERFACE_MARKS)
    if binding is None:
        return
    model = ctx.model
    marks = binding.marks
    # (the marks of directives inside an interface body only: a file marks thousands of
    # procedures, and the server asks again at each edit of a declare target)
    bodies = sorted(s.span for s in model.root.walk() if s.interface_body)
    if not bodies:
        return
    starts = [span[0] for span in bodies]
    for mark in marks:
        at = ctx.directives[mark.directive].span[0]
        k = bisect_right(starts, at) - 1   # (interface bodies do not nest)
        if k < 0 or at >= bodies[k][1]:
            continue
        scope = model.scope_at(at).enclosing(*SUBPROGRAMS)
        if scope is not None and scope.interface_body and scope.symbol is not None \
                and any(s is scope.symbol for s in mark.symbols):
            yield scope, mark


@file_fact
def interface_marks(ctx: FileContext) -> bool:
    """Whether an interface body of the file has a declare target directive (OMP155)."""
    return _fortran_and_any(ctx, _interface_marks)


@file_fact
def defined_procedures(ctx: FileContext) -> frozenset[str]:
    """The binding names or keys of the procedures the file defines outside modules (OMP155)."""
    if not ctx.document.language.is_fortran:
        return frozenset()
    return frozenset(sym.bind_name or sym.key for sym in ctx.model.root.symbols
                     if sym.kind == FUNCTION and sym.definition)


@workspace_rule("OMP155")
def interface_mismatch(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    """A declare target directive in an interface body that does not match the directive
    (including device_type) in the procedure's definition, in this or another file."""
    bodies: list[tuple[str, FileContext, Scope, Mark]] = []
    files = _fortran_files(ws)
    for path in files:
        if ws.fact(path, interface_marks):
            ctx = ws.files[path]
            bodies.extend((path, ctx, scope, mark) for scope, mark in _interface_marks(ctx))
    if not bodies:
        return
    wanted = {scope.symbol.bind_name or scope.symbol.key for _, _, scope, _ in bodies if scope.symbol is not None}
    definitions: dict[str, list[tuple[str, FileContext, Symbol]]] = {}
    for path in files:
        if wanted.isdisjoint(ws.fact(path, defined_procedures)):
            continue
        ctx = ws.files[path]
        for sym in ctx.model.root.symbols:
            if sym.kind == FUNCTION and sym.definition:
                definitions.setdefault(sym.bind_name or sym.key, []).append((path, ctx, sym))
    for path, _ctx, scope, mark in bodies:
        iface = scope.symbol
        assert iface is not None
        found = [d for d in definitions.get(iface.bind_name or iface.key, []) if ws.same_program(path, d[0])]
        if len(found) != 1:
            continue  # no definition in the workspace, or several: nothing certain
        def_path, def_ctx, def_sym = found[0]
        def_scope = _scope_of(def_ctx.model, def_sym)
        if def_scope is None or not def_scope.complete:
            continue
        def_marks = [m for m in def_ctx.binding.marks if any(s is def_sym for s in m.symbols)
                     and def_scope.span[0] <= def_ctx.directives[m.directive].span[0] < def_scope.span[1]] \
            if def_ctx.has_declare_target else []
        where = _where(def_path, def_ctx, def_sym.name_span[0])
        related_path = def_path if def_path != path else None
        if not def_marks:
            dt = f" device_type({mark.device_type})" if mark.device_type_explicit else ""
            yield path, Finding(
                "OMP155",
                f"the interface body declares '{iface.name}' declare target, but its definition ({where}) has no "
                f"declare target directive: add `!$omp declare target{dt}` to the specification part of "
                f"'{def_sym.name}' there, or remove this one",
                mark.span, related=[Related(def_sym.name_span, f"definition of '{def_sym.name}'", related_path)])
            continue
        if any(m.device_type == mark.device_type for m in def_marks):
            continue
        other = def_marks[0]
        other_d = def_ctx.directives[other.directive]
        yield path, Finding(
            "OMP155",
            f"the interface body gives '{iface.name}' device_type({mark.device_type}) but its definition "
            f"({where}) has device_type({other.device_type}): the directives must match, including device_type",
            mark.span, related=[Related(other_d.name_span, f"the directive in the definition of '{def_sym.name}'",
                                        related_path)])


@workspace_rule("OMP159")
def common_block_in_every_unit(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    """A common block named in declare target in one program unit must be named so in every
    unit with a COMMON statement for it, after the last such statement."""
    files = _fortran_files(ws)
    marks: dict[str, list[tuple[str, FileContext, ListItem]]] = {}
    for path in files:
        if not ws.fact(path, marked_commons):
            continue
        ctx = ws.files[path]
        for key, item in _marked_commons(ctx):
            marks.setdefault(key, []).append((path, ctx, item))
    if not marks:
        return
    for path in files:
        # the first mark of each common block in this file's program (another program's COMMON
        # statements are another block)
        marked = {key: found[0] for key, found in
                  ((key, [m for m in ms if ws.same_program(path, m[0])]) for key, ms in marks.items()) if found}
        if not marked or marked.keys().isdisjoint(ws.fact(path, common_blocks)):
            continue
        ctx = ws.files[path]
        model = ctx.model
        directives = [d for d in ctx.directives if d.name == DECLARE_TARGET] if ctx.has_declare_target else []
        for unit in model.root.walk():
            if unit.kind not in COMMON_UNITS or unit.interface_body or not unit.complete:
                continue
            last: dict[str, Symbol] = {}
            for sym in unit.symbols:
                if sym.kind == COMMON and sym.key in marked and \
                        (sym.key not in last or sym.name_span[0] > last[sym.key].name_span[0]):
                    last[sym.key] = sym
            for key, common in last.items():
                items = [(d, i) for d in directives if model.directive_scope(d.span[0]) is unit
                         for i in _list_items(d) if i.common_block and i.name and f"/{i.name.lower()}/" == key]
                if any(d.span[0] > common.span[0] for d, _ in items):
                    continue
                other_path, other_ctx, other_item = marked[key]
                related = [Related(other_item.span, f"{other_item.text} is declare target here",
                                   other_path if other_path != path else None),
                           Related(common.name_span, "the last COMMON statement for it in this unit")]
                if items:
                    item = items[-1][1]
                    yield path, Finding(
                        "OMP159",
                        f"the declare target directive for {item.text} must come after the last COMMON statement "
                        f"for it in this unit (line {_line(ctx, common.span[0])}); move it down", item.span,
                        related=related)
                    continue
                text = other_item.text
                yield path, Finding(
                    "OMP159",
                    f"common block {text} is declare target in another program unit "
                    f"({_where(other_path, other_ctx, other_item.span[0])}), so every unit with a COMMON "
                    f"statement for it needs `!$omp declare target({text})` after its last COMMON statement",
                    common.name_span, related=related, fixes=[_insert_directive_after(ctx, common, text)])


def _marked_commons(ctx: FileContext) -> Iterator[tuple[str, ListItem]]:
    """(`/name/`, item) of every common block the file's declare target directives name."""
    binding = ctx.binding_part(COMMON_MARKS)
    if binding is None:
        return
    directives = ctx.directives
    for mark in binding.marks:   # (the explicit lists' items, in the order of _list_items)
        item = mark.item
        if item is not None and item.common_block and item.name and directives[mark.directive].name == DECLARE_TARGET:
            yield f"/{item.name.lower()}/", item


@file_fact
def marked_commons(ctx: FileContext) -> bool:
    """Whether the file's declare target directives name a common block (OMP159)."""
    return _fortran_and_any(ctx, _marked_commons)


@file_fact
def common_blocks(ctx: FileContext) -> frozenset[str]:
    """The keys (`/name/`) of the common blocks the file's program units have COMMON statements
    for (OMP159)."""
    if not ctx.document.language.is_fortran:
        return frozenset()
    return frozenset(sym.key for unit in ctx.model.root.walk()
                     if unit.kind in COMMON_UNITS and not unit.interface_body and unit.complete
                     for sym in unit.symbols if sym.kind == COMMON)


def _list_items(d: Directive) -> list[ListItem]:
    return list(d.argument or []) + [i for c in d.clauses if c.name in LIST_CLAUSES for i in c.items]


def _insert_directive_after(ctx: FileContext, statement: Symbol, item_text: str) -> Fix:
    """A quick fix that adds `!$omp declare target(/c/)` on a new line after a statement."""
    src = ctx.document.source
    line_start = src.rfind(b"\n", 0, statement.span[0]) + 1
    end = src.find(b"\n", statement.span[1])
    end = len(src) if end < 0 else end
    if ctx.document.language is Language.FORTRAN:
        indent = src[line_start:statement.span[0]].decode("utf-8", "replace")
        indent = indent if not indent.strip() else ""
    else:
        indent = ""  # fixed form: the sentinel starts in column 1
    return Fix(f"Add !$omp declare target({item_text})",
               (((end, end), f"\n{indent}!$omp declare target({item_text})"),))


@workspace_rule("OMP160")
def bind_c_entity_not_declare_target(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    """A BIND(C) list item whose C entity (declared in a C/C++ file of the workspace) is not
    declare target there."""
    wanted: list[tuple[str, Mark, Symbol]] = []
    for path in _fortran_files(ws):
        if ws.fact(path, bind_c_marks):
            wanted.extend((path, mark, sym) for mark, sym in _bind_c_marks(ws.files[path]))
    if not wanted:
        return
    c_files = [p for p in ws.paths if not ws.fortran(p)]
    for path, mark, sym in wanted:
        name = sym.bind_name or ""
        kind = FUNCTION if sym.kind in (FUNCTION, ENTRY) else VARIABLE
        declared: list[tuple[str, Symbol]] = []
        marked = False
        for c_path in c_files:
            if not ws.same_program(path, c_path) or name not in ws.fact(c_path, c_declared):
                continue
            hits, is_marked = _c_declarations(ws.files[c_path], name, kind)
            marked = marked or is_marked
            declared.extend((c_path, s) for s in hits)
        if not declared or marked:
            continue
        if kind == FUNCTION and not any(s.definition for _, s in declared):
            continue  # C only declares it (the Fortran side may be the definition): nothing to mark there
        c_path, c_sym = declared[0]
        what = "function" if kind == FUNCTION else "variable"
        yield path, Finding(
            "OMP160",
            f"'{sym.name}' is BIND(C) with the C name '{name}', and the C {what} '{name}' is not declare target "
            f"in the C sources: add `#pragma omp declare target` for it there, or the device code will not link",
            mark.span, related=[Related(c_sym.name_span, f"C declaration of '{name}'", c_path)])


def _bind_c_marks(ctx: FileContext) -> Iterator[tuple[Mark, Symbol]]:
    """The explicit marks of BIND(C) procedures and variables, with the one that has a C name."""
    binding = ctx.binding_part(BIND_C_MARKS)
    if binding is None:
        return
    for mark in binding.marks:
        sym = next((s for s in mark.symbols if s.bind_name), None)
        if sym is not None and mark.explicit:
            yield mark, sym


@file_fact
def bind_c_marks(ctx: FileContext) -> bool:
    """Whether the file marks a BIND(C) entity declare target (OMP160)."""
    return _fortran_and_any(ctx, _bind_c_marks)


@file_fact
def c_declared(ctx: FileContext) -> frozenset[str]:
    """C/C++: the names the file declares outside function bodies (OMP160 looks for C names)."""
    if ctx.document.language.is_fortran:
        return frozenset()
    return frozenset(s.key for s in ctx.model.symbols)


def _c_declarations(c: FileContext, name: str, kind: str) -> tuple[list[Symbol], bool]:
    """The C file's declarations of `name`, and whether any of them is declare target."""
    try:
        hits = [s for s in c.model.named(name) if s.kind == kind]
        return hits, bool(hits) and c.has_declare_target and any(c.binding.of(s) for s in hits)
    except Exception:
        return [], False


# -- OMP162 (implicitly typed locals), OMP165: names declared nowhere ---------------------------
# Intrinsic modules whose public names all start with a known prefix: a USE of them cannot
# bring in any other name.
_PREFIXED_MODULES = {"iso_c_binding": ("c_",), "omp_lib": ("omp_", "kmp_"), "omp_lib_kinds": ("omp_", "kmp_")}


@workspace_rule("OMP162", "OMP165")
def undeclared_names(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    """A list item declared nowhere. With implicit typing it is an implicitly typed variable:
    in a subprogram a local without SAVE (OMP162). Under IMPLICIT NONE it has no type: an error
    before 5.2, and in a link clause at any version (from 5.2 a name in enter/to or a bare
    list is an external procedure) (OMP165). A workspace rule: a procedure another file
    defines may be what the name means."""
    files = _fortran_files(ws)
    found = [(path, ctx, mark, scope) for path in files if _may_hold_undeclared(ws, path)
             for ctx in (ws.files[path],) for mark, scope in _undeclared_marks(ctx)]
    procedures: dict[str, frozenset[str]] = {}

    def declares_procedure(p: str, key: str) -> bool:
        if p not in procedures:
            procedures[p] = ws.fact(p, procedure_keys)
        return key in procedures[p]

    for path, ctx, mark, scope in found:
        item = mark.item
        assert item is not None and item.name is not None
        key = item.name.lower()
        if any(p != path and declares_procedure(p, key) for p in files):
            continue  # a procedure of that name exists: the directive may mean it
        finding = _undeclared_finding(ctx, mark, scope)
        if finding is not None:
            yield path, finding


def _may_hold_undeclared(ws: WorkspaceContext, path: str) -> bool:
    """A summarised file whose fact says it holds undeclared marks; a file with its context when
    it has a declare target (searched once: its fact would make the same pass)."""
    if path not in ws.summaries:
        return ws.files[path].has_declare_target
    return ws.fact(path, undeclared_marks)


@file_fact
def undeclared_marks(ctx: FileContext) -> bool:
    """Whether a declare target of the file names something it does not declare (OMP162, OMP165)."""
    return ctx.document.language.is_fortran and ctx.has_declare_target \
        and next(_undeclared_marks(ctx), None) is not None


@file_fact
def procedure_keys(ctx: FileContext) -> frozenset[str]:
    """Fortran: the keys of the procedures the file declares (OMP162, OMP165)."""
    if not ctx.document.language.is_fortran:
        return frozenset()
    return frozenset(s.key for s in ctx.model.symbols if s.kind in PROCEDURE_KINDS)


def _undeclared_marks(ctx: FileContext) -> Iterator[tuple[Mark, Scope]]:
    """Explicit list items of directives in a unit's specification part that name nothing the
    file declares, mentions as a procedure, or may bring in from elsewhere."""
    model = ctx.model
    statements = ctx.structure.statements
    if not model.complete or statements is None:
        return
    named_in: set[tuple[int, str]] = set()   # (scope, key) of every name a directive lists
    undeclared: list[tuple[Mark, Scope, str]] = []
    scopes: dict[int, Scope] = {}            # directive index -> its scope (a list marks several)
    binding = ctx.binding_part(UNDECLARED_MARKS)
    for mark in binding.marks if binding is not None else ():
        item = mark.item
        if item is None or not mark.explicit or item.name is None or item.common_block or _part_of_another(item):
            continue
        d = ctx.directives[mark.directive]
        scope = scopes.get(mark.directive)
        if scope is None:
            scope = scopes[mark.directive] = model.directive_scope(d.span[0])
        key = item.name.lower()
        named_in.add((id(scope), key))
        if mark.symbols or d.name != DECLARE_TARGET or d.uses_macros:
            continue
        if scope.kind in VARIABLE_UNITS and not scope.interface_body and _in_spec(scope, d.span[0]):
            undeclared.append((mark, scope, key))
    for mark, scope, key in undeclared:
        if any((id(s), key) in named_in for s in scope.ancestors() if s is not scope):
            continue   # the host's directive made it an implicitly typed variable there
        if not _only_this_file_declares(model, scope, key) or _unit_named(mark, key, scope) is not None:
            continue
        if _mentioned_as_procedure(statements, scope, key):
            continue
        yield mark, scope


def _only_this_file_declares(model: FileModel, scope: Scope, key: str) -> bool:
    """Whether every name `scope` can see is declared in this file (so a name it does not declare
    is declared nowhere): complete scopes, no host outside the file (submodules), no USE of a
    module of another file (but intrinsic modules whose names have a prefix `key` lacks), and
    no declaration of `key` anywhere in the file (an external procedure, a module variable...)."""
    if model.named(key):
        return False
    modules = {s.name.lower() for s in model.root.children if s.kind == "module"}
    for s in scope.ancestors():
        if not s.complete or s.kind == "submodule" or (s is not scope and s.kind in SUBPROGRAMS + ("program",)):
            return False   # an internal procedure: the host may use an implicitly typed variable
        for used in s.uses:
            if used in modules:
                continue
            prefixes = _PREFIXED_MODULES.get(used)
            if prefixes is None or key.startswith(prefixes):
                return False
    return True


def _mentioned_as_procedure(statements: list[Statement], scope: Scope, key: str) -> bool:
    """Whether the unit's statements (directives are not statements) may use `key` as anything
    but a plain variable: in the header or specification part (a result name, a NAMELIST...),
    called, or followed by '(' (a function reference)."""
    # (not after '/': `common /c/`, `save /c/` and NAMELIST groups name no variable)
    word = re.compile(rb"(?<![\w%$/])" + re.escape(key.encode()) + rb"(?![\w$])")
    spec_end = scope.spec_part[1] if scope.spec_part is not None else scope.span[1]
    lo = bisect_left(statements, scope.span[0], key=lambda st: st.start)
    for st in statements[lo:]:
        if st.start >= scope.span[1]:
            break
        for m in word.finditer(st.text):
            if st.start < spec_end or st.text[m.end():].lstrip()[:1] == b"(" \
                    or re.search(rb"\bcall\s*$", st.text[:m.start()]):
                return True
    return False


def _undeclared_finding(ctx: FileContext, mark: Mark, scope: Scope) -> Finding | None:
    item = mark.item
    assert item is not None and item.name is not None
    statements = ctx.structure.statements
    assert statements is not None
    typing_off: bool | None = False
    for s in scope.ancestors():
        if s.kind == "file":
            break
        off = implicit_none(statements, ctx.model, s)
        if off is None:
            return None   # an IMPLICIT NONE this reader does not understand
        typing_off = typing_off or off
    if typing_off:
        if ctx.version >= 52 and mark.kind != "link":
            return None   # 5.2: an external procedure
        why = ("a link clause takes variables" if mark.kind == "link"
               else "before OpenMP 5.2 a list item must be a declared variable, procedure or common block")
        return Finding(
            "OMP165",
            f"'{item.text}' is declared nowhere and IMPLICIT NONE is in effect, so it has no type: {why}; declare it "
            "(a variable with SAVE or in a module), or for a procedure add an EXTERNAL statement or an interface",
            item.span)
    if scope.kind not in SUBPROGRAMS or saves_all(statements, ctx.model, scope):
        return None   # an implicitly typed variable of a module or main program, or a SAVEd one: fine
    common = scope.declared(f"/{item.name.lower()}/")
    if common:
        return Finding(
            "OMP162",
            f"'{item.text}' is declared nowhere, so it is an implicitly typed local variable without the SAVE "
            f"attribute, not the common block of that name: write /{item.text}/ to name the common block",
            item.span, related=[Related(common[0].name_span, f"common block /{common[0].name}/")],
            fixes=[Fix(f"Name the common block /{item.text}/", ((item.span, f"/{item.text}/"),))])
    return Finding(
        "OMP162",
        f"'{item.text}' is declared nowhere, so it is an implicitly typed local variable without the SAVE "
        "attribute: a declare target variable must be declared in a module or be SAVE; declare it with SAVE, "
        "or, for an external procedure, add an EXTERNAL statement", item.span)
