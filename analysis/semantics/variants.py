"""Declare variant resolution: what each `declare variant` directive applies to, for C and C++.

For every `declare variant(v) match(...)`: the base function (the declaration or definition
right after the directive, as the compilers read it), the variant function(s) the name finds
where the base's declarator is (C++ overloads: the one whose type fits), the effective context
selector (an enclosing `begin declare variant` region's selector appended, as the seed says),
its construct traits and its adjust_args/append_args clauses. For `begin declare variant` ...
`end declare variant`: the regions, their nesting and effective selectors, and the function
definitions inside them (variants of the same-named base declared elsewhere).

Types are compared on a normal form (typedefs of the file expanded, builtin spellings made
canonical, top-level const of parameters and arrays-as-parameters adjusted). A type that comes
from a header or a macro is compared by spelling only: when spellings differ the answer is
"unknown", and the rules stay silent. Fortran directives get the directive-level facts
(selector, clauses) only; their procedures are resolved by the Fortran rules.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from ..directives.nodes import Clause, ContextSelector, Directive, TraitSelector
from ..model.c_types import (
    FUNCTION_DECLARATORS,
    Signature,
    TypeReader,
    Verdict,
    declarator_name,
)
from ..model.file_model import FIELD, FUNCTION, VARIABLE, FileModel, Symbol
from ..syntax.document import Span
from ..syntax.records import dataclass, field

if TYPE_CHECKING:
    from typing import Protocol

    from ..directives.nodes import Directive
    from ..model.c_types import TypeReader
    from ..model.facts import ModelFacts
    from ..model.file_model import FileModel

    class FileFacts(ModelFacts, Protocol):
        """What this pass reads of an analysed file (context.FileContext provides it; the pass
        does not import the context, which builds the passes)."""
        @property
        def c_types(self) -> TypeReader | None: ...
    import tree_sitter


DECLARE_VARIANT = "declare variant"
BEGIN_DECLARE_VARIANT = "begin declare variant"
END_DECLARE_VARIANT = "end declare variant"
VARIANT_DIRECTIVES = frozenset({DECLARE_VARIANT, BEGIN_DECLARE_VARIANT})
# What makes two declarations the same function (`Variants.identity`): the qualified name, the
# parameter types (C++: `Signature.key`, `("?",)` when unknown; `()` otherwise) and the begin/end region.
FunctionIdentity = tuple[str, tuple[object, ...], int]

# Where a `declare variant` directive stands (VariantDirective.placement).
FUNCTION_FOLLOWS = "function"        # a single function declaration or definition follows
NOTHING_FOLLOWS = "nothing"          # end of file or scope, or a pragma other than declare variant
SEVERAL_FOLLOW = "several"           # a declaration of more than one name
NOT_A_FUNCTION = "not a function"    # a declaration of a variable or type
IN_BODY = "in body"                  # inside a function body (OMP008 reports it)
UNKNOWN = "unknown"                  # a macro, #if, a parse error: the model cannot tell

# -- context selectors ----------------------------------------------------------------------

@dataclass(frozen=True)
class EffectiveSelector:
    """A context selector with the selectors of enclosing begin/end regions appended."""
    sets: tuple[tuple[str, tuple[TraitSelector, ...]], ...] = ()

    def selectors(self, set_name: str) -> tuple[TraitSelector, ...]:
        return next((sels for name, sels in self.sets if name == set_name), ())

    # (kept: the rules that compare the directives of a file ask each record at every edit of one)
    @cached_property
    def construct(self) -> tuple[str, ...]:
        """The construct trait names, in order."""
        return tuple(s.name for s in self.selectors("construct"))

    @cached_property
    def construct_key(self) -> tuple[tuple[str, str], ...]:
        """The construct set as compared between directives (names and properties)."""
        return tuple((s.name, _norm(",".join(p.text for p in s.properties))) for s in self.selectors("construct"))

    def has(self, set_name: str, selector: str) -> bool:
        return any(s.name == selector for s in self.selectors(set_name))


def _norm(text: str) -> str:
    return "".join(text.split()).lower()


def _equivalent(a: TraitSelector, b: TraitSelector) -> bool:
    return (a.name == b.name and _norm(a.score.text if a.score else "") == _norm(b.score.text if b.score else "")
            and sorted(_norm(p.text) for p in a.properties) == sorted(_norm(p.text) for p in b.properties))


def effective(own: ContextSelector | None, outer: EffectiveSelector | None) -> EffectiveSelector:
    """The seed's rule: the outer selectors are appended to the inner directive's, per trait set,
    after the outer selectors equivalent to inner ones are removed."""
    sets: list[tuple[str, list[TraitSelector]]] = []
    for ts in own.sets if own is not None else ():
        found = next((s for s in sets if s[0] == ts.name), None)
        if found is None:
            sets.append((ts.name, list(ts.selectors)))
        else:
            found[1].extend(ts.selectors)
    for name, sels in outer.sets if outer is not None else ():
        found = next((s for s in sets if s[0] == name), None)
        if found is None:
            sets.append((name, list(sels)))
        else:
            found[1].extend(s for s in sels if not any(_equivalent(s, mine) for mine in found[1]))
    return EffectiveSelector(tuple((name, tuple(sels)) for name, sels in sets))


def selector_of(d: Directive) -> ContextSelector | None:
    c = d.clause("match")
    return c.selector if c is not None else None


def own_effective(d: Directive) -> EffectiveSelector:
    """`effective(selector_of(d), None)`, kept with the directive: made once, not at each build
    of the call graph (which reads every declare variant's after an edit)."""
    found: EffectiveSelector | None = d.__dict__.get("_own_effective")
    if found is None:
        found = d.__dict__["_own_effective"] = effective(selector_of(d), None)
    return found


# Where a variant can replace a call of its base in device code (device_selection).
EVERY_DEVICE = "every"      # on every device: the base itself is never called there
SOME_DEVICE = "some"        # on some device (a GPU, an architecture, a condition that may hold)
NO_DEVICE = "none"          # only on the host, or never: device code calls the base
# Kinds every device has (a host device too: clang's x86_64 offload target is a cpu, not a gpu).
_EVERY_DEVICE_KINDS = frozenset({"nohost", "any"})
_FALSE_CONDITIONS = frozenset({"0", "false", ".false."})


def _properties(sel: TraitSelector) -> set[str]:
    return {_norm(p.text) for p in sel.properties}


def device_selection(selector: EffectiveSelector, in_dispatch: bool) -> str:
    """Whether a variant with this selector may be called instead of its base by a call in
    device code (`in_dispatch`: the call is that of a dispatch construct). Only what the
    selector alone rules out counts as none: a `kind(host)`, a condition that is a false
    literal, a dispatch trait away from a dispatch construct; every other trait may hold on
    some device (construct traits too: device code has target in its context)."""
    sets = {name.lower(): sels for name, sels in selector.sets}
    for name in ("device", "target_device"):
        for sel in sets.get(name, ()):
            if sel.name.lower() == "kind" and "host" in _properties(sel):
                return NO_DEVICE
    for sel in sets.get("user", ()):
        if sel.name.lower() == "condition" and _properties(sel) & _FALSE_CONDITIONS:
            return NO_DEVICE
    if not in_dispatch and any(sel.name.lower() == "dispatch" for sel in sets.get("construct", ())):
        return NO_DEVICE
    device = sets.get("device", ())
    if set(sets) == {"device"} and device and all(
            sel.name.lower() == "kind" and _properties(sel) <= _EVERY_DEVICE_KINDS for sel in device) \
            and any("nohost" in _properties(sel) for sel in device):
        return EVERY_DEVICE
    return SOME_DEVICE


def selector_text(selector: EffectiveSelector) -> str:
    """`device={kind(gpu)}, user={condition(n > 8)}`: the selector as chains show it."""
    def trait(sel: TraitSelector) -> str:
        score = f"score({sel.score.text}): " if sel.score is not None else ""
        props = ", ".join(" ".join(p.text.split()) for p in sel.properties)
        return f"{score}{sel.name}({props})" if sel.properties or sel.has_parens else f"{score}{sel.name}"
    return ", ".join(f"{name}={{{', '.join(trait(s) for s in sels)}}}" for name, sels in selector.sets)


# -- records ---------------------------------------------------------------------------------

@dataclass(eq=False)
class VariantRegion:
    """A `begin declare variant` ... `end declare variant` region."""
    begin: int                          # directive index
    end: int                            # directive index of the paired end
    span: Span                          # end of the begin directive .. start of the end directive
    parent: int | None                  # begin index of the enclosing region
    selector: EffectiveSelector         # effective (enclosing regions' selectors appended)
    functions: list[Symbol] = field(default_factory=list)   # defined directly inside (not in a nested region)


@dataclass(eq=False)
class RegionFunction:
    """A function defined in a begin/end region: a variant of the same-named base declared elsewhere."""
    symbol: Symbol
    region: int                         # begin index of the innermost region
    bases: list[Symbol] = field(default_factory=list)   # declarations outside every region that fit


@dataclass(eq=False)
class VariantDirective:
    """One `declare variant` directive resolved."""
    index: int
    directive: Directive
    selector: EffectiveSelector
    region: int | None = None                          # the innermost enclosing begin region
    adjust_args: list[Clause] = field(default_factory=list)
    append_args: Clause | None = None
    # C/C++ only (Fortran records stop here):
    placement: str = UNKNOWN
    following: Span | None = None                      # what follows the directive (for OMP304)
    base: Symbol | None = None
    name: str = ""                                     # variant-func-id as written
    name_span: Span | None = None
    template_args: bool = False                        # written as a template-id `f<int>`
    found: list[Symbol] = field(default_factory=list)  # every declaration the name finds
    variants: list[Symbol] = field(default_factory=list)   # the function(s) it names
    verdict: Verdict = Verdict(None)                   # the variant's type against the base's

    @property
    def interops(self) -> int:
        return len(self.append_args.interops) if self.append_args is not None else 0

    @property
    def construct(self) -> tuple[str, ...]:
        return self.selector.construct


@dataclass(eq=False)
class Variants:
    directives: list[VariantDirective] = field(default_factory=list)
    regions: list[VariantRegion] = field(default_factory=list)        # in source order of their begin
    region_functions: list[RegionFunction] = field(default_factory=list)
    types: TypeReader | None = None

    def region_of(self, offset: int) -> VariantRegion | None:
        """The innermost region holding `offset`."""
        if not self.regions:
            return None
        starts = self.__dict__.get("_starts")
        if starts is None or len(starts) != len(self.regions):
            starts = self.__dict__["_starts"] = [r.span[0] for r in self.regions]
        for k in range(bisect_right(starts, offset) - 1, -1, -1):
            r = self.regions[k]
            if offset < r.span[1]:
                return r  # regions nest: the latest start that still holds it is the innermost
        return None

    def identity(self, symbol: Symbol) -> FunctionIdentity:
        """What makes two declarations the same function: the qualified name, the parameter
        types (C++ overloads), and the begin/end region it is defined in. (Kept per symbol, and
        handed on with the other lookup tables by an edit of a declare variant, which changes
        none of those: the rules that compare records ask for every record's at each edit.)"""
        known: dict[int, tuple[Symbol, FunctionIdentity]] = self.__dict__.setdefault("_identities", {})
        hit = known.get(id(symbol))
        if hit is not None and hit[0] is symbol:
            return hit[1]
        region = self.region_of(symbol.name_span[0])
        sig = self.types.signature(symbol) if self.types is not None and self.types.cpp else None
        key = sig.key if sig is not None else ("?",) if self.types is not None and self.types.cpp else ()
        found = (symbol.qualified or symbol.name, key, region.begin if region is not None else -1)
        known[id(symbol)] = (symbol, found)
        return found


# -- resolution ------------------------------------------------------------------------------

def resolve(ctx: FileFacts) -> Variants:
    out = Variants()
    directives = ctx.directives
    if not any(d.name in VARIANT_DIRECTIVES for d in directives):
        return out
    fortran = ctx.document.language.is_fortran
    if not fortran:
        _regions(ctx, out)
    out.directives = [variant_record(i, d, out) for i, d in enumerate(directives) if d.name == DECLARE_VARIANT]
    if fortran or ctx.document.tree is None:
        return out
    out.types = ctx.c_types
    resolver = _Resolver(ctx, out)
    for rec in out.directives:
        resolver.resolve(rec)
    _region_bases(ctx, out)
    return out


def resolve_record(ctx: FileFacts, out: Variants, rec: VariantDirective) -> None:
    """Resolve one record's base and variant functions with the tables of `out` (C/C++, `out.types` set)."""
    _Resolver(ctx, out).resolve(rec)


def variant_record(i: int, d: Directive, out: Variants) -> VariantDirective:
    """The record of the declare variant directive `d` (at index `i`), not yet resolved (`resolve_record`)."""
    region = out.region_of(d.span[0]) if out.regions else None
    return VariantDirective(i, d, effective(selector_of(d), region.selector if region else None),
                            region.begin if region is not None else None,
                            adjust_args=d.clauses_named("adjust_args"), append_args=d.clause("append_args"))


def _region_bases(ctx: FileFacts, out: Variants) -> None:
    """Each region function's base: the same name outside every region, with a type that fits."""
    types = out.types
    assert types is not None
    for region in out.regions:
        for s in region.functions:
            sig = types.signature(s)
            bases = []
            for b in ctx.model.named(s.key):
                if b.qualified != s.qualified or not types_is_function(types, b) or out.region_of(b.name_span[0]):
                    continue
                base_sig = types.signature(b)
                if not types.cpp or sig is None or base_sig is None or compare_signatures(base_sig, sig, 0).ok is not False:
                    bases.append(b)
            out.region_functions.append(RegionFunction(s, region.begin, bases))


def _regions(ctx: FileFacts, out: Variants) -> None:
    directives = ctx.directives
    pairs = sorted((b, e) for b, e in ctx.structure.pairs.items() if directives[b].name == BEGIN_DECLARE_VARIANT)
    stack: list[VariantRegion] = []
    for b, e in pairs:
        span = (directives[b].span[1], directives[e].span[0])
        while stack and not (stack[-1].span[0] <= span[0] and span[1] <= stack[-1].span[1]):
            stack.pop()
        parent = stack[-1] if stack else None
        region = VariantRegion(b, e, span, parent.begin if parent else None,
                               effective(selector_of(directives[b]), parent.selector if parent else None))
        out.regions.append(region)
        stack.append(region)
    if not out.regions:
        return
    for s in ctx.model.symbols:
        if s.kind != FUNCTION or not s.definition or s.scope.kind not in ("file", "namespace"):
            continue
        holder = out.region_of(s.name_span[0])
        if holder is not None:
            holder.functions.append(s)


_PRAGMA_NODE = "preproc_call"
_SKIPPED = frozenset({"comment"})
_UNCERTAIN = frozenset({"ERROR", "preproc_if", "preproc_ifdef", "preproc_include", "preproc_def",
                        "preproc_function_def", "expression_statement", "macro_type_specifier"})
_BODY_SCOPES = frozenset({"function", "block", "lambda"})
_TEMPLATE_ARGS = re.compile(r"<.*>$", re.DOTALL)


class _Resolver:
    def __init__(self, ctx: FileFacts, out: Variants) -> None:
        self.ctx = ctx
        self.out = out
        self.model: FileModel = ctx.model
        assert out.types is not None and ctx.document.tree is not None
        self.types: TypeReader = out.types
        self.root = ctx.document.tree.root_node
        self.src = ctx.document.source
        # kept on `out` for resolved_again (the same model and directive places)
        tables = out.__dict__.get("_tables")
        if tables is None:
            tables = out.__dict__["_tables"] = (
                {d.raw.span[0]: i for i, d in enumerate(ctx.directives)},
                {s.name_span[0]: s for s in self.model.symbols
                 if s.kind == FUNCTION or (s.kind in (VARIABLE, FIELD) and self.types.is_function(s))})
        self.starts: dict[int, int]
        self.functions: dict[int, Symbol]
        self.starts, self.functions = tables

    def resolve(self, rec: VariantDirective) -> None:
        d = rec.directive
        item = d.argument[0] if d.argument else None
        if item is not None:
            rec.name = "".join(item.text.split())
            rec.name_span = item.span
            rec.template_args = "<" in rec.name
        if d.raw.in_macro or d.raw.form != "pragma":
            return
        if self.model.scope_at(d.span[0]).kind in _BODY_SCOPES:
            rec.placement = IN_BODY
            return
        self.place(rec)
        if rec.name and not d.uses_macros:
            self.find_variant(rec)

    # -- the base function ---------------------------------------------------------------------
    def place(self, rec: VariantDirective) -> None:
        d = rec.directive
        node = self.root.descendant_for_byte_range(d.raw.span[0], d.raw.span[0] + 1)
        while node is not None and node.type != _PRAGMA_NODE:
            node = node.parent
        if node is None or node.start_byte != d.raw.span[0]:
            return
        nxt = node.next_named_sibling
        while nxt is not None:
            if nxt.type in _SKIPPED:
                nxt = nxt.next_named_sibling
                continue
            if nxt.type == _PRAGMA_NODE:
                other = self.starts.get(nxt.start_byte)
                if other is not None and self.ctx.directives[other].name == DECLARE_VARIANT:
                    nxt = nxt.next_named_sibling
                    continue
                if other is None and not self.src.startswith(b"#", nxt.start_byte):
                    return
                if b"pragma" not in self.src[nxt.start_byte:nxt.start_byte + 16]:
                    return  # `#undef`, `#line`: the model does not follow them
                rec.placement, rec.following = NOTHING_FOLLOWS, (nxt.start_byte, nxt.end_byte)
                return
            break
        if nxt is None:
            rec.placement = NOTHING_FOLLOWS
            return
        self.classify(rec, nxt)

    def classify(self, rec: VariantDirective, node: tree_sitter.Node) -> None:
        t = node.type
        if t == "template_declaration":
            inner = next((c for c in reversed(node.named_children)
                          if c.type in ("declaration", "function_definition", "field_declaration")), None)
            if inner is None:
                return
            node, t = inner, inner.type
        if t == "linkage_specification":
            body = node.child_by_field_name("body")
            if body is None or body.type not in ("declaration", "function_definition"):
                return
            node, t = body, body.type
        if node.has_error or t in _UNCERTAIN:
            return
        rec.following = (node.start_byte, node.end_byte)
        candidates: Sequence[tree_sitter.Node | None]
        if t == "function_definition":
            candidates = [node.child_by_field_name("declarator")]
        elif t in ("declaration", "field_declaration"):
            candidates = node.children_by_field_name("declarator")
        elif t in ("type_definition", "struct_specifier", "class_specifier", "union_specifier", "enum_specifier",
                   "alias_declaration", "namespace_definition", "static_assert_declaration"):
            rec.placement = NOT_A_FUNCTION
            return
        else:
            return
        decls = [x for x in candidates if x is not None]
        if not decls:
            rec.placement = NOT_A_FUNCTION
            return
        if len(decls) > 1:
            rec.placement = SEVERAL_FOLLOW
            return
        name = declarator_name(decls[0])
        base = self.functions.get(name.start_byte) if name is not None else None
        if base is None:
            ops = self.types.chain(decls[0]) if self.types is not None else None
            if ops is not None and not any(op.type in FUNCTION_DECLARATORS for op in ops) and name is not None:
                rec.placement = NOT_A_FUNCTION
                rec.following = (name.start_byte, name.end_byte)
            return
        rec.placement = FUNCTION_FOLLOWS
        rec.base = base

    # -- the variant ---------------------------------------------------------------------------
    def find_variant(self, rec: VariantDirective) -> None:
        offset = rec.base.name_span[1] if rec.base is not None else rec.directive.span[1]
        name = _TEMPLATE_ARGS.sub("", rec.name).lstrip(":")
        found = self.lookup(name, offset, rec.base)
        rec.found = found
        functions = [s for s in found if types_is_function(self.types, s)]
        if not functions:
            return
        if rec.base is None:
            rec.variants = functions
            return
        types = self.types
        base_sig = types.signature(rec.base)
        by_identity: dict[FunctionIdentity, Symbol] = {}
        for s in functions:
            by_identity.setdefault(self.out.identity(s), s)
        candidates = list(by_identity.values())
        if base_sig is None:
            rec.variants = candidates
            return
        verdicts = [(s, self.compare(rec, base_sig, s)) for s in candidates]
        matching = [s for s, v in verdicts if v.ok is True]
        unknown = [s for s, v in verdicts if v.ok is None]
        if matching:
            rec.variants, rec.verdict = matching, Verdict(True)
        elif unknown:
            rec.variants, rec.verdict = unknown, Verdict(None)
        else:
            rec.variants = candidates
            if len(verdicts) == 1:
                rec.verdict = verdicts[0][1]
            else:
                rec.verdict = Verdict(False, f"none of the {len(verdicts)} overloads of '{name}' has the base "
                                             f"function's type '{base_sig.text}'"
                                      + (f" plus {rec.interops} omp_interop_t parameter(s)" if rec.interops else ""))

    def lookup(self, name: str, offset: int, base: Symbol | None) -> list[Symbol]:
        model = self.model
        if "::" not in name:
            hits = model.visible(name, offset)
            if not hits and base is not None and "::" in base.qualified and base.scope.kind != "class":
                owner = base.qualified.rsplit("::", 1)[0]
                hits = self.qualified(f"{owner}::{name}", offset)
            return hits
        return self.qualified(name, offset)

    def qualified(self, name: str, offset: int) -> list[Symbol]:
        parts = name.split("::")
        want = "::".join(parts)
        return [s for s in self.model.named(parts[-1])
                if s.name_span[0] < offset and (s.qualified == want or s.qualified.endswith("::" + want))]

    def compare(self, rec: VariantDirective, base: Signature, symbol: Symbol) -> Verdict:
        types = self.types
        assert types is not None
        if symbol.template and not rec.template_args:
            return Verdict(None)  # deduced from the base's parameters: not modelled
        if symbol.template or (rec.base is not None and rec.base.template):
            return Verdict(None)
        variant = types.signature(symbol)
        if variant is None:
            return Verdict(None)
        return compare_signatures(base, variant, rec.interops, rec.name)


def types_is_function(types: TypeReader | None, symbol: Symbol) -> bool:
    return symbol.kind == FUNCTION or (types is not None and types.is_function(symbol))


_INTEROP = "omp_interop_t"


def _count(n: int) -> str:
    return f"{n} parameter{'s' if n != 1 else ''}"


def compare_signatures(base: Signature, variant: Signature, interops: int, name: str = "the variant") -> Verdict:
    """Whether `variant` has `base`'s type plus one omp_interop_t parameter per appended interop."""
    if base.member is not None and variant.member is not None and base.member != variant.member:
        if base.member and not variant.member:
            return Verdict(False, f"the base function is a non-static member of '{base.member}' but '{name}' is "
                                  "not a member of it")
        if variant.member and not base.member:
            return Verdict(False, f"'{name}' is a non-static member of '{variant.member}' but the base function is not")
        return Verdict(False, f"'{name}' is a member of '{variant.member}', the base function of '{base.member}'")
    if base.result is None or variant.result is None:
        result_ok: bool | None = None if (base.deduced or variant.deduced or base.result is None
                                          or variant.result is None) else True
    else:
        result_ok = base.result.same(variant.result)
        if result_ok is False:
            return Verdict(False, f"'{name}' returns '{variant.result.text}' but the base function returns "
                                  f"'{base.result.text}'")
    if base.params is None or variant.params is None:
        if interops and base.params is None:
            return Verdict(False, "the base function has no prototype, which append_args needs")
        return Verdict(result_ok if result_ok is not True else None)
    if base.variadic != variant.variadic:
        which = "takes" if variant.variadic else "does not take"
        return Verdict(False, f"'{name}' {which} a variable argument list ('...') unlike the base function")
    want = len(base.params) + interops
    if len(variant.params) != want:
        if interops:
            return Verdict(False, f"'{name}' takes {_count(len(variant.params))} but needs {want}: the base function's "
                                  f"{len(base.params)} and one omp_interop_t per interop of append_args")
        return Verdict(False, f"'{name}' takes {_count(len(variant.params))} but the base function takes "
                              f"{len(base.params)}")
    unknown = result_ok is None
    for i, (b, v) in enumerate(zip(base.params, variant.params)):
        same = b.same(v)
        if same is False:
            return Verdict(False, f"parameter {i + 1} of '{name}' is '{v.text}' but the base function's is "
                                  f"'{b.text}'")
        unknown = unknown or same is None
    for j, v in enumerate(variant.params[len(base.params):]):
        kind = v.levels[0][0] if len(v.levels) == 1 else ""
        if kind == _INTEROP:
            continue
        if v.known and v.levels != (("void", ()), ("*", ())):
            return Verdict(False, f"parameter {len(base.params) + j + 1} of '{name}' is '{v.text}' but the "
                                  f"appended interop argument is an omp_interop_t")
        unknown = True
    if base.qualifiers != variant.qualifiers and base.member:
        return Verdict(False, f"'{name}' has the qualifiers '{variant.qualifiers or 'none'}' but the base "
                              f"function '{base.qualifiers or 'none'}'")
    return Verdict(None if unknown else True)
