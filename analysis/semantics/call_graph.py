"""One file's part of the workspace call and reference graph: what propagation reads.

A `FileGraph` is plain data summarised from a file's program model and declare target
binding: the procedures and static-storage variables it declares (each under a key that
names the same entity in every file of the workspace), the marks written on them, its
target regions, and every reference as an edge from the unit holding it (a procedure, a
target region, a variable's initializer) to the entity it names. Propagation
(`propagation.py`) joins the graphs of all files; comparing a file's old and new graph
tells it what an edit changed.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar, cast

from ..model.file_model import (
    ENTRY,
    FUNCTION,
    PROCEDURE,
    PROCEDURE_POINTER,
    STATIC,
    VARIABLE,
    FileModel,
    Reference,
    Scope,
    Symbol,
)
from ..syntax.document import Language, Span, query
from ..syntax.records import dataclass, field, replace
from .declare_target import Mark
from .variants import EVERY_DEVICE, SOME_DEVICE, EffectiveSelector, device_selection, selector_text

if TYPE_CHECKING:
    from typing import Protocol

    from ..model.c_types import TypeReader
    from ..model.facts import ModelFacts
    from ..model.file_model import FileModel
    from ..model.regions import Regions
    from ..units import Configuration
    from .declare_target import Binding
    from .variants import Variants
    from .variants_fortran import Variant

    class FileFacts(ModelFacts, Protocol):
        """What this pass reads of an analysed file (context.FileContext provides it; the pass
        does not import the context, which builds the passes)."""
        @property
        def binding(self) -> Binding: ...
        @property
        def configuration(self) -> Configuration | None: ...
        @property
        def has_declare_target(self) -> bool: ...
        @property
        def path(self) -> str: ...
        @property
        def regions(self) -> Regions: ...
        @property
        def variants(self) -> Variants: ...
        @property
        def fortran_variants(self) -> list[Variant]: ...
        @property
        def c_types(self) -> TypeReader | None: ...
    import tree_sitter


# Entity kinds.
PROCEDURE_ENTITY = "procedure"
VARIABLE_ENTITY = "variable"
PROGRAM_ENTITY = "program"          # a Fortran main program: host code that nothing calls

# Edge kinds.
CALL = "call"                       # a procedure called
USE = "use"                         # any other reference (a procedure's address, a variable read or written)
DECLARES = "declares"               # a unit declares a static-storage local variable (rule 3)
INIT = "init"                       # a variable's initializer references the entity (rule 4)

T = TypeVar("T")

# The incremental layer's way to make a file's graph from the graph of its previous analysis
# (incremental.graph_edit.graph_after_edit): given the new context, its path, the old context and
# the old graph, the new graph, or None to build it afresh.
AfterEdit = Callable[["FileFacts", str, "FileFacts", "FileGraph"], "FileGraph | None"]


def edge_fact(e: Edge) -> tuple[str, str, str, bool, tuple[str, ...], str, tuple[tuple[str, str], ...]]:
    """What propagation reads of an edge (a part of FileGraph.signature)."""
    return (e.source, e.target, e.kind, e.host, e.candidates, e.device_target, e.variants)


# FileGraph.signature: its declarations (key, kind, definition), marks (key, device type, link,
# indirect, how), roots (key, owner) and edges (source, target, kind, host, candidates, device
# target, variants), each sorted.
GraphSignature = tuple[tuple[tuple[str, str, bool], ...],
                       tuple[tuple[str, str, bool, bool, str], ...],
                       tuple[tuple[str, str], ...],
                       tuple[tuple[str, str, str, bool, tuple[str, ...], str, tuple[tuple[str, str], ...]], ...]]

ROOT_PREFIX = "@"                   # keys of target regions: "@<path>:<unit key>#<n>"
CPP_PREFIX = "c++:"                 # keys of C++ functions and variables without C linkage


@dataclass(eq=False)
class Declared:
    """One declaration of an entity in this file."""
    key: str
    name: str                       # as shown to the user (C++: qualified)
    kind: str                       # PROCEDURE_ENTITY, VARIABLE_ENTITY or PROGRAM_ENTITY
    symbol: Symbol
    definition: bool                # a body / a variable definition (C `extern` is not)
    global_scope: bool = True       # variables: file, namespace, class, module, common or main program
    constant: bool = False          # C const/constexpr, Fortran parameter: a device needs no storage for it
    variadic: bool = False          # C/C++ `...` parameter
    params_read: bool = True        # False: a detached copy whose symbol's parameters were never read


@dataclass(frozen=True)
class MarkFact:
    """A declare target mark on an entity, as propagation needs it."""
    key: str
    device_type: str                # any, host, nohost
    link: bool
    indirect: bool
    span: Span                      # the list item, or the declaration's name (implicit list)
    how: str                        # "list", "region" (begin/end or clause-less) or "host procedure"


@dataclass(frozen=True)
class Root:
    """A target region (without `device(ancestor: ...)`): where device code starts."""
    key: str
    span: Span                      # the directive's name
    owner: str                      # entity key of the unit holding it ("" at file level)
    owner_name: str


@dataclass(frozen=True)
class Edge:
    source: str                     # entity key of the holding unit, or a root key
    target: str                     # entity key ("" when unresolved: see candidates)
    span: Span                      # the reference
    kind: str                       # CALL, USE, DECLARES, INIT
    host: bool = False              # in a target region with device(ancestor: ...): host code
    candidates: tuple[str, ...] = ()   # unresolved: keys that other files may define, in order
    pointer: bool = False           # a call through a variable (function pointer)
    device_target: str = ""         # on every device, a declare variant replaces the target with this one
    # the variants that may replace the call on some device (device_target's too): (key, selector)
    variants: tuple[tuple[str, str], ...] = ()


@dataclass(eq=False)
class FileGraph:
    path: str
    fortran: bool
    declared: list[Declared] = field(default_factory=list)
    marks: list[MarkFact] = field(default_factory=list)
    roots: list[Root] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    has_main: bool = False
    user_includes: tuple[str, ...] = ()   # "header" includes: marks may come from them
    line_of: Callable[[int], int] | None = None   # byte offset -> 0-based line
    keys: dict[int, str] = field(default_factory=dict)   # id(symbol) -> entity key, for this file's symbols
    # C/C++: edges[:a] come from names, edges[a:b] from member calls, edges[b:] declare static
    # locals; the first two in source order (incremental.graph_edit reads one function's share again).
    # Fortran: edges[:a] from names this file resolves (and calls), edges[a:b] from names other
    # files may define, both in statement order (one statement's share is read again)
    parts: tuple[int, int] | None = None

    def key_of(self, symbol: Symbol) -> str | None:
        """The entity key of one of this file's declarations (None: not an entity)."""
        return self.keys.get(id(symbol))

    def detached(self) -> FileGraph:
        """The same facts holding nothing of the file's model: each declaration's symbol is a
        copy in an empty scope of its scope's kind (what the cross-file rules read of it: its parameter
        types only if they were read, see `Declared.params_read`), and no symbol keys. Plain
        data, to hand to another process."""
        scopes: dict[str, Scope] = {}
        graph = replace(self, declared=[replace(d, symbol=_alone(d.symbol, scopes), params_read=_params_read(d.symbol))
                                        for d in self.declared], keys={})
        for name in ("_signature", "_link_facts"):
            if name in self.__dict__:
                graph.__dict__[name] = self.__dict__[name]
        return graph

    def line(self, offset: int) -> int:
        """1-based line of a byte offset (0 when unknown)."""
        return self.line_of(offset) + 1 if self.line_of is not None else 0

    def signature(self) -> GraphSignature:
        """What propagation depends on, without positions: equal signatures mean an edit
        changed nothing propagation can see (only spans moved)."""
        found = self.__dict__.get("_signature")
        if found is None:
            found = self.__dict__["_signature"] = self._signature()
        return found

    def _signature(self) -> GraphSignature:
        return (tuple(sorted({(d.key, d.kind, d.definition) for d in self.declared})),
                tuple(sorted({(m.key, m.device_type, m.link, m.indirect, m.how) for m in self.marks})),
                tuple(sorted({(r.key, r.owner) for r in self.roots})),
                tuple(sorted({edge_fact(e) for e in self.edges})))

    def signature_after(self, old: FileGraph, runs: list[tuple[int, int, int, int]]) -> None:
        """Take `old`'s signature when this graph has old's declarations, marks and roots and
        differs from it only in the edges of `runs` ((start, end) in old.edges, (start, end) in
        these edges), which give the same set of facts: an edit in one body that changed no
        reference (a number typed) need not sort every edge of the file again."""
        if self.declared is not old.declared or self.marks is not old.marks or self.roots is not old.roots:
            return
        if {edge_fact(e) for a, b, _, _ in runs for e in old.edges[a:b]} \
                == {edge_fact(e) for _, _, c, d in runs for e in self.edges[c:d]}:
            self.__dict__["_signature"] = old.signature()


def _params_read(s: Symbol) -> bool:
    """Whether the symbol's parameter types were read (a builder defers reading them: most
    readers never ask, and reading them for a copy would cost as much as the rest of the copy)."""
    return not callable(s.__dict__.get("params"))


class _Kept(Symbol):
    """A detached declaration's symbol: the fields the cross-file rules read, in slots (the
    others read as their defaults). A whole copy's dict was the largest part of a summary."""
    __slots__ = (
        "bind_name",
        "definition",
        "initialized",
        "key",
        "kind",
        "name",
        "name_span",
        "params",
        "qualified",
        "scope",
        "span",
    )


def _alone(s: Symbol, scopes: dict[str, Scope]) -> Symbol:
    """A copy of the symbol in an empty scope of its scope's kind (one per kind: `scopes`)."""
    scope = scopes.get(s.scope.kind)
    if scope is None:
        scope = scopes[s.scope.kind] = Scope(s.scope.kind, "", (0, 0))
    kept = object.__new__(_Kept)
    kept.name, kept.key, kept.kind, kept.span, kept.name_span, kept.scope = s.name, s.key, s.kind, s.span, s.name_span, scope
    kept.definition, kept.initialized, kept.bind_name, kept.qualified = s.definition, s.initialized, s.bind_name, s.qualified
    kept.params = s.params if _params_read(s) else ()
    return kept


def qualify(key: str, path: str, scope: str) -> str:
    """An entity key in a program's scope (programs.partition): the names of one program's
    entities never meet another's. Keys that name the file itself (internal linkage, static
    locals, target regions) are its own already."""
    if not scope or key.startswith(ROOT_PREFIX) or key.startswith(path + ":"):
        return key
    return f"{key}@{scope}"


def scoped_graph(raw: FileGraph, scope: str, headers: list[dict[str, list[str]]],
                 previous: tuple[FileGraph, FileGraph] | None = None) -> FileGraph:
    """`raw` with its keys in `scope`, and its uses of names no declaration of its own names
    resolved first to what its translation unit's headers declare (`headers`: for each, name ->
    keys), then to the name in the program. `previous`: an earlier raw graph of the file and
    its scoped graph, in the same scope and headers: the parts `raw` shares with it are taken
    as they are (a marks-only rebuild then keeps the lists the device graph compares)."""
    path = raw.path
    before, done = previous if previous is not None else (None, None)

    def q(key: str) -> str:
        return qualify(key, path, scope) if key else key

    def edge(e: Edge) -> Edge:
        variants = tuple((q(k), text) for k, text in e.variants)
        if e.candidates:
            plain = [c.removeprefix(CPP_PREFIX) for c in e.candidates]
            found = [k for names in headers for name in plain for k in names.get(name, ())]
            candidates = tuple(dict.fromkeys([*found, *(q(c) for c in e.candidates)]))
            return Edge(q(e.source), q(e.target), e.span, e.kind, e.host, candidates, e.pointer, q(e.device_target),
                        variants)
        return Edge(q(e.source), q(e.target), e.span, e.kind, e.host, (), e.pointer, q(e.device_target), variants)
    def marks() -> list[MarkFact]:
        # (an edit of one declare target rebuilds the marks: the unchanged ones are the same facts)
        known = dict(zip(before.marks, done.marks)) if before is not None and done is not None else {}
        return [known.get(m) or replace(m, key=q(m.key)) for m in raw.marks]

    def part(name: str, make: Callable[[], T]) -> T:
        if before is not None and getattr(raw, name) is getattr(before, name):
            return cast(T, getattr(done, name))   # the same part of the graph scoped before
        return make()

    return FileGraph(path, raw.fortran,
                     declared=part("declared", lambda: [replace(d, key=q(d.key)) for d in raw.declared]),
                     marks=part("marks", marks),
                     roots=part("roots", lambda: [replace(r, owner=q(r.owner)) for r in raw.roots]),
                     edges=part("edges", lambda: [edge(e) for e in raw.edges]),
                     has_main=raw.has_main, user_includes=raw.user_includes, line_of=raw.line_of,
                     keys=part("keys", lambda: {k: q(v) for k, v in raw.keys.items()}), parts=raw.parts)


def file_graph(ctx: FileFacts, path: str | None = None, previous: tuple[FileFacts, FileGraph] | None = None,
               after_edit: AfterEdit | None = None) -> FileGraph:
    """The graph of one analysed file (cached on the context: it changes only with the text).
    `previous`: the context the file had before and its graph, from which `after_edit` (the
    incremental layer's) may make this one when the edit between them allows."""
    cached: FileGraph | None = ctx.__dict__.get("_file_graph")
    if cached is not None:
        return cached
    if previous is not None and after_edit is not None:
        graph = after_edit(ctx, path if path is not None else ctx.path, *previous)
        if graph is not None:
            ctx.__dict__["_file_graph"] = graph
            return graph
    model = ctx.model
    graph = FileGraph(path if path is not None else ctx.path, ctx.document.language.is_fortran,
                      user_includes=tuple(i.header for i in model.includes if not i.system and i.header),
                      line_of=ctx.document.lines.line_of)
    builder = builder_of(ctx, graph)
    builder.run()
    graph.keys = {k: v for k, v in builder.keys.items() if v is not None}
    ctx.__dict__["_file_graph"] = graph
    return graph


def builder_of(ctx: FileFacts, graph: FileGraph) -> CBuilder | FortranBuilder:
    """The builder that fills `graph` from `ctx` (for the language of the graph)."""
    return FortranBuilder(ctx, graph) if graph.fortran else CBuilder(ctx, graph)


class _Builder:
    def __init__(self, ctx: FileFacts, graph: FileGraph) -> None:
        self.ctx = ctx
        self.graph = graph
        self.model: FileModel = ctx.model
        self.keys: dict[int, str | None] = {}         # id(symbol) -> entity key (None: no entity)
        self.unit_keys: dict[int, tuple[str, str]] = {}   # id(scope) -> (key, name) of the unit
        self.root_of: dict[int, Root] = {}             # target directive index -> root
        self.ancestor: set[int] = set()                # target directive indices with device(ancestor:)
        self.fragment_root: Root | None = None         # a fragment included inside a target region

    def run(self) -> None:
        self.declarations()
        self.bind_marks()
        self.find_roots()
        self.references()

    # -- shared -----------------------------------------------------------------------------
    def key(self, s: Symbol) -> str | None:
        k = id(s)
        if k not in self.keys:
            self.keys[k] = self.entity_key(s)
        return self.keys[k]

    def entity_key(self, s: Symbol) -> str | None:
        raise NotImplementedError

    def declarations(self) -> None:
        raise NotImplementedError

    def unit(self, scope: Scope) -> tuple[str, str] | None:
        raise NotImplementedError

    def bind_marks(self, kept: FileGraph | None = None) -> None:
        """The facts of the binding's marks. `kept`: a graph of the same program model, whose
        facts of the marks this binding still holds are taken (an edit of one declare target
        directive binds that one again and keeps the other marks: each is the same object)."""
        if not self.ctx.has_declare_target:
            return
        before: dict[int, tuple[Mark, list[MarkFact]]] = kept.__dict__.get("_mark_facts", {}) if kept else {}
        made: dict[int, tuple[Mark, list[MarkFact]]] = {}
        out = self.graph.marks
        for mark in self.ctx.binding.marks:
            found = before.get(id(mark))
            facts = found[1] if found is not None and found[0] is mark else self.mark_facts(mark)
            made[id(mark)] = (mark, facts)
            out.extend(facts)
        self.graph.__dict__["_mark_facts"] = made

    def mark_facts(self, mark: Mark) -> list[MarkFact]:
        how = "list" if mark.explicit and mark.item is not None else "region"
        return [MarkFact(key, mark.device_type, mark.kind == "link", mark.indirect, mark.span, how)
                for key in map(self.key, mark.symbols) if key is not None]

    def find_roots(self, within: Span | None = None) -> None:
        """The roots of the target regions (those starting inside `within` only, when given: a
        region's root is numbered among its unit's, all inside that unit's body)."""
        regions = self.ctx.regions
        counts: dict[str, int] = {}
        configuration = self.ctx.configuration
        includer = configuration.includer if configuration is not None else None
        # a fragment included in a function body is that function's code (model_c): its name
        # stands for the unit, and its whole text is device code when the include stands in a
        # target region
        function = includer.function if includer is not None and not self.graph.fortran else None
        if function is not None and includer is not None and includer.target:
            self.fragment_root = Root(f"{ROOT_PREFIX}{self.graph.path}:#0", (0, 0), "", function)
            self.graph.roots.append(self.fragment_root)
        for r in regions.targets:
            if within is not None and not within[0] <= r.span[0] < within[1]:
                continue
            if r.ancestor:
                self.ancestor.add(r.index)
                continue
            owner = self.unit(self.model.scope_at(r.span[0], expand=False))
            owner_key, owner_name = owner if owner is not None else ("", function or "")
            n = counts[owner_key] = counts.get(owner_key, 0) + 1
            # the path keeps same-named units of different files (two mains) apart
            root = Root(f"{ROOT_PREFIX}{self.graph.path}:{owner_key}#{n}",
                        self.ctx.directives[r.index].name_span, owner_key, owner_name)
            self.root_of[r.index] = root
            self.graph.roots.append(root)

    def source_of(self, ref: Reference) -> tuple[str, bool] | None:
        """(source key, host) for a reference: its target region's root, or its unit."""
        if ref.target is not None:
            root = self.root_of.get(ref.target)
            if root is not None:
                return root.key, False
            if ref.target in self.ancestor:
                unit = self.unit(ref.scope)
                return (unit[0], True) if unit is not None else None
        if self.fragment_root is not None:
            return self.fragment_root.key, False
        unit = self.unit(ref.scope)
        if unit is not None:
            return unit[0], False
        return None

    def place(self, ref: Reference, initializers: list[Declared]) -> tuple[str, bool, str] | None:
        """(source key, host, edge kind) of a reference: in a unit or target region, or outside
        every procedure in the initializer of one of `initializers` (rule 4); None elsewhere."""
        where = self.source_of(ref)
        if where is not None:
            return where[0], where[1], CALL if ref.call else USE
        if ref.scope.enclosing("lambda") is not None:
            return None   # rule 4 excepts C++ lambdas: their bodies run only when called
        owner = next((d for d in initializers if d.symbol.span[0] <= ref.span[0] < d.symbol.span[1]), None)
        return (owner.key, False, INIT) if owner is not None else None

    def declared_root(self, offset: int) -> Root | None:
        """The root of the innermost non-ancestor target region holding `offset`."""
        region = self.ctx.regions.at(offset)
        while region is not None:
            if region.ancestor:
                return None
            root = self.root_of.get(region.index)
            if root is not None:
                return root
            region = region.parent
        return self.fragment_root

    def references(self) -> None:
        raise NotImplementedError

    # -- declare variant --------------------------------------------------------------------
    def variant_records(self) -> Iterator[tuple[Symbol, Symbol, EffectiveSelector]]:
        raise NotImplementedError

    def dispatch_extents(self) -> list[Span]:
        raise NotImplementedError

    def device_variants(self, kept: FileGraph | None = None) -> None:
        """What a call of a declare variant's base runs on a device: a variant selected on every
        device (`device={kind(nohost)}`) replaces it (`device_target`: the base is not called on
        any device, as clang's device images show); the variants some device may select
        (`kind(gpu)`, `arch(...)`, a condition) may be called through it (`variants`), and the
        base stays called (a gpu variant is not selected on a host offload device). Every edge
        is set anew: after an edit, old edges may carry what a directive no longer says.
        `kept`: the graph before an edit in one body, which changed no directive nor declaration:
        its table serves the bases it was made for."""
        called = {e.target for e in self.graph.edges if not e.host}
        made: tuple[frozenset[str], VariantTable] | None = kept.__dict__.get("_variant_table") if kept else None
        if made is not None and called <= made[0]:
            table = {base: found for base, found in made[1].items() if base in called}
        else:
            table = self.variant_table(called) if called and self.ctx.directives_named("declare variant") else {}
        self.graph.__dict__["_variant_table"] = (frozenset(called), table)
        if not table and not any(e.device_target or e.variants for e in self.graph.edges):
            return
        texts: dict[int, str] = {}   # a selector's text, made once and only for a selected variant
        dispatch: list[Span] | None = None
        edges: list[Edge] = []
        moved = False
        for e in self.graph.edges:
            every, some = "", list[tuple[str, str]]()
            for variant, selector, needs_dispatch in table.get(e.target, ()) if not e.host else ():
                if needs_dispatch and dispatch is None:
                    dispatch = self.dispatch_extents()
                in_dispatch = needs_dispatch and any(lo <= e.span[0] < hi for lo, hi in dispatch or ())
                selection = device_selection(selector, in_dispatch)
                if selection == EVERY_DEVICE or (selection == SOME_DEVICE and e.kind == CALL and not e.pointer):
                    if selection == EVERY_DEVICE:
                        every = variant   # (the last directive's, as before)
                    text = texts.get(id(selector))
                    if text is None:
                        text = texts[id(selector)] = selector_text(selector)
                    some.append((variant, text))
            found = tuple(dict(some).items())
            if (every, found) != (e.device_target, e.variants):
                e, moved = replace(e, device_target=every, variants=found), True
            edges.append(e)
        if moved:
            self.graph.edges = edges

    def variant_table(self, called: set[str]) -> VariantTable:
        """base key -> (variant key, selector, whether it has a dispatch trait), for the bases
        in `called` (the targets of device edges: the others need no entry)."""
        out: dict[str, list[tuple[str, EffectiveSelector, bool]]] = {}
        for base_symbol, variant_symbol, selector in self.variant_records():
            base = self.key(base_symbol)
            if base is None or base not in called:
                continue
            variant = self.key(variant_symbol)
            if variant is None or base == variant:
                continue
            dispatch = any(s.name.lower() == "dispatch" for name, sels in selector.sets
                           if name.lower() == "construct" for s in sels)
            out.setdefault(base, []).append((variant, selector, dispatch))
        return out


# base key -> (variant key, selector, whether it has a dispatch trait)
VariantTable = dict[str, list[tuple[str, "EffectiveSelector", bool]]]


# -- C and C++ ----------------------------------------------------------------------------------
_CONST_POINTER = re.compile(rb"\*\s*const\s*$")
# `sizeof x`, `sizeof(x)`, `sizeof (s.x)`, `decltype(x)`... up to the name (no operator in between)
_UNEVALUATED = re.compile(rb"\b(?:sizeof|alignof|_Alignof|__alignof__|decltype|typeof|__typeof__)\s*(?:\(\s*)*$")
_SUBSCRIPT_CALL = re.compile(rb"\s*(?:\[[^\]\n;]*\]\s*)+\(")
_DEREF_CALL = re.compile(rb"\s*\)\s*\(")
# `, ...)` or `(...)`: a C variadic parameter list (a C++ pack `Args... args` is not one)
_ELLIPSIS = re.compile(rb"[(,]\s*\.\.\.\s*\)")
_MEMBER_CALL = "(call_expression function: (field_expression field: (field_identifier) @field))"


_SPECIALIZATION = re.compile(r"(?P<base>(?:[^<:]|::)*?[A-Za-z_]\w*)<.*>")


def _template_of(name: str) -> str:
    """The template an explicit specialization's name belongs to (`MIN<double>` -> `MIN`): a
    call names the template, and the specializations are its definitions."""
    if not name.endswith(">") or "operator" in name:
        return name
    found = _SPECIALIZATION.fullmatch(name)
    return found.group("base") if found is not None else name


def _through_anonymous(scope: Scope, enclosing: set[int]) -> bool:
    """Whether `scope` is one of `enclosing` or anonymous namespaces nested in one of them."""
    s: Scope | None = scope
    while s is not None and id(s) not in enclosing:
        if s.kind != "namespace" or s.name:
            return False
        s = s.parent
    return s is not None
_FUNCTION_SCOPES = ("file", "namespace", "class")


def _in_head(scope: Scope, at: int) -> bool:
    """`at` is in a function definition's head, before its name (`static double f(...) {`): a
    function scope spans its whole definition, and reading its body for that word would read
    every static function's body."""
    return scope.kind == "function" and scope.symbol is not None and at < scope.symbol.name_span[0]


def _entity_names(model: FileModel) -> set[bytes]:
    """The names of the model's functions and static variables (kept with it while it declares
    as many symbols: an edit in one body asks again, and refresh_body forgets them)."""
    count = (len(model.symbols), len(model.locals))
    found: tuple[tuple[int, int], set[bytes]] | None = model.root.__dict__.get("_entity_names")
    if found is None or found[0] != count:
        found = model.root.__dict__["_entity_names"] = (count, {
            s.name.encode() for s in [*model.symbols, *model.locals]
            if s.kind == FUNCTION or (s.kind == VARIABLE and s.storage == STATIC)})
    return found[1]


class CBuilder(_Builder):
    @property
    def macro_names(self) -> frozenset[str]:
        """The macros the file's translation unit defines (none known without a configuration)."""
        configuration = self.ctx.configuration
        return configuration.names if configuration is not None else frozenset()

    def entity_key(self, s: Symbol) -> str | None:
        if s.kind == FUNCTION:
            if s.scope.kind not in _FUNCTION_SCOPES or "dummy" in s.specifiers:
                return None
            return f"{self.graph.path}:{self.linkage_name(s)}" if self.internal(s) else self.linkage_name(s)
        if s.kind == VARIABLE and s.storage == STATIC and "dummy" not in s.specifiers:
            if s.scope.kind in _FUNCTION_SCOPES:
                return f"{self.graph.path}:{self.linkage_name(s)}" if self.internal(s) else self.linkage_name(s)
            unit = self.unit(s.scope)
            if unit is None:
                return None
            same = [o for o in s.scope.declared(s.key) if o.kind == VARIABLE]
            n = next((i for i, o in enumerate(same) if o is s), 0)
            owner = unit[0] if unit[0].startswith(f"{self.graph.path}:") else f"{self.graph.path}:{unit[0]}"
            return f"{owner}::{s.name}#{n}"
        return None

    def linkage_name(self, s: Symbol) -> str:
        """What the linker knows a function or global by: C names (and C++ ones with C linkage)
        as they are, other C++ names qualified and apart from C's (a C++ call reaches a C
        definition only through extern "C")."""
        if s.linkage == "C" or self.ctx.document.language is not Language.CPP:
            return s.name
        return CPP_PREFIX + _template_of(s.qualified or s.name)

    def default_key(self, name: str) -> str:
        """The key a name this file does not declare has in the file's language."""
        return CPP_PREFIX + name if self.ctx.document.language is Language.CPP else name

    def internal(self, s: Symbol) -> bool:
        """Internal linkage: `static` at file or namespace scope, or an anonymous namespace."""
        if s.scope.kind == "class":
            return False
        if "static" in s.specifiers:
            return True
        return any(a.kind == "namespace" and not a.name for a in s.scope.ancestors())

    def declarations(self) -> None:
        graph = self.graph
        self.expand_static_holders()
        for s in [*self.model.symbols, *self.model.locals]:   # static locals: entities too
            key = self.key(s)
            if key is None:
                continue
            if s.kind == FUNCTION:
                graph.declared.append(Declared(key, s.qualified or s.name, PROCEDURE_ENTITY, s, s.definition,
                                               variadic=self.variadic(s)))
                if s.name == "main" and s.definition and s.scope.kind == "file":
                    graph.has_main = True
            else:
                constant = self.constant(s)
                graph.declared.append(Declared(key, s.qualified or s.name, VARIABLE_ENTITY, s,
                                               s.definition or "extern" not in s.specifiers,
                                               global_scope=s.scope.kind in _FUNCTION_SCOPES,
                                               constant=constant))

    def unevaluated(self, ref: Reference) -> bool:
        """The name is an operand of sizeof, alignof, decltype or typeof (read from the text
        before it, within its expression)."""
        head = self.ctx.document.source[max(0, ref.span[0] - 64):ref.span[0]]
        return _UNEVALUATED.search(head) is not None

    def called_through(self, ref: Reference) -> bool:
        """Whether the variable is called as `v[i](...)` or `(*v)(...)` (the model's references
        count only `v(...)` as a call)."""
        src = self.ctx.document.source
        start, end = ref.span
        rest = src[end:end + 200]
        if _SUBSCRIPT_CALL.match(rest):
            return True
        return src[max(0, start - 8):start].rstrip().endswith(b"(*") and _DEREF_CALL.match(rest) is not None

    def constant(self, s: Symbol) -> bool:
        """A const object: no device copy is needed for a constant (clang folds it). For a pointer
        the `const` must be on the pointer itself (`int *const p`), not on what it points to; the
        model writes an array's type as a pointer, and a const array is not folded either (clang:
        undefined reference), so it needs its mark like any variable."""
        if "constexpr" in s.specifiers:
            return True
        if "*" not in s.type_text:
            return "const" in s.specifiers or s.type_text.startswith("const ")
        head = self.ctx.document.source[s.span[0]:s.name_span[0]]
        return _CONST_POINTER.search(head) is not None

    def variadic(self, s: Symbol) -> bool:
        """`...` in the parameter list (read from the text: parsing every parameter list costs more)."""
        src = self.ctx.document.source
        head = src[s.name_span[1]:min(s.span[1], s.name_span[1] + 4000)]
        for stop in (b"{", b";"):
            cut = head.find(stop)
            if cut >= 0:
                head = head[:cut]
        return _ELLIPSIS.search(head) is not None

    def expand_static_holders(self) -> None:
        """Static locals and block-scope extern declarations live in bodies the C model reads on
        demand: read the bodies that spell `static` or `extern` (the others need not be read for
        the graph, whatever rules read before it)."""
        src = self.ctx.document.source
        for word in (b"static", b"extern"):
            at = src.find(word)
            while at >= 0:
                scope = self.model.scope_at(at, expand=False)
                if scope.kind != "file" and scope.kind != "namespace" and scope.kind != "class" \
                        and not _in_head(scope, at):
                    self.model.scope_at(at)   # reads the bodies on the way
                at = src.find(word, at + len(word))

    def unit(self, scope: Scope) -> tuple[str, str] | None:
        fscope = scope.enclosing("function")
        if fscope is None or fscope.symbol is None:
            return None
        k = id(fscope)
        if k not in self.unit_keys:
            key = self.key(fscope.symbol)
            if key is None:
                return None
            self.unit_keys[k] = (key, fscope.symbol.qualified or fscope.symbol.name)
        return self.unit_keys[k]

    def resolve(self, ref: Reference) -> list[Symbol]:
        # the C model's module: imported only once C files are analysed
        from ..model.model_c import named_by

        hits = named_by(self.model, self.ctx.document.source, ref)
        if hits or self.ctx.document.language is not Language.CPP:
            return hits
        # an anonymous namespace's members are visible in the enclosing scope
        enclosing = {id(s) for s in ref.scope.ancestors()}
        return [s for s in self.model.named(ref.key) if s.name_span[0] < ref.span[0] and _through_anonymous(s.scope, enclosing)]

    def members(self, ref: Reference) -> list[Symbol]:
        """The member functions a member call may name: only when one class has that name
        (several would make every rule about the call a guess)."""
        hits = [s for s in self.model.named(ref.key) if s.kind == FUNCTION and s.scope.kind == "class"]
        return hits if len({s.qualified for s in hits}) == 1 else []

    def member_calls(self, within: Span | None = None) -> Iterator[Reference]:
        """`obj.f(x)` and `p->f(x)`: the model's references hold no member names. A member call
        names the class-scope functions of that name (the object's class is not known here)."""
        tree = self.ctx.document.tree
        if tree is None or self.ctx.document.language is not Language.CPP:
            return
        import tree_sitter

        cursor = tree_sitter.QueryCursor(query(Language.CPP, _MEMBER_CALL))
        if within is not None:
            cursor.set_byte_range(*within)
        for _, captures in cursor.matches(tree.root_node):
            for node in captures.get("field", []):
                if within is not None and not within[0] <= node.start_byte < within[1]:
                    continue
                name = self.ctx.document.source[node.start_byte:node.end_byte].decode("utf-8", "replace")
                if not any(s.kind == FUNCTION and s.scope.kind == "class" for s in self.model.named(name)):
                    continue
                start = node.start_byte
                region = self.ctx.regions.at(start)
                yield Reference(name, name, (start, node.end_byte), self.model.scope_at(start), True,
                                region.index if region is not None else None)

    def entity_references(self, within: Span | None = None) -> Iterator[Reference]:
        """The references that may name an entity (those inside `within` only, when given):
        FileModel.references filtered by name before any tree walking (most identifiers are
        locals and parameters), so that a large file pays for its calls and globals only. A name
        the file does not declare counts when it is called (`f(`): another file may define it."""
        if self.model.reference_builder is None:   # the model has them already
            yield from (r for r in self.model.references if within is None or within[0] <= r.span[0] < within[1])
            return
        tree = self.ctx.document.tree
        if tree is None:
            return
        from ..model.model_c import _identifiers, _is_use
        src = self.ctx.document.source
        model = self.model
        names = _entity_names(model)
        uses: list[tuple[tree_sitter.Node, bytes, int]] = []
        shadowed: set[tuple[int, bytes]] = set()   # (function scope, name) declared inside it
        for ident in _identifiers(self.ctx.document.language, tree.root_node, within):
            start, end = ident.start_byte, ident.end_byte
            name = src[start:end]
            if name not in names and src[end:end + 64].lstrip()[:1] != b"(":
                continue
            if _is_use(ident):
                uses.append((ident, name, start))
            elif name in names:
                # a local or parameter of that name: references in this function need its
                # real block scopes (the body is read for them only)
                shadowed.add((id(model.scope_at(start, expand=False)), name))
        regions = self.ctx.regions
        for ident, name, start in uses:
            scope = model.scope_at(start, expand=False)
            if (id(scope), name) in shadowed or name not in names:
                # (a name the file does not declare at file scope may be a local: a lambda called
                # `set(i)` is no call of another file's function; as when every body is read)
                scope = model.scope_at(start)
            parent = ident.parent
            call_node = parent.parent if parent is not None and parent.type == "qualified_identifier" else parent
            call = call_node is not None and call_node.type == "call_expression" and \
                call_node.child_by_field_name("function") in (ident, parent)
            region = regions.at(start)
            text = name.decode("utf-8", "replace")
            yield Reference(text, text, (start, start + len(name)), scope, call,
                            region.index if region is not None else None)

    def references(self) -> None:
        names, members = self.reference_edges()
        self.graph.edges = [*names, *members]
        self.graph.parts = (len(names), len(self.graph.edges))
        self.static_locals()
        self.device_variants()

    def reference_edges(self, within: Span | None = None) -> tuple[list[Edge], list[Edge]]:
        """The edges of the references (those inside `within` only, when given): from names,
        then from member calls, each in source order."""
        initializers = [d for d in self.graph.declared if d.kind == VARIABLE_ENTITY and d.global_scope
                        and d.symbol.initialized]
        names: list[Edge] = []
        members: list[Edge] = []
        for ref in self.entity_references(within):
            self.add_edges(names, ref, self.resolve(ref), initializers)
        for ref in self.member_calls(within):
            self.add_edges(members, ref, self.members(ref), initializers)
        # in source order: the model lists references in the order it read function bodies
        names.sort(key=lambda e: e.span)
        members.sort(key=lambda e: e.span)
        return names, members

    def add_edges(self, out: list[Edge], ref: Reference, hits: list[Symbol], initializers: list[Declared]) -> None:
        placed = self.place(ref, initializers)
        if placed is None:
            return
        source, host, kind = placed
        if not hits:
            # (a name the translation unit defines as a macro is no call of another file's
            # function: `#define dist(a, b) ...` then `dist(i, j)`)
            if ref.call and "::" not in ref.name and ref.name not in self.macro_names:
                out.append(Edge(source, "", ref.span, kind, host, candidates=(self.default_key(ref.name),)))
            return
        targets = {self.key(s) for s in hits}
        if None in targets:
            return  # a local, a parameter, a type: not an entity (shadowing included)
        variables = all(s.kind == VARIABLE for s in hits)
        if variables and not ref.call and self.unevaluated(ref):
            return   # `sizeof x`, `decltype(x)`: no use of the object at run time
        if variables and not ref.call and self.called_through(ref):
            kind = CALL   # `table[i](x)`, `(*fp)(x)`: a call through the variable
        pointer = kind == CALL and variables
        for target in sorted(t for t in targets if t is not None):
            out.append(Edge(source, target, ref.span, kind, host, pointer=pointer))

    def variant_records(self) -> Iterator[tuple[Symbol, Symbol, EffectiveSelector]]:
        """(base, variant, effective selector) of each declare variant that names one function."""
        for rec in self.ctx.variants.directives:
            if rec.base is not None and len(rec.variants) == 1 and not rec.directive.uses_macros \
                    and rec.verdict.ok is not False:
                yield rec.base, rec.variants[0], rec.selector

    def dispatch_extents(self) -> list[Span]:
        extents = self.ctx.structure.extents
        return [extents[i] for i, _ in self.ctx.directives_named("dispatch") if i in extents]

    def static_locals(self) -> None:
        for d in self.graph.declared:
            if d.kind != VARIABLE_ENTITY or d.global_scope:
                continue
            root = self.declared_root(d.symbol.name_span[0])
            if root is not None:
                self.graph.edges.append(Edge(root.key, d.key, d.symbol.name_span, DECLARES))
                continue
            unit = self.unit(d.symbol.scope)
            if unit is not None:
                self.graph.edges.append(Edge(unit[0], d.key, d.symbol.name_span, DECLARES))


# -- Fortran ------------------------------------------------------------------------------------
_SUBPROGRAMS = ("subroutine", "function")


def _procedure_pointer(s: Symbol) -> bool:
    return s.kind == PROCEDURE_POINTER or (s.kind == PROCEDURE and "pointer" in s.specifiers)


class FortranBuilder(_Builder):
    def __init__(self, ctx: FileFacts, graph: FileGraph) -> None:
        super().__init__(ctx, graph)
        from .variants_fortran import lookup, unit_of
        self.lookup = lookup
        self.unit_of = unit_of

    def entity_key(self, s: Symbol) -> str | None:
        if "dummy" in s.specifiers:
            return None
        if s.kind in (FUNCTION, PROCEDURE, ENTRY):
            if "abstract" in s.specifiers:
                return None   # an abstract interface names no procedure
            if s.bind_name:
                return s.bind_name
            host = s.scope
            if s.kind == FUNCTION and s.definition:
                if host.kind in ("module", "submodule"):
                    return f"fortran:{host.name.lower()}::{s.key}"
                if host.kind in ("subroutine", "function", "program"):
                    owner = self.unit(host)
                    return f"{self.graph.path}:{owner[0] if owner else host.name.lower()}::{s.key}"
            if s.kind == PROCEDURE and "pointer" in s.specifiers:
                return self.variable_key(s) if s.storage == STATIC else None
            return f"fortran:{s.key}"
        if s.kind == PROCEDURE_POINTER:
            return self.variable_key(s) if s.storage == STATIC else None
        if s.kind == VARIABLE and s.storage == STATIC:
            if "parameter" in s.specifiers:
                return None
            if s.common is not None:
                return f"fortran:/{s.common}/"
            return self.variable_key(s)
        if s.kind == "common":
            return f"fortran:{s.key}"   # key "/name/"
        return None

    def variable_key(self, s: Symbol) -> str | None:
        """A module variable by module and name; a saved local by its unit (a procedure pointer
        too: it is a variable holding a procedure)."""
        if s.bind_name:
            return s.bind_name
        host = s.scope
        if host.kind in ("module", "submodule"):
            return f"fortran:{host.name.lower()}::{s.key}"
        owner = self.unit(host)
        if owner is None:
            return None
        return f"{self.graph.path}:{owner[0]}::{s.key}"

    def programs(self, kept: FileGraph | None = None) -> list[Scope]:
        """The main programs, each now known as the unit of what it holds. `kept`: a graph of the
        same program model, whose programs these are (no walk of every scope again)."""
        found: list[Scope] | None = kept.__dict__.get("_programs") if kept is not None else None
        if found is None:
            found = [scope for scope in self.model.root.walk() if scope.kind == "program"]
        self.graph.__dict__["_programs"] = found
        for scope in found:
            self.unit_keys[id(scope)] = (f"fortran-program:{scope.name.lower()}", scope.name)
        return found

    def declarations(self) -> None:
        graph = self.graph
        commons: set[str] = set()
        for scope in self.programs():
            graph.has_main = True
            if scope.symbol is not None:
                unit_key = self.unit_keys[id(scope)][0]
                graph.declared.append(Declared(unit_key, scope.name, PROGRAM_ENTITY, scope.symbol, True))
        for s in self.model.symbols:
            key = self.key(s)
            if key is None:
                continue
            if _procedure_pointer(s):
                graph.declared.append(Declared(key, s.name, VARIABLE_ENTITY, s, True,
                                               global_scope=s.scope.kind in ("module", "submodule", "program")))
            elif s.kind in (FUNCTION, PROCEDURE, ENTRY):
                graph.declared.append(Declared(key, s.name, PROCEDURE_ENTITY, s,
                                               s.kind == FUNCTION and s.definition and not s.scope.interface_body))
            elif s.kind == "common" or s.common is not None:
                if key not in commons:
                    commons.add(key)
                    graph.declared.append(Declared(key, key.removeprefix("fortran:"), VARIABLE_ENTITY, s, True))
            else:
                global_scope = s.scope.kind in ("module", "submodule", "program")
                graph.declared.append(Declared(key, s.name, VARIABLE_ENTITY, s, True, global_scope=global_scope))

    def unit(self, scope: Scope) -> tuple[str, str] | None:
        u = self.unit_of(scope)
        k = id(u)
        if k in self.unit_keys:
            return self.unit_keys[k]
        if u.kind not in _SUBPROGRAMS or u.symbol is None or u.interface_body:
            return None
        key = self.key(u.symbol)
        if key is None:
            return None
        self.unit_keys[k] = (key, u.symbol.name)
        return self.unit_keys[k]

    def renamed(self, scope: Scope) -> bool:
        from .variants_fortran import _renames
        return any(s.uses and _renames(self.ctx.document.source, s) for s in scope.ancestors())

    def bind_marks(self, kept: FileGraph | None = None) -> None:
        super().bind_marks(kept)
        # A device_type on a subprogram's own directive applies to its internal procedures (rule 6).
        if not self.ctx.has_declare_target:
            return
        for mark in self.ctx.binding.marks:
            if not mark.device_type_explicit:
                continue
            for s in mark.symbols:
                if s.kind != FUNCTION or not s.definition:
                    continue
                for scope in self.model.root.walk():
                    if scope.symbol is s and scope.kind in _SUBPROGRAMS:
                        for child in scope.children:
                            if child.internal and child.symbol is not None:
                                key = self.key(child.symbol)
                                if key is not None:
                                    self.graph.marks.append(MarkFact(key, mark.device_type, False, mark.indirect,
                                                                     child.symbol.name_span, "host procedure"))

    def references(self) -> None:
        graph = self.graph
        # only names of this file's procedures and static variables matter (calls and names from
        # other files' modules come anyway): the model need not resolve every local
        wanted = {s.key for s in self.model.symbols if self.key(s) is not None}
        refs = self.model.references_named(wanted.__contains__)
        named, unresolved = self.reference_edges(refs, self.model.unresolved)
        graph.edges.extend(named)
        graph.edges.extend(unresolved)
        graph.parts = (len(named), len(named) + len(unresolved))
        self.static_locals()
        self.device_variants()

    def variant_records(self) -> Iterator[tuple[Symbol, Symbol, EffectiveSelector]]:
        from .variants import own_effective
        for v in self.ctx.fortran_variants:
            proc = v.variant.procedure
            if v.base is not None and proc is not None:
                yield v.base, proc, own_effective(v.directive)

    def dispatch_extents(self) -> list[Span]:
        from .variants_fortran import _construct_extents
        return [(lo, hi) for lo, hi, d in _construct_extents(self.ctx) if d.name == "dispatch"]

    def reference_edges(self, refs: list[Reference], unresolved: list[Reference]) -> tuple[list[Edge], list[Edge]]:
        """The edges of references that resolve in this file (or are calls), and of names other
        files may define; each in the order of the references."""
        resolved: dict[tuple[str, int], list[Symbol]] = {}
        initial = [d for d in self.graph.declared if d.kind == VARIABLE_ENTITY and d.symbol.initialized
                   and d.symbol.scope.kind in ("module", "submodule")]
        out: tuple[list[Edge], list[Edge]] = ([], [])
        for edges, these in zip(out, (refs, unresolved)):
            for ref in these:
                placed = self.place(ref, initial)
                if placed is None:
                    continue
                if not ref.call and not all(s.complete for s in ref.scope.ancestors()):
                    continue   # the model is unsure of this unit's declarations: a local may hide the name
                source, host, kind = placed
                k = (ref.key, id(ref.scope))
                if k not in resolved:
                    resolved[k] = list(self.lookup(self.ctx, ref.key, ref.scope).symbols)
                hits = resolved[k]
                if not hits:
                    if not ref.call and self.renamed(ref.scope):
                        continue   # `use m, only: a => b`: the name is not the module's
                    candidates = [f"fortran:{m}::{ref.key}" for s in ref.scope.ancestors() for m in s.uses]
                    if ref.call:
                        candidates.append(f"fortran:{ref.key}")
                    if candidates:
                        edges.append(Edge(source, "", ref.span, kind, host, candidates=tuple(candidates)))
                    continue
                targets = {self.key(s) for s in hits}
                if None in targets:
                    continue
                if source in targets and not ref.call:
                    continue  # a function's result variable shares its name
                pointer = ref.call and all(_procedure_pointer(s) for s in hits)
                for target in sorted(t for t in targets if t is not None):
                    edges.append(Edge(source, target, ref.span, kind, host, pointer=pointer))
        return out

    def static_locals(self) -> None:
        for d in self.graph.declared:
            if d.kind != VARIABLE_ENTITY or d.global_scope or d.symbol.common is not None \
                    or d.symbol.kind == "common":
                continue
            unit = self.unit(d.symbol.scope)
            if unit is not None:
                self.graph.edges.append(Edge(unit[0], d.key, d.symbol.name_span, DECLARES))


__all__ = ["CALL", "CPP_PREFIX", "DECLARES", "INIT", "PROCEDURE_ENTITY", "PROGRAM_ENTITY", "ROOT_PREFIX", "USE",
           "VARIABLE_ENTITY", "Declared", "Edge", "FileGraph", "MarkFact", "Root", "builder_of", "file_graph",
           "qualify", "scoped_graph"]
