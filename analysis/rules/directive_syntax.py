"""Directive-level syntax rules that need more than one directive or the tree:
pairing (OMP006), version spellings (OMP007) and placement (OMP008).

OMP001-OMP005 and OMP009 come from the parser itself, as it reads each directive.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Iterator

from ..diagnostics import Finding, Fix, Severity
from ..directives.parser import allowed_in
from ..directives.structure import is_delimited_declare_target
from ..syntax import Language
from . import FileContext, rule

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


@rule("OMP008", per_directive=True)
def directive_placement(ctx: FileContext) -> Iterator[Finding]:
    doc = ctx.document
    if doc.language not in (Language.C, Language.CPP) or not ctx.directives:
        return
    tree = doc.tree
    if tree is None:
        return
    scopes = _TopLevel(tree)
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

    def __init__(self, tree) -> None:
        self.tree = tree
        root = tree.root_node
        # An ERROR or missing root makes every walk end in "unknown" unless a body comes first.
        self.root_ok = root.type != "ERROR" and not root.is_missing
        self.nodes = root.named_children
        self.starts = [n.start_byte for n in self.nodes]
        self.verdicts: dict[int, tuple[int, str | None]] = {}  # node index -> (end byte, verdict)

    def scope(self, offset: int) -> str:
        i = bisect_right(self.starts, offset) - 1
        if i >= 0:
            known = self.verdicts.get(i)
            if known is None:
                known = self.verdicts[i] = (self.nodes[i].end_byte, self._verdict(i))
            if offset < known[0] and known[1] is not None:
                return known[1]
        return _scope(self.tree, offset)

    def _verdict(self, i: int) -> str | None:
        """The scope of any pragma inside top-level node i, or None when only the walk can tell."""
        node = self.nodes[i]
        if node.has_error:  # an ERROR or missing node somewhere inside
            return None
        kind = node.type
        if kind == "function_definition":
            return "function"
        if kind == "preproc_call" and self.root_ok:
            return "file" if self._clean(i, -1) and self._clean(i, 1) else "unknown"
        return None

    def _clean(self, i: int, step: int) -> bool:
        """`_clean_neighbour` on the top-level list."""
        nodes = self.nodes
        i += step
        while 0 <= i < len(nodes) and nodes[i].type in _SKIPPED_SIBLINGS:
            i += step
        if not 0 <= i < len(nodes):
            return True
        sibling = nodes[i]
        return not sibling.has_error and sibling.type not in _UNCERTAIN_SIBLINGS


def _scope(tree, offset: int) -> str:
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


def _clean_neighbour(node, direction: str) -> bool:
    """The nearest code beside a file-scope pragma parses as ordinary declarations."""
    sibling = getattr(node, direction)
    while sibling is not None and sibling.type in _SKIPPED_SIBLINGS:
        sibling = getattr(sibling, direction)
    return sibling is None or (not sibling.has_error and sibling.type not in _UNCERTAIN_SIBLINGS)
