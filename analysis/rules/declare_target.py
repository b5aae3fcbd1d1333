"""Declare target restrictions shared by C, C++ and Fortran (OMP101–OMP117).

Every rule reads the binding (`ctx.binding`: each directive's list items resolved to
declarations) and stays silent where the model does not know enough: an unresolved name,
a type from a header, a file tree-sitter could not read. Rules that look at one directive's
marks at a time read them through `FileContext.own_marks` (per-directive rules); those that
compare directives read the whole binding.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from ..directives.nodes import Clause, Directive, ListItem
from ..directives.parser import looks_like_macro
from ..model.file_model import (
    AUTOMATIC,
    FUNCTION,
    STATIC,
    THREAD,
    TYPE,
    VARIABLE,
    FileModel,
    Symbol,
)
from ..semantics.context import FileContext
from ..semantics.declare_target import (
    BEGIN_DECLARE_TARGET,
    DECLARE_TARGET,
    ENTER_CLAUSES,
    SHARED_MARKS,
    Mark,
    indirect_of,
)
from ..syntax.diagnostics import Finding, Fix, Related
from ..syntax.document import Language
from .registry import rule

_NAMEABLE_SCOPES = frozenset({"file", "namespace", "class"})   # where what a declare target list names lives


def _marks(ctx: FileContext) -> list[Mark]:
    """Every mark of the file (rules that compare directives)."""
    return ctx.binding.marks if ctx.has_declare_target else []


def _own_marks(ctx: FileContext) -> Iterator[Mark]:
    """Every mark of the file, one directive at a time (per-directive rules: FileContext.own_marks)."""
    if ctx.has_declare_target:
        for _, _, marks in ctx.own_marks():
            yield from marks


def _variables(mark: Mark) -> list[Symbol]:
    return [s for s in mark.symbols if s.kind == VARIABLE]


@rule("OMP101", per_directive=True)
def threadprivate_item(ctx: FileContext) -> Iterator[Finding]:
    for mark in _own_marks(ctx):
        if mark.item is None:
            if any(s.storage == THREAD for s in _variables(mark)):  # clang rejects these too
                yield Finding("OMP101", f"'{mark.name}' is thread-local and cannot be in a declare target region; "
                              "declare it outside the region", mark.span)
            continue
        model = ctx.model
        key = model.key_of(mark.item.name or "")
        threadprivate = model.threadprivate.get(f"/{key}/" if mark.item.common_block else key)
        thread_local = [s for s in _variables(mark) if s.storage == THREAD]
        if thread_local or (threadprivate and (mark.symbols or mark.item.common_block)):
            what = "thread-local" if thread_local else "threadprivate"
            related = [Related(ctx.directives[i].span, "made threadprivate here") for i in threadprivate or []]
            yield Finding("OMP101", f"'{mark.name}' is {what} and cannot appear in a declare target directive; "
                          "device code cannot reach per-thread host storage", mark.span, related=related)


@rule("OMP102", per_directive=True)
def unmappable_type(ctx: FileContext) -> Iterator[Finding]:
    for mark in _own_marks(ctx):
        if mark.item is None:
            continue
        for s in _variables(mark):
            if s.complete is False:
                yield Finding("OMP102", f"'{mark.name}' has the incomplete type '{s.type_text}', which is not "
                              "mappable; define the type before the end of the file", mark.span,
                              related=[Related(s.name_span, f"'{s.name}' declared here")])
                break
            if s.polymorphic and ctx.version < 50:
                yield Finding("OMP102", f"'{mark.name}' has a class type with virtual members, which OpenMP 4.5 "
                              "does not map (allowed from 5.0)", mark.span,
                              related=[Related(s.name_span, f"'{s.name}' declared here")])
                break


def _identity(mark: Mark, model: FileModel) -> object:
    """What makes two list items the same: the declaration, else the spelling (Fortran: any case)."""
    if mark.symbols:
        return id(mark.symbols[0])
    item = mark.item
    assert item is not None
    return (item.common_block, model.key_of(item.name) if item.name else item.text)


@rule("OMP103", per_directive=True)
def repeated_item(ctx: FileContext) -> Iterator[Finding]:
    seen: dict[tuple[int, object], Mark] = {}
    for mark in _own_marks(ctx):
        if mark.item is None:
            continue
        key = (mark.directive, _identity(mark, ctx.model))
        first = seen.get(key)
        if first is None:
            seen[key] = mark
            continue
        fix = _remove_item(ctx.directives[mark.directive], mark)
        yield Finding("OMP103", f"'{mark.name}' appears more than once in this declare target directive",
                      mark.span, related=[Related(first.span, "first listed here")],
                      fixes=[fix] if fix else [])


def _remove_item(d: Directive, mark: Mark) -> Fix | None:
    """Delete the list item with its separating comma (the whole clause if it is the only item)."""
    item = mark.item
    assert item is not None
    items: list[ListItem] = mark.clause.items if mark.clause is not None else (d.argument or [])
    at = next((i for i, x in enumerate(items) if x is item), None)
    if at is None:
        return None
    if len(items) == 1:
        if mark.clause is None:
            return None
        return Fix(f"Remove the duplicate '{mark.name}'", ((mark.clause.span, ""),))
    span = (items[at - 1].span[1], item.span[1]) if at > 0 else (item.span[0], items[1].span[0])
    return Fix(f"Remove the duplicate '{mark.name}'", ((span, ""),))


@rule("OMP104")
def enter_and_link(ctx: FileContext) -> Iterator[Finding]:
    first_of: dict[tuple[str, object], Mark] = {}
    for mark in _marks(ctx):
        if mark.item is None:
            continue
        ident = _identity(mark, ctx.model)
        other_kind = "link" if mark.kind == "enter" else "enter"
        other = first_of.get((other_kind, ident))
        if other is not None and other.directive != mark.directive:
            yield Finding("OMP104", f"'{mark.name}' is in a {_clause_word(mark)} clause here and in a "
                          f"{_clause_word(other)} clause of another declare target directive; choose one",
                          mark.span, related=[Related(other.span, f"'{other.name}' in a {_clause_word(other)} "
                                                                  "clause here")])
        first_of.setdefault((mark.kind, ident), mark)


def _clause_word(mark: Mark) -> str:
    if mark.kind == "link":
        return "'link'"
    return f"'{mark.clause.name}'" if mark.clause is not None else "'to'"


@rule("OMP105", per_directive=True)
def no_list_clause(ctx: FileContext) -> Iterator[Finding]:
    for _, d in ctx.each_directive(ctx.directives_named(DECLARE_TARGET)):
        if not d.clauses or d.argument is not None or d.uses_macros:
            continue
        if any(c.name in (*ENTER_CLAUSES, "link", "indirect") for c in d.clauses):
            continue
        if any(c.spec is None for c in d.clauses):
            continue  # an unknown clause (OMP002) may have been meant as the list
        word = "enter" if ctx.version >= 52 else "to"
        if ctx.document.language.is_fortran:
            hint = f"write '!$omp declare target {word}(name) ...' inside the procedure"
        else:
            hint = f"add '{word}(...)' or 'link(...)', or use 'begin declare target' for a region"
        yield Finding("OMP105", f"this declare target directive has clauses but no '{word}' or 'link' clause: "
                      f"it names nothing; {hint}", d.name_span)


@rule("OMP003", per_directive=True)
def clauses_after_list(ctx: FileContext) -> Iterator[Finding]:
    """`declare target(list)` and `declare target clause...` are two forms of the directive: the
    list form takes no clause (clang: "unexpected clause after an implicit 'to' clause"; flang:
    "argument or clauses, but not both")."""
    for _, d in ctx.each_directive(ctx.directives_named(DECLARE_TARGET)):
        if d.argument is None or d.argument_span is None or not d.clauses or d.uses_macros:
            continue
        word = "enter" if ctx.version >= 52 else "to"
        src = ctx.document.source
        lo = d.argument_span[0]
        while lo > 0 and src[lo - 1:lo] in (b" ", b"\t"):
            lo -= 1
        # the list, written as the clause it stands for, makes the directive one form again
        fix = Fix(f"Write the list as a '{word}' clause", (((lo - 1, lo - 1), f" {word}"),)) \
            if src[lo - 1:lo] == b"(" else None
        for c in d.clauses:
            yield Finding("OMP003", f"clause '{c.name}' is not allowed on 'declare target' with a list in "
                          f"parentheses: that form takes no clauses; write the list as '{word}(...)'",
                          c.span, fixes=[fix] if fix is not None else [])


@rule("OMP106", per_directive=True)
def nohost_in_link(ctx: FileContext) -> Iterator[Finding]:
    for mark in _own_marks(ctx):
        if mark.kind == "link" and mark.device_type == "nohost" and mark.item is not None \
                and (_variables(mark) or mark.item.common_block):
            yield Finding("OMP106", f"'{mark.name}' is device_type(nohost) and cannot be in a link clause "
                          "(a link variable must exist on the host, where it is mapped from)", mark.span)


@rule("OMP107", per_directive=True)
def indirect_device_type(ctx: FileContext) -> Iterator[Finding]:
    for _, d in ctx.each_directive(ctx.directives_named(DECLARE_TARGET, BEGIN_DECLARE_TARGET)):
        if not indirect_of(d):
            continue
        c = d.clause("device_type")
        if c is None or c.keyword is None or c.keyword.name.lower() == "any":
            continue
        yield Finding("OMP107", f"'indirect' allows only device_type(any), not device_type({c.keyword.name}): an "
                      "indirect call may come from either side", c.span,
                      fixes=[Fix("Change to device_type(any)", ((c.keyword.span, "any"),))],
                      related=[Related(d.clause("indirect").span, "indirect given here")])  # type: ignore[union-attr]


@rule("OMP108", per_directive=True)
def list_on_begin(ctx: FileContext) -> Iterator[Finding]:
    for _, d in ctx.each_directive(ctx.directives_named(BEGIN_DECLARE_TARGET)):
        for c in d.clauses:
            if c.name in (*ENTER_CLAUSES, "link"):
                yield Finding("OMP108", f"'begin declare target' takes only device_type and indirect, not "
                              f"'{c.name}': list the names on a separate 'declare target' directive",
                              c.span, fixes=[Fix(f"Remove the '{c.name}' clause", ((c.span, ""),))])


@rule("OMP109", per_directive=True)
def overloaded_in_list(ctx: FileContext) -> Iterator[Finding]:
    if ctx.document.language is not Language.CPP:
        return
    model = ctx.model
    for mark in _own_marks(ctx):
        functions = [s for s in mark.symbols if s.kind == FUNCTION]
        if mark.item is None or not functions:
            continue
        if any(s.template for s in functions):
            why = "a template"
        elif _overloaded(model, functions[0]):
            why = "overloaded"
        else:
            continue
        yield Finding("OMP109", f"'{mark.name}' is {why} and may be named only in the implicit list of a "
                      "'begin declare target' ... 'end declare target' region", mark.span)


def _overloaded(model: FileModel, f: Symbol) -> bool:
    signatures = {tuple(t for t, _ in s.params) for s in model.named(f.key)
                  if s.kind == FUNCTION and s.qualified == f.qualified}
    return len(signatures) > 1


@rule("OMP110")
def lambda_uses_static(ctx: FileContext) -> Iterator[Finding]:
    if ctx.document.language is not Language.CPP or not ctx.has_declare_target:
        return
    binding = ctx.binding
    if not binding.regions:
        return
    model = ctx.model
    for r in binding.regions:
        model.expand(r.span)  # lambdas inside function bodies are read with the bodies
    # in source order: the model lists lambdas and their references in the order it read them
    for lam in sorted(model.lambdas, key=lambda found: found.span):
        if not any(r.span[0] <= lam.span[0] < r.span[1] for r in binding.regions):
            continue
        reported: set[int] = set()
        for ref in sorted(lam.references, key=lambda found: found.span):
            hits = model.visible(ref.key, ref.span[0])
            var = hits[0] if hits else None
            if var is None or var.kind != VARIABLE or var.storage != STATIC or id(var) in reported:
                continue
            if var.scope.kind not in ("file", "namespace", "class") or var.specifiers & {"const", "constexpr"}:
                continue
            # every declaration of the variable (an extern in the region marks it too)
            same = [h for h in hits if h.kind == VARIABLE and h.scope is var.scope]
            if any(m.kind == "enter" for d in same for m in binding.of(d)):
                continue
            reported.add(id(var))
            yield Finding("OMP110", f"the lambda uses '{ref.name}', a variable of static storage duration that is "
                          "not declare target; add it to a 'to'/'enter' clause (or declare it in the region)",
                          ref.span, related=[Related(var.name_span, f"'{var.name}' declared here")])


@rule("OMP111")
def module_statement_in_region(ctx: FileContext) -> Iterator[Finding]:
    if ctx.document.language is not Language.CPP or not ctx.has_declare_target:
        return
    regions = ctx.binding.regions
    for span in ctx.model.module_statements:
        if any(r.span[0] <= span[0] < r.span[1] for r in regions):
            yield Finding("OMP111", "a module import or export cannot appear between 'begin declare target' and "
                          "'end declare target'; move it before the region", span)


@rule("OMP112", per_directive=True)
def function_in_link(ctx: FileContext) -> Iterator[Finding]:
    for mark in _own_marks(ctx):
        if mark.kind == "link" and mark.symbols and all(s.is_procedure for s in mark.symbols):
            yield Finding("OMP112", f"'{mark.name}' is a procedure; 'link' takes variables only (use "
                          f"'{'enter' if ctx.version >= 52 else 'to'}' for procedures)", mark.span,
                          fixes=[])


# `using namespace n;` and `using n::x;` bring names in from elsewhere (an alias `using T = ...` does not).
_USING = re.compile(rb"\busing\s+(?:namespace\b|[\w:]+::\w+\s*;)")


@rule("OMP113", per_directive=True)
def undeclared_item(ctx: FileContext) -> Iterator[Finding]:
    lang = ctx.document.language
    if lang.is_fortran or not ctx.has_declare_target:
        return
    model = ctx.model
    src = ctx.document.source
    # Names may come from a user header or a using-directive: then say nothing about missing ones.
    if lang is Language.CPP:
        ctx.depends_on_words(b"using")
    unsure = not model.complete or model.user_includes() or \
        (lang is Language.CPP and _USING.search(src) is not None)
    for mark in _own_marks(ctx):
        item = mark.item
        if item is None or item.name is None or "::" in item.name:
            continue
        d = ctx.directives[mark.directive]
        if d.uses_macros or d.raw.in_macro or item.name in ctx.macros:
            continue
        if mark.symbols:
            if all(s.kind == TYPE for s in mark.symbols):
                yield Finding("OMP113", f"'{item.name}' names a type; list variables and functions", mark.span)
            continue
        if unsure or model.scope_at(d.span[0]).kind == "class":
            continue
        # declarations the directive could name: not locals (which the model knows only once it has
        # read their function's body)
        later = [s for s in model.named(model.key_of(item.name))
                 if s.name_span[0] > d.span[0] and s.scope.kind in _NAMEABLE_SCOPES]
        if later:
            yield Finding("OMP113", f"'{item.name}' is declared after this directive; move the directive below "
                          "the declaration", mark.span, related=[Related(later[0].name_span, "declared here")])
        else:
            yield Finding("OMP113", f"'{item.name}' is not declared", mark.span)


@rule("OMP114", per_directive=True)
def automatic_variable(ctx: FileContext) -> Iterator[Finding]:
    if ctx.document.language.is_fortran:
        return  # Fortran: OMP162 (neither a module variable nor SAVE) says the same
    for mark in _own_marks(ctx):
        local = [s for s in _variables(mark) if s.storage == AUTOMATIC]
        if mark.item is not None and local and len(local) == len(mark.symbols):
            s = local[0]
            parameter = "dummy" in s.specifiers
            what = "a parameter" if parameter else "a local variable"
            yield Finding("OMP114", f"'{mark.name}' is {what} without static storage duration; "
                          + ("list a variable of static storage duration instead" if parameter
                             else "declare it 'static' or at file scope"), mark.span,
                          related=[Related(s.name_span, f"'{s.name}' declared here")],
                          fixes=[] if parameter else
                          [Fix(f"Declare '{s.name}' static", (((s.span[0], s.span[0]), "static "),))])


_C_CONSTANT_WORDS = frozenset({"true", "false", "sizeof", "alignof", "_Alignof", "int", "char", "long", "short",
                               "unsigned", "signed", "bool", "_Bool", "nullptr", "NULL"})
_NOT_LOGICAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?(?:_\w+)?|'[^']*'|\"[^\"]*\"")
_F_LOGICALS = re.compile(r"\.(?:true|false|and|or|not|eqv|neqv|eq|ne|lt|le|gt|ge)\.", re.IGNORECASE)


@rule("OMP115", per_directive=True)
def indirect_not_constant(ctx: FileContext) -> Iterator[Finding]:
    fortran = ctx.document.language.is_fortran
    for _, d in ctx.each_directive(ctx.directives_named(DECLARE_TARGET, BEGIN_DECLARE_TARGET)):
        if d.uses_macros:
            continue
        c = d.clause("indirect")
        if c is None or c.expr is None:
            continue
        if fortran and _NOT_LOGICAL.fullmatch(c.expr.text.strip()):
            # Fortran has no integer truth values: 1, 5.5 or "abs" is not a logical expression
            yield Finding("OMP115", f"the argument of 'indirect' must be a constant logical expression such as "
                          f".true.; '{c.expr.text.strip()}' is not logical", c.expr.span)
            continue
        culprit = _non_constant(ctx, c, d)
        if culprit is not None:
            yield Finding("OMP115", f"the argument of 'indirect' must be a constant boolean expression; "
                          f"'{culprit.name}' is a variable", c.expr.span,
                          related=[Related(culprit.name_span, f"'{culprit.name}' declared here")])


def _non_constant(ctx: FileContext, c: Clause, d: Directive) -> Symbol | None:
    """A variable the expression reads, or None when it is (or may be) constant."""
    assert c.expr is not None
    text = c.expr.text
    fortran = ctx.document.language.is_fortran
    if fortran:
        text = _F_LOGICALS.sub(" ", text)
    model = ctx.model
    for word in re.findall(r"[A-Za-z_]\w*", text):
        if not fortran and (word in _C_CONSTANT_WORDS or looks_like_macro(word, ctx.macros)):
            continue
        hits = model.visible(model.key_of(word), d.span[0], before=not fortran)
        if not hits:
            continue  # unknown: may be a constant from a header
        s = hits[0]
        if s.kind != VARIABLE or s.specifiers & {"const", "constexpr", "parameter"}:
            continue
        return s
    return None


@rule("OMP116")
def conflicting_device_types(ctx: FileContext) -> Iterator[Finding]:
    first: dict[int, Mark] = {}
    reported: set[tuple[int, int]] = set()
    for mark in _marks(ctx):
        if not mark.explicit or not mark.symbols:
            continue
        ident = id(mark.symbols[0])
        prior = first.get(ident)
        if prior is None:
            first[ident] = mark
            continue
        if prior.device_type != mark.device_type and (mark.directive, ident) not in reported:
            reported.add((mark.directive, ident))
            yield Finding("OMP116", f"'{mark.name}' was given device_type({prior.device_type}) by an earlier "
                          f"directive and device_type({mark.device_type}) here: clang rejects this, flang widens "
                          "it to device_type(any); use one device type", mark.span,
                          related=[Related(prior.span, f"device_type({prior.device_type}) given here")])


@rule("OMP117", per_directive=True)
def marked_after_use(ctx: FileContext) -> Iterator[Finding]:
    """A declaration's first mark (by any directive, a region's included) whose directive comes
    after a use of it. It reads each directive's own marks and the shared part of the binding:
    which directive marks a declaration first changes only with the marks of declarations that
    several directives mark (SHARED_MARKS)."""
    if ctx.document.language.is_fortran or not ctx.has_declare_target:
        return
    binding = ctx.binding_part(SHARED_MARKS)
    assert binding is not None
    model = ctx.model
    for at, d, marks in ctx.own_marks():
        done: set[int] = set()
        for mark in marks:
            if mark.item is None or not mark.symbols:
                continue
            s = mark.symbols[0]
            if id(s) in done:
                continue
            done.add(id(s))
            if any(m.directive < at for m in binding.of(s)):
                continue  # already marked earlier: this directive only repeats it
            use = model.first_use(s, (s.name_span[1], d.span[0]))
            if use is not None:
                yield Finding("OMP117", f"'{s.name}' is used before this declare target directive marks it; the use "
                              "may not see the device version (clang: may lead to incorrect results); mark it before "
                              "its first use", mark.span, related=[Related(use, "first used here")])
