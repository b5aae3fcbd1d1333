"""The rule registry: each rule is a function registered under its catalogue code.

A rule reads the analysed file (`FileContext`) and yields findings; it never parses
text and never talks LSP. `run_rules` isolates rules from each other: an exception
inside one becomes an internal error for that rule and file, and the rest still run.
"""
from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import TypeVar, cast

from ..semantics.context import (  # noqa: F401 - what the rules read, for the entry points' use
    WORKSPACE_GRAPH,
    FileContext,
    FileSummary,
    WorkspaceContext,
    _Focused,
    body_reads,
    body_words,
    fact_name,
)
from ..syntax import reads as _reads
from ..syntax.diagnostics import Finding
from ..syntax.reads import Reads
from ..syntax.records import dataclass, field
from .registry import (
    FILE_FACTS,
    REGISTRY,
    WORKSPACE_REGISTRY,
    Rule,
    RuleFunc,
    WorkspaceRuleFunc,
    file_fact,
    rule,
    workspace_rule,
)

T = TypeVar("T")


@dataclass
class RuleTrace:
    """One rule's part of an analysis, kept so that an edit of one directive re-runs only the
    rules that read what changed (see directive_edit)."""
    findings: list[Finding]
    errors: list[str]
    reads: Reads   # what it read (syntax.reads)
    owners: list[int] | None = None   # per-directive rules: the directive index of each finding


@dataclass
class RuleRun:
    findings: list[Finding] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)
    traces: dict[Rule[RuleFunc], RuleTrace] | None = None   # by rule (names repeat: C and Fortran), when asked for


def drain(steps: Generator[object, None, T]) -> T:
    """Run steps (see `rule_steps`) to the end and return their result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return cast(T, done.value)   # the generator's return value: a T


def run_rules(ctx: FileContext, disabled: frozenset[str] = frozenset()) -> RuleRun:
    return drain(rule_steps(ctx, disabled))


def active_rules(ctx: FileContext, disabled: frozenset[str] = frozenset()) -> list[Rule[RuleFunc]]:
    """The per-file rules that run for this file, in order."""
    _load(fortran=ctx.document.language.is_fortran)
    return [r for r in REGISTRY if not all(code in disabled for code in r.codes)]


def rule_steps(ctx: FileContext, disabled: frozenset[str] = frozenset(),
               trace: bool = False) -> Generator[None, None, RuleRun]:
    """`run_rules` one rule at a time: it yields after each rule, so that a caller (the server)
    may do other work in between or stop when the result is no longer wanted. `trace`: keep each
    rule's findings and what it read (`RuleRun.traces`)."""
    out = RuleRun(traces={} if trace else None)
    for r in active_rules(ctx, disabled):
        yield
        done = run_rule(r, ctx, trace)
        out.findings.extend(done.findings)
        out.internal_errors.extend(done.errors)
        if out.traces is not None:
            out.traces[r] = done
    return out


def run_rule(r: Rule[RuleFunc], ctx: FileContext, trace: bool = False) -> RuleTrace:
    """One rule on one file; an exception inside it becomes an internal error (the others still
    run). `trace`: record the directive contents it reads."""
    reads: Reads = {}
    findings: list[Finding] = []
    errors: list[str] = []
    owners: list[int] | None = [] if trace and r.per_directive else None
    previous = _reads.recorded(reads, per_directive=r.per_directive) if trace else None
    ctx.__dict__["_owner"] = None
    try:
        for finding in r.func(ctx):
            if finding.code not in r.codes:
                raise ValueError(f"rule {r.name} reported {finding.code}, which it does not declare")
            findings.append(finding)
            if owners is not None:
                owners.append(ctx.__dict__["_owner"])
    except Exception as err:  # a broken rule must not take the others down
        errors.append(f"internal error in rule {r.name} ({', '.join(r.codes)}): {type(err).__name__}: {err}")
    finally:
        if trace:
            _reads.restore(previous)
    return RuleTrace(findings, errors, reads, owners)


def checked_again(r: Rule[RuleFunc], kept: RuleTrace, context: FileContext, i: int, old_id: int) -> RuleTrace:
    """A rule run again after directive `i` (`old_id`: the id of the one it replaced) or the code
    it applies to changed: a per-directive rule for that directive only (its findings for the
    others kept), any other for the whole file."""
    if not r.per_directive or kept.owners is None or kept.errors or None in kept.owners:
        return run_rule(r, context, True)
    done = run_rule(r, context.focused(i), True)
    if done.errors:
        return run_rule(r, context, True)
    # in the order of the directives, as a run over the file yields them
    owned = sorted([*((o, f) for f, o in zip(kept.findings, kept.owners) if o != i),
                    *((i, f) for f in done.findings)], key=lambda pair: pair[0])
    # (in place: the kept record is the replaced analysis's, which is given up; a record of a
    # rule that reads every directive is large)
    reads = kept.reads
    reads.pop(old_id, None)
    reads.pop(-old_id, None)
    for key, keys in done.reads.items():
        reads[key] = reads[key] | keys if key in reads else keys
    return RuleTrace([f for _, f in owned], [], reads, [o for o, _ in owned])


@dataclass
class WorkspaceRuleTrace:
    """One cross-file rule's findings (with the file each is for), error, and directive reads."""
    findings: list[tuple[str, Finding]]
    error: str | None
    reads: Reads


def run_workspace_rules(ws: WorkspaceContext, disabled: frozenset[str] = frozenset()) -> dict[str, RuleRun]:
    """Cross-file rules; findings are grouped by the file they belong to."""
    return group_by_file(ws, [run_workspace_rule(r, ws) for r in active_workspace_rules(ws, disabled)])


def active_workspace_rules(ws: WorkspaceContext, disabled: frozenset[str] = frozenset()) -> list[Rule[WorkspaceRuleFunc]]:
    _load(fortran=any(ws.fortran(p) for p in ws.paths))
    return [r for r in WORKSPACE_REGISTRY if not all(code in disabled for code in r.codes)]


def run_workspace_rule(r: Rule[WorkspaceRuleFunc], ws: WorkspaceContext, trace: bool = False) -> WorkspaceRuleTrace:
    """One cross-file rule; an exception inside it is an internal error for every file (the others
    still run). `trace`: record the directive contents it reads."""
    reads: Reads = {}
    findings: list[tuple[str, Finding]] = []
    error = None
    previous = _reads.recorded(reads, by_owner=True) if trace else None
    try:
        for path, finding in r.func(ws):
            if finding.code not in r.codes:
                raise ValueError(f"rule {r.name} reported {finding.code}, which it does not declare")
            findings.append((path, finding))
    except Exception as err:
        error = f"internal error in workspace rule {r.name} ({', '.join(r.codes)}): {type(err).__name__}: {err}"
    finally:
        if trace:
            _reads.restore(previous)
    return WorkspaceRuleTrace(findings, error, reads)


def group_by_file(ws: WorkspaceContext, traces: list[WorkspaceRuleTrace]) -> dict[str, RuleRun]:
    out: dict[str, RuleRun] = {path: RuleRun() for path in ws.paths}
    for t in traces:
        for path, finding in t.findings:
            out.setdefault(path, RuleRun()).findings.append(finding)
        if t.error is not None:
            for run in out.values():
                run.internal_errors.append(t.error)
    return out


def summarize(ctx: FileContext, path: str, fortran: bool) -> FileSummary:
    """What the cross-file rules read of the file (see `FileSummary`). `fortran`: whether the
    workspace has Fortran files (whose rules, and their facts, are then loaded)."""
    from ..semantics.call_graph import file_graph
    from ..semantics.programs import link_facts
    _load(fortran)
    graph = file_graph(ctx, path)
    link_facts(graph, ctx)   # (kept with the graph)
    return FileSummary(ctx.document.language.is_fortran, graph.detached(),
                       {fact_name(f): f(ctx) for f in FILE_FACTS})


def _load(fortran: bool = True) -> None:
    """Import the rule modules once (registration happens at import). The Fortran-only modules
    (and the Fortran model they bring) wait for the first Fortran file: a C check never needs them."""
    from . import (  # noqa: F401
        context_selectors,
        declare_target,
        declare_variant,
        device_consistency,
        directive_syntax,
        inactive_code,
        target_clauses,
        target_regions,
        toolchain_limits,
    )
    if fortran:
        from . import declare_target_fortran, declare_variant_fortran  # noqa: F401


def iter_rules() -> Iterator[Rule[RuleFunc] | Rule[WorkspaceRuleFunc]]:
    _load()
    return iter([*REGISTRY, *WORKSPACE_REGISTRY])


__all__ = ["FILE_FACTS", "REGISTRY", "WORKSPACE_GRAPH", "WORKSPACE_REGISTRY", "FileContext", "FileSummary", "Rule",
           "RuleFunc", "RuleRun", "RuleTrace", "WorkspaceContext", "WorkspaceRuleFunc", "WorkspaceRuleTrace", "active_rules",
           "active_workspace_rules", "body_reads", "body_words", "checked_again", "drain", "fact_name", "file_fact",
           "group_by_file", "iter_rules", "rule", "rule_steps", "run_rule", "run_rules", "run_workspace_rule",
           "run_workspace_rules", "summarize", "workspace_rule"]
