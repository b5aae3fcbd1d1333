"""Programs: which files of a workspace are linked together.

A folder often holds many programs (a test suite, a benchmark collection, build variants with
the same names), and a use links to a definition only inside the program that holds both. The
workspace is partitioned from what each file defines and needs (the entities of its call graph,
Fortran modules), its entry point (C/C++ `main`, a Fortran `program`) and its translation unit:

- a file's use of a name links to a file that defines it: with a compile database, among the
  files it lists; never one entry point to another (two `main`s are two programs), nor a file
  to an entry point's file unless that is the only one of its folder; not to a file that belongs
  to another program (one in a folder, or below a folder, whose entry points are not the
  user's); of those, the nearest by folder, and only when it is the only one that near (several
  equally near are ambiguous: nothing is linked);
- files linked directly or through others form one program; a header (a file another one
  includes) belongs to the program of the files that include it, or to none of theirs when they
  are in several.

Each file gets a scope: "" when the workspace is one program (nothing changes), else a name of
its program, which qualifies the names of its entities (`propagation.DeviceGraph`), so that
entities of different programs never meet.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, cast

from ..syntax.groups import joined
from ..syntax.records import dataclass, field, replace
from .call_graph import PROGRAM_ENTITY, ROOT_PREFIX, FileGraph

if TYPE_CHECKING:
    from collections.abc import Set
    from typing import Protocol

    from ..model.facts import ModelFacts
    from ..units import Configuration

    class FileFacts(ModelFacts, Protocol):
        """What this pass reads of an analysed file (context.FileContext provides it; the pass
        does not import the context, which builds the passes)."""
        @property
        def configuration(self) -> Configuration | None: ...
    from ..syntax.compile_commands import CompileDatabase

# Names every program defines, which link nothing (each program has its own).
_UNLINKED = frozenset({"main", "c++:main"})


@dataclass(frozen=True)
class LinkFacts:
    """What one file contributes to the partition."""
    entry: bool                        # defines main or a Fortran main program
    defines: frozenset[str]            # names of the entities it defines (external linkage)
    needs: frozenset[str]              # names it uses and does not define (resolved or candidates)
    includes: tuple[str, ...] = ()     # the project files its build includes (absolute paths)
    includer: str = ""                 # a header: the file in whose translation unit it is read


@dataclass
class Programs:
    scopes: dict[str, str] = field(default_factory=dict)            # path -> scope ("" : one program)
    units: dict[str, tuple[str, ...]] = field(default_factory=dict)  # path -> the workspace files it includes
    links: dict[str, frozenset[str]] = field(default_factory=dict)   # path -> the files its uses link to
    ambiguous: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)  # path -> name -> files
    includers: dict[str, str] = field(default_factory=dict)          # header -> the includer it is read in
    keys: dict[str, str] = field(default_factory=dict)               # path -> what its entity keys are qualified with

    def visible(self, path: str) -> tuple[str, ...]:
        """The other files whose declarations a file's names may mean: what it includes, then (a
        header) its includer and what that includes, as in the includer's translation unit."""
        includer = self.includers.get(path)
        if includer is None:
            return self.units.get(path, ())
        return tuple(dict.fromkeys(p for p in (*self.units.get(path, ()), includer, *self.units.get(includer, ()))
                                   if p != path))

    def readers(self, path: str) -> frozenset[str]:
        """The files whose `visible` files include `path`."""
        index = self.__dict__.get("_readers")
        if index is None:
            index = {}
            for p in {*self.units, *self.includers}:
                for seen in self.visible(p):
                    index.setdefault(seen, set()).add(p)
            self.__dict__["_readers"] = index
        return frozenset(index.get(path, ()))

    def same_unit(self, a: str, b: str) -> bool:
        """Whether one translation unit holds both files (a file and what it includes)."""
        if a == b:
            return True
        roots = self.__dict__.get("_roots")
        if roots is None:
            roots = {}
            included = {h for unit in self.units.values() for h in unit}
            for root, unit in self.units.items():
                if root not in included:
                    for f in (root, *unit):
                        roots.setdefault(f, set()).add(root)
            self.__dict__["_roots"] = roots
        return bool(roots.get(a, set()) & roots.get(b, set()))

    def same(self, a: str, b: str) -> bool:
        """Whether two files are in one program (a header shared by programs is in each)."""
        sa, sb = self.scopes.get(a, ""), self.scopes.get(b, "")
        return sa == sb or sa.startswith("header:") or sb.startswith("header:")


def cached_link_facts(graph: FileGraph) -> LinkFacts:
    """The link facts `link_facts` read for this graph (kept with it, also when detached)."""
    found: LinkFacts | None = graph.__dict__.get("_link_facts")
    if found is None:
        raise ValueError(f"the graph of {graph.path} has no link facts: read them (link_facts) before detaching it")
    return found


def link_facts(graph: FileGraph, ctx: FileFacts) -> LinkFacts:
    """What a file's graph says about its links (common blocks are every unit's own: no link)."""
    found: LinkFacts | None = graph.__dict__.get("_link_facts")
    if found is not None:
        return found
    local = (graph.path + ":", ROOT_PREFIX)
    defines = {d.key for d in graph.declared if d.definition and d.kind != PROGRAM_ENTITY
               and not d.key.startswith(local) and not d.key.startswith("fortran:/")}
    # what it declares and does not define (a prototype, an extern, an interface body) it expects
    # from another file, as it does what it references
    needs = {d.key for d in graph.declared if not d.definition and not d.key.startswith(local)
             and not d.key.startswith("fortran:/")} - defines
    for e in graph.edges:
        for key in (e.target,) if e.target else e.candidates:
            if not key.startswith(local) and key not in defines and not key.startswith("fortran:/"):
                needs.add(key)
    if graph.fortran:   # a module's user links to the module's file, whatever it references there
        scopes = list(ctx.model.root.walk())
        mine = {f"fortran-module:{scope.name.lower()}" for scope in scopes if scope.kind == "module"}
        defines |= mine
        needs |= {f"fortran-module:{m}" for scope in scopes for m in scope.uses} - mine
    configuration = ctx.configuration
    includer = configuration.includer if configuration is not None else None
    found = LinkFacts(graph.has_main, frozenset(defines), frozenset(needs),
                      configuration.translation_unit if configuration is not None else (),
                      includer.path if includer is not None else "")
    graph.__dict__["_link_facts"] = found
    return found


_IN_BUILD: dict[int, tuple[object, Callable[[str], bool]]] = {}


def in_build_of(database: CompileDatabase | None) -> Callable[[str], bool] | None:
    """Whether a file is one the database lists (the same function for the same database)."""
    if database is None:
        return None
    kept = _IN_BUILD.get(id(database))
    if kept is None or kept[0] is not database:
        def listed(path: str, database: CompileDatabase = database) -> bool:
            return database.entry_for(path) is not None
        if len(_IN_BUILD) > 16:
            _IN_BUILD.clear()
        kept = _IN_BUILD[id(database)] = (database, listed)
    return kept[1]


def _key(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


def _distance(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return len(a) + len(b) - 2 * common


def partition(facts: dict[str, LinkFacts], in_build: Callable[[str], bool] | None = None) -> Programs:
    """The programs of a workspace (see the module docstring). `in_build`: whether a file is one
    the compile database lists (None: there is none)."""
    paths = list(facts)
    by_key = {_key(p): p for p in paths}
    units = {p: tuple(dict.fromkeys(by_key[k] for k in map(_key, facts[p].includes) if k in by_key and by_key[k] != p))
             for p in paths}
    included = {h for p in paths for h in units[p]}
    linkable = [p for p in paths if p not in included]
    folders = {p: tuple(os.path.dirname(_key(p)).split(os.sep)) for p in paths}
    owners = _owners([p for p in linkable if facts[p].entry], linkable, folders)
    listed: dict[str, list[str]] = {}
    for p in linkable:
        for name in facts[p].defines:
            if name not in _UNLINKED:
                listed.setdefault(name, []).append(p)
    definers = {name: tuple(files) for name, files in listed.items()}
    includers = {p: by_key[_key(facts[p].includer)] for p in paths
                 if facts[p].includer and by_key.get(_key(facts[p].includer), p) != p}
    out = Programs(units=units, includers=includers)
    index = _Index(dict(facts), definers, owners, folders, in_build, frozenset(included))
    out.__dict__["_index"] = index
    for p in linkable:
        links, ambiguous = index.links_of(p, units[p])
        if ambiguous:
            out.ambiguous[p] = ambiguous
        out.links[p] = links
    groups = joined(linkable, ((p, found) for p in linkable for found in out.links[p]))
    single = len(groups) <= 1
    for members in groups:
        name = "" if single else min(members)
        for p in members:
            out.scopes[p] = name
    for h in sorted(included):
        holders = {out.scopes[p] for p in linkable if h in units[p]}
        out.scopes[h] = holders.pop() if len(holders) == 1 else ("" if single else f"header:{h}")
    out.keys = _qualifiers(out.scopes, facts)
    return out


def _qualifiers(scopes: dict[str, str], facts: dict[str, LinkFacts]) -> dict[str, str]:
    """file -> what its entity keys are qualified with: its program's scope, or nothing when no
    other program defines or uses a name its program does (its keys then meet no other's)."""
    names: dict[str, set[str]] = {}
    for p, scope in scopes.items():
        names.setdefault(scope, set()).update(facts[p].defines, facts[p].needs)
    if len(names) <= 1:
        return dict.fromkeys(scopes, "")
    programs_of: dict[str, int] = {}
    for held in names.values():
        for name in held:
            programs_of[name] = programs_of.get(name, 0) + 1
    shared = {scope for scope, held in names.items() if any(programs_of[n] > 1 for n in held)}
    return {p: scope if scope in shared else "" for p, scope in scopes.items()}


@dataclass(frozen=True)
class _Index:
    """What a partition decided links from (kept to decide one file's links again)."""
    facts: dict[str, LinkFacts]
    definers: dict[str, tuple[str, ...]]
    owners: dict[str, frozenset[str]]
    folders: dict[str, tuple[str, ...]]
    in_build: Callable[[str], bool] | None
    included: frozenset[str]

    def links_of(self, p: str, unit: tuple[str, ...]) -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
        """The files `p`'s uses link to, and the names several files could satisfy."""
        facts = self.facts
        own = {n for f in (p, *unit) for n in facts[f].defines}
        needs = {n for f in (p, *unit) for n in facts[f].needs} - own - _UNLINKED
        # the names defined by the same files have the same candidates: decided once
        by_definers: dict[tuple[str, ...], list[str]] = {}
        for name in needs:
            files = self.definers.get(name)
            if files is not None:
                by_definers.setdefault(files, []).append(name)
        links: set[str] = set()
        ambiguous: dict[str, tuple[str, ...]] = {}
        for files, names in by_definers.items():
            found = _candidates(p, files, facts, self.owners, self.folders, self.in_build)
            if len(found) == 1:
                links.add(found[0])
            elif len(found) > 1:
                ambiguous.update((name, tuple(found)) for name in names)
        return frozenset(links), dict(sorted(ambiguous.items()))


def relinked(programs: Programs, path: str, facts: LinkFacts) -> Programs | None:
    """`programs` after a change of `path`'s link facts that can only add links inside its own
    program (it defines, includes and is entered from what it was; it is no header; what it
    uses now links to no file of another program, and to every file it linked to before);
    None when the workspace must be partitioned again."""
    index: _Index | None = programs.__dict__.get("_index")
    before = index.facts.get(path) if index is not None else None
    if index is None or before is None or path in index.included or path in programs.includers \
            or (before.entry, before.defines, before.includes, before.includer) \
            != (facts.entry, facts.defines, facts.includes, facts.includer):
        return None
    index = replace(index, facts={**index.facts, path: facts})
    links, ambiguous = index.links_of(path, programs.units.get(path, ()))
    scope = programs.scopes.get(path, "")
    if not links >= programs.links.get(path, frozenset()) or any(programs.scopes.get(f, "") != scope for f in links) \
            or _qualifiers(programs.scopes, index.facts) != programs.keys:
        return None   # (or a name it uses now is another program's too: their keys must be kept apart)
    out = replace(programs, links={**programs.links, path: links},
                  ambiguous={**{p: a for p, a in programs.ambiguous.items() if p != path}, **({path: ambiguous} if ambiguous else {})})
    out.__dict__["_index"] = index
    return out


def _owners(entries: list[str], files: Iterable[str], folders: dict[str, tuple[str, ...]]) -> dict[str, frozenset[str]]:
    """file -> the entry points of the nearest folder at or above it that holds any (its program's
    candidates); empty when no folder above it holds one."""
    by_folder: dict[tuple[str, ...], set[str]] = {}
    for e in entries:
        by_folder.setdefault(folders[e], set()).add(e)
    out: dict[str, frozenset[str]] = {}
    for f in files:
        folder = folders[f]
        found: frozenset[str] = frozenset()
        for n in range(len(folder), 0, -1):
            held = by_folder.get(folder[:n])
            if held:
                found = frozenset(held)
                break
        out[f] = found
    return out


def _candidates(p: str, definers: Iterable[str], facts: dict[str, LinkFacts], owners: dict[str, frozenset[str]],
                folders: dict[str, tuple[str, ...]], in_build: Callable[[str], bool] | None) -> list[str]:
    """The files a use in `p` may link to: the nearest allowed definers (see the docstring)."""
    found = [d for d in definers if d != p]
    if in_build is not None and in_build(p):
        found = [d for d in found if in_build(d)]
    if facts[p].entry:
        found = [d for d in found if not facts[d].entry]
    else:   # an entry point's file is the program of a file only where it is the only one
        found = [d for d in found if not facts[d].entry or owners.get(p) == cast("Set[str]", {d})]
    mine = owners.get(p, frozenset()) | ({p} if facts[p].entry else set())
    found = [d for d in found if not owners.get(d) or owners[d] & mine or (not mine and not facts[d].entry)]
    if not found:
        return []
    distance = {d: _distance(folders[p], folders[d]) for d in found}
    nearest = min(distance.values())
    return sorted(d for d in found if distance[d] == nearest)


__all__ = ["LinkFacts", "Programs", "cached_link_facts", "in_build_of", "link_facts", "partition", "relinked"]
