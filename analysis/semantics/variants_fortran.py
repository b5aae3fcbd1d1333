"""Fortran declare variant directives resolved against the program model.

`!$omp declare variant([base-proc-name:]variant-proc-name) match(...)` names its base
procedure (or, without base-proc-name, applies to the subprogram or interface body whose
specification part holds it) and a variant procedure. Names are resolved the Fortran way:
the scoping unit, its hosts (an interface body has none unless it IMPORTs), and the modules
of this file they use. `Lookup.certain` says whether "not found" or "not a procedure" can be
trusted: a module from another file, a scope the model is unsure of, or a submodule (whose
host module may be elsewhere) could bring any name in.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import TYPE_CHECKING

from ..model.file_model import (
    ENTRY,
    FUNCTION,
    PROCEDURE,
    TYPE,
    FileModel,
    Scope,
    Symbol,
    is_target_region,
)
from ..model.model_fortran import declared_c_ptr
from ..syntax.document import Span
from ..syntax.records import dataclass

if TYPE_CHECKING:
    from typing import Protocol

    from ..directives.nodes import Directive
    from ..model.facts import ModelFacts
    from ..model.file_model import FileModel
    from .variants import Variants

    class FileFacts(ModelFacts, Protocol):
        """What this pass reads of an analysed file (context.FileContext provides it; the pass
        does not import the context, which builds the passes)."""
        @property
        def variants(self) -> Variants: ...
    from ..directives.nodes import ContextSelector, ListItem

DECLARE_VARIANT = "declare variant"
SUBPROGRAMS = ("subroutine", "function")
UNITS = ("subroutine", "function", "program", "module", "submodule", "block data")
# Construct trait names of the 5.1 construct selector set, as the leaf directive names that
# add them to the OpenMP context (Fortran spells the worksharing loop `do`).
CONSTRUCT_TRAITS: dict[str, str] = {
    "target": "target", "teams": "teams", "parallel": "parallel", "do": "do", "for": "do", "simd": "simd",
    "dispatch": "dispatch"}
FORTRAN_CONSTRUCT_TRAITS = frozenset(("target", "teams", "parallel", "do", "simd", "dispatch"))
# Constructs that may stand for any other (the context around them is unknown).
UNKNOWN_CONTEXT = frozenset({"metadirective", "begin metadirective"})
# Trait selectors whose property is an expression evaluated at the call site.
EXPRESSION_TRAITS = frozenset({"condition", "device_num"})

# Intrinsic modules: the names they may bring in by use association (prefixes, or exact names).
# A name no intrinsic module has cannot come from one, so using one keeps a lookup certain.
INTRINSIC_MODULES: dict[str, tuple[str, ...]] = {
    "iso_c_binding": ("c_",),
    "omp_lib": ("omp_", "kmp_", "openmp_version"),
    "omp_lib_kinds": ("omp_", "kmp_"),
    "ieee_arithmetic": ("ieee_",),
    "ieee_exceptions": ("ieee_",),
    "ieee_features": ("ieee_",),
    "iso_fortran_env": ("atomic_", "character_", "compiler_", "current_team", "error_unit", "event_type",
                        "file_storage_size", "initial_team", "input_unit", "int8", "int16", "int32", "int64",
                        "int128", "integer_kinds", "iostat_", "logical", "lock_type", "notify_type",
                        "numeric_storage_size", "output_unit", "parent_team", "real16", "real32", "real64",
                        "real80", "real128", "real_kinds", "stat_", "team_type", "uint"),
}

Identity = tuple[str, ...]


@dataclass(frozen=True)
class Lookup:
    symbols: tuple[Symbol, ...]
    certain: bool       # the model knows every declaration that could be visible here

    @cached_property   # (asked of every entry for the call graph's variant table, at each edit of one)
    def procedure(self) -> Symbol | None:
        """The specific procedure the name denotes (a definition first), or None."""
        procs = [s for s in self.symbols if s.kind in (FUNCTION, PROCEDURE) and "dummy" not in s.specifiers]
        return next((s for s in procs if s.definition), procs[0] if procs else None)


@dataclass(eq=False)
class Variant:
    """One Fortran declare variant directive, resolved."""
    index: int                       # directive index
    directive: Directive
    scope: Scope                     # innermost scope holding the directive
    base_item: ListItem | None       # base-proc-name, when given
    variant_item: ListItem
    base: Symbol | None              # the base procedure (None: unknown)
    base_lookup: Lookup | None       # base-proc-name resolved (None when omitted)
    variant: Lookup
    construct: tuple[tuple[str, str], ...] | None   # construct selector set (None: unknown)

    # (kept: an entry is not changed once resolved, and several rules compare every entry's)
    @cached_property
    def base_identity(self) -> Identity | None:
        return identity(self.base) if self.base is not None else None

    @cached_property
    def variant_identity(self) -> Identity | None:
        proc = self.variant.procedure
        return identity(proc) if proc is not None else None

    @property
    def construct_traits(self) -> tuple[str, ...] | None:
        """The construct traits in the OpenMP context spelling, or None when one is unknown."""
        if self.construct is None:
            return None
        traits = tuple(CONSTRUCT_TRAITS.get(name) for name, _ in self.construct)
        return None if any(t is None for t in traits) else traits  # type: ignore[return-value]


def identity(sym: Symbol) -> Identity:
    """What makes two declarations the same procedure: a module procedure by module and name,
    an internal procedure by its host, an external one by its (global) name."""
    if sym.kind == FUNCTION and sym.definition:
        host = sym.scope
        if host.kind in ("module", "submodule"):
            return ("module", host.name.lower(), sym.key)
        if host.kind in ("subroutine", "function", "program", "block"):
            return ("internal", str(id(host)), sym.key)
        return ("external", sym.key)
    if (sym.kind == FUNCTION or sym.kind == PROCEDURE) and "dummy" not in sym.specifiers:
        return ("external", sym.key)  # an interface body, EXTERNAL or a procedure declaration statement
    return ("entity", str(id(sym)))


# -- name lookup -------------------------------------------------------------------------------
_IMPORT = re.compile(rb"(?im)^[ \t]*import\b")
_USE_RENAME = re.compile(rb"(?im)^[ \t]*use\b[^\n!]*=>")


def unit_of(scope: Scope) -> Scope:
    """The program unit, subprogram or interface body a scope belongs to (BLOCKs belong to theirs)."""
    for s in scope.ancestors():
        if s.kind in UNITS or s.kind == "file":
            return s
    return scope


def _imports(source: bytes, scope: Scope) -> bool:
    """An interface body with an IMPORT statement (it then sees its host's names)."""
    part = scope.spec_part or scope.span
    return _IMPORT.search(source, part[0], part[1]) is not None


def _renames(source: bytes, scope: Scope) -> bool:
    """A USE statement with a rename (`local => name`) in the scope's specification part."""
    part = scope.spec_part or scope.span
    return _USE_RENAME.search(source, part[0], part[1]) is not None


def host_chain(source: bytes, scope: Scope) -> Iterator[Scope]:
    """The scopes whose declarations are visible in `scope`, innermost first (not the file
    scope: external subprograms are not visible by name in other program units)."""
    s: Scope | None = scope
    while s is not None and s.kind != "file":
        yield s
        if s.interface_body and not _imports(source, s):
            return
        s = s.parent


def modules_of(model: FileModel) -> dict[str, Scope]:
    found = model.__dict__.get("_variant_modules")
    if found is None:
        found = {s.name.lower(): s for s in model.root.children if s.kind == "module"}
        model.__dict__["_variant_modules"] = found
    return found


def _in_module(modules: dict[str, Scope], name: str, key: str, seen: set[str]) -> tuple[list[Symbol], bool]:
    """Declarations of `key` in module `name` and the modules it uses; certain: every module
    on the way is in this file and complete."""
    if name in seen:
        return [], True
    seen.add(name)
    module = modules.get(name)
    if module is None:
        return [], False
    hits = module.declared(key)
    if hits:
        return list(hits), module.complete
    certain = module.complete
    for used in module.uses:
        hits, sure = _in_module(modules, used, key, seen)
        certain = certain and sure
        if hits:
            return hits, certain
    return [], certain


def lookup(ctx: FileFacts, key: str, scope: Scope) -> Lookup:
    """The declarations `key` denotes in `scope`: local or host declarations, the subprogram's
    own name, use association of this file's modules, and entries of host subprograms."""
    model = ctx.model
    source = ctx.document.source
    modules = modules_of(model)
    certain = model.complete
    chain = list(host_chain(source, scope))
    for s in chain:
        if not s.complete or s.kind == "submodule":
            certain = False
        hits = s.declared(key)
        if hits:
            return Lookup(tuple(hits), certain)
        if s.symbol is not None and s.kind in SUBPROGRAMS and s.symbol.key == key:
            return Lookup((s.symbol,), certain)
        for used in s.uses:
            prefixes = INTRINSIC_MODULES.get(used)
            if prefixes is not None and used not in modules:
                if key.startswith(prefixes) or _renames(source, s):
                    certain = False
                continue
            hits, sure = _in_module(modules, used, key, set())
            if hits:
                return Lookup(tuple(hits), certain and sure)
            certain = False  # a rename (`use m, only: a => b`) may make the name anyway
    # An ENTRY is declared in its subprogram's scope but names a procedure of the host.
    reachable = {id(s) for s in chain}
    entries = [s for s in model.named(key)
               if s.kind == ENTRY and (id(s.scope) in reachable or
                                       (s.scope.parent is not None and id(s.scope.parent) in reachable))]
    if entries:
        return Lookup(tuple(entries), certain)
    return Lookup((), certain)


def mentioned_as_procedure(ctx: FileFacts, key: str, scope: Scope, skip: Iterable[Span]) -> bool:
    """`name(` or `call name` anywhere in the scoping unit outside `skip` (directives, the
    name's own declaration): such a use may make an undeclared or merely typed name an
    external procedure, which the model does not record as one."""
    unit = unit_of(scope)
    src = ctx.document.source
    ctx.depends_on_words(key.encode())   # (a search of raw text: statement_edit keeps none that spells it)
    pattern = re.compile(rb"(?i)(?<![\w%$])" + re.escape(key.encode()) + rb"\s*\(|\bcall\s+"
                         + re.escape(key.encode()) + rb"\b")
    spans = list(skip)
    for m in pattern.finditer(src, unit.span[0], unit.span[1]):
        if not any(a <= m.start() < b for a, b in spans):
            return True
    return False


# -- the directives ------------------------------------------------------------------------------
def _construct_set(selector: ContextSelector | None) -> tuple[tuple[str, str], ...] | None:
    if selector is None:
        return None
    sets = [t for t in selector.sets if t.name.lower() == "construct"]
    if len(sets) > 1:
        return None  # a repeated set (OMP352): which one counts is not ours to say
    if not sets:
        return ()
    out = tuple((sel.name.lower(), "".join("".join(p.text.split()).lower() for p in sel.properties))
                for sel in sets[0].selectors)
    names = [name for name, _ in out]
    if len(set(names)) != len(names) or any(name not in FORTRAN_CONSTRUCT_TRAITS or (props and name != "simd")
                                            for name, props in out):
        return None  # a malformed set (the context selector rules report it): nothing to compare
    return out


def resolve_directive(ctx: FileFacts, index: int, d: Directive) -> Variant | None:
    """The declare variant directive `d` (at `index`) resolved (None: not one `variants` lists)."""
    return None if d.uses_macros else _resolve(ctx, index, d)


def _resolve(ctx: FileFacts, index: int, d: Directive) -> Variant | None:
    items = d.argument or []
    if len(items) not in (1, 2) or any(i.name is None or not i.is_plain_name for i in items):
        return None
    base_item = items[0] if len(items) == 2 else None
    variant_item = items[-1]
    scope = ctx.model.directive_scope(d.span[0])
    own = scope.symbol if scope.kind in SUBPROGRAMS else None
    base: Symbol | None = None
    base_lookup: Lookup | None = None
    if base_item is None:
        base = own
    else:
        key = base_item.name.lower()  # type: ignore[union-attr]
        base_lookup = lookup(ctx, key, scope)
        base = own if own is not None and own.key == key else base_lookup.procedure
    match = d.clause("match")
    construct = _construct_set(match.selector) if match is not None else None
    return Variant(index, d, scope, base_item, variant_item, base, base_lookup,
                   lookup(ctx, variant_item.name.lower(), scope), construct)  # type: ignore[union-attr]


def variants(ctx: FileFacts) -> list[Variant]:
    """Every Fortran declare variant directive of the file, resolved (computed once)."""
    found = ctx.__dict__.get("_fortran_variants")
    if found is None:
        found = []
        if ctx.document.language.is_fortran:
            for i, d in ctx.directives_named(DECLARE_VARIANT):
                v = resolve_directive(ctx, i, d)
                if v is not None:
                    found.append(v)
        ctx.__dict__["_fortran_variants"] = found
    return found


def procedure_scope(model: FileModel, proc: Symbol) -> Scope | None:
    """The scope of the subprogram or interface body that defines `proc` in this file
    (the definition preferred)."""
    if proc.kind != FUNCTION:
        return None
    wanted = identity(proc)
    best: Scope | None = None
    for s in model.root.walk():
        if s.symbol is not None and s.kind in SUBPROGRAMS and identity(s.symbol) == wanted:
            if s.symbol.definition:
                return s
            best = best or s
    return best


# -- OpenMP contexts of calls ------------------------------------------------------------------
def leaf_traits(d: Directive) -> list[str]:
    return [CONSTRUCT_TRAITS[w] for w in d.name.split() if w in CONSTRUCT_TRAITS]


def unknown_end(ctx: FileFacts, d: Directive) -> int:
    """A metadirective may stand for a construct around any code after it in its unit: its
    extent, as far as the context of a call goes, is the rest of the unit."""
    return ctx.model.directive_scope(d.span[0]).span[1]


def _construct_extents(ctx: FileFacts) -> list[tuple[int, int, Directive]]:
    """(start, end, directive) of every executable construct of the file that adds a construct
    trait or is a target region (computed once)."""
    found: list[tuple[int, int, Directive]] | None = ctx.__dict__.get("_variant_extents")
    if found is not None:
        return found
    found = []
    extents = ctx.structure.extents
    statements = ctx.structure.statements or []
    starts = [st.start for st in statements]
    for i, d in enumerate(ctx.directives):
        if d.name in UNKNOWN_CONTEXT:
            found.append((d.span[0], unknown_end(ctx, d), d))
            continue
        if d.spec is None or d.spec.kind != "executable" or not (leaf_traits(d) or is_target_region(d)):
            continue
        extent = extents.get(i)
        if extent is None and d.spec.association == "statement":
            # a construct on one statement without an end directive (dispatch): the next statement
            k = bisect_left(starts, d.span[1])
            extent = (statements[k].start, statements[k].end) if k < len(statements) else None
        if extent is not None:
            found.append((extent[0], extent[1], d))
    ctx.__dict__["_variant_extents"] = found
    return found


def lexical_context(ctx: FileFacts, offset: int, unit: Scope) -> tuple[set[str], bool] | None:
    """The construct traits of the constructs around `offset` inside `unit`, innermost first up
    to and including a target construct; and whether a target construct closed the list.
    None when a construct whose traits are not known from its name (a metadirective) is around."""
    enclosing = [(start, d) for start, end, d in _construct_extents(ctx)
                 if start <= offset < end and unit.span[0] <= d.span[0] < unit.span[1]]
    traits: set[str] = set()
    for _start, d in sorted(enclosing, key=lambda e: -e[0]):
        if d.name in UNKNOWN_CONTEXT:
            return None
        traits.update(leaf_traits(d))
        if is_target_region(d):
            return traits, True
    return traits, False


def source_names(ctx: FileFacts, span: Span) -> Iterator[tuple[str, Span]]:
    """The names in an expression of a directive (lower case, with their source spans):
    not components, keyword-argument names, operators, literals or kind suffixes."""
    src = ctx.document.source
    text = bytearray(src[span[0]:span[1]])
    # continuation lines: blank the sentinel and the `&`s (positions stay the same)
    for m in re.finditer(rb"(?im)(&[ \t]*\r?$)|(^[ \t]*[!*cC]\$omp[ \t]*&?)|(^[ \t]*&)", bytes(text)):
        text[m.start():m.end()] = b" " * (m.end() - m.start())
    # strings and dotted operators
    for m in re.finditer(rb"'[^']*'|\"[^\"]*\"|\.[a-zA-Z]+\.", bytes(text)):
        text[m.start():m.end()] = b" " * (m.end() - m.start())
    data = bytes(text)
    for m in re.finditer(rb"(?<![\w%$.])[A-Za-z_][\w$]*", data):
        before = data[max(0, m.start() - 64):m.start()].rstrip()
        if before.endswith(b"%"):
            continue  # a component
        after = data[m.end():m.end() + 64].lstrip()
        if after[:1] == b"=" and after[1:2] != b"=":
            continue  # a keyword argument
        yield m.group(0).decode("ascii", "replace").lower(), (span[0] + m.start(), span[0] + m.end())


def not_c_ptr(ctx: FileFacts, scope: Scope, sym: Symbol) -> str | None:
    """The type of a dummy argument when it is certainly not type(c_ptr): its type declaration
    names an intrinsic type or a derived type declared in this file. None otherwise."""
    def defined_here(name: str) -> bool:
        found = lookup(ctx, name, scope)
        return bool(found.symbols) and all(s.kind == TYPE for s in found.symbols)
    return sym.type_text if declared_c_ptr(sym, defined_here) is False else None