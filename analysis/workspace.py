"""Many files analysed together: per-file analysis first, then the cross-file rules.

The workspace is every file given to `omp-lsp --check`, or in the server every file of the
workspace folders. Cross-file rules (`rules.workspace_rule`) read every file's context.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Protocol, TypeVar

from .builds import Build, analyze_files, enclosing_includes
from .directives.nodes import Directive
from .directives.structure import Structure, analyse_structure
from .file_analysis import FileAnalysis, Succession, finish, parsed_directives
from .rules import (
    RuleRun,
    WorkspaceRuleTrace,
    active_workspace_rules,
    group_by_file,
    run_workspace_rule,
    summarize,
)
from .rules.registry import Rule, WorkspaceRuleFunc
from .semantics.call_graph import FileGraph
from .semantics.context import WORKSPACE_GRAPH, FileContext, FileSummary, WorkspaceContext
from .semantics.propagation import DeviceGraph, DeviceRow
from .syntax.compile_commands import CompileDatabase
from .syntax.diagnostics import Finding
from .syntax.document import Document, LineIndex
from .syntax.options import Options
from .syntax.reads import STRUCTURES, renamed
from .syntax.records import dataclass, replace


def workspace_context(analyses: dict[str, FileAnalysis], options: Options | None = None,
                      graph: DeviceGraph | None = None, database: CompileDatabase | None = None) -> WorkspaceContext:
    """The workspace of these analyses (the summarised ones read through their summaries)."""
    return WorkspaceContext({path: a.context for path, a in analyses.items() if a.context is not None},
                            options, graph, database,
                            {path: a.summary for path, a in analyses.items() if a.summary is not None})


def cross_file(analyses: dict[str, FileAnalysis], options: Options, graph: DeviceGraph | None = None,
               database: CompileDatabase | None = None) -> dict[str, FileAnalysis]:
    """The same analyses with the cross-file findings added (new records; inputs untouched).
    `graph`: a device graph kept from the previous call (brought up to date incrementally);
    `database`: the program's compile_commands.json (where headers are found)."""
    return cross_file_again(analyses, options, graph, database, trace=False)[0]


@dataclass
class CrossFileTrace:
    """What the cross-file rules read and found, kept for the next call (`cross_file_again`)."""
    options: Options
    database: CompileDatabase | None
    graph: DeviceGraph | None
    facts: dict[str, FileGraph]           # path -> the file's facts in the device graph (identity)
    contexts: dict[str, FileContext]
    rules: dict[Rule[WorkspaceRuleFunc], WorkspaceRuleTrace]
    traced: bool = True                   # the rules' reads were recorded (else nothing can be kept)
    generation: int = 0                   # the device graph's (DeviceGraph.generation) then


def cross_file_again(analyses: dict[str, FileAnalysis], options: Options, graph: DeviceGraph | None = None,
                     database: CompileDatabase | None = None,
                     previous: CrossFileTrace | None = None,
                     trace: bool = True) -> tuple[dict[str, FileAnalysis], CrossFileTrace]:
    """`cross_file`, keeping the findings of the rules that cannot have changed since `previous`:
    each file's context is the same or the successor of an edit of one directive (directive_edit),
    and the rule read neither the changed contents of that directive nor a structure of its file
    built again, nor the device graph if its facts changed (`_carried`); or the successor of an
    edit on one line of a function body (procedure_edit) that left the device graph as it was but
    for positions, and the rule read nothing else (its findings are moved with the edit).
    `trace`: record what the rules read (without it, the next call cannot keep anything)."""
    ws = workspace_context(analyses, options, graph, database)
    ws.kept_per_target = trace and graph is not None
    edited = _edited_since(previous, ws, analyses, options, graph, database)
    traces: dict[Rule[WorkspaceRuleFunc], WorkspaceRuleTrace] = {}
    for r in active_workspace_rules(ws, options.disabled):
        kept = previous.rules.get(r) if previous is not None and edited is not None else None
        traces[r] = run_workspace_rule(r, ws, trace) if kept is None or kept.error is not None \
            else _carried(kept, edited) or run_workspace_rule(r, ws, trace)
    out = _with_runs(analyses, group_by_file(ws, list(traces.values())), options)
    facts = dict(graph.files) if graph is not None else {}
    return out, CrossFileTrace(options, database, graph, facts, dict(ws.files), traces, trace,
                               graph.generation if graph is not None else 0)


@dataclass
class _Edits:
    """What changed since the last cross-file run: one directive in each of some files."""
    files: list[tuple[Succession, FileContext]]   # the edit, and the file's context now
    graph_changed: bool                           # the device graph holds other facts


def _edited_since(previous: CrossFileTrace | None, ws: WorkspaceContext, analyses: dict[str, FileAnalysis],
                  options: Options, graph: DeviceGraph | None, database: CompileDatabase | None) -> _Edits | None:
    """The directives edited since `previous`, or None when more than that may have changed."""
    if previous is None or not previous.traced or previous.options != options or previous.database is not database \
            or graph is None or previous.graph is not graph or previous.contexts.keys() != ws.files.keys() \
            or previous.facts.keys() != graph.files.keys():
        return None
    edits = _Edits([], False)
    for path, ctx in ws.files.items():
        before = previous.contexts[path]
        same_facts = graph.files[path] is previous.facts[path]
        if ctx is before:
            if not same_facts:
                return None
            continue
        trace = analyses[path].trace
        succession = trace.succession if trace is not None else None
        if succession is None or succession.before is not before:
            return None
        edits.files.append((succession, ctx))
        # (after an edit in a function body that only moved positions, the graph is that file's
        # successor with nothing propagation sees changed: the generation stays)
        edits.graph_changed |= not same_facts and (succession.moved is None or graph.generation != previous.generation)
    return edits


def _carried(kept: WorkspaceRuleTrace, edits: _Edits | None) -> WorkspaceRuleTrace | None:
    """The rule's last findings when it read nothing that the edits changed (None: run it again):
    not the device graph if it changed, not the changed contents of an edited directive, not a
    structure built again for it (in its own file: reads of structures are recorded per file)."""
    assert edits is not None
    reads = kept.reads
    if edits.graph_changed and WORKSPACE_GRAPH in reads.get(STRUCTURES, ()):
        return None
    findings = kept.findings
    for succession, ctx in edits.files:
        old, new = succession.old, succession.new
        changed, file_key = succession.changed, id(succession.before.document)
        if succession.moved is not None:
            # an edit in a function body: the rule read the device graph at most (in which only
            # positions moved), nothing of the file itself, nor any file's text
            if reads.get(file_key) or not reads.get(STRUCTURES, set()) <= {WORKSPACE_GRAPH}:
                return None
            try:
                findings = [(path, succession.moved.finding(f, path, ctx.path)) for path, f in findings]
            except ValueError:   # a position in the replaced text
                return None
            reads = renamed(reads, file_key, id(ctx.document))
            continue
        if not changed.isdisjoint(reads.get(old, ())) or not changed.isdisjoint(reads.get(-old, ())) \
                or not succession.rebuilt.isdisjoint(reads.get(file_key, ())):
            return None
        reads = renamed(renamed(reads, old, new), file_key, id(ctx.document))
    if reads is kept.reads and findings is kept.findings:
        return kept
    return replace(kept, reads=reads, findings=findings)


@dataclass
class FileResult:
    """One file's analysis as plain data (`result_of`): its findings, its line index, and what
    the cross-file rules read of it, so that the analysis itself can be dropped (or made in
    another process) before the cross-file rules run (`cross_file_results`)."""
    lines: LineIndex
    findings: list[Finding]
    internal_errors: list[str]
    summary: FileSummary | None       # None: the file has no context (the cross-file rules skip it)
    unsummarised: bool = False        # summarising it failed: the rules read its context again
    reached: tuple[str, ...] = ()     # the files its translation unit read (Configuration.entries)


def result_of(path: str, analysis: FileAnalysis, fortran: bool) -> FileResult:
    """`fortran`: whether the workspace has Fortran files (`rules.summarize`)."""
    summary, failed = None, False
    if analysis.context is not None:
        try:
            summary = summarize(analysis.context, path, fortran)
        except Exception:   # (the cross-file rules, reading the context, report it)
            failed = True
    configuration = analysis.configuration
    return FileResult(analysis.document.lines, analysis.findings, analysis.internal_errors, summary, failed,
                      tuple(configuration.entries) if configuration is not None else ())


def summarized(path: str, analysis: FileAnalysis, fortran: bool = True) -> FileAnalysis:
    """The analysis of a file no editor shows, as a workspace index keeps it: its text, findings,
    configuration and summary (`rules.summarize`, and where it includes other files); its program
    model, tree, directives and block structure dropped. The cross-file rules and the device graph
    read the summary; whatever asks the context for more makes it again. Unchanged when it cannot
    be summarised."""
    ctx = analysis.context
    if ctx is None or analysis.summary is not None:
        return analysis
    try:
        summary = summarize(ctx, path, fortran)
        summary.enclosing = enclosing_includes(ctx)
    except Exception:   # (kept whole: the rules read its context, and report what fails there)
        return analysis
    ctx.release()
    ctx.document.forget_tree()
    again = object.__new__(_ReadAgain)
    again.__dict__.update(document=ctx.document, version=ctx.version, path=ctx.path, macros=ctx.macros,
                          configuration=ctx.configuration)
    again.__post_init__()
    return replace(analysis, directives=[], structure=Structure(), context=again, summary=summary)


class _ReadAgain(FileContext):
    """A summarised file's context: its directives and block structure are read again from its
    text when asked for (a rule that reads the file itself: rare once the summary answers), and
    dropped with the rest when it is released."""

    @property
    def directives(self) -> list[Directive]:
        found: list[Directive] | None = self.__dict__.get("_directives")
        if found is None:
            found = self.__dict__["_directives"] = parsed_directives(self.document, self.version, self.macros)[0]
        return found

    @directives.setter
    def directives(self, value: list[Directive]) -> None:
        self.__dict__["_directives"] = value

    @property
    def structure(self) -> Structure:
        found: Structure | None = self.__dict__.get("_structure")
        if found is None:
            found = self.__dict__["_structure"] = analyse_structure(self.document, self.directives)
        return found

    @structure.setter
    def structure(self, value: Structure) -> None:
        self.__dict__["_structure"] = value


_NO_LINES = LineIndex(b"")


def without_lines(result: FileResult, lines: LineIndex) -> FileResult:
    """The result without its line index when that is an index of `lines`'s text (which the
    process it is sent to holds already: `with_lines` puts it back), to send less data."""
    if result.lines.source != lines.source:
        return result
    if result.summary is not None:
        graph = replace(result.summary.graph, line_of=None)
        graph.__dict__.update((k, v) for k, v in result.summary.graph.__dict__.items() if k.startswith("_"))
        result = replace(result, summary=replace(result.summary, graph=graph))
    return replace(result, lines=_NO_LINES)


def with_lines(result: FileResult, lines: LineIndex) -> FileResult:
    """A result sent without its line index (`without_lines`), with `lines` again."""
    if result.lines.source:
        return result
    if result.summary is not None:
        result.summary.graph.line_of = lines.line_of
    return replace(result, lines=lines)


class LoadedContexts(Mapping[str, FileContext]):
    """The files' contexts, each made again when first asked for (`load` returns the contexts
    of the file and of the files analysed with it) and then kept."""

    def __init__(self, paths: list[str], load: Callable[[str], dict[str, FileContext]]) -> None:
        self._paths = dict.fromkeys(paths)
        self._load = load
        self._loaded: dict[str, FileContext] = {}

    def __getitem__(self, path: str) -> FileContext:
        if path not in self._paths:
            raise KeyError(path)
        if path not in self._loaded:
            self._loaded.update((p, c) for p, c in self._load(path).items() if p in self._paths)
        return self._loaded[path]

    def __contains__(self, path: object) -> bool:
        return path in self._paths   # (without making it)

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


def cross_file_results(results: dict[str, FileResult], options: Options, database: CompileDatabase | None,
                       load: Callable[[str], dict[str, FileContext]]) -> dict[str, FileResult]:
    """`cross_file` over files analysed before (`result_of`): the rules read the summaries, and
    make a file's context again (`load`) only where they ask for one. The same findings as
    `cross_file` over the analyses."""
    paths = [p for p, r in results.items() if r.summary is not None or r.unsummarised]
    summaries = {p: r.summary for p, r in results.items() if r.summary is not None}
    ws = WorkspaceContext(LoadedContexts(paths, load), options, None, database, summaries,
                          {p: results[p].lines.source for p in paths})
    return _with_runs(results, group_by_file(ws, [run_workspace_rule(r, ws)
                                                  for r in active_workspace_rules(ws, options.disabled)]), options)


class _Found(Protocol):
    findings: list[Finding]
    internal_errors: list[str]


Analysed = TypeVar("Analysed", bound=_Found)   # FileAnalysis or FileResult


def _with_runs(files: dict[str, Analysed], runs: dict[str, RuleRun], options: Options) -> dict[str, Analysed]:
    """Each file's record with the cross-file rules' findings and errors added (new records)."""
    out: dict[str, Analysed] = {}
    for path, record in files.items():
        run = runs.get(path)
        if run is None or (not run.findings and not run.internal_errors):
            out[path] = record
            continue
        findings: list[Finding] = finish([*record.findings, *run.findings], options)
        errors: list[str] = [*record.internal_errors, *run.internal_errors]
        out[path] = replace(record, findings=findings, internal_errors=errors)
    return out


def analyze_workspace(documents: dict[str, Document], options: Options | None = None,
                      build: Build | None = None) -> dict[str, FileAnalysis]:
    """Analyse each document (keyed by path) as its build compiles it (`builds.analyze_files`),
    then run the cross-file rules over all of them."""
    options = options or Options()
    analyses = analyze_files(documents, options, build)
    return cross_file(analyses, options, None, build.database if build is not None else None)


def device_map(documents: dict[str, Document], options: Options | None = None,
               build: Build | None = None) -> list[DeviceRow]:
    """Every procedure and static variable of the documents with its effective device type."""
    options = options or Options()
    analyses = analyze_files(documents, options, build)
    return workspace_context(analyses, options, None, build.database if build is not None else None).device_graph.rows()


__all__ = ["CrossFileTrace", "FileResult", "LoadedContexts", "analyze_workspace", "cross_file", "cross_file_again",
           "cross_file_results", "device_map", "result_of", "summarized", "with_lines", "without_lines",
           "workspace_context"]
