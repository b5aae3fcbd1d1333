"""What the rules read of one analysed file (`FileContext`) and of the workspace
(`WorkspaceContext`): the parse, the directives and the structures built on demand from them
(model, binding, variants, regions, types), each built once and each read recorded for the
incremental analysis. Below the rule registry: rules and the entry points import it."""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, TypeVar, cast

from ..directives.nodes import Directive
from ..directives.structure import Structure
from ..syntax import reads
from ..syntax.document import Document, Span
from ..syntax.records import dataclass, field

if TYPE_CHECKING:
    from ..model.c_types import TypeReader
    from ..model.file_model import FileModel
    from ..model.regions import Regions
    from ..syntax.compile_commands import CompileDatabase
    from ..syntax.options import Options
    from ..units import Configuration
    from .call_graph import FileGraph
    from .declare_target import Binding, Mark
    from .propagation import DeviceGraph
    from .variants import VariantDirective, Variants
    from .variants_fortran import Variant


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
        once. Read afterwards (a summarised analysis of the server's index), it makes what is
        asked for again."""
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
        reads.structure("model", self.document)
        if self._model is None:
            from ..model.model_build import build_model
            includer = self.configuration.includer if self.configuration is not None else None
            self._model = build_model(self.document, self.directives, self.structure,
                                      includer.function if includer is not None else None)
            for span in self.__dict__.pop("_expand_first", ()):   # procedure_edit: as the rules left it
                self._model.expand(span)
        return self._model

    @property
    def binding(self) -> Binding:
        """Every declare target directive resolved to the declarations it names."""
        reads.structure("binding", self.document)
        if self._binding is None:
            from .declare_target import bind
            self._binding = bind(self)
        return self._binding

    @property
    def variants(self) -> Variants:
        """Every declare variant directive and begin/end region resolved (C/C++: base and variant functions)."""
        reads.structure("variants", self.document)
        if self._variants is None:
            from .variants import resolve
            self._variants = resolve(self)
        return self._variants

    @property
    def regions(self) -> Regions:
        """The target regions and what they contain (nested directives, calls, member accesses)."""
        reads.structure("regions", self.document)
        found = self.__dict__.get("_regions")
        if found is None:
            from ..model.regions import analyse_regions
            found = self.__dict__["_regions"] = analyse_regions(self.document, self.directives, self.structure)
        return found

    @property
    def c_types(self) -> TypeReader | None:
        """C/C++: declared types in normal form, read on demand (None for Fortran)."""
        if "_c_types" not in self.__dict__:
            from ..model.c_types import TypeReader
            self.__dict__["_c_types"] = None if self.document.language.is_fortran else TypeReader(self)
        return cast("TypeReader | None", self.__dict__["_c_types"])

    @property
    def device_graph(self) -> DeviceGraph:
        """Propagation within this file alone (per-file rules; the workspace rules see all files)."""
        reads.structure("device_graph", self.document)
        found = self.__dict__.get("_device_graph")
        self.__dict__["_read_all"] = True   # its call graph reads every body (body_reads)
        if found is None:
            from .propagation import build
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
        cache: dict[tuple[str, ...], bool] = self.__dict__.setdefault("_mentions", {})
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
        return cast("set[bytes]", self.__dict__.setdefault("_body_words", set()))

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
        """(index, directive) of `pairs` (default: every directive; given, in index order), or of
        the focused one only: what a per-directive rule checks, one directive at a time. While
        the rule works on one, its findings are that directive's (`RuleTrace.owners`)."""
        focus = self.focus
        items: Iterable[tuple[int, Directive]]
        if focus is None:
            items = enumerate(self.directives) if pairs is None else pairs
        elif pairs is None:
            items = [(focus, self.directives[focus])]
        elif isinstance(pairs, list):   # (found, not passed over: a focused run is one of dozens per edit)
            k = bisect_left(pairs, focus, key=_index_of)
            items = pairs[k:k + 1] if k < len(pairs) and pairs[k][0] == focus else []
        else:
            items = [(i, d) for i, d in pairs if i == focus]
        return items if reads.RECORDING is None else self._tracked(items)   # untraced: no bookkeeping

    def _tracked(self, items: Iterable[tuple[int, Directive]]) -> Iterator[tuple[int, Directive]]:
        try:
            for i, d in items:
                self.__dict__["_owner"] = i
                previous = reads.checking(d)
                try:
                    yield i, d
                finally:
                    reads.checking(previous)
        finally:
            self.__dict__["_owner"] = None

    def directive_names(self) -> Iterable[str]:
        """The names of the file's directives (each once)."""
        return self._name_index().keys()

    def _name_index(self) -> dict[str, list[tuple[int, Directive]]]:
        index: dict[str, list[tuple[int, Directive]]] | None = self.__dict__.get("_by_name")
        if index is None:
            index = {}
            for i, d in enumerate(self.directives):
                index.setdefault(d.name, []).append((i, d))
            self.__dict__["_by_name"] = index
        return index

    def directives_named(self, *names: str) -> list[tuple[int, Directive]]:
        """(index, directive) of the directives with these names, in source order (indexed once:
        most rules look at a few kinds of directive, and files hold thousands; an edit of one
        directive hands the index on to the next analysis, see incremental.directive_edit)."""
        index = self._name_index()
        if len(names) == 1:
            return index.get(names[0], [])
        return sorted((pair for name in set(names) for pair in index.get(name, [])), key=lambda pair: pair[0])

    def each_directive_at(self, indices: Collection[int]) -> Iterable[tuple[int, Directive]]:
        """`each_directive` of the directives at these indices, in their order: for the focused
        one, a lookup (not a pass over all of them)."""
        focus, directives = self.focus, self.directives
        if focus is not None:
            return self.each_directive([(focus, directives[focus])] if focus in indices else [])
        return self.each_directive([(i, directives[i]) for i in indices])

    def each_directive_named(self, names: Iterable[str],
                             keep: Callable[[Directive], bool] | None = None) -> Iterable[tuple[int, Directive]]:
        """`each_directive` of the directives with these names that `keep` accepts, in source
        order: for the focused one, only it is looked at (not every directive of those names)."""
        wanted = set(names)
        focus = self.focus
        if focus is not None:
            d = self.directives[focus]
            pairs = [(focus, d)] if d.name in wanted and (keep is None or keep(d)) else []
        else:
            pairs = [(i, d) for i, d in self.directives_named(*wanted) if keep is None or keep(d)]
        return self.each_directive(pairs)

    @property
    def has_declare_target(self) -> bool:
        """Whether any declare target directive is present (asked by every declare target rule)."""
        return bool(self.directives_named("declare target") or self.directives_named("begin declare target"))

    @property
    def fortran_variants(self) -> list[Variant]:
        """Every Fortran declare variant directive resolved (what `variants` is for C/C++, and
        recorded as that structure: none for C/C++)."""
        reads.structure("variants", self.document)
        from .variants_fortran import variants
        return variants(self)

    @property
    def variant_directives(self) -> Variants:
        """The C/C++ variants (`variants`) for a rule that reads each directive's record through
        `own_variants` (and the tables every record is resolved with): not a read of all records."""
        return reads.unrecorded(lambda: self.variants)

    def own_variants(self) -> Iterator[VariantDirective]:
        """For per-directive rules: each resolved C/C++ declare variant record, one directive at
        a time. A record is built from its directive's contents and what an edit of that
        directive keeps (program model, begin/end regions, types), so reading it is a read of that
        directive ("variant", which directive_edit marks changed when it resolves the record
        again), not of all records. A rule that reads other directives' records reads `variants`."""
        return self._own_records(self.variant_directives.directives)

    def own_fortran_variants(self) -> Iterator[Variant]:
        """`own_variants` for Fortran: each resolved declare variant directive, one at a time. An
        entry is resolved from its directive's contents and the program model, which an edit of
        that directive keeps (directive_edit resolves that one again), so reading it is a read of
        that directive, not of every entry (`fortran_variants`). (What resolving looks into in
        the model is noted as by any reader: only the structure read is left out.)"""
        from .variants_fortran import variants
        return self._own_records(variants(self))

    def _own_records(self, records: list[R]) -> Iterator[R]:
        """The records (in index order) of the directives a per-directive rule checks, each read
        as a read of its directive ("variant")."""
        if self.focus is not None:   # its record only
            k = bisect_left(records, self.focus, key=_record_index)
            records = records[k:k + 1] if k < len(records) and records[k].index == self.focus else []
        by_index = {rec.index: rec for rec in records}
        for i, d in self.each_directive([(rec.index, rec.directive) for rec in records]):
            reads.read(d, ("variant",))
            yield by_index[i]

    @property
    def nohost_binding(self) -> Binding | None:
        """The binding for a rule that reads only its nohost marks and the other marks of their
        declarations (declare_target.NOHOST_MARKS; see `binding_part`)."""
        from .declare_target import NOHOST_MARKS
        return self.binding_part(NOHOST_MARKS)

    def binding_part(self, name: str) -> Binding | None:
        """The binding (None without declare target) for a rule that reads only one part of it
        (declare_target.BINDING_PARTS): a read of that part, so that an edit of a declare target
        directive that changed no mark of it does not run the rule again (directive_edit)."""
        reads.structure(name, self.document)
        return reads.unrecorded(lambda: self.binding) if self.has_declare_target else None

    def own_marks(self) -> Iterator[tuple[int, Directive, list[Mark]]]:
        """For per-directive rules: each declare target directive with the marks it made (its
        lists', its region's), one directive at a time. Those are bound from its contents alone
        (and the program model), so reading them is recorded as a read of that directive
        ("marks", which directive_edit marks changed when it binds the directive again), not of
        the whole binding. A rule that reads other directives' marks, or `binding.of`, reads
        ctx.binding."""
        binding = reads.unrecorded(lambda: self.binding)
        indices = binding.directives if self.focus is None else [self.focus] if self.focus in binding.directives else []
        for i, d in self.each_directive([(i, self.directives[i]) for i in indices]):
            reads.read(d, ("marks",))
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


class _Focused(FileContext):
    __slots__ = ("focus",)


SOURCE_TEXT = "source text"   # the structure name of a file's text read by a cross-file rule
WORKSPACE_GRAPH = "workspace device graph"   # the structure name of WorkspaceContext.device_graph


T = TypeVar("T")
R = TypeVar("R", "VariantDirective", "Variant")   # a declare variant record of C/C++ or Fortran


_MISSING = object()


def fact_name(of: Callable[[FileContext], object]) -> str:
    """The name a file fact is kept under in a `FileSummary` (the same in every process)."""
    return f"{of.__module__}:{of.__qualname__}"


@dataclass
class FileSummary:
    """What the cross-file rules read of one analysed file, as plain data: its part of the
    device graph (`FileGraph.detached`) and the value of every file fact (`rules.file_fact`,
    by `fact_name`). A workspace of summaries needs no file's tree or model in memory, and a
    summary can be made in another process."""
    fortran: bool
    graph: FileGraph
    facts: dict[str, object]
    # where the file includes other files: byte offset -> (the function whose body holds it,
    # whether a target region holds it), for a header read in this file's context (builds)
    enclosing: dict[int, tuple[str | None, bool]] = field(default_factory=dict)


@dataclass
class WorkspaceContext:
    """Every file of the workspace (the files given to --check, the server's folders).

    The cross-file rules read each file through `fact` first: a small value computed from its
    context (`rules.file_fact`), and its context (`files`) only for the few files those facts
    single out. A file with a summary (`summaries`: made when its analysis ended) gives its
    facts and its part of the device graph from there: its context is then read only when a rule
    asks for it (and may be made again for that: --check's `LoadedContexts`, a released context
    of the server's index)."""
    files: Mapping[str, FileContext] = field(default_factory=dict)
    options: Options | None = None
    graph: DeviceGraph | None = None       # the server keeps one across edits (incremental)
    database: CompileDatabase | None = None   # compile_commands.json: include paths of each file
    summaries: Mapping[str, FileSummary] = field(default_factory=dict)   # some files' (or every file's)
    sources: Mapping[str, bytes] | None = None     # each file's text, when `files` makes contexts again
    # the rules keep what they found about each target on `graph` for their next run, and take
    # what they found then where nothing it depends on changed (the server's runs: workspace.cross_file_again)
    kept_per_target: bool = False

    @property
    def paths(self) -> Iterable[str]:
        """Every file of the workspace."""
        return self.files.keys()

    def source(self, path: str) -> bytes:
        """A file's text (a search of it needs no context)."""
        reads.structure(SOURCE_TEXT)
        return self.sources[path] if self.sources is not None else self.files[path].document.source

    def fortran(self, path: str) -> bool:
        summary = self.summaries.get(path)
        return summary.fortran if summary is not None else self.files[path].document.language.is_fortran

    def fact(self, path: str, of: Callable[[FileContext], T]) -> T:
        """A file fact (`rules.file_fact`) of one file: its summary's, or read from its context."""
        summary = self.summaries.get(path)
        if summary is not None:
            found = summary.facts.get(fact_name(of), _MISSING)
            if found is not _MISSING:
                return cast(T, found)
        ctx = self.files[path]
        # Kept with the context (a fact of it is the same for as long as it lives), with the
        # reads that made it, which every later reader records as its own: the server asks every
        # open file's facts again at each keystroke.
        cache: dict[str, tuple[object, reads.Reads]] = ctx.__dict__.setdefault("_facts", {})
        name = fact_name(of)
        hit = cache.get(name)
        if hit is None:
            made: reads.Reads = {}
            previous = reads.recorded(made, by_owner=True)
            try:
                hit = cache[name] = (of(ctx), made)
            finally:
                reads.restore(previous)
        reads.replay(hit[1])
        return cast(T, hit[0])

    @property
    def device_graph(self) -> DeviceGraph:
        """Propagated device types of the whole workspace, brought up to date with `files`."""
        reads.structure(WORKSPACE_GRAPH)
        if self.graph is None:
            from .propagation import DeviceGraph
            self.graph = DeviceGraph(self.options.propagation if self.options else "spec")
        if self.__dict__.get("_synced") is not True:
            from .programs import in_build_of
            summaries = self.summaries
            self.graph.sync({p: summaries[p].graph if p in summaries else self.files[p] for p in self.paths},
                            in_build_of(self.database))
            self.__dict__["_synced"] = True
        return self.graph

    def same_program(self, a: str, b: str) -> bool:
        """Whether two files are linked into one program (programs.partition)."""
        return self.device_graph.programs.same(a, b)




def _index_of(pair: tuple[int, Directive]) -> int:
    return pair[0]


def _record_index(rec: VariantDirective | Variant) -> int:
    return rec.index
