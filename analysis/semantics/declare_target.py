"""Binding: each declare target directive resolved to the declarations it names.

Explicit lists (`declare target(list)`, `to`/`enter`/`link` clauses), the implicit list of a
begin/end region (file-, namespace- and class-scope declarations between the directives;
nested regions and explicit lists override the enclosing device type), and Fortran's
clause-less form, which names the enclosing subprogram or interface body.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..directives.nodes import Clause, Directive, ListItem
from ..directives.structure import is_delimited_declare_target
from ..model.file_model import FUNCTION, VARIABLE, FileModel, Symbol
from ..syntax.document import Span
from ..syntax.records import dataclass, field

if TYPE_CHECKING:
    from ..directives.nodes import Directive
    from ..model.facts import ModelFacts
    from ..model.file_model import FileModel

    FileFacts = ModelFacts   # what every pass reads is all this one reads

DECLARE_TARGET = "declare target"
BEGIN_DECLARE_TARGET = "begin declare target"
ENTER_CLAUSES = ("to", "enter", "local")  # 6.0 `local`: a copy of each item on every device
DEVICE_TYPES = ("any", "host", "nohost")
# Scopes whose declarations join a begin/end region's implicit list.
_IMPLICIT_SCOPES = frozenset({"file", "namespace", "class"})


@dataclass(eq=False)
class Mark:
    """One declaration (or unresolved name) marked by one declare target directive."""
    directive: int                 # index into the file's directives
    kind: str                      # "enter" (to/enter/implicit) or "link"
    item: ListItem | None          # None: implicit (begin/end region, Fortran clause-less form)
    clause: Clause | None          # None: the directive's own list or an implicit list
    symbols: list[Symbol]          # the declarations the item names (empty: not found)
    device_type: str               # "any", "host" or "nohost" (as if written; "any" by default)
    device_type_explicit: bool     # a device_type clause decided it (on this directive or a region)
    indirect: bool                 # an indirect clause that is (or may be) true applies
    explicit: bool                 # an explicit list item (not a begin/end region's implicit list)
    span: Span                     # the list item, or the declaration's name for implicit marks
    region: int | None = None      # implicit: the begin directive of the innermost region

    @property
    def name(self) -> str:
        if self.item is not None:
            return self.item.name or self.item.text
        return self.symbols[0].name if self.symbols else ""


@dataclass(eq=False)
class Region:
    begin: int                     # directive index of `begin declare target` (or clause-less declare target)
    end: int                       # directive index of the paired `end declare target`
    span: Span                     # end of the begin directive .. start of the end directive
    device_type: str
    device_type_explicit: bool
    indirect: bool


@dataclass(eq=False)
class Binding:
    marks: list[Mark] = field(default_factory=list)
    regions: list[Region] = field(default_factory=list)
    directives: list[int] = field(default_factory=list)   # indices of every declare target directive

    def __post_init__(self) -> None:
        self._of: dict[int, list[Mark]] | None = None
        self._own: dict[int, list[Mark]] | None = None

    def own(self, directive: int) -> list[Mark]:
        """The marks one directive made: its lists', then its region's implicit list."""
        if self._own is None:
            index: dict[int, list[Mark]] = {}
            for m in self.marks:
                index.setdefault(m.directive, []).append(m)
            self._own = index
        return self._own.get(directive, [])

    def of(self, symbol: Symbol) -> list[Mark]:
        """Every mark that names this declaration."""
        if self._of is None:
            index: dict[int, list[Mark]] = {}
            for m in self.marks:
                for s in m.symbols:
                    index.setdefault(id(s), []).append(m)
            self._of = index
        return self._of.get(id(symbol), [])

    def indexed_again(self, old: Binding, i: int, own: list[Mark]) -> None:
        """Take `old`'s indexes (`own`, `of`), where they were made, with the marks of directive
        `i` replaced by `own`, this binding's (which differs from `old` in those alone: an edit
        rebinds one directive that is not a region's). Building them anew walks every mark at each
        keystroke."""
        if old._own is None:
            return   # (made when first asked, as `of` is then)
        before = old._own.get(i, [])   # (a region's marks are its begin directive's, never rebound)
        self._own = dict(old._own)
        if own:
            self._own[i] = own
        else:
            self._own.pop(i, None)
        if old._of is None:
            return
        index = dict(old._of)
        for key in {id(s) for m in [*before, *own] for s in m.symbols}:
            kept = [m for m in index.get(key, []) if m.directive != i or m.region is not None]
            mine = [m for m in own for s in m.symbols if id(s) == key]
            # in the order of `marks`: the list marks by directive, then the regions'
            at = next((k for k, m in enumerate(kept) if m.directive > i or m.region is not None), len(kept))
            merged = kept[:at] + mine + kept[at:]
            if merged:
                index[key] = merged
            else:
                index.pop(key, None)
        self._of = index


def device_type_of(d: Directive) -> tuple[str, bool]:
    c = d.clause("device_type")
    if c is not None and c.keyword is not None and c.keyword.name.lower() in DEVICE_TYPES:
        return c.keyword.name.lower(), True
    return "any", False  # no clause, or an invalid one (OMP004): as compilers do, the default


def indirect_of(d: Directive) -> bool:
    """True when an indirect clause is present and its argument is not a literal false."""
    c = d.clause("indirect")
    if c is None:
        return False
    if c.expr is None:
        return True
    text = c.expr.text.strip().lower().strip("()").strip()
    return text not in ("0", "false", ".false.", "0 != 0")


def explicit_lists(d: Directive) -> Iterator[tuple[str, Clause | None, ListItem]]:
    """(kind, clause, item) for every explicit list item of a declare target directive."""
    if d.argument is not None:
        for item in d.argument:
            yield "enter", None, item
    for c in d.clauses:
        if c.name in ENTER_CLAUSES:
            for item in c.items:
                yield "enter", c, item
        elif c.name == "link":
            for item in c.items:
                yield "link", c, item


def resolve(model: FileModel, item: ListItem, offset: int) -> list[Symbol]:
    """The declarations a list item names, as seen from the directive at `offset`."""
    if item.name is None:
        return []
    fortran = model.language.is_fortran
    key = model.key_of(item.name)
    if item.common_block:
        key = f"/{key}/"
    if not fortran and "::" in item.name:
        return _qualified(model, item.name, offset)
    return model.visible(key, offset, before=not fortran)


def _qualified(model: FileModel, name: str, offset: int) -> list[Symbol]:
    parts = name.lstrip(":").split("::")
    return [s for s in model.named(parts[-1])
            if s.name_span[0] < offset and (s.qualified == "::".join(parts) or s.qualified.endswith("::" + "::".join(parts)))]


def bind(ctx: FileFacts) -> Binding:
    out = Binding()
    model = ctx.model
    for i, d in enumerate(ctx.directives):
        if d.name not in (DECLARE_TARGET, BEGIN_DECLARE_TARGET):
            continue
        out.directives.append(i)
        out.marks.extend(directive_marks(ctx, model, i, d))
    if not ctx.document.language.is_fortran:
        _bind_regions(ctx, model, out)
    return out


# The part of the binding OMP206 reads (rules record it as a structure): the nohost marks, and
# every mark of a declaration one of them names.
NOHOST_MARKS = "nohost marks"
# Parts of the binding that Fortran cross-file rules read, recorded as structures in the same way
# (FileContext.binding_part): the marks of directives inside interface bodies (OMP155), of BIND(C)
# entities (OMP160), of common blocks (OMP159), and the marks that name nothing the file declares,
# with every name the directives list (OMP162, OMP165). incremental.directive_again tells which
# parts an edit of one directive changed: the rules that read no other are kept.
INTERFACE_MARKS = "interface marks"
BIND_C_MARKS = "bind(c) marks"
COMMON_MARKS = "common block marks"
UNDECLARED_MARKS = "undeclared marks"
# The part OMP117 reads besides each directive's own marks: the marks of declarations that more
# than one directive marks (which of them is the first decides where the rule looks).
SHARED_MARKS = "shared marks"
BINDING_PARTS = frozenset({NOHOST_MARKS, INTERFACE_MARKS, BIND_C_MARKS, COMMON_MARKS, UNDECLARED_MARKS, SHARED_MARKS})


def directive_marks(ctx: FileFacts, model: FileModel, i: int, d: Directive) -> list[Mark]:
    """The marks of one declare target directive's own lists (a begin region's come from
    `_bind_regions`): `bind` reads each directive so, incremental.directive_again one edited directive."""
    if d.unread:
        return []  # too large to read (OMP013): not the clause-less form, its lists unknown
    device_type, dt_explicit = device_type_of(d)
    indirect = indirect_of(d)
    if ctx.document.language.is_fortran and d.name == DECLARE_TARGET and d.argument is None \
            and not any(c.name in (*ENTER_CLAUSES, "link") for c in d.clauses):
        # Fortran clause-less form: an implicit `to` naming the enclosing procedure.
        unit = model.directive_scope(d.span[0]).enclosing("subroutine", "function")
        if unit is not None and unit.symbol is not None:
            return [Mark(i, "enter", None, None, [unit.symbol], device_type, dt_explicit, indirect, True, d.name_span)]
        return []
    if d.name == BEGIN_DECLARE_TARGET:
        return []  # its list clauses are errors (OMP108): binding them would only add echoes
    return [Mark(i, kind, item, clause, resolve(model, item, d.span[0]), device_type, dt_explicit, indirect,
                 True, item.span) for kind, clause, item in explicit_lists(d)]


def _bind_regions(ctx: FileFacts, model: FileModel, out: Binding) -> None:
    directives = ctx.directives
    for begin, end in sorted(ctx.structure.pairs.items()):
        d = directives[begin]
        if d.name != BEGIN_DECLARE_TARGET and not is_delimited_declare_target(d):
            continue
        device_type, dt_explicit = device_type_of(d)
        out.regions.append(Region(begin, end, (d.span[1], directives[end].span[0]), device_type,
                                  dt_explicit, indirect_of(d)))
    if not out.regions:
        return
    candidates = [s for s in model.symbols
                  if (s.kind == FUNCTION and s.scope.kind in _IMPLICIT_SCOPES)
                  or (s.kind == VARIABLE and s.scope.kind in ("file", "namespace"))]  # class scope: functions only
    starts = [s.name_span[0] for s in candidates]  # symbols are in source order
    # Regions nest (they are paired with a stack): walk them in order with a stack of enclosing ones.
    regions = sorted(out.regions, key=lambda r: (r.span[0], -r.span[1]))
    stack: list[Region] = []
    for k, r in enumerate(regions):
        while stack and stack[-1].span[1] <= r.span[0]:
            stack.pop()
        stack.append(r)
        nested = []
        for o in regions[k + 1:]:
            if o.span[0] >= r.span[1]:
                break  # sorted by start: no later region starts inside r
            nested.append(o)
        # The innermost region that gives a device type decides it; otherwise "any".
        chosen = next((o for o in reversed(stack) if o.device_type_explicit), r)
        for s in candidates[bisect_left(starts, r.span[0]):bisect_left(starts, r.span[1])]:
            at = s.name_span[0]
            if any(o.span[0] <= at < o.span[1] for o in nested):
                continue  # belongs to a nested region
            out.marks.append(Mark(r.begin, "enter", None, None, [s], chosen.device_type,
                                  chosen.device_type_explicit, r.indirect, False, s.name_span, region=r.begin))
