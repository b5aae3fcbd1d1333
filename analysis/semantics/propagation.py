"""Implicit declare target: the effective device type of every procedure and static variable.

The semantics are those of `shared/spec/propagation.md` (OpenMP 5.1): target regions
(without `device(ancestor: ...)`) and explicitly marked device procedures are the sources;
a procedure referenced from device code becomes declare target, as do static locals of a
device routine and what a device variable's initializer references. A call of a declare
variant's base function also reaches each variant some device may select (the chain says which
base it was called through); a variant selected on every device (`kind(nohost)`) replaces the
base there. The graph joins the `FileGraph` of every file of the workspace (`call_graph.py`).

Shortest chains come from a breadth-first search: each reached entity keeps the parent
that reached it first. An edit replaces one file's graph; only the entities whose chain
ran through what changed are re-derived (the subtree of the search tree below them),
then the search continues from their remaining predecessors and from the new edges.
"""
from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from ..syntax.document import Span
from ..syntax.records import dataclass, field, kept_with
from .call_graph import (
    CALL,
    DECLARES,
    INIT,
    PROCEDURE_ENTITY,
    PROGRAM_ENTITY,
    ROOT_PREFIX,
    USE,
    VARIABLE_ENTITY,
    Declared,
    Edge,
    FileGraph,
    MarkFact,
    Root,
    file_graph,
    qualify,
    scoped_graph,
)
from .programs import LinkFacts, Programs, cached_link_facts, link_facts, partition, relinked

if TYPE_CHECKING:
    from typing import Protocol

    from .call_graph import AfterEdit
    from .call_graph import FileFacts as _CallGraphFacts
    from .programs import FileFacts as _ProgramsFacts

    class FileFacts(_CallGraphFacts, _ProgramsFacts, Protocol):
        """What this pass reads of an analysed file (context.FileContext provides it; the pass
        does not import the context, which builds the passes)."""
        ...

SPEC = "spec"        # the spec's answer: implicit marks are device type any
FLANG = "flang"      # what flang generates: nohost when reached only from device code
MODES = (SPEC, FLANG)
NONE = "none"        # not needed on any device
# How a reference reaches its target (the tag of a propagating pair): as written, or through a
# declare variant's base. flang 22 does not lower declare variant ("not yet implemented"), so
# the flang mode follows calls as written: to the base, never to a variant.
WRITTEN = ""         # both modes
THROUGH = "variant"  # the spec's answer only: a variant called through its base on some device
BASE = "base"        # flang's only: the base of a call a variant replaces on every device
_TOUCH_LOG = 64      # changes remembered by `touched_since` (older ones: anything may have changed)


@dataclass(eq=False)
class Entity:
    """A procedure or static-storage variable as the whole workspace sees it."""
    key: str
    declarations: list[tuple[str, Declared]] = field(default_factory=list)   # (path, declaration)
    marks: list[tuple[str, MarkFact]] = field(default_factory=list)

    def changed(self) -> None:
        """Declarations or marks changed: forget what was derived from them."""
        self.__dict__.pop("_derived", None)

    def _memo(self) -> dict[str, object]:
        found = self.__dict__.get("_derived")
        if found is None:
            found = self.__dict__["_derived"] = {}
        return found

    @property
    def kind(self) -> str:
        return self.declarations[0][1].kind if self.declarations else PROCEDURE_ENTITY

    @property
    def name(self) -> str:
        return self.declarations[0][1].name if self.declarations else self.key

    @property
    def definitions(self) -> list[tuple[str, Declared]]:
        memo = self._memo()
        if "definitions" not in memo:
            memo["definitions"] = [(p, d) for p, d in self.declarations if d.definition]
        return memo["definitions"]  # type: ignore[return-value]

    @property
    def home(self) -> tuple[str, Declared] | None:
        """Where the entity is shown: its first definition, else its first declaration (by path
        and position: the same whatever order the files were read in)."""
        found = self.definitions or self.declarations
        return min(found, key=lambda pd: (pd[0], pd[1].symbol.name_span[0])) if found else None

    @property
    def explicit_type(self) -> str | None:
        """The device type the user wrote. In one file an explicit list decides over a begin/end
        region around it (rule 5); the files' answers join (host and nohost make any)."""
        memo = self._memo()
        if "explicit_type" not in memo:
            memo["explicit_type"] = self._explicit_type()
        return memo["explicit_type"]  # type: ignore[return-value]

    def _explicit_type(self) -> str | None:
        types: set[str] = set()
        for path in {p for p, _ in self.marks}:
            here = [m for p, m in self.marks if p == path]
            listed = [m for m in here if m.how == "list"]
            types |= {m.device_type for m in (listed or here)}
        if not types:
            return None
        return types.pop() if len(types) == 1 else "any"

    @property
    def link_only(self) -> bool:
        return bool(self.marks) and all(m.link for _, m in self.marks)

    @property
    def indirect(self) -> bool:
        """An explicit list decides over a region's `indirect` (rule 7)."""
        listed = [m for _, m in self.marks if m.how == "list"]
        return any(m.indirect for m in (listed or [m for _, m in self.marks]))


@dataclass(frozen=True)
class Step:
    """One link of a chain: a target region, a marked procedure, or a reference."""
    label: str
    path: str
    span: Span


@dataclass(frozen=True)
class DeviceFact:
    key: str
    name: str
    kind: str
    device_type: str                # any, host, nohost or none
    explicit: bool                  # written by the user (a list or a begin/end region)
    chain: tuple[Step, ...] = ()    # implied: from a target region or marked procedure to this


@dataclass(frozen=True)
class DeviceRow:
    """One line of `omp-lsp --device-map`."""
    name: str
    key: str
    kind: str
    device_type: str
    explicit: bool
    path: str
    span: Span
    line: int                       # 1-based
    chain: tuple[Step, ...]
    defined_in: tuple[str, ...] = ()   # several files of one program define it: which one links is not known


def _propagates(edge: Edge, target_kind: str) -> bool:
    """Whether the edge can carry device code to its target (the source's state aside)."""
    if edge.host or not edge.target:
        return False
    if edge.kind in (DECLARES, INIT):
        return True
    return target_kind == PROCEDURE_ENTITY and edge.kind in (CALL, USE)


class DeviceGraph:
    """The workspace's call and reference graph with the propagated device types."""

    def __init__(self, mode: str = SPEC, after_edit: AfterEdit | None = None) -> None:
        """`after_edit`: how a file's graph is made from its previous one (the incremental
        layer's, for a graph kept across edits); without it, each file's graph is built afresh."""
        if mode not in MODES:
            raise ValueError(f"unknown propagation mode '{mode}' (known: {', '.join(MODES)})")
        self.mode = mode
        self.after_edit = after_edit
        self.files: dict[str, FileGraph] = {}
        self.entities: dict[str, Entity] = {}
        self.roots: dict[str, tuple[str, Root]] = {}           # root key -> (path, root)
        self._contexts: dict[str, FileFacts] = {}            # path -> the context last read (kept, not its
                                                               # id: a new context may reuse a freed one's id)
        self._raw: dict[str, FileGraph] = {}                    # path -> the file's own graph (call_graph)
        self._facts: dict[str, LinkFacts] = {}                  # path -> what it gives the partition
        self.programs = Programs()                             # the files partitioned into programs
        self._partitioned = True                               # `programs` is that of `_facts`
        self._in_build: Callable[[str], bool] | None = None
        self._pending: dict[str, None] = {}                     # files read, not yet installed
        # path -> (raw, scope, unit, headers, graph)
        self._scoped_cache: dict[str, tuple[FileGraph, str, tuple[str, ...], tuple[FileGraph | None, ...], FileGraph]] = {}
        self._names_cache: dict[str, tuple[FileGraph, str, dict[str, list[str]]]] = {}  # path -> (raw, scope, name -> keys)
        self._resolved: dict[str, list[Edge]] = {}              # path -> edges with targets resolved
        self._pairs: dict[str, Counter[tuple[str, str, str]]] = {}   # path -> propagating (source, target, tag)
        self.succ: dict[str, Counter[str]] = {}                 # WRITTEN and THROUGH pairs (the spec's graph)
        self.pred: dict[str, Counter[str]] = {}
        self.through: dict[str, Counter[str]] = {}              # THROUGH pairs only (not flang's)
        self.base_calls: dict[str, Counter[str]] = {}           # BASE pairs (flang's only)
        self.dist: dict[str, int] = {}
        self.parent: dict[str, str | None] = {}
        self.children: dict[str, set[str]] = {}
        self._waiting: dict[str, set[str]] = {}                 # candidate key -> paths with such edges
        # path -> first reference per pair, and (base key, selector) when it calls a variant through its base
        self._sites: dict[str, dict[tuple[str, str], tuple[Span, tuple[str, str] | None]]] = {}
        self._flang: dict[str, str] | None = None
        self.updates = 0                                       # how many entities the last update re-derived
        self.generation = 0                                    # counts the updates that changed more than
                                                               # positions (what hints and chains show)
        self.epoch = 0                                         # counts every change of the graph's state
        self._touched: dict[int, frozenset[str] | None] = {}    # epoch -> the keys its change may have
                                                               # changed the facts of (None: any)

    # -- input --------------------------------------------------------------------------------
    def sync(self, files: Mapping[str, FileFacts | FileGraph], in_build: Callable[[str], bool] | None = None) -> None:
        """Bring the graph to these files: new or changed ones are read, gone ones removed. A file
        is its context, or its graph made before (`FileGraph.detached`, its link facts read with
        it: `programs.link_facts`) when its context is not kept. `in_build`: whether a file is one
        the compile database lists (it decides which of several definitions a use links to; see
        programs.partition)."""
        first = not self.files and bool(files)
        if in_build is not self._in_build:
            self._in_build = in_build
            self._partitioned = False
        for path in [p for p in self._raw if p not in files]:
            self._take(path, None)
        for path, file in files.items():
            if isinstance(file, FileGraph):
                if self._raw.get(path) is not file:
                    self._contexts.pop(path, None)
                    self._read(path, file, cached_link_facts(file))
            elif self._contexts.get(path) is not file or path not in self._raw:
                self._take(path, file)
        self._install(propagate=not first)
        if first:
            # an empty graph: every file read, then propagated once (not once per file)
            self.rebuild()

    def update(self, path: str, ctx: FileFacts | None) -> None:
        """Replace one file's part of the graph (None: the file is gone) and re-propagate."""
        self._take(path, ctx)
        self._install()

    def _take(self, path: str, ctx: FileFacts | None) -> None:
        """Read one file's graph and link facts; `_install` puts it in the graph."""
        before, old = self._contexts.get(path), self._raw.get(path)
        previous = (before, old) if before is not None and old is not None else None
        raw = file_graph(ctx, path, previous, self.after_edit) if ctx is not None else None
        if ctx is not None and raw is not None:
            self._contexts[path] = ctx
            same = old is not None and old.declared is raw.declared and old.edges is raw.edges \
                and before is not None and before.configuration is ctx.configuration
            self._read(path, raw, self._facts[path] if same and path in self._facts else link_facts(raw, ctx))
            return
        self._contexts.pop(path, None)
        self._raw.pop(path, None)
        self._scoped_cache.pop(path, None)   # (their graphs hold the file's model)
        self._names_cache.pop(path, None)
        if self._facts.pop(path, None) is not None:
            self._partitioned = False
        self._pending[path] = None
        # files that read this one's declarations through their translation unit
        self._pending.update((p, None) for p in self.programs.readers(path))

    def _read(self, path: str, raw: FileGraph, facts: LinkFacts) -> None:
        """Take one file's graph and link facts (`_install` puts them in the graph)."""
        self._raw[path] = raw
        if self._facts.get(path) != facts:
            self._facts[path] = facts
            # (a changed use inside the file's program changes no other file's program)
            again = relinked(self.programs, path, facts) if self._partitioned else None
            if again is not None:
                self.programs = again
            else:
                self._partitioned = False
        self._pending[path] = None
        self._pending.update((p, None) for p in self.programs.readers(path))

    def _install(self, propagate: bool = True) -> None:
        """Put the files read since the last time in the graph, each under its program's scope
        (every file whose scope or translation unit changed, when the programs did)."""
        if not self._partitioned:
            before = self.programs
            self.programs = partition(self._facts, self._in_build)
            self._partitioned = True
            self._pending.update((p, None) for p in self._facts
                                 if before.keys.get(p) != self.programs.keys.get(p)
                                 or before.visible(p) != self.programs.visible(p))
        pending, self._pending = self._pending, {}
        self.updates = 0
        for path in pending:
            raw = self._raw.get(path)
            new = self._scoped(path, raw) if raw is not None else None
            if new is not None and new is self.files.get(path):
                continue   # the same facts, handed on with the analysis (directive_edit): nothing moved
            if new is None and path not in self.files:
                continue
            self.replace(path, new, propagate)

    def _scoped(self, path: str, raw: FileGraph) -> FileGraph:
        """The file's graph with its entities' names in its program's scope and its uses of
        names its translation unit's headers declare resolved to those (the same graph when
        neither applies)."""
        scope = self.programs.keys.get(path, "")
        unit = self.programs.visible(path)
        if not scope and not unit:
            return raw
        headers = tuple(self._raw.get(h) for h in unit)
        kept = self._scoped_cache.get(path)
        same = kept is not None and kept[1] == scope and kept[2] == unit and all(a is b for a, b in zip(kept[3], headers))
        if kept is not None and same and kept[0] is raw:
            return kept[4]
        names = [self._declared_names(h) for h in unit]
        found = scoped_graph(raw, scope, names, (kept[0], kept[4]) if kept is not None and same else None)
        self._scoped_cache[path] = (raw, scope, unit, headers, found)
        return found

    def _declared_names(self, path: str) -> dict[str, list[str]]:
        """name -> the keys (in the file's scope) of what a header declares under that name."""
        raw = self._raw.get(path)
        if raw is None:
            return {}
        kept = self._names_cache.get(path)
        scope = self.programs.keys.get(path, "")
        if kept is not None and kept[0] is raw and kept[1] == scope:
            return kept[2]
        out: dict[str, list[str]] = {}
        for d in raw.declared:
            if d.kind == PROCEDURE_ENTITY or d.kind == VARIABLE_ENTITY:
                out.setdefault(d.symbol.name, []).append(qualify(d.key, path, scope))
        self._names_cache[path] = (raw, scope, out)
        return out

    def replace(self, path: str, new: FileGraph | None, propagate: bool = True) -> None:
        old = self.files.get(path)
        if old is not None and new is not None and self._remark(path, old, new, propagate):
            return
        if old is not None and new is not None and old.signature() == new.signature():
            self.files[path] = new       # only positions moved: swap the spans, keep the state
            if old.declared is not new.declared or old.marks is not new.marks or old.roots is not new.roots:
                self._reindex(path, old, new)   # (the same lists: an edit in one body, nothing to point at)
            self._resolved[path] = self._resolve_edges(new)
            self.updates = 0
            self._touch(None)   # (spans moved)
            return
        self.generation += 1
        self._touch(None)
        # Only marks and roots that differ between the old and new graph are re-derived.
        changed_marks = _marks(old) ^ _marks(new)
        changed = {key for key, _ in changed_marks} | ({r.key for r in old.roots} if old else set()) ^ \
            ({r.key for r in new.roots} if new else set())
        gone: set[str] = set()
        born: set[str] = set()
        if old is not None:
            gone = self._remove_entities(path, old)
            for r in old.roots:
                self.roots.pop(r.key, None)
            del self.files[path]
        if new is not None:
            self.files[path] = new
            born = self._add_entities(path, new)
            for r in new.roots:
                self.roots[r.key] = (path, r)
        changed |= gone - born
        # Unresolved references in other files may name what appeared or vanished here.
        appeared = gone ^ born
        dirty = {path} | {p for k in appeared for p in self._waiting.get(k, ())}
        removed: list[tuple[str, str]] = []
        added: list[tuple[str, str]] = []
        for p in dirty:
            before: Counter[tuple[str, str, str]] = self._pairs.get(p, Counter())
            graph = self.files.get(p)
            self._resolved[p] = self._resolve_edges(graph) if graph is not None else []
            after = self._pair_counts(self._resolved[p]) if graph is not None else Counter()
            if graph is None:
                self._pairs.pop(p, None)
                self._resolved.pop(p, None)
                self._sites.pop(p, None)
            else:
                self._pairs[p] = after
            for pair, n in (before - after).items():
                if pair[2] != BASE:
                    removed.append(pair[:2])
                self._unlink(pair, n)
            for pair, n in (after - before).items():
                if pair[2] != BASE:
                    added.append(pair[:2])
                self._link(pair, n)
        if propagate:
            self._repropagate(removed, added, changed)
        self._flang = None

    def _remark(self, path: str, old: FileGraph, new: FileGraph, propagate: bool) -> bool:
        """A file whose declare target marks alone changed (its declarations, roots and
        references are the same lists: call_graph's marks-only rebuild): swap the marks and
        re-derive what they changed. False when an entity would appear or vanish (the general
        path then)."""
        if old.declared is not new.declared or old.roots is not new.roots or old.edges is not new.edges:
            return False
        by_key, before = _marks_by_key(new), _marks_by_key(old)
        # only the entities whose marks from this file differ (the others keep what they derived)
        keys = {key for key in before.keys() | by_key.keys() if before.get(key) != by_key.get(key)}
        for key in keys:
            e = self.entities.get(key)
            if e is None or (not e.declarations and key not in by_key
                             and all(p == path for p, _ in e.marks)):
                return False
        self.generation += 1
        self.files[path] = new
        for key in keys:
            e = self.entities[key]
            e.marks = [(p, m) for p, m in e.marks if p != path] + [(path, m) for m in by_key.get(key, ())]
            e.changed()
        # (the keys whose facts differ as _marks sees them: of the keys whose lists differ)
        changed = {key for key in keys if _mark_facts(before.get(key, ())) != _mark_facts(by_key.get(key, ()))}
        touched = self._repropagate([], [], changed) if propagate else None
        self._touch(touched | keys if touched is not None else None)
        self._flang = None
        return True

    def references_by_target(self, paths: Iterable[str]) -> dict[str, list[tuple[str, Edge]]]:
        """The resolved references of these files grouped by target key, in file order; kept
        while each file's resolved references are the same list (a marks-only change keeps them)."""
        lists = [(path, self.edges(path)) for path in paths]   # held: no list's id is reused
        kept: tuple[list[tuple[str, list[Edge]]], dict[str, list[tuple[str, Edge]]]] | None = \
            self.__dict__.get("_by_target")
        if kept is not None and len(kept[0]) == len(lists) \
                and all(p == q and a is b for (p, a), (q, b) in zip(kept[0], lists)):
            return kept[1]
        index: dict[str, list[tuple[str, Edge]]] = {}
        for path, edges in lists:
            for edge in edges:
                index.setdefault(edge.target, []).append((path, edge))
        self.__dict__["_by_target"] = (lists, index)
        return index

    def _reindex(self, path: str, old: FileGraph, new: FileGraph) -> None:
        """Same signature: point entities and roots at the new declarations and marks."""
        for key in {d.key for d in old.declared} | {m.key for m in old.marks}:
            e = self.entities.get(key)
            if e is not None:
                e.declarations = [(p, d) for p, d in e.declarations if p != path]
                e.marks = [(p, m) for p, m in e.marks if p != path]
                e.changed()
        for d in new.declared:
            self.entities[d.key].declarations.append((path, d))
        for m in new.marks:
            self.entities[m.key].marks.append((path, m))
        for r in new.roots:
            self.roots[r.key] = (path, r)

    def _add_entities(self, path: str, graph: FileGraph) -> set[str]:
        """Add the file's declarations and marks; the keys of the entities this created."""
        born: set[str] = set()
        for key, what, item in [*((d.key, 0, d) for d in graph.declared), *((m.key, 1, m) for m in graph.marks)]:
            e = self.entities.get(key)
            if e is None:
                e = self.entities[key] = Entity(key)
                born.add(key)
            (e.declarations if what == 0 else e.marks).append((path, item))  # type: ignore[arg-type]
            e.changed()
        return born

    def _remove_entities(self, path: str, graph: FileGraph) -> set[str]:
        """Remove the file's declarations and marks; the keys of the entities left with none."""
        gone: set[str] = set()
        for key in {d.key for d in graph.declared} | {m.key for m in graph.marks}:
            e = self.entities.get(key)
            if e is None:
                continue
            e.declarations = [(p, d) for p, d in e.declarations if p != path]
            e.marks = [(p, m) for p, m in e.marks if p != path]
            e.changed()
            if not e.declarations and not e.marks:
                del self.entities[key]
                gone.add(key)
        return gone

    def _resolve_edges(self, graph: FileGraph) -> list[Edge]:
        self._sites.pop(graph.path, None)
        out = []
        for e in graph.edges:
            if not e.target:
                target = next((c for c in e.candidates if c in self.entities), "")
                for c in e.candidates:
                    self._waiting.setdefault(c, set()).add(graph.path)
                if not target:
                    continue
                e = Edge(e.source, target, e.span, e.kind, e.host, pointer=e.pointer, device_target=e.device_target,
                         variants=e.variants)
            out.append(e)
        return out

    def _pair_counts(self, edges: list[Edge]) -> Counter[tuple[str, str, str]]:
        out: Counter[tuple[str, str, str]] = Counter()
        for e in edges:
            # (a variant that replaces the call on every device is among e.variants too)
            self._count(out, e, e.target, BASE if e.device_target else WRITTEN)
            for key, _ in e.variants:
                self._count(out, e, key, THROUGH)
        return out

    def _count(self, out: Counter[tuple[str, str, str]], e: Edge, key: str, tag: str) -> None:
        target = self.entities.get(key)
        if target is not None and _propagates(e, target.kind):
            out[(e.source, key, tag)] += 1

    def _tables(self, tag: str) -> list[tuple[dict[str, Counter[str]], bool]]:
        """The adjacency tables a pair of this tag counts in: (table, indexed by target)."""
        if tag == BASE:
            return [(self.base_calls, False)]
        tables = [(self.succ, False), (self.pred, True)]
        return [*tables, (self.through, False)] if tag == THROUGH else tables

    def _link(self, pair: tuple[str, str, str], n: int) -> None:
        u, v, tag = pair
        for table, backwards in self._tables(tag):
            a, b = (v, u) if backwards else (u, v)
            table.setdefault(a, Counter())[b] += n

    def _unlink(self, pair: tuple[str, str, str], n: int) -> None:
        u, v, tag = pair
        for table, backwards in self._tables(tag):
            a, b = (v, u) if backwards else (u, v)
            c = table.get(a)
            if c is None:
                continue
            c[b] -= n
            if c[b] <= 0:
                del c[b]
            if not c:
                del table[a]

    def written_callees(self, key: str) -> Iterator[str]:
        """What the unit references as written (flang's view: no declare variant replaces a call)."""
        through: dict[str, int] = self.through.get(key, {})
        yield from (v for v, n in self.succ.get(key, {}).items() if n > through.get(v, 0))
        yield from self.base_calls.get(key, ())

    # -- propagation ----------------------------------------------------------------------------
    def _source(self, key: str) -> bool:
        """Device code by itself: a target region, or an entity marked any or nohost."""
        if key.startswith(ROOT_PREFIX):
            return key in self.roots
        e = self.entities.get(key)
        return e is not None and e.explicit_type in ("any", "nohost")

    def _spreads(self, key: str) -> bool:
        """Whether device code here makes what it references device code (a link-only variable's
        initializer is not device code)."""
        e = self.entities.get(key)
        return e is None or not e.link_only

    def _reachable(self, key: str) -> bool:
        """Implicit marks reach only what the user did not mark (explicit marks decide)."""
        e = self.entities.get(key)
        return e is not None and not e.marks and e.kind != PROGRAM_ENTITY

    def _set(self, key: str, d: int, parent: str | None) -> None:
        old = self.parent.get(key)
        if old is not None:
            self.children.get(old, set()).discard(key)
        self.dist[key] = d
        self.parent[key] = parent
        if parent is not None:
            self.children.setdefault(parent, set()).add(key)

    def _clear(self, key: str) -> None:
        old = self.parent.pop(key, None)
        if old is not None:
            self.children.get(old, set()).discard(key)
        self.dist.pop(key, None)

    def _repropagate(self, removed: list[tuple[str, str]], added: list[tuple[str, str]],
                     changed: set[str]) -> set[str]:
        """Re-derive what `removed` and `added` pairs and the `changed` entities and roots may
        have changed; returns the keys whose device facts (type, chain) may differ now."""
        # 1. what lost its reason: targets of removed tree edges, changed marks and roots, and below
        invalid = set(changed)
        for u, v in removed:
            if self.parent.get(v) == u and not self.pred.get(v, Counter()).get(u):
                invalid.add(v)
        subtree: set[str] = set()
        stack = [k for k in invalid if k in self.dist or k in changed]
        while stack:
            k = stack.pop()
            if k in subtree:
                continue
            subtree.add(k)
            stack.extend(self.children.get(k, ()))
        for k in subtree:
            self._clear(k)
        # 2. re-seed: sources, then the best remaining predecessor of each cleared entity
        heap: list[tuple[int, str, str]] = []
        for k in subtree | changed:
            if self._source(k):
                heapq.heappush(heap, (0, k, ""))
            elif self._reachable(k):
                for u in self.pred.get(k, ()):
                    du = self.dist.get(u)
                    if du is not None and self._spreads(u):
                        heapq.heappush(heap, (du + 1, k, u))
        for u, v in added:
            du = self.dist.get(u)
            if du is not None and self._spreads(u) and self._reachable(v):
                heapq.heappush(heap, (du + 1, v, u))
        self.updates = len(subtree)
        reset: set[str] = set()
        self._search(heap, reset)
        return subtree | changed | reset

    def _search(self, heap: list[tuple[int, str, str]], reset: set[str] | None = None) -> None:
        """Continue the search from `heap`; `reset`: collects the keys given a distance."""
        dist = self.dist
        while heap:
            d, k, parent = heapq.heappop(heap)
            known = dist.get(k)
            if known is not None and known <= d:
                continue
            self._set(k, d, parent or None)
            if reset is not None:
                reset.add(k)
            if not self._spreads(k):
                continue
            for v in self.succ.get(k, ()):
                dv = dist.get(v)
                if (dv is None or dv > d + 1) and self._reachable(v):
                    heapq.heappush(heap, (d + 1, v, k))

    def rebuild(self) -> None:
        """Propagate from scratch (what `update` maintains incrementally)."""
        self.dist.clear()
        self.parent.clear()
        self.children.clear()
        heap = [(0, k, "") for k in [*self.roots, *self.entities] if self._source(k)]
        heapq.heapify(heap)
        self._search(heap)
        self._touch(None)
        self._flang = None

    def _touch(self, keys: set[str] | None) -> None:
        """Record a change of the graph's state: the entities and roots whose facts (marks, device
        type, chain) it may have changed, None when it may have changed any (or moved spans)."""
        self.epoch += 1
        self._touched[self.epoch] = frozenset(keys) if keys is not None else None
        self._touched.pop(self.epoch - _TOUCH_LOG, None)

    def touched_since(self, epoch: int) -> frozenset[str] | None:
        """The keys whose facts may have changed since `epoch` (None: any may have): what lets a
        cross-file rule keep its findings about the others (rules.device_consistency)."""
        out: set[str] = set()
        for at in range(epoch + 1, self.epoch + 1):
            keys = self._touched.get(at)
            if keys is None:
                return None
            out |= keys
        return frozenset(out)

    # -- facts ----------------------------------------------------------------------------------
    def device_code(self, key: str) -> bool:
        """Whether code in this unit (or region) runs on a device."""
        if key.startswith(ROOT_PREFIX):
            return key in self.roots
        e = self.entities.get(key)
        if e is None:
            return False
        explicit = e.explicit_type
        if explicit is not None:
            return explicit != "host" and not e.link_only
        return key in self.dist

    def device_type(self, key: str) -> str:
        """The effective device type in the graph's mode (the spec's, or what flang generates)."""
        e = self.entities.get(key)
        if e is None:
            return NONE
        if self.mode == FLANG and e.kind == PROCEDURE_ENTITY:
            return self.flang_types().get(key, NONE)
        explicit = e.explicit_type
        if explicit is not None:
            return explicit
        return "any" if key in self.dist else NONE

    def fact(self, key: str) -> DeviceFact | None:
        e = self.entities.get(key)
        if e is None:
            return None
        explicit = bool(e.marks)
        device_type = self.device_type(key)
        # (flang's mode: a variant the spec reaches through its base is no device code for flang)
        return DeviceFact(key, e.name, e.kind, device_type, explicit,
                          () if explicit or device_type == NONE else tuple(self.chain(key)))

    def chain(self, key: str) -> list[Step]:
        """The shortest chain that made `key` device code: its source first, `key` last."""
        path: list[str] = []
        k: str | None = key
        while k is not None and k in self.dist and len(path) < 10_000:
            path.append(k)
            k = self.parent.get(k)
        path.reverse()
        steps: list[Step] = []
        for i, k in enumerate(path):
            if i == 0:
                steps.append(self.origin(k))
                continue
            site = self._site(path[i - 1], k)
            e = self.entities.get(k)
            name = e.name if e is not None else k
            if site is not None and site[2] is not None:
                base = self.entities.get(site[2][0])
                name = (f"{name} (called through the base function {base.name if base is not None else site[2][0]}, "
                        f"declare variant match({site[2][1]}))")
            steps.append(Step(name, site[0], site[1]) if site else Step(name, "", (0, 0)))
        return steps

    def origin(self, key: str) -> Step:
        """The first step of a chain: the target region, or the marked entity, it starts from."""
        if key.startswith(ROOT_PREFIX):
            path, root = self.roots[key]
            where = f"target region in {root.owner_name}" if root.owner_name else "target region"
            return Step(where, path, root.span)
        e = self.entities[key]
        path, mark = e.marks[0]
        return Step(f"declare target {e.name}", path, mark.span)

    def site(self, source: str, target: str) -> tuple[str, Span] | None:
        """The first reference from `source` to `target` (path, span), in file order."""
        found = self._site(source, target)
        return (found[0], found[1]) if found is not None else None

    def _site(self, source: str, target: str) -> tuple[str, Span, tuple[str, str] | None] | None:
        """The first reference from `source` to `target` (path, span, and (base key, selector)
        when it is a call of a declare variant's base that reaches `target` as its variant)."""
        paths = [self.roots[source][0]] if source in self.roots else \
            [p for p, _ in self.entities[source].declarations] if source in self.entities else list(self.files)
        for p in dict.fromkeys(paths):
            index = self._sites.get(p)
            if index is None:
                index = self._sites[p] = {}
                for e in self._resolved.get(p, ()):
                    if e.host:
                        continue
                    if not e.device_target:
                        index.setdefault((e.source, e.target), (e.span, None))
                    for key, text in e.variants:
                        index.setdefault((e.source, key), (e.span, (e.target, text)))
            found = index.get((source, target))
            if found is not None:
                return p, *found
        return None

    def edges(self, path: str) -> list[Edge]:
        """The file's references with targets resolved across the workspace."""
        return self._resolved.get(path, [])

    def flang_types(self) -> dict[str, str]:
        """What flang's MarkDeclareTarget pass gives each procedure it marks (checked against
        flang 22's device FIR in tests/test_flang_mode_agreement.py): a procedure referenced in
        a target region gets nohost; one referenced from a marked procedure gets that
        procedure's type (host included); types that meet join to any, explicit ones too (a
        device_type(host) procedure called from device code becomes any). Plain host code marks
        nothing. Variables keep the spec's answer."""
        if self._flang is not None:
            return self._flang
        types: dict[str, str] = {}
        todo: list[str] = []

        def reach(key: str, kind: str) -> None:
            e = self.entities.get(key)
            if e is None or e.kind != PROCEDURE_ENTITY:
                return
            old = types.get(key)
            new = kind if old is None or old == kind else "any"
            if new != old:
                types[key] = new
                todo.append(key)

        for key, e in self.entities.items():
            if e.kind == PROCEDURE_ENTITY and e.explicit_type is not None:
                reach(key, e.explicit_type)
        for root in self.roots:
            for callee in self.written_callees(root):
                reach(callee, "nohost")
        while todo:
            key = todo.pop()
            for callee in self.written_callees(key):   # every unit's references, device code or not
                reach(callee, types[key])
        self._flang = types
        return types

    def _raw_key(self, key: str, path: str) -> str:
        """An entity key without its program's scope (call_graph.qualify)."""
        scope = self.programs.keys.get(path, "")
        return key[:-len(scope) - 1] if scope and key.endswith("@" + scope) else key

    def rows(self) -> list[DeviceRow]:
        # (name, defining file) -> the files that define a name a use could not choose between
        ambiguous: dict[tuple[str, str], set[str]] = {}
        for names in self.programs.ambiguous.values():
            for name, files in names.items():
                for f in files:
                    ambiguous.setdefault((name, f), set()).update(files)
        out = []
        for key, e in self.entities.items():
            if e.kind == PROGRAM_ENTITY:
                continue
            home = e.home
            if home is None:
                continue
            path, decl = home
            graph = self.files.get(path)
            line = graph.line(decl.symbol.name_span[0]) if graph is not None else 0
            fact = self.fact(key)
            assert fact is not None
            homes = sorted({p for p, _ in e.definitions})
            if len(homes) <= 1:   # or several programs' files define it, each could be the one a use links to
                homes = sorted(ambiguous.get((self._raw_key(key, path), path), ()))
            out.append(DeviceRow(e.name, key, e.kind, fact.device_type, fact.explicit, path,
                                 decl.symbol.name_span, line, fact.chain, tuple(homes) if len(homes) > 1 else ()))
        out.sort(key=lambda r: (r.path, r.span[0], r.name))
        return out

    def entities_in(self, path: str) -> Iterator[tuple[Entity, Declared]]:
        """(entity, declaration) for each declaration in the file."""
        graph = self.files.get(path)
        if graph is None:
            return
        for d in graph.declared:
            e = self.entities.get(d.key)
            if e is not None:
                yield e, d


def _marks_by_key(graph: FileGraph) -> dict[str, list[MarkFact]]:
    """The graph's mark facts by key (kept with it: a marks-only change asks the old graph's too,
    made as the new one's at the change before)."""
    def made() -> dict[str, list[MarkFact]]:
        out: dict[str, list[MarkFact]] = {}
        for m in graph.marks:
            out.setdefault(m.key, []).append(m)
        return out
    return kept_with(graph, "_marks_by_key", graph.marks, made)


def _mark_facts(marks: Iterable[MarkFact]) -> set[tuple[str, bool, bool, str]]:
    return {(m.device_type, m.link, m.indirect, m.how) for m in marks}


def _marks(graph: FileGraph | None) -> set[tuple[str, tuple[str, bool, bool, str]]]:
    if graph is None:
        return set()
    return {(m.key, (m.device_type, m.link, m.indirect, m.how)) for m in graph.marks}


def build(contexts: Mapping[str, FileFacts], mode: str = SPEC) -> DeviceGraph:
    graph = DeviceGraph(mode)
    graph.sync(contexts)
    return graph


def describe_chain(steps: Iterable[Step]) -> str:
    """`target region in main → scale → this`: the text of a chain."""
    return " → ".join(s.label for s in steps)


__all__ = ["FLANG", "MODES", "NONE", "SPEC", "DeviceFact", "DeviceGraph", "DeviceRow", "Entity", "Step", "build",
           "describe_chain"]
