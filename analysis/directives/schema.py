"""The shape of the OpenMP grammar tables (`tables.py` holds the rows).

Versions are integers: 45, 50, 51, 52, 60. A `Since` value is either the first
version that allows something, or a `(first, last)` pair when a later version
removed it (``last`` is the last version that still allows it).
"""
from __future__ import annotations

from typing import Literal, Union

from ..syntax.options import VERSIONS as OPTION_VERSIONS
from ..syntax.records import dataclass, field

Version = int
Since = Union[Version, "tuple[Version, Version]"]
VERSIONS: tuple[Version, ...] = OPTION_VERSIONS

# How a clause's parenthesised argument is read (the parser has one reader per shape):
#   none          no argument, no parentheses
#   opt_expr      optional "(expr)"                          indirect, nowait (6.0), ordered
#   expr          "([modifiers:] expr)"                      if, device, num_threads, collapse
#   exprs         "(expr, expr, ...)"                        sizes, permutation
#   list          "([modifiers:] list)"                      private, map, to, from, link, enter
#   keyword       "([modifiers:] kw)" kw from `keywords`     default, proc_bind, device_type, order
#   keyword_expr  "([modifiers:] kw[, expr])"                schedule, dist_schedule
#   defaultmap    "(behavior[: category])"
#   reduction     "([modifier,] identifier: list)"           reduction, in_reduction, task_reduction
#   depend        "([iterator(...),] type: list)" | "(source)" | "(sink: vec)"   depend, doacross
#   linear        "(list[: step])", "(mod(list)[: step])", "(list: mods)"       linear
#   aligned       "(list[: expr])"                           aligned
#   selector      "(context-selector)"                       match
#   adjust_args   "(need_device_ptr|nothing|...: list)"
#   append_args   "(interop(prefs), ...)"
#   uses_allocators "(alloc[(traits)], ...)" | "(traits(t), memspace(m): alloc)"
#   when          "(context-selector : [directive-variant])"  when (the variant kept as one span)
#   opaque        balanced parentheses, content kept as one span   otherwise, initializer
Shape = Literal[
    "none", "opt_expr", "expr", "exprs", "list", "keyword", "keyword_expr", "defaultmap",
    "reduction", "depend", "linear", "aligned", "selector", "adjust_args", "append_args",
    "uses_allocators", "when", "opaque",
]

# How a directive's own parenthesised argument (after its name) is read.
#   None      no argument allowed
#   list      "(list)"               threadprivate, declare target, flush, allocate, groupprivate
#   name      "(name)"               critical, declare simd, depobj, declare variant (and "base:variant")
#   opaque    balanced parentheses   declare reduction, declare mapper, declare induction
DirectiveArgument = Literal["list", "name", "opaque"]

# What a directive applies to, which decides its extent and its end directive:
#   block       a structured block (C/C++: the next statement; Fortran: up to "end <name>")
#   loop        the following loop nest (Fortran "end <name>" optional)
#   statement   the next statement (atomic; Fortran "end atomic" optional)
#   none        standalone: nothing follows (barrier, target update, declare target with a list)
#   begin       opens a delimited region closed by the directive named in `end`
#   end         closes a delimited region (end declare target, end declare variant)
#   separating  separates parts of an enclosing construct (section, scan)
#   declaration applies to the following declaration (declare simd, declare variant)
Association = Literal["block", "loop", "statement", "none", "begin", "end", "separating", "declaration"]

DirectiveKind = Literal["executable", "declarative", "informational", "utility", "subsidiary", "meta"]
Lang = Literal["all", "c", "fortran"]


@dataclass(frozen=True)
class ClauseSpec:
    name: str
    shape: Shape
    # Words allowed before the ':' (or as leading modifiers). A trailing "()" means the
    # modifier takes a parenthesised argument (e.g. "mapper()", "iterator()", "step()").
    # "<expr>" means an arbitrary expression may stand there (allocate's allocator).
    modifiers: tuple[str, ...] = ()
    # Modifiers that need an OpenMP version newer than the clause itself: {"present": 51}.
    modifier_since: dict[str, Version] = field(default_factory=dict)
    # For keyword / keyword_expr / defaultmap: the allowed keyword values (defaultmap: behaviors).
    keywords: tuple[str, ...] = ()
    # defaultmap only: the allowed categories after ':'.
    categories: tuple[str, ...] = ()
    # True when the clause may appear at most once on a directive.
    unique: bool = False
    # "modifier": at most once per directive-name modifier (if);
    # "category": at most once per category (defaultmap).
    unique_key: Literal["modifier", "category", None] = None
    # True when the argument list must contain a ':' (reduction, adjust_args, ...).
    colon_required: bool = False
    lang: Lang = "all"
    doc: str = ""


@dataclass(frozen=True)
class DirectiveSpec:
    name: str                       # words separated by one space, lower case
    kind: DirectiveKind
    association: Association
    clauses: dict[str, Since] = field(default_factory=dict)
    # Clauses allowed at most once on this directive, beyond ClauseSpec.unique.
    unique: frozenset[str] = frozenset()
    since: Since = 45
    lang: Lang = "all"
    argument: DirectiveArgument | None = None
    argument_required: bool = False
    # For association "begin": the name of the directive that closes it.
    end: str | None = None
    # Exactly one of these clauses must be given (cancel's construct type).
    exactly_one_of: tuple[str, ...] = ()
    # Clause sets of which at most one member may appear on the directive: the spec's
    # "exclusive" clause sets and its "X and Y must not both appear" restrictions
    # (declare simd's inbranch/notinbranch, taskloop's grainsize/num_tasks).
    exclusive: tuple[frozenset[str], ...] = ()
    # Clauses that make a block directive standalone (ordered with depend/doacross).
    standalone_with: frozenset[str] = frozenset()
    # Per-directive shape overrides (metadirective's default clause is a directive variant).
    shape_overrides: dict[str, Shape] = field(default_factory=dict)
    doc: str = ""
