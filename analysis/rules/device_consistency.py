"""OMP401–OMP407: where the propagated device types conflict (`shared/spec/propagation.md`).

Every rule reads the workspace's device graph (`propagation.py`): which units are device
code, and for each reference the entity it names. Findings carry the chain that made the
unit device code as related information, one location per step.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from ..semantics.call_graph import CALL, PROCEDURE_ENTITY, ROOT_PREFIX, USE, VARIABLE_ENTITY, Declared, Edge
from ..semantics.context import FileContext, WorkspaceContext
from ..semantics.propagation import SPEC, DeviceGraph, Entity, Step, describe_chain
from ..syntax.device_limits import RECURSION, VARIADIC, WHY, library_routine, unsupported
from ..syntax.diagnostics import Finding, Fix, Related
from ..syntax.document import Language
from ..syntax.records import dataclass, kept_with
from ..syntax.regular_files import read_regular_file
from .registry import file_fact, workspace_rule

if TYPE_CHECKING:
    from ..model.file_model import Symbol

T = TypeVar("T")
_DECLARE_TARGET = re.compile(rb"declare\s+target", re.IGNORECASE)


# -- shared ---------------------------------------------------------------------------------------
def _on_device(graph: DeviceGraph, edge: Edge) -> bool:
    """The reference runs on a device: in a target region, or in a unit that is device code."""
    return not edge.host and graph.device_code(edge.source)


def _on_host(graph: DeviceGraph, edge: Edge) -> bool:
    """The reference runs on the host: outside target regions in a unit with a host version."""
    if edge.host:
        return True
    if edge.source.startswith(ROOT_PREFIX):
        return False
    return graph.device_type(edge.source) != "nohost"


def _unit_name(graph: DeviceGraph, key: str) -> str:
    if key.startswith(ROOT_PREFIX):
        return graph.origin(key).label
    e = graph.entities.get(key)
    return e.name if e is not None else key


def _chain_to(graph: DeviceGraph, path: str, edge: Edge) -> list[Step]:
    """The chain to the unit holding the reference, then the reference itself."""
    if edge.source.startswith(ROOT_PREFIX):
        steps = [graph.origin(edge.source)]
    else:
        steps = graph.chain(edge.source)
        if not steps:
            e = graph.entities.get(edge.source)
            if e is not None and e.marks:
                steps = [graph.origin(edge.source)]
    target = graph.entities.get(edge.target)
    return [*steps, Step(target.name if target is not None else edge.target, path, edge.span)]


def _related(steps: list[Step], path: str) -> list[Related]:
    out = []
    for i, s in enumerate(steps[:-1]):
        what = f"device code starts here ({s.label})" if i == 0 else f"'{s.label}' is referenced here"
        out.append(Related(s.span, what, None if s.path == path else s.path))
    return out


def _overloaded(ws: WorkspaceContext, e: Entity) -> bool:
    """C++ overloads share a key: a rule about one of them cannot tell which one is meant."""
    params = {_parameter_types(ws, p, d) for p, d in e.declarations if d.kind == PROCEDURE_ENTITY}
    return len(params) > 1


def _parameter_types(ws: WorkspaceContext, path: str, d: Declared) -> tuple[str, ...]:
    symbol: Symbol | None = d.symbol
    if not d.params_read:   # (a summary's copy: read from the file's model)
        symbol = next((s for s in ws.files[path].model.named(d.symbol.key) if s.name_span == d.symbol.name_span), None)
    return tuple(t for t, _ in symbol.params) if symbol is not None else ()


@file_fact
def variant_bases(ctx: FileContext) -> frozenset[str]:
    """Names (lower case, unqualified) of the procedures the file's declare variant directives
    give a variant."""
    out: set[str] = set()
    if ctx.directives_named("begin declare variant"):
        out.add("*")  # a begin/end region: every function in it is a variant of its namesake
    if not ctx.directives_named("declare variant"):
        return frozenset(out)
    if ctx.document.language.is_fortran:
        out.update(v.base.key for v in ctx.fortran_variants if v.base is not None)
    else:
        out.update(rec.base.name.lower() for rec in ctx.variants.directives if rec.base is not None)
    return frozenset(out)


def _variant_bases(ws: WorkspaceContext) -> set[str]:
    """Names (lower case, unqualified) of procedures that are the base of a declare variant:
    a variant may replace them on the other side, which these rules do not model."""
    cached: set[str] | None = ws.__dict__.get("_variant_bases")
    if cached is not None:
        return cached
    out: set[str] = set()
    for path in ws.paths:
        out |= ws.fact(path, variant_bases)
    ws.__dict__["_variant_bases"] = out
    return out


def _replaced(ws: WorkspaceContext, name: str) -> bool:
    """Whether a declare variant may replace the procedure of this name (`_variant_bases`)."""
    bases = _variant_bases(ws)
    return name.rsplit("::", 1)[-1].lower() in bases or "*" in bases


# What a rule's findings about one target asked beyond the graph's facts of the target and of
# the units referencing it: (question, its arguments after the workspace, the answer).
Asked = list[tuple[Callable[..., object], tuple[object, ...], object]]
FindingsOf = Callable[[WorkspaceContext, Entity, list[tuple[str, Edge]], "_Ask"], Iterator[tuple[str, Finding]]]


class _Ask:
    """Asks a question of the workspace for a rule's findings about one target, and keeps the
    answer: the findings are kept only while every answer stays the same (`_per_target`)."""

    def __init__(self, ws: WorkspaceContext) -> None:
        self.ws = ws
        self.asked: Asked = []

    def __call__(self, question: Callable[..., T], *args: object) -> T:
        answer = question(self.ws, *args)
        self.asked.append((question, args, answer))
        return answer


@dataclass
class _Kept:
    """A rule's last run: the graph's epoch then, what all its findings depend on, and the
    findings about each target that has some or asked something (the others had none)."""
    epoch: int
    index: dict[str, list[tuple[str, Edge]]]
    programs: object
    token: tuple[object, ...]
    found: dict[str, tuple[list[tuple[str, Finding]], Asked]]


def _per_target(ws: WorkspaceContext, code: str, want: Callable[[Entity], bool], findings_of: FindingsOf,
                token: tuple[object, ...] = ()) -> Iterator[tuple[str, Finding]]:
    """The rule's findings, one target entity at a time (those `want` accepts), about the
    references to it (grouped by target once for all the rules). The server runs the rules again
    whenever the graph changes: a declare target edit changes a few entities' facts, so the
    findings about a target are kept from the rule's last run when the references are the same
    lists, the target and every unit referencing it have the same facts (`DeviceGraph.touched_since`),
    the workspace-wide `token` is equal, and every question they asked has the same answer."""
    graph = ws.device_graph
    index = graph.references_by_target(ws.paths)
    keep = ws.kept_per_target
    memos: dict[str, _Kept] = graph.__dict__.setdefault("_rule_memos", {}) if keep else {}
    kept = memos.get(code)
    dirty = _dirty(ws, index, kept.epoch) if kept is not None and kept.index is index and kept.programs is graph.programs \
        and kept.token == token and graph.mode == SPEC else None
    found: dict[str, tuple[list[tuple[str, Finding]], Asked]] = {}
    entities = graph.entities
    keys: Iterable[str] = index
    if dirty is not None:   # (the others had no finding and asked nothing): in the index's order
        assert kept is not None
        order = _positions(graph, index)
        keys = sorted({*(k for k in kept.found if k not in dirty), *(k for k in dirty if k in order)},
                      key=order.__getitem__)
    for key in keys:
        refs = index[key]
        if dirty is not None and key not in dirty:
            assert kept is not None
            before = kept.found[key]
            if all(question(ws, *args) == answer for question, args, answer in before[1]):
                found[key] = before
                yield from before[0]
                continue
        target = entities.get(key)
        if target is None or not want(target):
            continue
        ask = _Ask(ws)
        findings = list(findings_of(ws, target, refs, ask))
        if keep and (findings or ask.asked):
            found[key] = (findings, ask.asked)
        yield from findings
    if keep:
        memos[code] = _Kept(graph.epoch, index, graph.programs, token, found)


def _dirty(ws: WorkspaceContext, index: dict[str, list[tuple[str, Edge]]],
           epoch: int) -> frozenset[str] | set[str] | None:
    """The targets whose findings may have changed since the graph's `epoch`: the entities whose
    facts may have, and the targets of every reference from them (None: any)."""
    cache: dict[int, frozenset[str] | set[str] | None] = ws.__dict__.setdefault("_dirty", {})
    if epoch in cache:
        return cache[epoch]
    graph = ws.device_graph
    touched = graph.touched_since(epoch)
    out: frozenset[str] | set[str] | None = touched
    if touched:
        by_source = _targets_by_source(graph, index)
        out = set(touched)
        for key in touched:
            out.update(by_source.get(key, ()))
    cache[epoch] = out
    return out


def _positions(graph: DeviceGraph, index: dict[str, list[tuple[str, Edge]]]) -> dict[str, int]:
    """target key -> its place in the index."""
    return kept_with(graph, "_positions", index, lambda: {key: i for i, key in enumerate(index)})


def _targets_by_source(graph: DeviceGraph, index: dict[str, list[tuple[str, Edge]]]) -> dict[str, set[str]]:
    """source key -> the keys its resolved references name."""
    def made() -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for key, refs in index.items():
            for _, edge in refs:
                out.setdefault(edge.source, set()).add(key)
        return out
    return kept_with(graph, "_targets_by_source", index, made)


def _mark_related(e: Entity, path: str, what: str) -> list[Related]:
    return [Related(m.span, what, None if p == path else p) for p, m in e.marks[:1]]


# -- OMP401 / OMP402 ------------------------------------------------------------------------------
@workspace_rule("OMP401")
def host_procedure_on_device(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    return _per_target(ws, "OMP401", lambda e: e.kind == PROCEDURE_ENTITY and e.explicit_type == "host",
                       _host_procedure_on_device)


def _host_procedure_on_device(ws: WorkspaceContext, target: Entity, refs: list[tuple[str, Edge]],
                              ask: _Ask) -> Iterator[tuple[str, Finding]]:
    graph = ws.device_graph
    for path, edge in refs:
        if edge.kind not in (CALL, USE):
            continue
        if not _on_device(graph, edge) or _overloaded(ws, target) or ask(_replaced, target.name):
            continue
        steps = _chain_to(graph, path, edge)
        yield path, Finding(
            "OMP401", f"'{target.name}' is device_type(host) but is referenced from device code "
            f"({describe_chain(steps)}): it has no device version, so the device build fails; "
            "drop device_type(host), or do not call it from device code",
            edge.span, related=[*_related(steps, path), *_mark_related(target, path, "device_type(host) given here")])


@workspace_rule("OMP402")
def nohost_procedure_on_host(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    return _per_target(ws, "OMP402", lambda e: e.kind == PROCEDURE_ENTITY and e.explicit_type == "nohost",
                       _nohost_procedure_on_host)


def _nohost_procedure_on_host(ws: WorkspaceContext, target: Entity, refs: list[tuple[str, Edge]],
                              ask: _Ask) -> Iterator[tuple[str, Finding]]:
    graph = ws.device_graph
    for path, edge in refs:
        if edge.kind not in (CALL, USE):
            continue
        if not _on_host(graph, edge) or _overloaded(ws, target) or ask(_replaced, target.name):
            continue
        where = "a target region with device(ancestor: ...)" if edge.host else f"'{_unit_name(graph, edge.source)}'"
        yield path, Finding(
            "OMP402", f"'{target.name}' is device_type(nohost) but is referenced from host code in {where}: "
            "it has no host version; call it only from target regions and device-only procedures, "
            "or give it a host variant with declare variant", edge.span,
            related=_mark_related(target, path, "device_type(nohost) given here"))


# -- OMP403 -----------------------------------------------------------------------------------------
def _local_device(ws: WorkspaceContext, path: str) -> set[str]:
    """What the file makes device code by itself: its target regions and its marks (its own and
    those of the headers it includes), followed through its own references (implicit marks exist
    only in the defining file)."""
    cache: dict[str, set[str]] = ws.__dict__.setdefault("_local_device", {})
    found = cache.get(path)
    if found is not None:
        return found
    graph = ws.device_graph
    fg = graph.files[path]
    succ: dict[str, list[str]] = {}
    for e in graph.edges(path):
        target = graph.entities.get(e.target)
        if target is not None and not e.host and e.kind in (CALL, USE) and target.kind == PROCEDURE_ENTITY:
            succ.setdefault(e.source, []).append(e.target)
    todo = [r.key for r in fg.roots]
    # its own marks, and those of the files its translation unit reads
    for g in [fg, *(graph.files[h] for h in graph.programs.visible(path) if h in graph.files)]:
        todo += [m.key for m in g.marks if m.device_type != "host" and not m.link]
    found = set(todo)
    while todo:
        for v in succ.get(todo.pop(), ()):
            if v not in found and not graph.entities[v].marks:
                found.add(v)
                todo.append(v)
    cache[path] = found
    return found


def _header_may_mark(ws: WorkspaceContext, path: str, name: str) -> bool:
    """Whether a header of the file's translation unit that the workspace does not hold may hold
    a declare target for `name`: one that cannot be found, or one that spells both (the
    workspace's own headers are analysed: their marks are in the device graph)."""
    headers = _headers(ws, path)
    if headers is None:
        return True       # an unknown header: it may mark anything
    word = re.compile(rb"\b" + re.escape(name.rsplit("::", 1)[-1].encode()) + rb"\b")
    if any(word.search(text) for text in headers):
        return True
    # so may a declare target too large to read (OMP013) that spells it (Fortran: in any case)
    unread = ws.fact(path, unread_declare_targets) if _holds(ws, path) else ()
    return bool(unread) and any(re.search(word.pattern, text, re.IGNORECASE) for text in unread)


def _holds(ws: WorkspaceContext, path: str) -> bool:
    return path in ws.files


@file_fact
def unread_declare_targets(ctx: FileContext) -> tuple[bytes, ...]:
    """The texts of the file's declare target directives too large to read (OMP013)."""
    return tuple(d.raw.body for d in ctx.directives if d.unread and d.name == "declare target")


@file_fact
def translation_unit(ctx: FileContext) -> tuple[str, ...] | None:
    """The headers the file's translation unit reads; None when one of its `#include "..."`
    cannot be found (or the file was read without a build's configuration)."""
    configuration = ctx.configuration
    if configuration is None or configuration.unresolved:
        return None
    return tuple(configuration.translation_unit)


def _headers(ws: WorkspaceContext, path: str) -> list[bytes] | None:
    """The texts of the file's headers outside the workspace that spell `declare target` (read
    once per file and run); None when one of its `#include "..."` cannot be found."""
    cache: dict[str, list[bytes] | None] = ws.__dict__.setdefault("_headers", {})
    if path in cache:
        return cache[path]
    unit = ws.fact(path, translation_unit) if _holds(ws, path) else None
    out: list[bytes] | None = []
    if unit is None:
        out = None
    else:
        assert out is not None   # (the list above)
        held = ws.__dict__.get("_held")
        if held is None:
            held = ws.__dict__["_held"] = {os.path.normcase(os.path.abspath(p)) for p in ws.paths}
        for header in unit:
            if os.path.normcase(os.path.abspath(header)) in held:
                continue
            texts = _read_header(header)
            if texts is None:
                out = None
                break
            out.extend(t for t in texts if _DECLARE_TARGET.search(t))
    cache[path] = out
    return out


_MAX_HEADER_READ = 2_000_000   # the declarations a header holds come first


def _read_header(found: str | None) -> list[bytes] | None:
    if found is None:
        return None
    try:
        return [read_regular_file(found, _MAX_HEADER_READ)[:_MAX_HEADER_READ]]
    except OSError:
        return None


@workspace_rule("OMP403")
def callee_unmarked_in_its_file(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    return _per_target(ws, "OMP403", lambda e: e.kind == PROCEDURE_ENTITY and e.explicit_type != "host"
                       and bool(e.definitions), _callee_unmarked_in_its_file)


def _callee_unmarked_in_its_file(ws: WorkspaceContext, target: Entity, refs: list[tuple[str, Edge]],
                                 ask: _Ask) -> Iterator[tuple[str, Finding]]:
    graph = ws.device_graph
    for path, edge in refs:
        if edge.kind not in (CALL, USE):
            continue
        homes = {p for p, _ in target.definitions}
        if not homes or not _on_device(graph, edge) or any(graph.programs.same_unit(path, p) for p in homes):
            continue   # (defined in the caller's translation unit: a header, a file it includes)
        if len(homes) > 1:
            continue   # defined in several files of the program: which one the build links is not known
        # a mark in another file (a prototype marked in the caller's file) creates no device version
        if any(ask(_locally_device, p, target.key) or ask(_header_may_mark, p, target.name) for p in homes):
            continue
        home, decl = target.definitions[0]
        other = os.path.basename(home)
        steps = _chain_to(graph, path, edge)
        yield path, Finding(
            "OMP403", f"'{target.name}' runs on the device here ({describe_chain(steps)}) but is defined in "
            f"{other} without declare target: implicit declare target only creates a device version in "
            f"the file that defines the procedure, so the device link will fail; mark '{target.name}' "
            f"with declare target in {other}", edge.span,
            related=[Related(decl.symbol.name_span, f"'{target.name}' is defined here without declare target",
                             home), *_related(steps, path)])


def _locally_device(ws: WorkspaceContext, path: str, key: str) -> bool:
    return key in _local_device(ws, path)


# -- OMP404 / OMP406 --------------------------------------------------------------------------------
@file_fact
def threadprivate_keys(ctx: FileContext) -> frozenset[str]:
    """The keys of the variables the file's threadprivate directives name."""
    return frozenset(ctx.model.threadprivate)


@file_fact
def openmp_version(ctx: FileContext) -> int:
    return ctx.version


def _threadprivate(ws: WorkspaceContext, e: Entity) -> bool:
    return any(_holds(ws, p) and d.symbol.key in ws.fact(p, threadprivate_keys) for p, d in e.declarations)


def _threadprivate_entity(ws: WorkspaceContext, key: str) -> bool:
    e = ws.device_graph.entities.get(key)
    return e is not None and _threadprivate(ws, e)


def _version(ws: WorkspaceContext, path: str) -> int:
    return ws.fact(path, openmp_version)


@workspace_rule("OMP404")
def global_not_declare_target(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    return _per_target(ws, "OMP404", lambda e: e.kind == VARIABLE_ENTITY and not e.marks, _global_not_declare_target)


def _global_not_declare_target(ws: WorkspaceContext, target: Entity, refs: list[tuple[str, Edge]],
                               ask: _Ask) -> Iterator[tuple[str, Finding]]:
    graph = ws.device_graph
    reported: set[str] = set()   # the units it was reported in
    for path, edge in refs:
        if edge.kind not in (USE, CALL) or edge.source.startswith(ROOT_PREFIX):
            continue   # (a call through a function pointer reads the pointer variable)
        if not _on_device(graph, edge) or edge.source in reported:
            continue
        decls = [d for _, d in target.declarations]
        if not decls or not all(d.global_scope for d in decls) or any(d.constant for d in decls):
            continue
        if not target.definitions:
            continue  # only `extern` declarations: the defining file, which may mark it, is not here
        if ask(_threadprivate_entity, target.key) or ask(_header_may_mark, path, target.name):
            continue
        if any(ask(_header_may_mark, p, target.name) for p, _ in target.declarations):
            continue
        reported.add(edge.source)
        steps = _chain_to(graph, path, edge)
        home, decl = target.home or (path, decls[0])
        yield path, Finding(
            "OMP404", f"global variable '{target.name}' is used in '{_unit_name(graph, edge.source)}', which runs "
            f"on the device ({describe_chain(steps[:-1])}), but is not declare target: the device has no copy "
            f"of it and the device link fails; add '{target.name}' to a declare target directive "
            f"({'enter' if ask(_version, path) >= 52 else 'to'} or link)",
            edge.span, related=[Related(decl.symbol.name_span, f"'{target.name}' is declared here", None if home == path
                                        else home), *_related(steps, path)],
            fixes=_mark_fix(ws, home, decl.symbol) if home == path else [])  # a fix edits its own file


def _mark_fix(ws: WorkspaceContext, path: str, symbol: Symbol) -> list[Fix]:
    """Insert `declare target(name)` on the line after the variable's declaration."""
    ctx = ws.files.get(path)
    if ctx is None or symbol.scope.kind not in ("file", "namespace", "module"):
        return []
    source = ctx.document.source
    end = source.find(b"\n", symbol.span[1] - 1 if symbol.span[1] > 0 else 0)
    if end < 0:
        end = len(source)
    fortran = ctx.document.language.is_fortran
    if fortran:
        line_start = source.rfind(b"\n", 0, symbol.span[0]) + 1
        indent = re.match(rb"[ \t]*", source[line_start:]).group(0).decode()  # type: ignore[union-attr]
        if ctx.document.language is Language.FORTRAN_FIXED:
            indent = ""  # the sentinel starts in column 1
        text = f"\n{indent}!$omp declare target({symbol.name})"
    else:
        text = f"\n#pragma omp declare target({symbol.name})"
    return [Fix(f"Declare '{symbol.name}' target", (((end, end), text),))]


@workspace_rule("OMP406")
def nohost_variable_on_host(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    return _per_target(ws, "OMP406", lambda e: e.kind == VARIABLE_ENTITY and e.explicit_type == "nohost",
                       _nohost_variable_on_host)


def _nohost_variable_on_host(ws: WorkspaceContext, target: Entity, refs: list[tuple[str, Edge]],
                             ask: _Ask) -> Iterator[tuple[str, Finding]]:
    graph = ws.device_graph
    for path, edge in refs:
        if edge.kind != USE:
            continue
        if not _on_host(graph, edge):
            continue
        where = "a target region with device(ancestor: ...)" if edge.host else f"'{_unit_name(graph, edge.source)}'"
        yield path, Finding(
            "OMP406", f"'{target.name}' is device_type(nohost) but is used in host code in {where}: it has no "
            "host copy; use it only inside target regions and device-only procedures", edge.span,
            related=_mark_related(target, path, "device_type(nohost) given here"))


# -- OMP405 -----------------------------------------------------------------------------------------
# `fp = f;`, `fp[2] = {f, g};`, and the declarator forms `T (*fp)(int) = f;`, `T (*fp[2])(int) = {...};`
_ASSIGN = re.compile(rb"(?<![\w.>])(%s)\s*(?:\[[^\]=;]*\]\s*)?(?:\)\s*\([^;{}=]*\)\s*)?=(?!=)\s*(\{[^;]*\}|[^;]*);")


_POINTS = r"(?<![\w%%])(%s)\s*=>\s*([A-Za-z_]\w*)(\s*\(\s*\))?"
def _assigned(ws: WorkspaceContext, e: Entity) -> list[tuple[str, tuple[int, int], str]] | None:
    """(path, span, procedure key) for every value given to the pointer anywhere in the workspace
    (C/C++ assignments and initializers, Fortran `=>`); None when any value is not a named
    procedure (a parameter, a call, an expression: what it holds is unknown)."""
    graph = ws.device_graph
    name = e.name.rsplit("::", 1)[-1]
    c_pattern = re.compile(_ASSIGN.pattern % re.escape(name.encode()))
    f_pattern = re.compile((_POINTS % re.escape(name)).encode(), re.IGNORECASE)
    out: list[tuple[str, tuple[int, int], str]] = []
    for path in ws.paths:
        fortran = ws.fortran(path)
        source = ws.source(path)
        if fortran:
            lowered: dict[str, bytes] = ws.__dict__.setdefault("_lowered", {})
            if path not in lowered:
                lowered[path] = source.lower()
        if (name.lower() if fortran else name).encode() not in (lowered[path] if fortran else source):
            continue
        ctx = ws.files[path]
        if fortran:
            for m in f_pattern.finditer(source):
                ident = m.group(2).decode().lower()
                if ident == "null" and m.group(3):
                    continue
                key = _fortran_procedure(ws, path, ident, m.start(2))
                if key is None:
                    return None
                out.append((path, (m.start(2), m.end(2)), key))
            continue
        model = ctx.model
        for m in c_pattern.finditer(source):
            value = m.group(2).strip()
            start = m.start(2)
            for word in re.finditer(rb"&?\s*([A-Za-z_]\w*)|[^\s,{}]+", value.strip(b"{}")):
                if word.group(1) is None:
                    return None
                ident = word.group(1).decode()
                if ident in ("NULL", "nullptr", "0"):
                    continue
                offset = start + value.find(word.group(0))
                hits = [s for s in model.visible(ident, offset) if s.kind == "function"]
                if not hits:
                    return None
                key = _key_in(graph, path, hits[0])
                if key is None:
                    return None
                out.append((path, (offset, offset + len(word.group(0))), key))
    return out


def _fortran_procedure(ws: WorkspaceContext, path: str, key: str, offset: int) -> str | None:
    from ..semantics.variants_fortran import lookup
    ctx = ws.files[path]
    proc = lookup(ctx, key, ctx.model.scope_at(offset)).procedure
    return _key_in(ws.device_graph, path, proc) if proc is not None else None


def _key_in(graph: DeviceGraph, path: str, symbol: Symbol) -> str | None:
    """The entity key of a declaration of the file (by place: the graph may hold a copy of it)."""
    fg = graph.files.get(path)
    if fg is None:
        return None
    return next((d.key for d in fg.declared if d.symbol.name_span == symbol.name_span and d.symbol.key == symbol.key),
                None)


@workspace_rule("OMP405")
def indirect_call_without_indirect(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    return _per_target(ws, "OMP405", lambda e: e.kind == VARIABLE_ENTITY, _indirect_call_without_indirect)


def _indirect_call_without_indirect(ws: WorkspaceContext, target: Entity, refs: list[tuple[str, Edge]],
                                    ask: _Ask) -> Iterator[tuple[str, Finding]]:
    graph = ws.device_graph
    for path, edge in refs:
        if not edge.pointer or not _on_device(graph, edge):
            continue
        values = ask(_assigned_to, target.key)
        if not values:
            continue
        for vpath, span, key in values:
            callee = graph.entities.get(key)
            if callee is None or ask(_indirect, key):
                continue
            yield path, Finding(
                "OMP405", f"'{target.name}' is called through a pointer on the device and may hold '{callee.name}', "
                f"which is not declare target with indirect: an indirect call needs the device version's "
                f"address, which only indirect provides; add indirect to the declare target of '{callee.name}'",
                edge.span, related=[Related(span, f"'{target.name}' is given '{callee.name}' here",
                                            None if vpath == path else vpath),
                                    *_related(_chain_to(graph, path, edge), path)])
            break


def _assigned_to(ws: WorkspaceContext, key: str) -> list[tuple[str, tuple[int, int], str]] | None:
    return _assigned(ws, ws.device_graph.entities[key])


def _indirect(ws: WorkspaceContext, key: str) -> bool:
    e = ws.device_graph.entities.get(key)
    return e is None or e.indirect


# -- OMP407 -----------------------------------------------------------------------------------------
def _complete_programs(ws: WorkspaceContext) -> set[str]:
    """The files of programs the workspace holds whole: their entry point is there (a use whose
    definition no file of such a program holds is defined nowhere the build can see)."""
    graph = ws.device_graph
    scopes = graph.programs.scopes
    entries = {scopes.get(p, "") for p, g in graph.files.items() if g.has_main}
    return {p for p in graph.files if scopes.get(p, "") in entries}


def _recursive(graph: DeviceGraph) -> set[tuple[str, str]]:
    """Call edges (source, target) that close a cycle among device procedures."""
    succ: dict[str, set[str]] = {}
    for path in graph.files:
        for e in graph.edges(path):
            if e.kind == CALL and not e.host and not e.source.startswith(ROOT_PREFIX) \
                    and graph.device_code(e.source) and graph.device_code(e.target):
                succ.setdefault(e.source, set()).add(e.target)
    out: set[tuple[str, str]] = set()
    for u, targets in succ.items():
        for v in targets:
            # v reaches u again: u -> v is part of a cycle
            seen, todo = {v}, [v]
            while todo:
                x = todo.pop()
                if x == u:
                    out.add((u, v))
                    break
                for y in succ.get(x, ()):
                    if y not in seen:
                        seen.add(y)
                        todo.append(y)
    return out


@workspace_rule("OMP407")
def unsupported_device_code(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    graph = ws.device_graph
    limits = unsupported(ws.options.device_toolchains if ws.options else ())
    cycles = frozenset(_recursive(graph)) if RECURSION in limits else frozenset()
    complete = frozenset(_complete_programs(ws))

    def findings_of(ws: WorkspaceContext, target: Entity, refs: list[tuple[str, Edge]],
                    ask: _Ask) -> Iterator[tuple[str, Finding]]:
        return _unsupported_device_code(ws, target, refs, ask, limits, cycles, complete)
    return _per_target(ws, "OMP407", lambda e: e.kind == PROCEDURE_ENTITY and (
        bool(limits) or (bool(complete) and not e.definitions and not e.marks)), findings_of,
        (tuple(sorted((k, tuple(v)) for k, v in limits.items())), cycles, complete))


def _unsupported_device_code(ws: WorkspaceContext, target: Entity, refs: list[tuple[str, Edge]], ask: _Ask,
                             limits: dict[str, list[str]], cycles: frozenset[tuple[str, str]],
                             complete: frozenset[str]) -> Iterator[tuple[str, Finding]]:
    graph = ws.device_graph
    reported: set[tuple[str, str]] = set()
    for path, edge in refs:
        if edge.kind != CALL or not _on_device(graph, edge):
            continue
        if (edge.source, edge.target) in cycles:
            names = ", ".join(limits[RECURSION])
            message = (f"recursive call of '{target.name}' in device code: {names} cannot compile "
                       f"{WHY[RECURSION]}; make it iterative")
        elif VARIADIC in limits and target.definitions and any(d.variadic for _, d in target.declarations):
            names = ", ".join(limits[VARIADIC])
            message = (f"'{target.name}' is variadic and called in device code: {names} cannot compile "
                       f"{WHY[VARIADIC]}; give it a fixed parameter list")
        elif path in complete and not target.definitions and not target.marks and not library_routine(target.name) \
                and (path, edge.source) not in reported and not ask(_header_may_mark, path, target.name):
            # (a library's procedure, declared by its header or by the calling file: the host link
            # finds its body in the library, the device link nowhere; said once per calling
            # procedure or target region)
            reported.add((path, edge.source))
            message = (f"'{target.name}' is called in device code but no file of the program defines it: its "
                       "device version cannot exist, so the device link fails; define it in a file of the "
                       "program (or mark it declare target if a device library provides it)")
        else:
            continue
        yield path, Finding("OMP407", message, edge.span, related=_related(_chain_to(graph, path, edge), path))
