"""Directive-level syntax rules that need more than one directive, the tree or the build:
pairing (OMP006), version spellings (OMP007), placement (OMP008), directive names in capitals
(OMP001 where the macro environment says they are no macro) and declare simd aligned items (OMP012).

OMP001-OMP005, OMP009 and OMP011 come from the parser itself, as it reads each directive.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from ..directives.lexer import tokenize_head
from ..directives.nodes import Directive, ListItem
from ..directives.parser import allowed_in, name_in_lower_case, name_index, suggest
from ..directives.structure import is_delimited_declare_target
from ..model.c_types import declarator_name
from ..model.file_model import FUNCTION, TYPE, VARIABLE, Symbol
from ..semantics.context import FileContext
from ..syntax.diagnostics import Finding, Fix, Related, Severity
from ..syntax.document import Language
from ..units.translation import is_header
from .registry import rule

if TYPE_CHECKING:
    import tree_sitter

# Spellings deprecated from a version on: (directive, clause) -> (version, replacement).
# Once a later version removes the spelling, the parser reports it instead (OMP007 from the tables).
DEPRECATED_CLAUSES: dict[tuple[str, str], tuple[int, str]] = {
    ("declare target", "to"): (52, "enter"),
    ("metadirective", "default"): (52, "otherwise"),
    ("begin metadirective", "default"): (52, "otherwise"),
}

_FUNCTION_BODY = frozenset({"compound_statement", "function_definition", "lambda_expression"})
# Directives that may only stand at file or namespace scope (never in a function body).
FILE_SCOPE_ONLY = frozenset({"begin declare target", "end declare target", "declare variant", "requires"})
_SKIPPED_SIBLINGS = frozenset({"comment", "preproc_call"})
_UNCERTAIN_SIBLINGS = frozenset({"ERROR", "macro_type_specifier", "expression_statement"})


@rule("OMP006")
def unpaired_begin_end(ctx: FileContext) -> Iterator[Finding]:
    yield from ctx.structure.findings


@rule("OMP007", per_directive=True)
def deprecated_spellings(ctx: FileContext) -> Iterator[Finding]:
    deprecated_on = {directive for directive, _ in DEPRECATED_CLAUSES}
    for _, d in ctx.each_directive():
        for clause in d.clauses if d.name in deprecated_on else ():
            entry = DEPRECATED_CLAUSES.get((d.name, clause.name))
            since = d.spec.clauses.get(clause.name) if d.spec else None
            if entry is not None and ctx.version >= entry[0] and since is not None and allowed_in(since, ctx.version):
                version, new = entry
                yield Finding("OMP007", f"the '{clause.name}' clause of '{d.name}' is deprecated since OpenMP "
                              f"{version // 10}.{version % 10}; use '{new}'", clause.name_span, Severity.WARNING,
                              fixes=[Fix(f"Rename to '{new}'", ((clause.name_span, new),))])
        if ctx.document.language.is_fortran or d.raw.in_macro or not is_delimited_declare_target(d):
            continue
        fix = Fix("Change to 'begin declare target'", ((d.name_span, "begin declare target"),))
        if d.clauses:
            yield Finding("OMP007", "'declare target indirect' opening a region is not OpenMP syntax (clang accepts "
                          "it, gcc does not); use 'begin declare target indirect'", d.name_span, Severity.WARNING,
                          fixes=[fix])
        elif ctx.version >= 52:
            yield Finding("OMP007", "the clause-less delimited 'declare target' is deprecated since OpenMP 5.2; "
                          "use 'begin declare target'", d.name_span, Severity.WARNING, fixes=[fix])


@rule("OMP001", per_directive=True)
def directive_name_in_capitals(ctx: FileContext) -> Iterator[Finding]:
    """`#pragma omp TARGET`: the parser takes a capitalised name word for a macro and says nothing;
    here the build's macro environment decides. Silent when the word may be a macro after all: one
    the file, its headers or the command line define, or one from a header that was not found."""
    config = ctx.configuration
    if ctx.document.language.is_fortran or config is None or not _sees_every_macro(ctx):
        return
    for _, d in ctx.each_directive():
        if not d.macro_name or d.raw.in_macro:
            continue
        words = [t.text for t in tokenize_head(d.raw.body, 8) if t.kind == "ident"]
        if not words or any(w in ctx.macros or w in config.macros for w in words):
            continue
        capital = next((w for w in words if w.isupper()), words[0])
        not_macro = f"'{capital}' is not a macro this build defines"
        found = name_in_lower_case(d.raw, ctx.document.language)
        if found is not None:
            span, name = found
            written = ctx.document.source[span[0]:span[1]].decode("utf-8", "replace")
            yield Finding("OMP001", f"unknown OpenMP directive '{written}': directive names are lower case in C "
                          f"and C++, and {not_macro}; did you mean '{name}'?", span,
                          fixes=[Fix(f"Change to '{name}'", ((span, name),))], data={"suggestion": name})
        else:
            written = " ".join(ctx.document.source[d.name_span[0]:d.name_span[1]].decode("utf-8", "replace").split())
            guess = suggest(written.lower(), _own_names(ctx), 0.75)
            yield Finding("OMP001", f"unknown OpenMP directive '{written}': {not_macro}"
                          + (f"; did you mean '{guess}'?" if guess else ""), d.name_span,
                          fixes=[Fix(f"Change to '{guess}'", ((d.name_span, guess),))] if guess else [])


def _sees_every_macro(ctx: FileContext) -> bool:
    """Whether a name no definition in sight makes a macro is none: a header read alone may get
    macros from the file that includes it."""
    config = ctx.configuration
    return config is not None and config.knows_every_macro() and not (ctx.path and is_header(ctx.path))


def _own_names(ctx: FileContext) -> list[str]:
    return name_index(ctx.document.language.is_fortran).own


@rule("OMP008", per_directive=True)
def directive_placement(ctx: FileContext) -> Iterator[Finding]:
    doc = ctx.document
    if doc.language not in (Language.C, Language.CPP) or not ctx.directives:
        return
    tree = doc.tree
    if tree is None:
        return
    scopes = _TopLevel(tree, ctx.focus is not None)
    # a header included inside a function body (kernels kept in a header): its top level is
    # that function's body
    includer = ctx.configuration.includer if ctx.configuration is not None else None
    fragment = includer is not None and includer.function is not None
    for _, d in ctx.each_directive():
        spec = d.spec
        if spec is None or d.raw.in_macro:
            continue
        file_scope_only = d.name in FILE_SCOPE_ONLY or is_delimited_declare_target(d)
        executable = spec.kind == "executable"
        if not file_scope_only and not executable:
            continue
        scope = scopes.scope(d.raw.span[0])
        if fragment and scope == "file":
            scope = "function"
        if scope == "function" and file_scope_only:
            yield Finding("OMP008", f"'{d.name}' must be at file or namespace scope, not inside a function body",
                          d.name_span)
        elif scope == "file" and executable:
            yield Finding("OMP008", f"'{d.name}' is an executable directive and must be inside a function body",
                          d.name_span)


class _TopLevel:
    """`_scope` answers for many directives from one list of the tree's top-level nodes.

    Walking up from every pragma is slow (tree-sitter finds a node's parent and siblings by
    searching down from the root), so the two common cases are decided here: a pragma inside an
    error-free function definition at top level is in a function body, and an error-free pragma
    line at top level is at file scope when its neighbours are clean. Anything else (namespaces,
    #if groups, errors) takes the exact walk of `_scope`."""

    def __init__(self, tree: tree_sitter.Tree, one: bool = False) -> None:
        """`one`: for one directive (a rule checking one again): the top-level node holding it is
        found by the tree itself, not in a list of them all (thousands in a large file)."""
        self.tree = tree
        root = tree.root_node
        # An ERROR or missing root makes every walk end in "unknown" unless a body comes first.
        self.root_ok = root.type != "ERROR" and not root.is_missing
        self.one = one
        self.nodes = [] if one else root.named_children
        self.starts = [n.start_byte for n in self.nodes]
        self.verdicts: dict[int, tuple[int, str | None]] = {}  # node index -> (end byte, verdict)

    def scope(self, offset: int) -> str:
        if self.one:
            node = self.tree.root_node.first_named_child_for_byte(offset)
            if node is not None and node.start_byte <= offset:   # (else between top-level nodes)
                verdict = self._verdict(node, lambda step: _clean_neighbour(
                    node, "next_named_sibling" if step > 0 else "prev_named_sibling"))
                if verdict is not None:
                    return verdict
            return _scope(self.tree, offset)
        i = bisect_right(self.starts, offset) - 1
        if i >= 0:
            known = self.verdicts.get(i)
            if known is None:
                known = self.verdicts[i] = (self.nodes[i].end_byte,
                                            self._verdict(self.nodes[i], lambda step: self._clean(i, step)))
            if offset < known[0] and known[1] is not None:
                return known[1]
        return _scope(self.tree, offset)

    def _verdict(self, node: tree_sitter.Node, clean: Callable[[int], bool]) -> str | None:
        """The scope of any pragma inside a top-level node, or None when only the walk can tell
        (`clean(step)`: whether the neighbour before (-1) or after (1) it is clean)."""
        if node.has_error:  # an ERROR or missing node somewhere inside
            return None
        kind = node.type
        if kind == "function_definition":
            return "function"
        if kind == "preproc_call" and self.root_ok:
            return "file" if clean(-1) and clean(1) else "unknown"
        return None

    def _clean(self, i: int, step: int) -> bool:
        """`_clean_neighbour` on the top-level list."""
        nodes = self.nodes
        i += step
        while 0 <= i < len(nodes) and nodes[i].type in _SKIPPED_SIBLINGS:
            i += step
        if not 0 <= i < len(nodes):
            return True
        return _clean_sibling(nodes[i], after=step > 0)


def _scope(tree: tree_sitter.Tree, offset: int) -> str:
    """'function', 'file', or 'unknown' when the tree around the directive may be wrong
    (a parse error, or macros that open and close function bodies)."""
    node = tree.root_node.descendant_for_byte_range(offset, offset + 1)
    pragma = None
    while node is not None:
        if node.type == "ERROR" or node.is_missing:
            return "unknown"
        if node.type in _FUNCTION_BODY:
            return "function"
        if pragma is None and node.type == "preproc_call":
            pragma = node
        node = node.parent
    if pragma is not None and not (_clean_neighbour(pragma, "prev_named_sibling")
                                   and _clean_neighbour(pragma, "next_named_sibling")):
        return "unknown"
    return "file"


def _clean_neighbour(node: tree_sitter.Node, direction: str) -> bool:
    """The nearest code beside a file-scope pragma parses as ordinary declarations."""
    sibling = getattr(node, direction)
    while sibling is not None and sibling.type in _SKIPPED_SIBLINGS:
        sibling = getattr(sibling, direction)
    return sibling is None or _clean_sibling(sibling, after=direction == "next_named_sibling")


def _clean_sibling(sibling: tree_sitter.Node, after: bool) -> bool:
    """Ordinary declarations, or a function definition after the pragma whose head parses: a body
    with errors (a malformed directive inside it) still puts the pragma before the function."""
    if not sibling.has_error:
        return sibling.type not in _UNCERTAIN_SIBLINGS
    if not after or sibling.type != "function_definition":
        return False
    body = sibling.child_by_field_name("body")
    head = [c for c in sibling.children if c != body]
    return body is not None and bool(head) and not any(c.has_error or c.type == "ERROR" for c in head)


# ---------------------------------------------------------------------------------------------
# OMP012: declare simd aligned list items
# ---------------------------------------------------------------------------------------------

@rule("OMP012", per_directive=True)
def aligned_item_type(ctx: FileContext) -> Iterator[Finding]:
    """An aligned item of declare simd must be a pointer or array (C/C++) or of type C_PTR, or
    POINTER or ALLOCATABLE (Fortran). Only parameters whose declaration the file shows are judged."""
    fortran = ctx.document.language.is_fortran
    for _, d in ctx.each_directive(ctx.directives_named("declare simd")):
        clauses = d.clauses_named("aligned")
        if not clauses or d.uses_macros or d.raw.in_macro:
            continue
        judge = _fortran_aligned(ctx, d) if fortran else _c_aligned(ctx, d)
        if judge is None:
            continue
        for clause in clauses:
            for item in clause.items:
                if item.is_plain_name and item.name is not None:
                    finding = judge(item)
                    if finding is not None:
                        yield finding


def _c_aligned(ctx: FileContext, d: Directive) -> Callable[[ListItem], Finding | None] | None:
    """A judge of the items by the parameters of the function the directive applies to."""
    function = _simd_function(ctx, d)
    types = ctx.c_types
    if function is None or function.template or types is None:
        return None
    sig = types.signature(function)
    names = types.parameter_names(function)
    if sig is None or sig.params is None or names is None or len(names) != len(sig.params):
        return None
    by_name = {n: t for n, t in zip(names, sig.params) if n}

    def judge(item: ListItem) -> Finding | None:
        ct = by_name.get(item.name or "")
        if ct is None or ct.is_pointer or not ct.known:
            return None
        return Finding("OMP012", f"'{item.name}' has type '{ct.text}': an aligned item must be a pointer or an "
                       "array parameter; remove it from the aligned clause", item.span,
                       related=[Related(function.name_span, f"'{function.name}' declared here")])
    return judge


def _simd_function(ctx: FileContext, d: Directive) -> Symbol | None:
    """The function declared or defined right after the directive (other declare simd directives
    may stand between), when the tree shows it plainly."""
    tree = ctx.document.tree
    if tree is None:
        return None
    start = d.raw.span[0]
    node = tree.root_node.descendant_for_byte_range(start, start + 1)
    while node is not None and node.type != "preproc_call":
        node = node.parent
    if node is None or node.start_byte != start:
        return None
    simd_starts = {x.raw.span[0] for _, x in ctx.directives_named("declare simd")}
    nxt = node.next_named_sibling
    while nxt is not None and (nxt.type == "comment" or (nxt.type == "preproc_call" and nxt.start_byte in simd_starts)):
        nxt = nxt.next_named_sibling
    if nxt is None or nxt.has_error:
        return None
    declarators: Sequence[tree_sitter.Node | None]
    if nxt.type == "function_definition":
        declarators = [nxt.child_by_field_name("declarator")]
    elif nxt.type == "declaration":
        declarators = nxt.children_by_field_name("declarator")
    else:
        return None   # a template, a macro, a class: not judged
    name = declarator_name(declarators[0]) if len(declarators) == 1 else None
    if name is None:
        return None
    return next((s for s in ctx.model.named(ctx.document.source[name.start_byte:name.end_byte].decode())
                 if s.kind == FUNCTION and s.name_span[0] == name.start_byte), None)


def _fortran_aligned(ctx: FileContext, d: Directive) -> Callable[[ListItem], Finding | None] | None:
    """A judge of the items by the dummy arguments of the subprogram whose specification part
    holds the directive (when the directive names another procedure: not judged)."""
    from ..model.model_fortran import declared_c_ptr  # a C check never loads the Fortran model
    model = ctx.model
    # (the scope's own completeness suffices: a dummy's type and attributes are declared there)
    scope = model.scope_at(d.span[0])
    owner = scope.symbol if scope is not None else None
    named = d.argument[0].text.strip().lower() if d.argument else None
    if owner is None or not scope.complete or (named is not None and named != owner.key):
        return None

    def judge(item: ListItem) -> Finding | None:
        hits = [s for s in scope.symbols if s.key == model.key_of(item.name or "") and s.kind == VARIABLE]
        if len(hits) != 1 or "dummy" not in hits[0].specifiers:
            return None
        sym = hits[0]
        if "pointer" in sym.specifiers or "allocatable" in sym.specifiers:
            return None
        if declared_c_ptr(sym, lambda name: _only_types(ctx, name, sym.name_span[0])) is not False:
            return None
        return Finding("OMP012", f"'{item.name}' is of type {sym.type_text or 'unknown'} without the POINTER or "
                       "ALLOCATABLE attribute: an aligned item must be of type C_PTR, a pointer or allocatable; "
                       "remove it from the aligned clause", item.span,
                       related=[Related(sym.name_span, f"'{sym.name}' declared here")])
    return judge


def _only_types(ctx: FileContext, name: str, offset: int) -> bool:
    """Whether `name` names a derived type defined in this file (so not C_PTR renamed by a USE)."""
    model = ctx.model
    hits = model.visible(model.key_of(name), offset, before=False)
    return bool(hits) and all(s.kind == TYPE for s in hits)
