"""Directive-level syntax rules that need more than one directive or the tree:
pairing (OMP006), version spellings (OMP007) and placement (OMP008).

OMP001-OMP005 and OMP009 come from the parser itself, as it reads each directive.
"""
from __future__ import annotations

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


@rule("OMP007")
def deprecated_spellings(ctx: FileContext) -> Iterator[Finding]:
    deprecated_on = {directive for directive, _ in DEPRECATED_CLAUSES}
    for d in ctx.directives:
        for clause in d.clauses if d.name in deprecated_on else ():
            entry = DEPRECATED_CLAUSES.get((d.name, clause.name))
            since = d.spec.clauses.get(clause.name) if d.spec else None
            if entry is not None and ctx.version >= entry[0] and since is not None and allowed_in(since, ctx.version):
                version, new = entry
                yield Finding("OMP007", f"the '{clause.name}' clause of '{d.name}' is deprecated since OpenMP "
                              f"{version // 10}.{version % 10}; use '{new}'", clause.name_span, Severity.WARNING,
                              fixes=[Fix(f"Rename to '{new}'", ((clause.name_span, new),))])
        if (ctx.version >= 52 and not ctx.document.language.is_fortran and not d.raw.in_macro
                and is_delimited_declare_target(d)):
            yield Finding("OMP007", "the clause-less delimited 'declare target' is deprecated since OpenMP 5.2; "
                          "use 'begin declare target'", d.name_span, Severity.WARNING,
                          fixes=[Fix("Change to 'begin declare target'", ((d.name_span, "begin declare target"),))])


@rule("OMP008")
def directive_placement(ctx: FileContext) -> Iterator[Finding]:
    doc = ctx.document
    if doc.language not in (Language.C, Language.CPP) or not ctx.directives:
        return
    tree = doc.tree
    if tree is None:
        return
    for d in ctx.directives:
        spec = d.spec
        if spec is None or d.raw.in_macro:
            continue
        file_scope_only = d.name in FILE_SCOPE_ONLY or is_delimited_declare_target(d)
        executable = spec.kind == "executable"
        if not file_scope_only and not executable:
            continue
        scope = _scope(tree, d.raw.span[0])
        if scope == "function" and file_scope_only:
            yield Finding("OMP008", f"'{d.name}' must be at file or namespace scope, not inside a function body",
                          d.name_span)
        elif scope == "file" and executable:
            yield Finding("OMP008", f"'{d.name}' is an executable directive and must be inside a function body",
                          d.name_span)


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
