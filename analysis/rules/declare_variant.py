"""Declare variant restrictions: C and C++ (OMP302-OMP307, OMP309, OMP310, OMP312-OMP314, OMP316,
OMP363, OMP364) and the checks that need only the directive, for every language (OMP301, OMP308,
OMP311, OMP317 and the repeated-argument half of OMP309).

The C/C++ rules read `ctx.variants` (each directive's base and variant functions, effective
selectors, begin/end regions) and stay silent where it does not know: a name a header may
declare, a type from a header or a macro, a template, a directive written with macros.
Fortran's procedure-level forms are in `declare_variant_fortran`.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from typing import NamedTuple

from ..directives import traits
from ..directives.nodes import (
    Clause,
    ContextSelector,
    Directive,
    Expr,
    InteropSpec,
    ListItem,
    TraitProperty,
    TraitSelector,
)
from ..directives.parser import looks_like_macro, suggest, version_text
from ..model.constants import constant_value
from ..model.file_model import (
    AUTOMATIC,
    FIELD,
    FUNCTION,
    NAMESPACE,
    TYPE,
    VARIABLE,
    FileModel,
    Reference,
    Symbol,
)
from ..model.model_c import named_by
from ..semantics.context import FileContext
from ..semantics.variants import (
    BEGIN_DECLARE_VARIANT,
    DECLARE_VARIANT,
    FUNCTION_FOLLOWS,
    IN_BODY,
    NOT_A_FUNCTION,
    NOTHING_FOLLOWS,
    SEVERAL_FOLLOW,
    VARIANT_DIRECTIVES,
    FunctionIdentity,
    VariantDirective,
    VariantRegion,
    Variants,
    selector_of,
    types_is_function,
)
from ..syntax.diagnostics import Finding, Fix, Related
from ..syntax.document import Language, Span
from ..syntax.reads import unrecorded
from ..syntax.records import kept_with
from .registry import rule

# Clauses `begin declare variant` takes (OMP311).
BEGIN_CLAUSES = frozenset({"match"})
# Construct traits whose context a call site shows lexically (OMP314): target regions and
# dispatch constructs. Others (parallel, teams, for, simd) may come from an enclosing region in
# another function, which the file does not show.
CHECKED_CONSTRUCTS = ("target", "dispatch")
# Trait selectors whose properties are expressions (OMP316).
EXPRESSION_SELECTORS = frozenset({"condition", "device_num"})
# What a C++ base function may not be (OMP312): the word in messages.
SPECIAL_WORDS = {
    "virtual": "a virtual function",
    "constructor": "a constructor",
    "destructor": "a destructor",
    "deleted": "a deleted function",
    "defaulted": "a defaulted function",
    "consteval": "an immediate (consteval) function",
}
# Words of C/C++ expressions that are not variables (OMP316).
_EXPRESSION_WORDS = frozenset({
    "true", "false", "nullptr", "NULL", "this", "sizeof", "alignof", "_Alignof", "__alignof__", "static_cast",
    "const_cast", "reinterpret_cast", "dynamic_cast", "typeid", "noexcept", "decltype", "new", "delete",
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "bool", "_Bool", "const",
    "volatile", "struct", "union", "enum", "class", "typename", "template", "operator", "and", "or", "not",
    "xor", "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq", "not_eq", "size_t", "ptrdiff_t",
})
_ARITHMETIC_WORDS = frozenset({"const", "volatile", "static", "extern", "signed", "unsigned", "char", "short", "int",
                               "long", "float", "double", "_Bool", "bool"})
# Names a header declares: OpenMP's and the compilers' own (OMP302, OMP316 stay silent on them).
_HEADER_PREFIXES = ("omp_", "ompx_", "kmp_", "__")
_USING = re.compile(rb"\busing\s+(?:namespace\b|[\w:]+::\w+\s*;)")
_VARIANT_NAME = re.compile(r"(?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*(?:<.*>)?", re.DOTALL)
_IDENTIFIER = re.compile(r"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')|([A-Za-z_]\w*)""")


# -- shared helpers ------------------------------------------------------------------------------
def _has_variants(ctx: FileContext) -> bool:
    found = ctx.__dict__.get("_has_declare_variant")
    if found is None:
        found = ctx.__dict__["_has_declare_variant"] = bool(ctx.directives_named(*VARIANT_DIRECTIVES))
    return found


def _c_records(ctx: FileContext) -> list[VariantDirective]:
    """Resolved C/C++ declare variant directives (none for Fortran or files without them)."""
    if ctx.document.language.is_fortran or not _has_variants(ctx):
        return []
    return ctx.variants.directives


def _written_base(rec: VariantDirective) -> Symbol | None:
    """The directive's base function, when the function follows it and no macro is in it."""
    return rec.base if rec.placement == FUNCTION_FOLLOWS and not rec.directive.uses_macros else None


def _own_records(ctx: FileContext, c_only: bool = True) -> Iterator[VariantDirective]:
    """For per-directive rules: the resolved records, one directive at a time (FileContext.own_variants)."""
    if (c_only and ctx.document.language.is_fortran) or not _has_variants(ctx):
        return
    yield from ctx.own_variants()


def _own_based(ctx: FileContext) -> Iterator[tuple[VariantDirective, Symbol]]:
    """The directives with their base function (`_written_base`), one directive at a time (_own_records)."""
    for rec in _own_records(ctx):
        base = _written_base(rec)
        if base is not None:
            yield rec, base


def _single_variant(rec: VariantDirective, variants: Variants) -> Symbol | None:
    """The variant function when the name finds exactly one function (one identity)."""
    if not rec.variants:
        return None
    first = variants.identity(rec.variants[0])
    if any(variants.identity(s) != first for s in rec.variants[1:]):
        return None
    return rec.variants[0]


def _is_function(ctx: FileContext, s: Symbol) -> bool:
    """A function declaration (also `T *f();`, which the model records as a variable)."""
    return types_is_function(ctx.variant_directives.types, s)


def _names_certain(ctx: FileContext) -> bool:
    """Whether a name the file does not declare is really undeclared: no header but <omp.h>
    (whose names all start with omp_), no using-directive, a model that read everything."""
    cached = ctx.__dict__.get("_variant_names_certain")
    if cached is None:
        src = ctx.document.source
        ctx.depends_on_words(b"using")
        cached = (ctx.model.complete and all(i.header == "omp.h" for i in ctx.model.includes)
                  and not (ctx.document.language is Language.CPP and _USING.search(src)))
        ctx.__dict__["_variant_names_certain"] = cached
    return cached


def _arithmetic(type_text: str) -> bool:
    words = re.findall(r"[A-Za-z_]\w*|\S", type_text)
    return bool(words) and all(w in _ARITHMETIC_WORDS for w in words)


def _from_header(name: str, ctx: FileContext) -> bool:
    return name.startswith(_HEADER_PREFIXES) or looks_like_macro(name, ctx.macros)


def _line(ctx: FileContext, offset: int) -> int:
    return ctx.document.lines.line_of(offset) + 1


def _kind_word(s: Symbol) -> str:
    if s.kind == VARIABLE:
        return "a parameter" if "dummy" in s.specifiers else "a variable"
    if s.kind == FIELD:
        return "a data member"
    if s.kind == TYPE:
        return "a type"
    return f"a {s.kind}"


def _remove_list_item(clause: Clause, item: ListItem, name: str) -> Fix:
    """Delete a list item with its separating comma (the whole clause when it is the only item)."""
    items = clause.items
    if len(items) == 1:
        return Fix(f"Remove the repeated '{name}'", ((clause.span, ""),))
    at = next(i for i, x in enumerate(items) if x is item)
    span = (items[at - 1].span[1], item.span[1]) if at > 0 else (item.span[0], items[1].span[0])
    return Fix(f"Remove the repeated '{name}'", ((span, ""),))


# -- OMP301 --------------------------------------------------------------------------------------
@rule("OMP301", per_directive=True)
def missing_match(ctx: FileContext) -> Iterator[Finding]:
    if not _has_variants(ctx) or ctx.version < 50:
        return
    for _, d in ctx.each_directive_named(VARIANT_DIRECTIVES):
        if d.clause("match") is not None or d.uses_macros:
            continue
        if any(c.spec is None for c in d.clauses):
            continue  # an unknown clause (OMP002) may have been meant as the match clause
        adjusts = [c.name for c in d.clauses if c.name in ("adjust_args", "append_args")]
        if d.name == DECLARE_VARIANT and adjusts and ctx.version >= 60:
            continue  # OpenMP 6.0: adjust_args/append_args alone imply construct={dispatch}
        if d.name == BEGIN_DECLARE_VARIANT:
            message = ("'begin declare variant' needs a match clause: it gives the context in which the "
                       "functions of the region are used")
        elif adjusts:
            first = next(c for c in d.clauses if c.name in ("adjust_args", "append_args"))
            yield Finding("OMP301", f"'declare variant' needs a match clause before OpenMP 6.0, even with "
                          f"{' and '.join(sorted(set(adjusts)))}: add 'match(construct={{dispatch}})'", d.name_span,
                          fixes=[Fix("Add match(construct={dispatch})", (((first.span[0], first.span[0]),
                                                                           "match(construct={dispatch}) "),))])
            continue
        else:
            message = ("'declare variant' needs a match clause: it gives the context in which the variant "
                       "replaces the base function")
        yield Finding("OMP301", message, d.name_span)


# -- OMP302 --------------------------------------------------------------------------------------
@rule("OMP302", per_directive=True)
def variant_not_a_function(ctx: FileContext) -> Iterator[Finding]:
    for rec in _own_records(ctx):
        if rec.placement == IN_BODY or rec.name_span is None or rec.directive.uses_macros or not rec.name:
            continue
        if not _VARIANT_NAME.fullmatch(rec.name):
            continue  # malformed (OMP004) or an expression: not a name to look up
        name = rec.name.split("<")[0].lstrip(":")
        last = name.split("::")[-1]
        if rec.found:
            if any(_is_function(ctx, s) for s in rec.found):
                continue
            s = rec.found[0]
            if s.kind == VARIABLE and not _arithmetic(s.type_text):
                continue  # a function pointer or a function object: not modelled
            if s.kind in (VARIABLE, TYPE, FIELD):
                yield Finding("OMP302", f"'{name}' is {_kind_word(s)}, not a function: the variant must name "
                              "a function declared before the directive", rec.name_span,
                              related=[Related(s.name_span, f"'{s.name}' declared here")])
            continue
        model = ctx.model
        offset = rec.base.name_span[1] if rec.base is not None else rec.directive.span[1]
        around = list(model.scope_at(offset).ancestors())
        later = [s for s in model.named(last) if _is_function(ctx, s) and s.name_span[0] >= offset
                 and (s.scope in around if "::" not in name else s.qualified.endswith(name))]
        if later and not ctx.model.user_includes():  # else a header may declare it earlier
            yield Finding("OMP302", f"'{name}' is declared after this directive; declare the variant function "
                          "before the 'declare variant' directive", rec.name_span,
                          related=[Related(later[0].name_span, f"'{last}' declared here")])
        elif _names_certain(ctx) and not _from_header(last, ctx) and _known_qualifier(model, name):
            yield Finding("OMP302", f"'{name}' is not declared: the variant must name a function declared "
                          "before the directive", rec.name_span)


def _known_qualifier(model: FileModel, name: str) -> bool:
    """An unqualified name, or one whose qualifier is a namespace or class of this file."""
    if "::" not in name:
        return True
    owner = name.rsplit("::", 1)[0].split("::")[-1]
    return any(s.kind in (NAMESPACE, TYPE) for s in model.named(owner))


# -- OMP303 --------------------------------------------------------------------------------------
@rule("OMP303", per_directive=True)
def incompatible_variant_type(ctx: FileContext) -> Iterator[Finding]:
    for rec, base in _own_based(ctx):
        types = ctx.variant_directives.types
        assert types is not None
        if types.special(base) & {"constructor", "destructor"}:
            continue  # OMP312
        base_sig = types.signature(base)
        if rec.append_args is not None and base_sig is not None and base_sig.variadic and rec.interops:
            yield Finding("OMP303", f"append_args cannot append arguments to '{base.name}', which takes a variable "
                          "argument list ('...')", base.name_span,
                          related=[Related(rec.append_args.span, "append_args given here")])
            continue
        if rec.verdict.ok is not False or rec.name_span is None:
            continue
        variant = rec.variants[0] if len(rec.variants) == 1 else None
        related = [Related(base.name_span, f"base function '{base.name}' declared here")]
        if variant is not None:
            related.append(Related(variant.name_span, f"variant '{variant.name}' declared here"))
        yield Finding("OMP303", f"the variant's type does not match the base function '{base.name}': "
                      f"{rec.verdict.reason}", rec.name_span, related=related)


# -- OMP304 --------------------------------------------------------------------------------------
@rule("OMP304", per_directive=True)
def not_before_a_function(ctx: FileContext) -> Iterator[Finding]:
    for rec in _own_records(ctx):
        d = rec.directive
        if rec.placement == NOTHING_FOLLOWS:
            related = [Related(rec.following, "this comes next")] if rec.following else []
            yield Finding("OMP304", "'declare variant' must be followed by the declaration or definition of its "
                          "base function", d.name_span, related=related)
        elif rec.placement == SEVERAL_FOLLOW:
            assert rec.following is not None
            yield Finding("OMP304", "'declare variant' applies to a single function declaration, but the "
                          "declaration after it declares several names; declare the base function on its own",
                          d.name_span, related=[Related(rec.following, "the declaration")])
        elif rec.placement == NOT_A_FUNCTION and rec.following is not None:
            start, end = rec.following
            src = ctx.document.source
            name = src[start:end].decode("utf-8", "replace")
            if re.fullmatch(r"[\w:~]+", name):
                what = f"'{name}' is not a function"
            else:
                newline = src.find(b"\n", start, end)
                what, end = "the declaration after it is not a function", newline if newline >= 0 else end
            yield Finding("OMP304", f"'declare variant' applies only to a function declaration or definition: "
                          f"{what}", (start, end), related=[Related(d.name_span, "the directive")])


# -- OMP305 / OMP306 -----------------------------------------------------------------------------
@rule("OMP305", per_directive=True)
def variant_is_the_base(ctx: FileContext) -> Iterator[Finding]:
    for rec, base in _own_based(ctx):
        variants = ctx.variant_directives
        variant = _single_variant(rec, variants)
        if variant is not None and rec.name_span is not None and not rec.template_args \
                and variants.identity(variant) == variants.identity(base):
            yield Finding("OMP305", f"the variant '{rec.name}' is the base function itself; name a different "
                          "function", rec.name_span)


class _Relation(NamedTuple):
    """What OMP306 and OMP313 compare of a record with the others'."""
    based: bool                                  # it has a _written_base
    base: FunctionIdentity | None                # its base function's identity
    variant: FunctionIdentity | None             # its single variant's identity
    key: tuple[str, tuple[object, ...], int, str] | None   # the variant, specialization included
    compared: bool                               # OMP313 compares its construct set


def _relations(ctx: FileContext) -> list[tuple[VariantDirective, _Relation]]:
    """Each C/C++ record with its relation facts. They are made from the record alone and the
    functions' identities, so each record keeps its facts while the lookup tables are the same
    (an edit of one declare variant makes that record anew and hands the tables on): the rules
    that compare every record with the others then cost a lookup a record at each edit. (Their
    read of the whole structure, `ctx.variants`, runs them again after any declare variant edit;
    the facts' own reads of the record's directive are not recorded.)"""
    records = _c_records(ctx)
    if not records:
        return []
    variants = ctx.variants
    tables = variants.__dict__.setdefault("_identities", {})

    def related() -> list[tuple[VariantDirective, _Relation]]:
        return [(rec, kept_with(rec, "_relation", tables, partial(unrecorded, partial(_relation, rec, variants))))
                for rec in records]
    return kept_with(variants, "_relations", records, related)   # (both rules read the same list)


def _relation(rec: VariantDirective, variants: Variants) -> _Relation:
    base = _written_base(rec)
    if base is None:
        return _Relation(False, None, None, None, False)
    variant = _single_variant(rec, variants)
    return _Relation(True, variants.identity(base), variants.identity(variant) if variant is not None else None,
                     _variant_key(rec, variant, variants) if variant is not None else None,
                     bool(rec.variants) and rec.verdict.ok is not False and rec.name_span is not None
                     and rec.directive.clause("match") is not None)  # without match: OMP301, the set is not known


@rule("OMP306")
def variant_is_a_base(ctx: FileContext) -> Iterator[Finding]:
    records = [(rec, f) for rec, f in _relations(ctx) if f.based]
    if not records:
        return
    bases: dict[FunctionIdentity | None, VariantDirective] = {}
    for rec, f in records:
        bases.setdefault(f.base, rec)
    for rec, f in records:
        if f.variant is None or rec.name_span is None or rec.template_args:
            continue  # a specialization is not a declared base function
        other = bases.get(f.variant)
        if other is None or f.variant == f.base:
            continue
        variant = _single_variant(rec, ctx.variants)
        assert variant is not None
        yield Finding("OMP306", f"the variant '{rec.name}' is itself the base function of another 'declare variant' "
                      "directive; variants are not chained: name the final variant here", rec.name_span,
                      related=[Related(other.directive.name_span, f"'{variant.name}' is a base function here")])


# -- OMP307 --------------------------------------------------------------------------------------
@rule("OMP307", per_directive=True)
def after_use_or_definition(ctx: FileContext) -> Iterator[Finding]:
    for rec, base in _own_based(ctx):
        variants, model = ctx.variant_directives, ctx.model
        ident = variants.identity(base)
        same_name = [s for s in model.named(base.key) if _is_function(ctx, s)]
        earlier = [s for s in same_name if s.name_span[0] < rec.directive.span[0] and variants.identity(s) == ident]
        if not earlier:
            continue
        defined = next((s for s in earlier if s.definition), None)
        if defined is not None:
            yield Finding("OMP307", f"'{base.name}' is already defined above; calls may use the original function "
                          "rather than the variant: put the directive before the first declaration",
                          rec.directive.name_span, related=[Related(defined.name_span, "defined here")])
            continue
        if len({variants.identity(s) for s in same_name}) > 1:
            continue  # overloads: a use of the name may be another function
        use = model.first_use(earlier[0], (earlier[0].name_span[1], rec.directive.span[0]))
        if use is not None:
            yield Finding("OMP307", f"'{base.name}' is used before this directive; that use may call the original "
                          "function rather than the variant: put the directive before the first use",
                          rec.directive.name_span, related=[Related(use, "first used here")])


# -- OMP308 --------------------------------------------------------------------------------------
@rule("OMP308", per_directive=True)
def adjust_without_dispatch(ctx: FileContext) -> Iterator[Finding]:
    for rec in _own_records(ctx, c_only=False):
        d = rec.directive
        clauses = [c for c in d.clauses if c.name in ("adjust_args", "append_args")]
        if not clauses or d.uses_macros or "dispatch" in rec.construct:
            continue
        match = d.clause("match")
        if match is None or match.selector is None or not match.selector.sets:
            continue  # 6.0: construct={dispatch} is implied; before, OMP301 reports the missing match;
            # an empty selector is OMP004's
        names = " and ".join(sorted({c.name for c in clauses}))
        yield Finding("OMP308", f"{names} can only be used when the match clause's construct selector set "
                      "contains 'dispatch' (the arguments are adjusted by a dispatch construct)",
                      clauses[0].name_span, fixes=_dispatch_fix(ctx, match),
                      related=[Related(match.span, "the match clause")])


def _dispatch_fix(ctx: FileContext, match: Clause) -> list[Fix]:
    fortran = ctx.document.language.is_fortran
    selector = match.selector
    assert selector is not None
    construct = next((s for s in selector.sets if s.name == "construct"), None)
    if construct is None:
        at = selector.span[0]
        return [Fix("Add construct={dispatch} to the match clause", (((at, at), "construct={dispatch}, "),))]
    close = construct.span[1] - 1
    if ctx.document.source[close:close + 1] != b"}" or (fortran and b"&" in ctx.document.source[construct.span[0]:close]):
        return []
    text = ", dispatch" if construct.selectors else "dispatch"
    return [Fix("Add dispatch to the construct selector set", (((close, close), text),))]


# -- OMP309 --------------------------------------------------------------------------------------
@rule("OMP309", per_directive=True)
def adjust_args_arguments(ctx: FileContext) -> Iterator[Finding]:
    if not _has_variants(ctx):
        return
    fortran = ctx.document.language.is_fortran
    for _, d in ctx.each_directive(ctx.directives_named(DECLARE_VARIANT)):
        if d.uses_macros:
            continue
        seen: dict[str, ListItem] = {}
        for clause in d.clauses_named("adjust_args"):
            for item in clause.items:
                if item.name is None:
                    continue
                key = item.name.lower() if fortran else item.name
                first = seen.get(key)
                if first is None:
                    seen[key] = item
                    continue
                yield Finding("OMP309", f"'{item.name}' already appears in an adjust_args clause of this directive; "
                              "each argument may be adjusted once", item.span,
                              related=[Related(first.span, "first given here")],
                              fixes=[_remove_list_item(clause, item, item.name)])
    for rec, base in _own_based(ctx):
        types = ctx.variant_directives.types
        found = types.parameter_names(base) if types is not None and types.signature(base) is not None else None
        if found is None:
            continue
        names = {n for n in found if n}
        reported: set[str] = set()
        for clause in rec.adjust_args:
            for item in clause.items:
                if item.name is None or not item.is_plain_name or item.name in names or item.name in reported:
                    continue
                if item.name in ctx.macros or item.name == "this":
                    continue
                reported.add(item.name)
                near = suggest(item.name, names)
                yield Finding("OMP309", f"'{item.name}' is not a parameter of the base function '{base.name}'; "
                              "adjust_args names the base function's parameters"
                              + (f" (did you mean '{near}'?)" if near else ""), item.span,
                              related=[Related(base.name_span, f"'{base.name}' declared here")],
                              fixes=[Fix(f"Change to '{near}'", ((item.span, near),))] if near else [])


# -- OMP310 --------------------------------------------------------------------------------------
@rule("OMP310", per_directive=True)
def need_device_ptr_not_pointer(ctx: FileContext) -> Iterator[Finding]:
    for rec, base in _own_based(ctx):
        types = ctx.variant_directives.types
        sig = types.signature(base) if types is not None else None
        names = types.parameter_names(base) if types is not None else None
        if sig is None or sig.params is None or names is None or len(names) != len(sig.params):
            continue
        by_name = {n: t for n, t in zip(names, sig.params) if n}
        for clause in rec.adjust_args:
            if not any(m.name.startswith("need_device_ptr") for m in clause.modifiers):
                continue
            for item in clause.items:
                ct = by_name.get(item.name or "")
                if ct is None or ct.is_pointer or not ct.known:
                    continue
                yield Finding("OMP310", f"'{item.name}' has type '{ct.text}', not a pointer: need_device_ptr "
                              "converts a pointer argument to a device pointer", item.span,
                              related=[Related(base.name_span, f"'{base.name}' declared here")])


# -- OMP317 --------------------------------------------------------------------------------------
_PREFER_TYPE = re.compile(rf"{traits.INTEROP_PREFER_TYPE}\s*\(", re.IGNORECASE)


@rule("OMP317", "OMP007", per_directive=True)
def interop_types(ctx: FileContext) -> Iterator[Finding]:
    """Each interop(...) of append_args names its interop types: target, targetsync (and, from
    6.0, a prefer_type(...) modifier). Every language: the check needs only the directive."""
    if not _has_variants(ctx):
        return
    for _, d in ctx.each_directive(ctx.directives_named(DECLARE_VARIANT)):
        clause = d.clause("append_args")
        if clause is None or d.uses_macros:
            continue
        for op in clause.interops:
            yield from _interop_operation(ctx, op)


def _interop_operation(ctx: FileContext, op: InteropSpec) -> Iterator[Finding]:
    fortran = ctx.document.language.is_fortran
    types = [p for p in op.properties if not _PREFER_TYPE.match(p.text)]
    prefers = [p for p in op.properties if _PREFER_TYPE.match(p.text)]
    if not op.properties:
        yield Finding("OMP317", "interop() names no interop type: write interop(target), interop(targetsync) or "
                      "interop(target, targetsync)", op.span)
        return
    if prefers and ctx.version < traits.INTEROP_PREFER_TYPE_SINCE:
        yield Finding("OMP007", f"prefer_type(...) in an append_args interop operation needs OpenMP "
                      f"{version_text(traits.INTEROP_PREFER_TYPE_SINCE)}; the selected version is "
                      f"{version_text(ctx.version)}: name the interop types only", prefers[0].span)
    for p in types:
        word = p.text.strip()
        key = word.lower() if fortran else word
        if key in traits.INTEROP_TYPES or (not fortran and looks_like_macro(word, ctx.macros)):
            continue
        guess = suggest(key, traits.INTEROP_TYPES) if re.fullmatch(r"\w+", word) else None
        yield Finding("OMP317", f"'{word}' is not an interop type: interop(...) of append_args takes 'target' "
                      "and/or 'targetsync'" + (f"; did you mean '{guess}'?" if guess else ""), p.span,
                      fixes=[Fix(f"Change to '{guess}'", ((p.span, guess),))] if guess else [])


# -- OMP363 --------------------------------------------------------------------------------------
# Words that make a condition's names unevaluated or not plain reads: then say nothing.
_UNEVALUATED = re.compile(r"\b(?:sizeof|alignof|_Alignof|__alignof__|decltype|typeid|noexcept|_Generic)\b|"
                          r"->|::|\.\s*[A-Za-z_]")
# What follows the first of these may not be evaluated; what comes before always is.
_SHORT_CIRCUIT = re.compile(r"&&|\|\||\?")
_CONST = re.compile(r"\b(?:const|constexpr)\b")


@rule("OMP363", per_directive=True)
def non_constant_condition(ctx: FileContext) -> Iterator[Finding]:
    """A user condition that is not a constant on `declare variant`: 5.1 allows such a dynamic
    selector (evaluated at each call), clang 22 and gcc accept only constants there. Only what
    the file shows to be a variable, a parameter or a function counts; anything else is silent."""
    for rec in _own_records(ctx):
        d = rec.directive
        if d.uses_macros or d.raw.in_macro or rec.placement == IN_BODY:
            continue
        match = d.clause("match")
        for ts in match.selector.sets if match is not None and match.selector is not None else ():
            if ts.name != "user":
                continue
            for sel in ts.selectors:
                if sel.name == "condition" and len(sel.properties) == 1:
                    finding = _dynamic_condition(ctx, rec, sel.properties[0])
                    if finding is not None:
                        yield finding


def _dynamic_condition(ctx: FileContext, rec: VariantDirective, prop: TraitProperty) -> Finding | None:
    text = prop.text
    if _UNEVALUATED.search(text):
        return None  # a name in sizeof is not evaluated; members are not modelled
    cut = _SHORT_CIRCUIT.search(text)
    found = _first_dynamic_name(ctx, rec, text[:cut.start()] if cut else text)
    if found is None:
        return None
    word, what, declared = found
    related = [Related(declared.name_span, f"'{declared.name}' declared here")] if declared is not None else []
    return Finding("OMP363", f"this user condition is not a constant ({word} is {what}): OpenMP allows a dynamic "
                   "condition, evaluated at each call, but clang and gcc accept only a constant one in 'declare "
                   "variant'; use a constant expression, or test the condition where the base function is called",
                   prop.span, related=related)


def _first_dynamic_name(ctx: FileContext, rec: VariantDirective, text: str
                        ) -> tuple[str, str, Symbol | None] | None:
    """The first name of the condition that the file shows is not a constant: (the name as
    shown, what it is, its declaration)."""
    model = ctx.model
    offset = rec.directive.span[0]
    params: set[str] = set()
    if rec.base is not None and rec.placement == FUNCTION_FOLLOWS and (types := ctx.variant_directives.types) is not None:
        params = {n for n in types.parameter_names(rec.base) or () if n}
    for m in _IDENTIFIER.finditer(text):
        word = m.group(2)
        if word is None or word in _EXPRESSION_WORDS or _from_header(word, ctx):
            continue
        called = text[m.end():].lstrip().startswith("(")
        if word in params and not called:
            return f"'{word}'", f"a parameter of '{rec.base.name}'" if rec.base is not None else "a parameter", None
        hits = model.visible(model.key_of(word), offset)
        if not hits:
            continue  # unknown here: an enumerator, a name from a header
        s = hits[0]
        if s.kind == FUNCTION and _plain_function(ctx, hits):
            return (f"'{word}(...)'", "a function call", s) if called else (f"'{word}'", "a function", s)
        if s.kind == VARIABLE and not called and not (s.specifiers & {"const", "constexpr"}) \
                and not _CONST.search(s.type_text):
            return f"'{word}'", "a variable", s
    return None


# GNU and C++11 attribute groups, and the multiversioning attributes clang cannot combine with
# declare variant ("not compatible with any target-specific attributes"; gcc accepts them).
_ATTRIBUTE_GROUP = re.compile(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)|\[\[.*?\]\]", re.DOTALL)
_MULTIVERSION = re.compile(r"(?:\b|::)(?:__)?(target|target_clones|target_version|cpu_dispatch|cpu_specific)(?:__)?"
                           r"\s*\(")


@rule("OMP363", per_directive=True)
def target_specific_attributes(ctx: FileContext) -> Iterator[Finding]:
    """A base function declared with a multiversioning attribute (target("avx2"), target_clones,
    cpu_dispatch ...): OpenMP says nothing against it, clang 22 rejects it."""
    for rec, base in _own_based(ctx):
        src = ctx.document.source
        body = src.find(b"{", base.name_span[1], base.span[1])
        head = src[base.span[0]:body if body >= 0 else base.span[1]].decode("utf-8", "replace")
        for group in _ATTRIBUTE_GROUP.finditer(head):
            found = _MULTIVERSION.search(group.group(0))
            if found is None:
                continue
            yield Finding("OMP363", f"'{base.name}' has the target-specific attribute '{found.group(1)}', which clang "
                          "rejects on a function with 'declare variant' (gcc accepts it); express the choice in the "
                          "context selector (device={isa(...)}) instead of the attribute", base.name_span,
                          related=[Related(rec.directive.name_span, "the directive")])
            break


def _plain_function(ctx: FileContext, hits: list[Symbol]) -> bool:
    """Functions no call of which is a constant: in C every one; in C++ when no declaration the
    file can see or may include is constexpr or consteval (or a template, which may be)."""
    if ctx.document.language is not Language.CPP:
        return True
    return _names_certain(ctx) and all(s.kind == FUNCTION and not s.template
                                       and not (s.specifiers & {"constexpr", "consteval"}) for s in hits)


# -- OMP364 --------------------------------------------------------------------------------------
@rule("OMP364")
def nested_score_conflict(ctx: FileContext) -> Iterator[Finding]:
    """A trait an enclosing `begin declare variant` also gives, with another score. The seed: the
    outer selectors are appended to the inner ones after equivalent selectors are removed, and
    the restrictions apply to the result; two selectors that differ in score are not
    equivalent, so the combined set holds the selector twice (clang: "duplicated trait ...
    with different score")."""
    if ctx.document.language.is_fortran or not _has_variants(ctx):
        return
    variants = ctx.variants
    if not variants.regions:
        return
    by_begin = {r.begin: r for r in variants.regions}
    directives = ctx.directives
    inner: list[tuple[Directive, VariantRegion]] = []
    for rec in variants.directives:
        if rec.region is not None:
            inner.append((rec.directive, by_begin[rec.region]))
    for region in variants.regions:
        if region.parent is not None and region.parent in by_begin:
            inner.append((directives[region.begin], by_begin[region.parent]))
    for d, outer in sorted(inner, key=lambda pair: pair[0].span[0]):
        own = selector_of(d)
        if own is None or d.uses_macros or directives[outer.begin].uses_macros:
            continue
        yield from _score_conflicts(ctx, own, outer)


def _score_conflicts(ctx: FileContext, own: ContextSelector, outer: VariantRegion) -> Iterator[Finding]:
    for ts in own.sets:
        spec = traits.trait_set(ts.name, max(ctx.version, 50))
        if spec is None or not spec.score:
            continue  # a score elsewhere is OMP355's
        for sel in ts.selectors:
            for other in outer.selector.selectors(ts.name):
                if other.name != sel.name or _same_score(ctx, sel, other) is not False:
                    continue
                shared = _shared_property(sel, other)
                if shared is None:
                    continue
                yield Finding("OMP364", f"'{shared}' of '{sel.name}' in the {ts.name} set is given here with "
                              f"{_score_text(sel)} and by the enclosing 'begin declare variant' with "
                              f"{_score_text(other)}: the selectors combine, so '{sel.name}' would appear twice "
                              "in the set; give the same score in both places or name the trait in one only",
                              sel.score.span if sel.score is not None else sel.name_span,
                              related=[Related(other.score.span if other.score is not None else other.name_span,
                                               f"'{shared}' with {_score_text(other)} here")])
                break


def _same_score(ctx: FileContext, a: TraitSelector, b: TraitSelector) -> bool | None:
    """Whether two selectors have the same score (None: cannot tell). No score and an explicit
    score differ only when that score is a constant other than 0."""
    values = [constant_value(ctx, s.score) if s.score is not None else None for s in (a, b)]
    if a.score is None and b.score is None:
        return True
    if a.score is None or b.score is None:
        given = values[1] if a.score is None else values[0]
        return None if given in (None, 0) else False
    if values[0] is not None and values[1] is not None:
        return values[0] == values[1]
    return True if _squeezed(a.score.text) == _squeezed(b.score.text) else None


def _shared_property(a: TraitSelector, b: TraitSelector) -> str | None:
    """A property both selectors give, as written in `a`."""
    theirs = {_squeezed(p.text) for p in b.properties}
    return next((p.text for p in a.properties if _squeezed(p.text) in theirs), None)


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _score_text(sel: TraitSelector) -> str:
    return f"score({_squeezed(sel.score.text)})" if sel.score is not None else "no score"


# -- OMP311 --------------------------------------------------------------------------------------
@rule("OMP311")
def begin_declare_variant(ctx: FileContext) -> Iterator[Finding]:
    if ctx.document.language.is_fortran or not _has_variants(ctx):
        return
    directives = ctx.directives
    for d in directives:
        if d.name != BEGIN_DECLARE_VARIANT:
            continue
        for c in d.clauses:
            if c.spec is not None and c.name not in BEGIN_CLAUSES:
                hint = ("; it belongs on a 'declare variant' directive for one function"
                        if c.name in ("adjust_args", "append_args") else "")
                yield Finding("OMP311", f"'begin declare variant' takes only a match clause, not '{c.name}'{hint}",
                              c.span, fixes=[Fix(f"Remove the '{c.name}' clause", ((c.span, ""),))])
        match = d.clause("match")
        for ts in match.selector.sets if match is not None and match.selector is not None else ():
            if ts.name != "construct":
                continue
            for sel in ts.selectors:
                if sel.name == "simd":
                    yield Finding("OMP311", "the match clause of 'begin declare variant' cannot contain the 'simd' "
                                  "trait: use 'declare simd' on the functions, or 'declare variant' for one "
                                  "function", sel.name_span)
    yield from _overlapping_regions(ctx)


def _overlapping_regions(ctx: FileContext) -> Iterator[Finding]:
    directives = ctx.directives
    pairs = sorted(ctx.structure.pairs.items())
    mine = [p for p in pairs if directives[p[0]].name == BEGIN_DECLARE_VARIANT]
    overlapping = {(a, b) for v in mine for o in pairs for a, b in ((v, o), (o, v)) if a[0] < b[0] < a[1] < b[1]}
    for (b1, e1), (b2, e2) in sorted(overlapping):
        first, second = directives[b1], directives[b2]
        if first.name == second.name:
            continue  # one kind pairs with a stack: it always nests
        end, outer_end = directives[e2], directives[e1]
        yield Finding("OMP311", f"'{end.name}' closes a region that began inside the '{first.name}' region "
                      f"(line {_line(ctx, first.span[0])}) after that region ended (line "
                      f"{_line(ctx, outer_end.span[0])}): begin/end regions must nest; end the inner region first",
                      end.name_span, related=[Related(second.name_span, "the region that begins inside"),
                                              Related(outer_end.name_span, "the enclosing region ends here")])


# -- OMP312 --------------------------------------------------------------------------------------
@rule("OMP312", per_directive=True)
def unsupported_function(ctx: FileContext) -> Iterator[Finding]:
    if ctx.document.language is not Language.CPP:
        return
    for rec, base in _own_based(ctx):
        variants = ctx.variant_directives
        types = variants.types
        assert types is not None
        special = types.special(base)
        for word, what in SPECIAL_WORDS.items():
            if word in special:
                yield Finding("OMP312", f"'declare variant' cannot apply to '{base.name}', which is "
                              f"{what}; declare the variant for an ordinary function", base.name_span,
                              related=[Related(rec.directive.name_span, "the directive")])
                break
        yield from _unsupported_variant(ctx, rec, variants)


def _unsupported_variant(ctx: FileContext, rec: VariantDirective, variants: Variants) -> Iterator[Finding]:
    types = variants.types
    assert types is not None
    variant = _single_variant(rec, variants)
    if variant is None or rec.name_span is None:
        return
    if "consteval" in variant.specifiers:
        yield Finding("OMP312", f"the variant '{rec.name}' is an immediate (consteval) function, which cannot "
                      "replace a call at run time", rec.name_span,
                      related=[Related(variant.name_span, f"'{variant.name}' declared here")])
        return
    if variant.template and not rec.template_args:
        if all(s.template for s in rec.variants):
            missing = types.undeducible(variant)
            if missing:
                yield Finding("OMP312", f"the variant '{rec.name}' is a function template whose parameter(s) "
                              f"{', '.join(repr(m) for m in missing)} cannot be deduced from the base function's "
                              f"parameters; name a specialization such as '{rec.name}<...>'", rec.name_span,
                              related=[Related(variant.name_span, f"'{variant.name}' declared here")])
        return
    sig = types.signature(variant)
    if sig is not None and sig.deduced:
        ident = variants.identity(variant)
        defined = any(s.definition and variants.identity(s) == ident and s.span[1] <= rec.directive.span[0]
                      for s in ctx.model.named(variant.key) if _is_function(ctx, s))
        if not defined:
            yield Finding("OMP312", f"the variant '{rec.name}' has a deduced return type and is not defined before "
                          "this directive, so its type is not known here; define it first or write its return "
                          "type", rec.name_span, related=[Related(variant.name_span, f"'{variant.name}' declared here")])


# -- OMP313 --------------------------------------------------------------------------------------
@rule("OMP313")
def differing_construct_sets(ctx: FileContext) -> Iterator[Finding]:
    records = [(rec, f) for rec, f in _relations(ctx) if f.based and f.compared]
    if len(records) < 2:
        return
    first: dict[tuple[str, tuple[object, ...], int, str], VariantDirective] = {}
    for rec, f in records:
        if f.key is None:
            continue
        prior = first.setdefault(f.key, rec)
        if prior is rec or prior.selector.construct_key == rec.selector.construct_key:
            continue
        yield Finding("OMP313", f"'{rec.name}' is made a variant here with {_construct(rec)} but with "
                      f"{_construct(prior)} by the directive at line {_line(ctx, prior.directive.span[0])}; every "
                      "directive that makes a function a variant must give the same construct selector set",
                      _construct_span(rec), related=[Related(prior.directive.name_span, f"{_construct(prior)} here")])


def _variant_key(rec: VariantDirective, variant: Symbol,
                 variants: Variants) -> tuple[str, tuple[object, ...], int, str]:
    """The variant function; for a template-id, the specialization (its arguments as written)."""
    args = "".join(rec.name.split())[len(rec.name.split("<")[0]):] if rec.template_args else ""
    return (*variants.identity(variant), args)


def _construct_span(rec: VariantDirective) -> Span:
    """The directive's own construct set, else the variant name."""
    match = rec.directive.clause("match")
    for ts in match.selector.sets if match is not None and match.selector is not None else ():
        if ts.name == "construct":
            return ts.span
    assert rec.name_span is not None
    return rec.name_span


def _construct(rec: VariantDirective) -> str:
    names = ", ".join(name + (f"({props})" if props else "") for name, props in rec.selector.construct_key)
    return f"construct={{{names}}}" if names else "no construct selector set"


# -- OMP314 --------------------------------------------------------------------------------------
@rule("OMP314")
def called_outside_its_context(ctx: FileContext) -> Iterator[Finding]:
    records = [r for r in _c_records(ctx) if any(t in r.construct for t in CHECKED_CONSTRUCTS)
               and r.verdict.ok is not False and not r.directive.uses_macros]
    if not records:
        return
    variants = ctx.variants
    model = ctx.model
    watched: dict[str, list[tuple[FunctionIdentity, VariantDirective]]] = {}
    for rec in records:
        variant = _single_variant(rec, variants)
        if variant is not None and rec.base is not None and not rec.template_args:
            watched.setdefault(variant.key, []).append((variants.identity(variant), rec))
    if not watched:
        return
    involved = _involved_functions(ctx)
    dispatch_extents = [ctx.structure.extents[i] for i, _ in ctx.directives_named("dispatch")
                        if i in ctx.structure.extents]
    # a header of the project may make the calling function declare target
    user_headers = ctx.model.user_includes()
    for ref in model.references:
        if not ref.call or ref.key not in watched:
            continue
        idents = {variants.identity(s) for s in _functions_named(ctx, ref)}
        by_ident = dict(watched[ref.key])
        if not idents or not idents <= by_ident.keys():
            continue  # an overload that is not a variant may be the one called
        entries = [by_ident[i] for i in idents]
        entry = entries[0]
        fscope = ref.scope.enclosing("function", "lambda")
        caller = fscope.symbol if fscope is not None and fscope.kind == "function" else None
        if caller is None or caller.qualified in involved or variants.region_of(ref.span[0]) is not None:
            continue  # a lambda may be called anywhere; a file-scope initializer is not a call site we model
        # with overloads, only a trait every candidate's construct set has
        construct = tuple(t for t in CHECKED_CONSTRUCTS if all(t in e.construct for e in entries))
        if "target" in construct and ref.target is None and not user_headers:
            graph = ctx.device_graph
            key = graph.files[ctx.path].key_of(caller)
            if key is not None and not graph.device_code(key):
                yield _outside(ctx, ref, entry, caller, "target", "outside any target region, in host code")
                continue
        if "dispatch" in construct and not any(lo <= ref.span[0] < hi for lo, hi in dispatch_extents):
            yield _outside(ctx, ref, entry, caller, "dispatch", "directly, not through a dispatch construct")


def _outside(ctx: FileContext, ref: Reference, rec: VariantDirective, caller: Symbol, trait: str,
             where: str) -> Finding:
    base = rec.base
    assert base is not None
    how = "inside a target region" if trait == "target" else "in the call of a '#pragma omp dispatch' construct"
    return Finding("OMP314", f"'{ref.name}' is a variant for construct={{{', '.join(rec.construct)}}} but is called "
                   f"here {where} (in '{caller.name}'); call the base function '{base.name}' {how} and let it be "
                   "replaced", ref.span, related=[Related(rec.directive.name_span, f"'{ref.name}' made a variant here")])


def _involved_functions(ctx: FileContext) -> set[str]:
    """Functions that are a base or a variant of some directive, or defined in a begin/end
    region: their bodies run in the variant's own context, which the rule does not model."""
    out: set[str] = set()
    variants = ctx.variants
    for rec in variants.directives:
        if rec.base is not None:
            out.add(rec.base.qualified)
        out.update(s.qualified for s in rec.variants)
    for region in variants.regions:
        out.update(s.qualified for s in region.functions)
    return out


def _functions_named(ctx: FileContext, ref: Reference) -> list[Symbol]:
    """The functions a reference names (a qualified name `ns::f` looked up by its qualifier)."""
    return [s for s in named_by(ctx.model, ctx.document.source, ref) if _is_function(ctx, s)]


# -- OMP316 --------------------------------------------------------------------------------------
@rule("OMP316", per_directive=True)
def match_variable_not_accessible(ctx: FileContext) -> Iterator[Finding]:
    if ctx.document.language.is_fortran or not _has_variants(ctx):
        return
    variants = ctx.variant_directives
    records = {rec.index: rec for rec in _own_records(ctx)}   # (each a read of its own directive)
    model: FileModel | None = None
    enumerators: set[str] | None = None
    for i, d in ctx.each_directive_named(VARIANT_DIRECTIVES):
        if d.uses_macros:
            continue
        match = d.clause("match")
        if match is None or match.selector is None:
            continue
        rec = records.get(i)
        if rec is not None and (rec.placement == IN_BODY or rec.base is None):
            continue  # the base function's parameters are in scope: unknown without it
        exprs = list(_expressions(match))
        if not exprs:
            continue
        if model is None:
            model = ctx.model
            model.expand()
            enumerators = _enumerators(ctx)
        assert enumerators is not None
        names = variants.types.parameter_names(rec.base) if rec is not None and rec.base is not None \
            and variants.types is not None else []
        if names is None:
            continue  # the base function's parameters cannot be read
        params = set(names)
        offset = rec.base.name_span[1] if rec is not None and rec.base is not None else d.span[1]
        base_name = rec.base.name if rec is not None and rec.base is not None else None
        for expr in exprs:
            for name, span in _identifiers(ctx, expr):
                if name in params or name in enumerators or name in _EXPRESSION_WORDS or _from_header(name, ctx):
                    continue
                if model.visible(name, offset):
                    continue
                finding = _inaccessible(ctx, model, name, span, offset, base_name)
                if finding is not None:
                    yield finding


def _expressions(match: Clause) -> Iterator[Expr | TraitProperty]:
    assert match.selector is not None
    for ts in match.selector.sets:
        for sel in ts.selectors:
            if sel.score is not None:
                yield sel.score
            if sel.name in EXPRESSION_SELECTORS:
                yield from sel.properties


def _identifiers(ctx: FileContext, expr: Expr | TraitProperty) -> Iterator[tuple[str, Span]]:
    """Names an expression reads as variables: not members, calls, scopes or literals."""
    text = expr.text
    exact = ctx.document.source[expr.span[0]:expr.span[1]].decode("utf-8", "replace") == text
    for m in _IDENTIFIER.finditer(text):
        name = m.group(2)
        if name is None:
            continue
        before = text[:m.start()].rstrip()
        after = text[m.end():].lstrip()
        if before.endswith((".", "->", "::")) or after.startswith(("(", "::", "<")):
            continue
        if exact:
            start = expr.span[0] + len(text[:m.start()].encode())
            yield name, (start, start + len(name.encode()))
        else:
            yield name, expr.span


def _inaccessible(ctx: FileContext, model: FileModel, name: str, span: Span, offset: int,
                  base: str | None) -> Finding | None:
    if ctx.model.user_includes():
        return None  # a header of the project may declare it before the directive
    # every declaration of the name, function bodies included
    elsewhere = [s for s in model.every_symbol() if s.key == name]
    where = f"at a call of '{base}'" if base else "where the region's functions are called"
    later = next((s for s in elsewhere if s.name_span[0] >= offset and s.scope.kind in ("file", "namespace")
                  and s.kind == VARIABLE), None)
    if later is not None:
        return Finding("OMP316", f"'{name}' is declared after this directive, so the match expression cannot use it "
                       f"{where}; declare it before the directive", span,
                       related=[Related(later.name_span, f"'{name}' declared here")])
    local = next((s for s in elsewhere if s.kind == VARIABLE and s.storage == AUTOMATIC), None)
    if local is not None:
        owner = local.scope.enclosing("function")
        fname = owner.symbol.name if owner is not None and owner.symbol is not None else "another function"
        what = "a parameter" if "dummy" in local.specifiers else "a local variable"
        hint = (f"; use a parameter of '{base}' or a global" if base else "; use a global")
        return Finding("OMP316", f"'{name}' is {what} of '{fname}', not accessible {where}: the match expression is "
                       f"evaluated at each call site{hint}", span,
                       related=[Related(local.name_span, f"'{name}' declared here")])
    if not elsewhere and _names_certain(ctx):
        return Finding("OMP316", f"'{name}' is not declared: the match expression cannot be evaluated {where}", span)
    return None


def _enumerators(ctx: FileContext) -> set[str]:
    """Enumerator names of the file (the model does not record them as symbols)."""
    tree = ctx.document.tree
    if tree is None:
        return set()
    import tree_sitter
    query = tree_sitter.Query(tree.language, "(enumerator name: (identifier) @e)")
    src = ctx.document.source
    return {src[n.start_byte:n.end_byte].decode("utf-8", "replace")
            for n in tree_sitter.QueryCursor(query).captures(tree.root_node).get("e", [])}
