"""The rule registry: each rule is a function registered under its catalogue code.

A rule reads the analysed file (`FileContext`) and yields findings; it never parses
text and never talks LSP. `run_rules` isolates rules from each other: an exception
inside one becomes an internal error for that rule and file, and the rest still run.
"""
from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Generic, TypeVar, cast

from ..diagnostics import CATALOGUE, Finding
from ..directives import nodes
from ..directives.nodes import (
    NOT_ONE,
    Directive,
    Reads,
    checking,
    record_structure,
    recording,
)
from ..directives.structure import Structure
from ..records import dataclass, field
from ..syntax import Document, Span

if TYPE_CHECKING:
    from ..c_types import TypeReader
    from ..compile_commands import CompileDatabase
    from ..declare_target import Binding, Mark
    from ..model import FileModel
    from ..options import Options
    from ..propagation import DeviceGraph
    from ..regions import Regions
    from ..units import Configuration
    from ..variants import Variants

T = TypeVar("T")
RuleFunc = Callable[["FileContext"], Iterable[Finding]]
WorkspaceRuleFunc = Callable[["WorkspaceContext"], Iterable[tuple[str, Finding]]]
F = TypeVar("F", bound=Callable[..., Iterable[object]])   # a Rule's function: RuleFunc or WorkspaceRuleFunc


@dataclass
class FileContext:
    document: Document
    directives: list[Directive]
    structure: Structure
    version: int
    path: str = ""
    macros: frozenset[str] = frozenset()   # names of the macros the build defines (not the predefined ones)
    configuration: Configuration | None = None   # the build's configuration (units.configure)

    def __post_init__(self) -> None:
        self._model: FileModel | None = None
        self._binding: Binding | None = None
        self._variants: Variants | None = None

    def give_up(self, key: str) -> object:
        """Take a structure built on demand (`_model`, `_regions` ...) from this context for a
        successor: this context then releases only what is still its own."""
        value = self.__dict__[key]
        if key in ("_model", "_binding", "_variants"):   # set in __post_init__
            self.__dict__[key] = None
        else:
            del self.__dict__[key]
        return value

    def release(self) -> None:
        """Drop what was built on demand, breaking its reference cycles (the model's scopes and
        symbols, readers that hold this context): an analysis no longer wanted is then freed at
        once. The context must not be read afterwards."""
        if self._model is not None:
            self._model.release()
        self._model = self._binding = self._variants = None
        for key in [k for k in self.__dict__ if k.startswith("_") and k not in ("_model", "_binding", "_variants")]:
            del self.__dict__[key]

    @property
    def holds_model(self) -> bool:
        """Whether this context holds a built program model (not built, released, or handed on
        to a successor by directive_edit: it does not)."""
        return self._model is not None

    @property
    def model(self) -> FileModel:
        """The program model, built on first use (files whose rules never ask pay nothing)."""
        record_structure("model", self.document)
        if self._model is None:
            from ..model_build import build_model
            includer = self.configuration.includer if self.configuration is not None else None
            self._model = build_model(self.document, self.directives, self.structure,
                                      includer.function if includer is not None else None)
            for span in self.__dict__.pop("_expand_first", ()):   # procedure_edit: as the rules left it
                self._model.expand(span)
        return self._model

    @property
    def binding(self) -> Binding:
        """Every declare target directive resolved to the declarations it names."""
        record_structure("binding", self.document)
        if self._binding is None:
            from ..declare_target import bind
            self._binding = bind(self)
        return self._binding

    @property
    def variants(self) -> Variants:
        """Every declare variant directive and begin/end region resolved (C/C++: base and variant functions)."""
        record_structure("variants", self.document)
        if self._variants is None:
            from ..variants import resolve
            self._variants = resolve(self)
        return self._variants

    @property
    def regions(self) -> Regions:
        """The target regions and what they contain (nested directives, calls, member accesses)."""
        record_structure("regions", self.document)
        found = self.__dict__.get("_regions")
        if found is None:
            from ..regions import analyse_regions
            found = self.__dict__["_regions"] = analyse_regions(self.document, self.directives, self.structure)
        return found

    @property
    def c_types(self) -> TypeReader | None:
        """C/C++: declared types in normal form, read on demand (None for Fortran)."""
        if "_c_types" not in self.__dict__:
            from ..c_types import TypeReader
            self.__dict__["_c_types"] = None if self.document.language.is_fortran else TypeReader(self)
        return self.__dict__["_c_types"]

    @property
    def device_graph(self) -> DeviceGraph:
        """Propagation within this file alone (per-file rules; the workspace rules see all files)."""
        record_structure("device_graph", self.document)
        found = self.__dict__.get("_device_graph")
        self.__dict__["_read_all"] = True   # its call graph reads every body (body_reads)
        if found is None:
            from ..propagation import build
            found = self.__dict__["_device_graph"] = build({self.path: self})
        return found

    def source_lower(self) -> bytes:
        """The source in lower case (computed once): Fortran names are case-insensitive."""
        found = self.__dict__.get("_lowered_source")
        if found is None:
            found = self.__dict__["_lowered_source"] = self.document.source.lower()
        return found

    def mentions(self, names: Iterable[str]) -> bool:
        """Whether the source spells any of these (lower-case) names, Fortran in any case: a fast
        test before a rule reads calls of a few runtime routines."""
        names = tuple(names)
        cache = self.__dict__.setdefault("_mentions", {})
        found = cache.get(names)
        if found is None:   # rules ask once per region: the answer is the file's
            source = self.source_lower() if self.document.language.is_fortran else self.document.source
            found = cache[names] = any(name.encode() in source for name in names)
        return found

    def depends_on_words(self, *words: bytes) -> None:
        """Record that what is being read depends on whether function bodies spell these words
        (a search of the whole text or tree): procedure_edit keeps an analysis after an edit in a
        body only when neither the old nor the new body spells one of them (`body_words`)."""
        self.body_words_read().update(words)

    def body_words_read(self) -> set[bytes]:
        """The set `depends_on_words` adds to (for a reader that must not hold the context)."""
        return self.__dict__.setdefault("_body_words", set())

    # a focused view's directive (see `focused`); not a record field: no annotation (the cast gives the type)
    focus = cast("int | None", None)

    def focused(self, index: int) -> FileContext:
        """This context for a per-directive rule that is to check the directive at `index` only
        (`each_directive`); everything else, built structures included, is shared."""
        view = object.__new__(_Focused)
        view.__dict__ = self.__dict__
        view.focus = index
        return view

    def each_directive(self, pairs: Iterable[tuple[int, Directive]] | None = None) -> Iterable[tuple[int, Directive]]:
        """(index, directive) of `pairs` (default: every directive), or of the focused one only:
        what a per-directive rule checks, one directive at a time. While the rule works on one,
        its findings are that directive's (`RuleTrace.owners`)."""
        focus = self.focus
        items: Iterable[tuple[int, Directive]]
        if focus is None:
            items = enumerate(self.directives) if pairs is None else pairs
        else:
            items = [(focus, self.directives[focus])] if pairs is None else [(i, d) for i, d in pairs if i == focus]
        return items if nodes.READS is None else self._tracked(items)   # untraced: no bookkeeping

    def _tracked(self, items: Iterable[tuple[int, Directive]]) -> Iterator[tuple[int, Directive]]:
        previous = nodes.CHECKING
        try:
            for i, d in items:
                self.__dict__["_owner"] = i
                checking(d)
                yield i, d
                checking(previous)
        finally:
            checking(previous)
            self.__dict__["_owner"] = None

    def directives_named(self, *names: str) -> list[tuple[int, Directive]]:
        """(index, directive) of the directives with these names, in source order (indexed once:
        most rules look at a few kinds of directive, and files hold thousands)."""
        index = self.__dict__.get("_by_name")
        if index is None:
            index = {}
            for i, d in enumerate(self.directives):
                index.setdefault(d.name, []).append((i, d))
            self.__dict__["_by_name"] = index
        if len(names) == 1:
            return index.get(names[0], [])
        return sorted((pair for name in set(names) for pair in index.get(name, [])), key=lambda pair: pair[0])

    @property
    def has_declare_target(self) -> bool:
        """Whether any declare target directive is present (asked by every declare target rule)."""
        return bool(self.directives_named("declare target") or self.directives_named("begin declare target"))

    def own_marks(self) -> Iterator[tuple[int, Directive, list[Mark]]]:
        """For per-directive rules: each declare target directive with the marks it made (its
        lists', its region's), one directive at a time. Those are bound from its contents alone
        (and the program model), so reading them is recorded as a read of that directive
        ("marks", which directive_edit marks changed when it binds the directive again), not of
        the whole binding. A rule that reads other directives' marks, or `binding.of`, reads
        ctx.binding."""
        binding = quietly(lambda: self.binding)
        for i, d in self.each_directive([(i, self.directives[i]) for i in binding.directives]):
            nodes.record_read(d, "marks")
            yield i, d, binding.own(i)


def body_reads(ctx: FileContext) -> list[Span] | None:
    """The spans of function bodies read so far through `ctx` (FileModel.body_reads), or None
    when every body may have been read."""
    if ctx.__dict__.get("_read_all"):
        return None
    model = ctx._model
    return [] if model is None else model.body_reads()


def body_words(ctx: FileContext) -> frozenset[bytes]:
    """The words recorded by `FileContext.depends_on_words` (and the names `mentions` looked for)."""
    names = (name.encode() for names in ctx.__dict__.get("_mentions", {}) for name in names)
    return frozenset(ctx.__dict__.get("_body_words", ())).union(names)


def quietly(read: Callable[[], T]) -> T:
    """A built structure read without recording the read: for a caller that records a finer one
    (FileContext.own_marks)."""
    previous, nodes.READS = nodes.READS, None
    try:
        return read()
    finally:
        nodes.READS = previous


class _Focused(FileContext):
    __slots__ = ("focus",)


WORKSPACE_GRAPH = "workspace device graph"   # the structure name of WorkspaceContext.device_graph


@dataclass
class WorkspaceContext:
    """Every file of the workspace (the files given to --check, the server's folders)."""
    files: dict[str, FileContext] = field(default_factory=dict)
    options: Options | None = None
    graph: DeviceGraph | None = None       # the server keeps one across edits (incremental)
    database: CompileDatabase | None = None   # compile_commands.json: include paths of each file

    @property
    def device_graph(self) -> DeviceGraph:
        """Propagated device types of the whole workspace, brought up to date with `files`."""
        record_structure(WORKSPACE_GRAPH)
        if self.graph is None:
            from ..propagation import DeviceGraph
            self.graph = DeviceGraph(self.options.propagation if self.options else "spec")
        if self.__dict__.get("_synced") is not True:
            from ..programs import in_build_of
            self.graph.sync(self.files, in_build_of(self.database))
            self.__dict__["_synced"] = True
        return self.graph

    def same_program(self, a: str, b: str) -> bool:
        """Whether two files are linked into one program (programs.partition)."""
        return self.device_graph.programs.same(a, b)


@dataclass(frozen=True)
class Rule(Generic[F]):
    codes: tuple[str, ...]
    func: F
    # Checks each directive on its own (through `FileContext.each_directive`), so that a focused
    # run re-checks one (directive_edit); tests/test_directive_edit.py holds every such rule to it.
    per_directive: bool = False

    @property
    def name(self) -> str:
        return self.func.__name__


REGISTRY: list[Rule[RuleFunc]] = []
WORKSPACE_REGISTRY: list[Rule[WorkspaceRuleFunc]] = []


def _check_codes(codes: tuple[str, ...]) -> None:
    for code in codes:
        if code not in CATALOGUE:
            raise ValueError(f"{code} is not in the rule catalogue")


def rule(*codes: str, per_directive: bool = False) -> Callable[[RuleFunc], RuleFunc]:
    """Register a per-file rule under the catalogue codes it may report (`per_directive`: see Rule)."""
    _check_codes(codes)

    def register(func: RuleFunc) -> RuleFunc:
        REGISTRY.append(Rule(codes, func, per_directive))
        return func
    return register


def workspace_rule(*codes: str) -> Callable[[WorkspaceRuleFunc], WorkspaceRuleFunc]:
    """Register a cross-file rule: it reads every file and yields (path, finding) pairs."""
    _check_codes(codes)

    def register(func: WorkspaceRuleFunc) -> WorkspaceRuleFunc:
        WORKSPACE_REGISTRY.append(Rule(codes, func))
        return func
    return register


@dataclass
class RuleTrace:
    """One rule's part of an analysis, kept so that an edit of one directive re-runs only the
    rules that read what changed (see directive_edit)."""
    findings: list[Finding]
    errors: list[str]
    reads: Reads   # directive contents it read (directives.nodes.recording)
    owners: list[int] | None = None   # per-directive rules: the directive index of each finding


@dataclass
class RuleRun:
    findings: list[Finding] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)
    traces: dict[Rule, RuleTrace] | None = None   # by rule (names repeat: C and Fortran), when asked for


def drain(steps: Generator[None, None, T]) -> T:
    """Run steps (see `rule_steps`) to the end and return their result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


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
    previous = recording(reads) if trace else None
    before = checking(NOT_ONE if r.per_directive else None)
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
        checking(before)
        if trace:
            recording(previous)
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
    reads = {key: keys for key, keys in kept.reads.items() if key not in (old_id, -old_id)}
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
    _load(fortran=any(c.document.language.is_fortran for c in ws.files.values()))
    return [r for r in WORKSPACE_REGISTRY if not all(code in disabled for code in r.codes)]


def run_workspace_rule(r: Rule[WorkspaceRuleFunc], ws: WorkspaceContext, trace: bool = False) -> WorkspaceRuleTrace:
    """One cross-file rule; an exception inside it is an internal error for every file (the others
    still run). `trace`: record the directive contents it reads."""
    reads: Reads = {}
    findings: list[tuple[str, Finding]] = []
    error = None
    previous = recording(reads, by_owner=True) if trace else None
    try:
        for path, finding in r.func(ws):
            if finding.code not in r.codes:
                raise ValueError(f"rule {r.name} reported {finding.code}, which it does not declare")
            findings.append((path, finding))
    except Exception as err:
        error = f"internal error in workspace rule {r.name} ({', '.join(r.codes)}): {type(err).__name__}: {err}"
    finally:
        if trace:
            recording(previous)
    return WorkspaceRuleTrace(findings, error, reads)


def group_by_file(ws: WorkspaceContext, traces: list[WorkspaceRuleTrace]) -> dict[str, RuleRun]:
    out: dict[str, RuleRun] = {path: RuleRun() for path in ws.files}
    for t in traces:
        for path, finding in t.findings:
            out.setdefault(path, RuleRun()).findings.append(finding)
        if t.error is not None:
            for run in out.values():
                run.internal_errors.append(t.error)
    return out


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


def iter_rules() -> Iterator[Rule]:
    _load()
    return iter([*REGISTRY, *WORKSPACE_REGISTRY])
