"""What the directive parser produces: plain data with exact source spans (UTF-8 bytes).

The parse cache (relocate.py) shares these objects between analyses: treat them as read-only.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax import reads as _reads
from ..syntax.document import Span
from ..syntax.records import dataclass, field
from .schema import ClauseSpec, DirectiveSpec
from .source import RawDirective

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


@dataclass
class Expr:
    """An expression kept as source text; only its span and text are known here."""
    text: str
    span: Span


@dataclass
class Subscript:
    """One dimension of an array section or element: a[lower:length:stride] / a(lower:upper:stride)."""
    span: Span
    lower: Expr | None = None
    length: Expr | None = None   # C: length; Fortran: upper bound
    stride: Expr | None = None
    is_section: bool = False     # a ':' was present


@dataclass
class ListItem:
    """A list item: a (possibly qualified) name with subscripts and members, or an expression."""
    text: str
    span: Span
    name: str | None = None                 # base variable or procedure name (None: general expression)
    name_span: Span | None = None
    subscripts: list[list[Subscript]] = field(default_factory=list)  # one list per [..] or (..)
    members: list[str] = field(default_factory=list)                  # .x ->y %z, in order
    common_block: bool = False              # Fortran /name/

    @property
    def is_plain_name(self) -> bool:
        return self.name is not None and not self.subscripts and not self.members


@dataclass
class Modifier:
    name: str
    span: Span
    args: Expr | None = None  # the text inside mapper(...), iterator(...), step(...)


@dataclass
class TraitProperty:
    text: str
    span: Span
    name: str | None = None                 # identifier properties (kind(gpu) -> "gpu")
    args: list[TraitProperty] = field(default_factory=list)  # nested: simd(simdlen(8)), extension(...)
    is_string: bool = False


@dataclass
class TraitSelector:
    name: str
    span: Span
    name_span: Span
    score: Expr | None = None
    properties: list[TraitProperty] = field(default_factory=list)
    has_parens: bool = False


@dataclass
class TraitSet:
    name: str
    span: Span
    name_span: Span
    selectors: list[TraitSelector] = field(default_factory=list)


@dataclass
class ContextSelector:
    span: Span
    sets: list[TraitSet] = field(default_factory=list)


@dataclass
class InteropSpec:
    """One `interop(...)` of append_args: its properties (target, targetsync, prefer_type(...))."""
    span: Span
    properties: list[Expr] = field(default_factory=list)


# Clause fields a moved clause copies only when read: the list items, modifiers and expressions
# are most of a clause tree, and most rules read only clause names (fields without a
# class-level default, so __getattr__ sees them missing).
LAZY_CLAUSE_FIELDS = ("modifiers", "items", "exprs", "interops")


@dataclass
class Clause:
    name: str
    span: Span                       # name through closing parenthesis
    name_span: Span
    spec: ClauseSpec | None
    args_span: Span | None = None    # inside the parentheses
    modifiers: list[Modifier] = field(default_factory=list)
    items: list[ListItem] = field(default_factory=list)
    exprs: list[Expr] = field(default_factory=list)  # expression argument(s), steps, chunk sizes
    keyword: Modifier | None = None  # keyword argument: default(none), device_type(nohost)
    category: Modifier | None = None  # defaultmap category
    selector: ContextSelector | None = None
    interops: list[InteropSpec] = field(default_factory=list)

    @property
    def expr(self) -> Expr | None:
        return self.exprs[0] if self.exprs else None

    def __getattr__(self, name: str) -> object:
        # A clause of a directive copied from the parse cache moves its subtrees when first read.
        template = self.__dict__.get("_template")
        if template is None or name not in LAZY_CLAUSE_FIELDS:
            raise AttributeError(name)
        value = _relocation.shifted(getattr(template, name), self.__dict__["_delta"])
        self.__dict__[name] = value
        return value

    def modifier(self, name: str) -> Modifier | None:
        return next((m for m in self.modifiers if m.name == name), None)


class _Relocation:
    """How a copy from the parse cache moves a subtree: installed by relocate.py, the module that
    makes such copies (so it is loaded before any copy is read), which keeps this module below it."""
    shifted: Callable[[Any, int], Any]
    moved_clause: Callable[[Clause, int], Clause]


_relocation = _Relocation()


def install_relocation(shifted: Callable[[Any, int], Any], moved_clause: Callable[[Clause, int], Clause]) -> None:
    _relocation.shifted = shifted
    _relocation.moved_clause = moved_clause


LAZY_FIELDS = ("clauses",)  # fields without a class-level default, so __getattr__ sees them missing


@dataclass
class Directive:
    raw: RawDirective
    name: str                                # canonical name, e.g. "target teams distribute parallel for"
    name_span: Span
    spec: DirectiveSpec | None               # None when the name is unknown
    clauses: list[Clause] = field(default_factory=list)
    argument: list[ListItem] | None = None   # "(list)" / "(name)" after the directive name
    argument_span: Span | None = None
    end_of: str | None = None                # Fortran "end X": the name X it closes
    uses_macros: bool = False                # C/C++: a macro stands for part of it (rules stay cautious)
    suggestion: str | None = None            # unknown name: the directive it was probably meant to be
    macro_name: bool = False                 # C/C++: its name is (partly) a word taken for a macro (TARGET)
    malformed: bool = False                  # its clauses or arguments could not be read (OMP002, OMP004)
    unread: bool = False                     # too large to read: its name alone is known (OMP013)

    @property
    def span(self) -> Span:
        return self.raw.span

    def __getattr__(self, name: str) -> object:
        # A directive copied from the parse cache moves its clause tree only when it is read.
        template = self.__dict__.get("_template")
        if template is None or name not in LAZY_FIELDS:
            raise AttributeError(name)
        value = [_relocation.moved_clause(c, self.__dict__["_delta"]) for c in getattr(template, name)]
        self.__dict__[name] = value
        return value

    def clauses_named(self, *names: str) -> list[Clause]:
        if _reads.RECORDING is not None:
            _reads.read(self, names)
        if len(names) == 1:
            return self._by_name().get(names[0], [])
        return [c for c in self._clauses() if c.name in names]

    def clause(self, name: str) -> Clause | None:
        if _reads.RECORDING is not None:
            _reads.read(self, (name,))
        found = self._by_name().get(name)
        return found[0] if found else None

    def _clauses(self) -> list[Clause]:
        """The clauses, unrecorded (the callers record what they look for)."""
        found = self.__dict__
        return found["clauses"] if "clauses" in found else self.__getattr__("clauses")  # type: ignore[return-value]

    def _by_name(self) -> dict[str, list[Clause]]:
        """The clauses by name, indexed on first use (rules ask every directive for a few names)."""
        index = self.__dict__.get("_clause_index")
        if index is None:
            index = {}
            for c in self._clauses():
                index.setdefault(c.name, []).append(c)
            self.__dict__["_clause_index"] = index
        return index


class _Content:
    """A directive field whose reads are recorded (a data descriptor: it wins over the instance
    dictionary, where the record's __init__ stores the value)."""

    def __init__(self, name: str, key: str) -> None:
        self.name = name
        self.key = key

    def __get__(self, obj: Directive | None, owner: type) -> object:
        if obj is None:
            return self
        found = obj.__dict__
        value = found[self.name] if self.name in found else obj.__getattr__(self.name)
        if _reads.RECORDING is not None:
            _reads.read(obj, (self.key,))
        return value

    def __set__(self, obj: Directive, value: object) -> None:
        obj.__dict__[self.name] = value


Directive.clauses = _Content("clauses", "*")  # type: ignore[assignment]
Directive.argument = _Content("argument", "argument")  # type: ignore[assignment]
Directive.argument_span = _Content("argument_span", "argument")  # type: ignore[assignment]
