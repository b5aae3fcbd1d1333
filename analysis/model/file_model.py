"""The per-file program model: scopes, declarations, references and target regions.

Plain data built from one analysed file (C/C++ from the tree-sitter tree in `model_c.py`,
Fortran from the statement scanner in `model_fortran.py`). Rules and the propagation
engine read it; nothing here knows about LSP. Names are looked up by `key`: the name as
written in C/C++, lower case in Fortran (Fortran names are case-insensitive).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ..syntax import reads as _reads
from ..syntax.document import Language, Span
from ..syntax.records import dataclass, deferred, field

if TYPE_CHECKING:
    import tree_sitter

    from ..directives.fortran_blocks import Statement
    from ..directives.nodes import Directive
    from ..syntax.document import Document

# Symbol kinds.
FUNCTION = "function"                # C/C++ function; Fortran subroutine or function (definition or interface body)
VARIABLE = "variable"                # includes Fortran named constants (specifier "parameter")
TYPE = "type"                        # struct/class/union/enum/typedef; Fortran derived type
NAMESPACE = "namespace"
COMMON = "common"                    # Fortran common block (key "/name/", blank common "//")
GENERIC = "generic"                  # Fortran generic interface name
PROCEDURE_POINTER = "procedure pointer"
PROCEDURE = "procedure"              # Fortran procedure declaration statement / EXTERNAL (not a pointer)
ENTRY = "entry"
STATEMENT_FUNCTION = "statement function"
MODULE = "module"
FIELD = "field"                      # C++ non-static data member (hides globals inside member functions)
PROCEDURE_KINDS = frozenset({FUNCTION, GENERIC, PROCEDURE_POINTER, PROCEDURE, ENTRY, STATEMENT_FUNCTION})

# Storage durations of variables.
STATIC = "static"
AUTOMATIC = "automatic"
THREAD = "thread"

# Scope kinds. C/C++: file, namespace, class, function, block, lambda.
# Fortran: file, program, module, submodule, subroutine, function, block data, interface, type, block.


@dataclass(eq=False)
class Symbol:
    name: str                              # as written
    key: str                               # lookup key (Fortran: lower case)
    kind: str
    span: Span                             # the whole declaration (statement or node)
    name_span: Span
    scope: Scope
    definition: bool = False               # a function body / a variable definition (not `extern`)
    storage: str = ""                      # variables: STATIC, AUTOMATIC or THREAD
    specifiers: frozenset[str] = frozenset()   # C: static extern inline virtual constexpr ...;
                                           # Fortran attributes: save parameter pointer allocatable
                                           # external target bind(c) elemental pure recursive ...;
                                           # both: "dummy" for a procedure's parameters
    type_text: str = ""                    # declared type: C as written (specifiers + pointer/array declarators);
                                           # Fortran the type declaration's type, lower case (`type(c_ptr)`)
    params: tuple[tuple[str, str], ...] = ()   # functions: (type text, name) per parameter
    return_type: str = ""
    template: bool = False                 # C++ template (or member of a class template)
    linkage: str = ""                      # "external", "internal", "C" (extern "C"), "" for none
    complete: bool | None = None           # variables: whether the type is complete (None: unknown)
    polymorphic: bool = False              # C++: class type with virtual members
    initialized: bool = False
    bind_name: str | None = None           # Fortran BIND(C): the C name; C: the linkage name of extern "C"
    common: str | None = None              # Fortran: the common block holding the variable ("" = blank)
    equivalenced: bool = False             # Fortran: appears in an EQUIVALENCE statement
    qualified: str = ""                    # C++: ns::Class::name; Fortran: module::name

    @property
    def is_procedure(self) -> bool:
        return self.kind in PROCEDURE_KINDS

    def __repr__(self) -> str:
        return f"Symbol({self.kind} {self.name!r} @{self.name_span[0]})"


deferred(Symbol, "params")  # a builder may defer reading parameter types until someone asks


@dataclass(eq=False)
class Scope:
    kind: str
    name: str
    span: Span
    parent: Scope | None = None
    symbols: list[Symbol] = field(default_factory=list)
    children: list[Scope] = field(default_factory=list)
    symbol: Symbol | None = None           # the function/subprogram/module this scope defines
    spec_part: Span | None = None          # Fortran: specification part (header end .. first executable
                                           # statement, CONTAINS or END)
    internal: bool = False                 # Fortran: an internal procedure (CONTAINed in a subprogram/program)
    interface_body: bool = False           # Fortran: a subprogram inside an interface block
    uses: list[str] = field(default_factory=list)   # Fortran: modules named in USE statements (lower case)
    complete: bool = True                  # False: the builder is unsure of this scope's declarations or
                                           # of where its specification part ends (rules stay silent)

    def __repr__(self) -> str:
        return f"Scope({self.kind} {self.name!r} {self.span})"

    def declared(self, key: str) -> list[Symbol]:
        """This scope's own declarations of `key`, in source order (indexed on first use)."""
        index: dict[str, list[Symbol]] | None = self.__dict__.get("_index")
        if index is None or self.__dict__.get("_indexed") != len(self.symbols):
            index = {}
            for s in self.symbols:
                index.setdefault(s.key, []).append(s)
            self.__dict__["_index"] = index
            self.__dict__["_indexed"] = len(self.symbols)
        return index.get(key, [])

    def ancestors(self) -> Iterator[Scope]:
        s: Scope | None = self
        while s is not None:
            yield s
            s = s.parent

    def enclosing(self, *kinds: str) -> Scope | None:
        s: Scope | None = self
        while s is not None:   # (a loop, not ancestors(): the call graph asks this for every reference)
            if s.kind in kinds:
                return s
            s = s.parent
        return None

    def walk(self) -> Iterator[Scope]:
        """This scope and every scope inside it, in source order (a scope before its children;
        with a stack, not a generator per level: rules walk every scope of large files)."""
        stack = [self]
        while stack:
            scope = stack.pop()
            yield scope
            if scope.children:
                stack.extend(reversed(scope.children))


@dataclass(eq=False)
class Reference:
    """A name used in code: a call (`call`) or any other use of a variable or procedure."""
    name: str
    key: str
    span: Span
    scope: Scope                           # innermost scope holding the reference
    call: bool = False
    target: int | None = None              # index of the innermost enclosing target-region directive


@dataclass(eq=False)
class Capture:
    name: str
    span: Span
    by_reference: bool = False


@dataclass(eq=False)
class Lambda:
    """C++ lambda expression: its explicit captures and the names its body uses."""
    span: Span
    default_capture: str | None = None     # "=" or "&"
    captures: list[Capture] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)


@dataclass(frozen=True)
class Include:
    """An `#include` / `#import` (Fortran: also an INCLUDE line) of the file."""
    offset: int
    header: str            # as written between the delimiters ("" when a macro names it)
    system: bool           # <header>: declares nothing of the program's own


_C_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*(?:include|import)[ \t]*(?:<([^>\n]*)>|"([^"\n]*)"|\S)', re.MULTILINE)
_F_INCLUDE = re.compile(rb"^[ \t]*(?:include[ \t]*['\"]([^'\"\n]*)|#[ \t]*include[ \t]*(?:<([^>\n]*)>|\"([^\"\n]*)\"|\S))",
                        re.MULTILINE | re.IGNORECASE)


def find_includes(source: bytes, fortran: bool) -> list[Include]:
    """Every include line, in source order (one regex over the file)."""
    out = []
    if fortran:
        for m in _F_INCLUDE.finditer(source):
            system = m.group(2) is not None
            header = m.group(1) or m.group(2) or m.group(3) or b""
            out.append(Include(m.start(), header.decode("utf-8", "replace").strip(), system))
    else:
        for m in _C_INCLUDE.finditer(source):
            header = m.group(1) if m.group(1) is not None else m.group(2) or b""
            out.append(Include(m.start(), header.decode("utf-8", "replace").strip(), m.group(1) is not None))
    return out


@dataclass(eq=False)
class FileModel:
    language: Language
    root: Scope
    symbols: list[Symbol] = field(default_factory=list)         # every declaration (C/C++: outside
                                                                # function bodies; theirs: `locals`)
    lambdas: list[Lambda] = field(default_factory=list)
    module_statements: list[Span] = field(default_factory=list)  # C++20 `import`/`export`/`module`
    threadprivate: dict[str, list[int]] = field(default_factory=dict)  # key -> directive indices
    includes: list[Include] = field(default_factory=list)
    complete: bool = True                  # False: the builder gave up on part of the file

    def __post_init__(self) -> None:
        # C/C++: what function bodies declare (parameters, locals, local classes and their
        # members), in the order the bodies were read; not in `symbols` and `named`, whose answers
        # would otherwise depend on which bodies someone has read
        self.locals: list[Symbol] = []
        self._by_key: dict[str, list[Symbol]] | None = None
        self._indexed = 0
        self._references: list[Reference] = []
        # Fortran: names in executable statements that resolve to nothing in this file, in units
        # that use a module defined elsewhere (filled with `references`; the workspace may know them)
        self.unresolved: list[Reference] = []
        self.reference_builder: Callable[[], list[Reference]] | None = None
        # a builder that can skip names the asker does not want (see references_named)
        self.filtered_builder: Callable[[Callable[[str], bool]], list[Reference]] | None = None
        self.use_finder: Callable[[Symbol, Span], Span | None] | None = None
        # (document, function scope, its tree node) -> None: a builder that reads bodies when
        # asked (C/C++) reads one again
        self.body_reader: Callable[[Document, Scope, tree_sitter.Node], None] | None = None
        # Fortran (statement_edit): (old statement, new statement) -> None, or a function that
        # takes the new one in place of the old (given the new source) and returns its references
        # and unresolved names: a builder that can read one execution-part statement again
        self.statement_reader: Callable[[Statement, Statement], Callable[[bytes], tuple[
            list[Reference], list[Reference]]] | None] | None = None

    def release(self) -> None:
        """Break this model's reference cycles (scopes and their symbols, the builders' callables
        that hold the model), so that a model no longer wanted is freed at once rather than by
        the cycle collector. The model is empty afterwards."""
        stack = [self.root]
        while stack:
            scope = stack.pop()
            stack.extend(scope.children)
            for symbol in scope.symbols:
                _drop_private(symbol)   # deferred readers
            scope.children, scope.symbols, scope.parent, scope.symbol = [], [], None, None
            _drop_private(scope)        # indexes, deferred readers
        for symbol in self.symbols:
            _drop_private(symbol)
        for symbol in self.locals:
            _drop_private(symbol)
        self.symbols, self.locals, self.lambdas, self._references, self.unresolved = [], [], [], [], []
        self._by_key = None
        self.reference_builder = self.filtered_builder = self.use_finder = self.body_reader = None
        self.statement_reader = None

    @property
    def references(self) -> list[Reference]:
        """Every reference, in source order. A builder may defer them (C walks every body
        only when a rule or the propagation engine asks)."""
        _note(self.root, None)   # every body
        if self.reference_builder is not None:
            builder, self.reference_builder = self.reference_builder, None
            self._references = builder()
        return self._references

    @references.setter
    def references(self, value: list[Reference]) -> None:
        self.reference_builder = None
        self._references = value

    def references_named(self, keep: Callable[[str], bool]) -> list[Reference]:
        """The references whose key `keep` accepts, plus every call (and, in Fortran, names other
        files may define): cheaper than `references` while those are not built, not cached."""
        if self.reference_builder is None or self.filtered_builder is None:
            return self.references
        _note(self.root, None)   # every body
        return self.filtered_builder(keep)

    # -- lookups ---------------------------------------------------------------------------
    def every_symbol(self) -> list[Symbol]:
        """Every declaration of the file, function bodies' included (all read), in source order."""
        self.expand()
        return sorted([*self.symbols, *self.locals], key=lambda s: s.name_span[0])

    def named(self, key: str) -> list[Symbol]:
        """Every declaration with this key in the file (C/C++: outside function bodies)."""
        # rebuilt when declarations were added since the last build
        if self._by_key is None or self._indexed != len(self.symbols):
            by: dict[str, list[Symbol]] = {}
            for s in self.symbols:
                by.setdefault(s.key, []).append(s)
            self._by_key = by
            self._indexed = len(self.symbols)
        return self._by_key.get(key, [])

    def directive_scope(self, offset: int) -> Scope:
        """`scope_at` of a directive's start, kept in a model whose scopes never change once built
        (Fortran's: its statements are read again in place, its scopes are not): the rules ask for
        the scope of every declare target directive again at each edit of one."""
        if self.body_reader is not None or self.statement_reader is None:
            return self.scope_at(offset)
        found: dict[int, Scope] = self.root.__dict__.setdefault("_directive_scopes", {})
        scope = found.get(offset)
        if scope is None:
            scope = found[offset] = self.scope_at(offset)
        return scope

    def scope_at(self, offset: int, expand: bool = True) -> Scope:
        """The innermost scope whose span holds `offset`. With `expand=False`, deferred bodies
        stay unread: the innermost scope read so far (a function, not the block inside it)."""
        scope = self.root
        while True:
            if expand:
                _expand(scope)
            inner = _child_at(scope, offset)
            if inner is None:
                return scope
            if inner.kind == "function" and _reads.RECORDING is not None:   # (the call graph's: not noted)
                _note(self.root, inner.span)   # a look inside a body (read before or not)
            scope = inner

    def visible(self, key: str, offset: int, *, before: bool = True) -> list[Symbol]:
        """Declarations of `key` visible at `offset`, innermost scope first.

        C/C++ (`before=True`): only declarations that start before `offset`. Fortran looks
        in the whole scoping unit and its hosts (declarations may follow a directive).
        """
        found: list[Symbol] = []
        for scope in self.scope_at(offset).ancestors():
            hits = [s for s in scope.declared(key) if not before or s.name_span[0] < offset]
            if hits:
                found.extend(hits)
                break
        return found

    def first_use(self, symbol: Symbol, span: Span) -> Span | None:
        """The first use of `symbol` (not a redeclaration, nor another entity of the same name)
        inside `span`, or None when there is none or the builder cannot tell."""
        if self.use_finder is None:
            return None
        finder = self.use_finder
        # Kept while the bodies are (refresh_body forgets them): an edit of a declare target runs
        # OMP117 again, which asks about every mark of the file. (Fortran: statements are read
        # again in place, answers are not kept.) A kept answer's search was noted when it was made,
        # in this model's record, which lasts as long (procedure_edit moves it with the edit).
        found: dict[tuple[int, Span], tuple[Symbol, Span | None]] | None = \
            self.root.__dict__.setdefault("_first_uses", {}) if self.statement_reader is None else None
        hit = found.get((id(symbol), span)) if found is not None else None
        if hit is not None and hit[0] is symbol:
            return hit[1]
        # (the spans searched are recorded, which an edit there is checked against: its reading
        # of the tree is no read of the code inside constructs elsewhere, construct_edit)
        _note(self.root, span, always=True)
        self.root.__dict__.setdefault("_used", []).append(span)   # (a read of statements: uses_read)
        use = _reads.unrecorded(lambda: finder(symbol, span))
        if found is not None:
            found[(id(symbol), span)] = (symbol, use)
        return use

    # -- what was read of function bodies (procedure_edit keeps an analysis that read none of
    # the edited one) ----------------------------------------------------------------------
    def body_reads(self) -> list[Span] | None:
        """The spans of the function bodies rules looked inside so far (see `_note`), or None when
        every body was read (all references) or the builder cannot read one again. (Fortran: a
        look inside a unit's scope reads its declarations, which no execution-part statement the
        statement reader takes changes; only the references read its statements.)"""
        read = self.root.__dict__.get("_read", [])
        if (self.body_reader is None and self.statement_reader is None) or None in read:
            return None
        return [*self.expanded(), *read]

    def uses_read(self) -> list[Span]:
        """The spans `first_use` searched so far: what rules read of function bodies besides
        their declarations (and all references: body_reads is None then)."""
        return list(self.root.__dict__.get("_used", ()))

    def read_mark(self) -> int:
        """Where the record of looks inside bodies stands (see `reads_since`)."""
        return len(self.root.__dict__.get("_read", ()))

    def reads_since(self, mark: int) -> list[Span] | None:
        """The spans of the bodies rules looked inside since `read_mark` returned `mark`
        (None: all of them). Rules look inside through scope_at, expand, references and
        first_use; named() and symbols hold no body's declarations."""
        read = self.root.__dict__.get("_read", [])[mark:]
        return None if None in read else list(read)

    def compact_reads(self) -> None:
        """The record of looks inside bodies without repeats: rules run again after each edit read
        the same bodies again, and a record that grew with every keystroke made every later edit
        slower (no caller holds a `read_mark` across this)."""
        for key in ("_read", "_used"):
            record = self.root.__dict__.get(key)
            if record is not None:
                self.root.__dict__[key] = list(dict.fromkeys(record))

    def reads_bodies_again(self, function: Span) -> bool:
        """Whether `refresh_body` can read the body of the function defined at `function` again."""
        return self.body_reader is not None and self._function_scope(function) is not None

    def _function_scope(self, function: Span) -> Scope | None:
        scope = self.root
        while True:
            inner = _child_at(scope, function[0])
            if inner is None or inner.kind == "function":
                return inner if inner is not None and inner.span == function else None
            scope = inner

    def refresh_body(self, document: Document, function: Span, node: tree_sitter.Node) -> bool:
        """Forget what was read of the body of the function defined at `function` and read it
        from `node` (that definition in `document`, whose text differs only inside the body, and
        which may end elsewhere on its last line) when someone looks inside again. False when the builder cannot (the model is then not
        to be used for `document`)."""
        inner = self._function_scope(function)
        if inner is None or self.body_reader is None:
            return False
        self.root.__dict__.pop("_first_uses", None)
        self.root.__dict__.pop("_entity_names", None)
        extent = (node.start_byte, node.end_byte)
        if inner.symbol is not None and inner.symbol.span == inner.span:
            inner.symbol.span = extent   # (the edit may have moved the end on its line)
        inner.span = extent
        self.body_reader(document, inner, node)
        return True

    def expanded(self) -> list[Span]:
        """The spans of the deferred scopes read so far, in the order they were read (what a
        builder later reads depends on it: see procedure_edit)."""
        return list(self.root.__dict__.get("_expanded", ()))

    def user_includes(self, start: int = 0, end: int | None = None) -> bool:
        """Whether a header that is not a <system> header (so may declare anything of the
        program: names, types, requires directives) is included between `start` and `end`."""
        return any(not i.system and start <= i.offset and (end is None or i.offset < end) for i in self.includes)

    def key_of(self, name: str) -> str:
        return name.lower() if self.language.is_fortran else name

    def expand(self, span: Span | None = None) -> None:
        """Read the function bodies a builder deferred (those overlapping `span`, or all).

        Until then a deferred scope has no children and only its parameters as symbols;
        `scope_at` and `visible` expand what they pass through by themselves.
        """
        _note(self.root, span)
        todo = [self.root]
        while todo:
            scope = todo.pop()
            if span is not None and (scope.span[1] <= span[0] or scope.span[0] >= span[1]):
                continue
            _expand(scope)
            todo.extend(scope.children)


def _drop_private(record: object) -> None:
    for key in [k for k in record.__dict__ if k.startswith("_")]:
        del record.__dict__[key]


def defer(scope: Scope, reader: Callable[[], None]) -> None:
    """Let a builder read a scope's contents only when someone looks inside it."""
    scope.__dict__["_deferred"] = reader


def _note(root: Scope, span: Span | None, always: bool = False) -> None:
    """Record a look inside the bodies overlapping `span` (None: all of them) while rules run
    (the call graph's many lookups are not theirs), or `always`: FileModel.body_reads."""
    if always or _reads.RECORDING is not None:
        root.__dict__.setdefault("_read", []).append(span)


def _expand(scope: Scope) -> None:
    reader = scope.__dict__.pop("_deferred", None)
    if reader is not None:
        root = scope
        while root.parent is not None:
            root = root.parent
        root.__dict__.setdefault("_expanded", []).append(scope.span)   # see FileModel.body_reads
        _note(root, scope.span)
        reader()


def _child_at(scope: Scope, offset: int) -> Scope | None:
    children = scope.children
    cached = scope.__dict__.get("_starts")
    if cached is None or len(cached) != len(children):
        cached = scope.__dict__["_starts"] = [c.span[0] for c in children]
    starts = cached
    i = bisect_right(starts, offset) - 1
    while i >= 0:
        c = children[i]
        if c.span[0] <= offset < c.span[1]:
            return c
        if c.span[1] <= offset:
            # children never overlap, so an earlier sibling cannot hold the offset either
            return None
        i -= 1
    return None


def is_target_region(d: Directive) -> bool:
    """`target` and combined `target ...` constructs (not target data/update/enter/exit data)."""
    return is_target_region_name(d.name)


def is_target_region_name(name: str) -> bool:
    """`is_target_region` of a directive of this name."""
    if name == "target":
        return True
    if not name.startswith("target "):
        return False
    return not name.startswith(("target data", "target enter", "target exit", "target update"))
