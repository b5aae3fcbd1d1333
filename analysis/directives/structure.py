"""Block structure of directives: each construct's extent and begin/end pairing.

C/C++: a construct's extent is the statement after its pragma (through nested pragmas);
begin/end pairs (`begin declare target` ... `end declare target`) are matched with a stack.
Fortran: a block construct extends to its `end` directive; loop constructs cover the
following DO loop and may have an optional `end` directive.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, cast

from ..syntax.diagnostics import Finding, Fix
from ..syntax.document import Document, Language, Span
from ..syntax.records import dataclass, deferred, field
from .lexer import tokenize_head
from .nodes import Directive
from .tables import DIRECTIVES

if TYPE_CHECKING:

    from .fortran_blocks import BlockEvent, Statement


EXTENTS = "extents"          # the structure names of reads of Structure's extents and statements
STATEMENTS = "statements"


@dataclass
class Structure:
    extents: dict[int, Span] = field(default_factory=dict)   # directive index -> extent
    pairs: dict[int, int] = field(default_factory=dict)      # begin index -> end index
    findings: list[Finding] = field(default_factory=list)
    statements: list[Statement] | None = None                # Fortran: the statement scanner's result


# C extents need a walk of the tree: done when a rule first asks. A read of the extents, or of
# the Fortran statements, is recorded: a rule that read them may have read the code inside a
# construct through them (construct_edit runs such a rule again after an edit there).
deferred(Structure, "extents", recorded=EXTENTS)
deferred(Structure, "statements", recorded=STATEMENTS)


_REGION_CLAUSES = frozenset({"indirect", "device_type"})


def is_delimited_declare_target(d: Directive) -> bool:
    """A C/C++ `declare target` (not `begin`) that opens a region: the clause-less 5.0/5.1 form,
    or `declare target indirect [device_type(...)]`, which clang (and LLVM's own tests) read as
    the start of a region although the grammar has only `begin declare target indirect`."""
    if d.name != "declare target" or d.argument is not None or d.malformed:
        return False   # (a directive that could not be read opens nothing: its error is reported)
    if not d.clauses:
        return True
    names = {c.name for c in d.clauses}
    return "indirect" in names and names <= _REGION_CLAUSES


def association(d: Directive) -> str | None:
    """The directive's association, taking clauses that make it standalone into account."""
    spec = d.spec
    if spec is None:
        return None
    if spec.standalone_with and any(c.name in spec.standalone_with for c in d.clauses):
        return "none"
    return spec.association


def _closing_name(d: Directive) -> str | None:
    """C/C++: the end directive that closes a region this directive opens."""
    if d.spec is None:
        return None
    if d.spec.association == "begin":
        return d.spec.end
    if is_delimited_declare_target(d):
        return "end declare target"
    return None


_WS_OR_COMMENT = re.compile(rb"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_STOP_AT_PARENT = frozenset({"translation_unit", "compound_statement", "declaration_list",
                             "field_declaration_list", "preproc_if", "preproc_ifdef", "preproc_else",
                             "preproc_elif", "linkage_specification"})


def _c_extents(doc: Document, directives: list[Directive], out: Structure, among: range | None = None) -> None:
    """The extents of the directives (of those `among`, when given: a nested directive's extent
    is then read from `out` when it lies outside them)."""
    tree = doc.tree
    if tree is None:
        return
    src = doc.source
    starts = {d.raw.span[0]: i for i, d in enumerate(directives)} if among is None \
        else {directives[i].raw.span[0]: i for i in range(among.start, min(among.stop + 1, len(directives)))}
    for i in reversed(among if among is not None else range(len(directives))):
        d = directives[i]
        if d.raw.in_macro or association(d) not in ("block", "loop", "statement", "declaration"):
            continue
        blanks = _WS_OR_COMMENT.match(src, d.raw.span[1])
        assert blanks is not None  # the pattern matches the empty string too
        p = blanks.end()
        if p >= len(src):
            continue
        nested = starts.get(_line_start(src, p))
        if nested is not None and nested != i:
            inner = out.extents.get(nested)
            out.extents[i] = (p, inner[1] if inner else directives[nested].raw.span[1])
            continue
        if src[p:p + 1] == b"#":
            continue  # another preprocessor line: the statement is not known here
        node = tree.root_node.named_descendant_for_byte_range(p, p + 1)
        if node is None:
            continue
        while (node.parent is not None and node.parent.start_byte == p
               and node.parent.type not in _STOP_AT_PARENT):
            node = node.parent
        if node.type in _DECLARATIONS and association(d) != "declaration" and node.parent is not None \
                and node.parent.type in _FILE_SCOPES:
            continue   # a construct at file scope (an error of its own): no statement, the function after is not its
        out.extents[i] = (p, node.end_byte)


# What follows a construct at file or namespace scope: declarations, not the statement it needs.
_DECLARATIONS = frozenset({"function_definition", "declaration", "template_declaration", "class_specifier",
                           "struct_specifier", "union_specifier", "enum_specifier", "namespace_definition",
                           "linkage_specification", "type_definition", "alias_declaration"})
_FILE_SCOPES = frozenset({"translation_unit", "declaration_list", "linkage_specification"})


def _line_start(src: bytes, p: int) -> int:
    return src.rfind(b"\n", 0, p) + 1 if src[p:p + 1] == b"#" else p


def _c_pairs(doc: Document, directives: list[Directive], out: Structure) -> None:
    stack: list[tuple[int, str]] = []
    assumed: set[int] = set()
    for i, d in enumerate(directives):
        if d.spec is None and not d.raw.in_macro:
            # A misspelt begin (already OMP001) still opens its region: its end is not reported too.
            closing = _meant_closing(d)
            if closing:
                stack.append((i, closing))
                assumed.add(i)
            continue
        if d.spec is None or d.raw.in_macro:
            continue
        closing = _closing_name(d)
        is_end = d.spec.association == "end"
        if closing:
            stack.append((i, closing))
        elif is_end:
            _close(directives, stack, i, d.name, out)
    for i, closing in stack:
        if i not in assumed:
            _unclosed(directives[i], closing, out)


def _meant_closing(d: Directive) -> str | None:
    """The end directive of the begin directive an unknown name was probably meant to be."""
    meant = DIRECTIVES.get(d.suggestion) if d.suggestion else None
    if meant is not None and meant.association == "begin":
        return meant.end
    if d.macro_name and d.suggestion == "declare target" and _name_only(d):
        return "end declare target"   # `DECLARE TARGET` alone: the clause-less delimited form
    return None


_NAME_ONLY_TOKENS = 16


def _name_only(d: Directive) -> bool:
    """Nothing but the name words: a directive without clauses or list."""
    if b"(" in d.raw.body:
        return False
    toks = tokenize_head(d.raw.body, _NAME_ONLY_TOKENS)
    if len(toks) == _NAME_ONLY_TOKENS:
        return False   # more tokens than any directive name has words (the body may be megabytes)
    words = " ".join(t.text.lower() for t in toks if t.kind == "ident")
    return words.replace("_", " ") == d.suggestion


def _close(directives: list[Directive], stack: list[tuple[int, str]], i: int, name: str, out: Structure) -> None:
    """Pair an end directive with the innermost open region it closes. Regions of another
    kind opened in between stay open: overlapping regions are OMP311's concern, not OMP006's."""
    d = directives[i]
    for depth in range(len(stack) - 1, -1, -1):
        if stack[depth][1] == name:
            out.pairs[stack[depth][0]] = i
            del stack[depth]
            return
    opener = "begin " + name[4:] if name.startswith("end ") else name
    out.findings.append(Finding(
        "OMP006", f"'{d.name}' has no matching '{opener}' before it", d.name_span,
        fixes=[Fix(f"Remove '{d.name}'", ((d.raw.span, ""),))]))


def _unclosed(d: Directive, closing: str, out: Structure) -> None:
    prefix = "#pragma omp " if d.raw.form in ("pragma", "_Pragma") else "!$omp "
    out.findings.append(Finding("OMP006", f"'{d.name}' is never closed: '{prefix}{closing}' is missing",
                                d.name_span, data={"missing": closing}))


# ---------------------------------------------------------------- Fortran

def _fortran_structure(doc: Document, directives: list[Directive], out: Structure) -> None:
    from .fortran_blocks import block_events, statements  # Fortran only
    src = doc.source
    fixed = doc.language is Language.FORTRAN_FIXED
    stmts = out.statements = statements(src, fixed)
    starts = [st.start for st in stmts]
    optional: set[int] = set()
    for i, d in enumerate(directives):
        assoc = association(d)
        if assoc in ("loop", "statement"):
            optional.add(i)
        elif assoc == "block" and d.end_of is None:
            k = bisect_left(starts, d.raw.span[1])
            if k < len(stmts) and _BLOCK_STATEMENT.match(stmts[k].text):
                optional.add(i)  # a strictly structured block: the end directive is optional
    events = block_events(stmts)
    findings = _pair_fortran(directives, events, optional, out)
    if findings is None:  # the Fortran scanner lost track: pair without Fortran blocks
        out.pairs.clear()
        findings = _pair_fortran(directives, [], optional, out)
        assert findings is not None
    out.findings.extend(findings)
    for begin, end in out.pairs.items():
        out.extents[begin] = (directives[begin].raw.span[1], directives[end].raw.span[0])
    event_starts = [ev.offset for ev in events]
    for i, d in enumerate(directives):
        if association(d) == "loop" and i not in out.extents:
            extent = _do_loop_after(stmts, starts, events, event_starts, d.raw.span[1])
            if extent is not None:
                out.extents[i] = extent


_BLOCK_STATEMENT = re.compile(rb"\s*(?:[a-z_]\w*\s*:\s*)?block$")


# ('F', construct, label) for a Fortran block, ('O', directive index, closing directive) for an OpenMP one.
_Entry = tuple[Literal["F"], str, bytes] | tuple[Literal["O"], int, str]


def _pair_fortran(directives: list[Directive], events: list[BlockEvent], optional: set[int],
                  out: Structure) -> list[Finding] | None:
    """Pair Fortran begin and end directives within Fortran blocks and program units.
    Returns None when the Fortran blocks themselves do not nest (the scanner is unsure)."""
    found = Structure()
    # Stack entries: ("F", construct, label) for Fortran blocks, ("O", index, closing) for OpenMP ones.
    stack: list[_Entry] = []
    items: list[tuple[int, int, BlockEvent | int]] = [(ev.offset, 0, ev) for ev in events]
    items += [(d.raw.span[0], 1, i) for i, d in enumerate(directives)]
    items.sort(key=lambda item: (item[0], item[1]))

    def drop_openmp_above(depth: int) -> None:
        for entry in stack[depth:]:
            if entry[0] == "O" and entry[1] not in optional:
                _unclosed(directives[entry[1]], entry[2], found)
        del stack[depth:]

    for _, is_directive, payload in items:
        if not is_directive:
            ev = payload
            assert not isinstance(ev, int)  # a Fortran block event
            if ev.kind == "open":
                stack.append(("F", ev.construct, ev.label))
            elif ev.kind == "unit":
                drop_openmp_above(0)
            elif ev.kind == "close":
                depth = _last_fortran(stack, lambda e: not e[2])
                if depth is None:
                    return None
                drop_openmp_above(depth)
            else:  # a label ends every labelled DO that waits for it
                while (depth := _last_fortran(stack, lambda e: bool(e[2]))) is not None and stack[depth][2] == ev.label:
                    drop_openmp_above(depth)
            continue
        i = payload
        assert isinstance(i, int)
        d = directives[i]
        spec = d.spec
        if spec is None:
            meant = DIRECTIVES.get(d.suggestion) if d.suggestion else None
            if meant is not None and meant.association in ("block", "loop", "statement"):
                # A misspelt construct (already OMP001) may still be closed by its end directive.
                stack.append(("O", i, "end " + meant.name))
                optional.add(i)
            continue
        assoc = association(d)
        if d.end_of is not None or assoc == "end":
            target = "end " + (d.end_of or (spec.name[4:] if spec.name.startswith("end ") else spec.name))
            for depth in range(len(stack) - 1, -1, -1):
                entry = stack[depth]
                if entry[0] == "F":
                    depth = -1
                    break
                if entry[2] == target:
                    break
            else:
                depth = -1
            if depth < 0:
                found.findings.append(Finding(
                    "OMP006", f"'{d.name}' has no matching '{target[4:]}' before it in the same block",
                    d.name_span, fixes=[Fix(f"Remove '{d.name}'", ((d.raw.span, ""),))]))
                continue
            begin = cast(int, stack[depth][1])   # an OpenMP entry: the search above stops at Fortran ones
            drop_openmp_above(depth + 1)
            del stack[depth]
            out.pairs[begin] = i
        elif assoc in ("block", "loop", "statement"):
            stack.append(("O", i, "end " + spec.name))
        elif assoc == "begin" and spec.end:  # `begin metadirective` ... `end metadirective`
            stack.append(("O", i, spec.end))
    drop_openmp_above(0)
    return found.findings


def _last_fortran(stack: list[_Entry], accept: Callable[[_Entry], bool]) -> int | None:
    for depth in range(len(stack) - 1, -1, -1):
        if stack[depth][0] == "F":
            return depth if accept(stack[depth]) else None
    return None


def _do_loop_after(stmts: list[Statement], starts: list[int], events: list[BlockEvent],
                   event_starts: list[int], p: int) -> Span | None:
    """The DO loop that follows a loop directive: from its DO statement to the END DO (or the
    labelled statement) that closes it, by the same Fortran scanner that pairs directives."""
    k = bisect_left(starts, p)
    if k >= len(stmts):
        return None
    first = stmts[k]
    e = bisect_left(event_starts, first.start)
    if e >= len(events) or events[e].offset != first.start or events[e].kind != "open" or events[e].construct != "do":
        return None
    depth = 0
    labels: list[bytes] = []
    for ev in events[e:]:
        if ev.kind == "open":
            if ev.label:
                labels.append(ev.label)
            else:
                depth += 1
        elif ev.kind == "close":
            depth -= 1
        elif ev.kind == "label":
            while labels and labels[-1] == ev.label:
                labels.pop()
        else:
            return None  # the unit ended first
        if depth <= 0 and not labels:
            end = stmts[bisect_left(starts, ev.offset)]
            return first.start, end.end
    return None


def analyse_structure(doc: Document, directives: list[Directive]) -> Structure:
    out = Structure()
    if doc.language.is_fortran:
        _fortran_structure(doc, directives, out)
    else:
        _defer_c_extents(doc, directives, out)
        _c_pairs(doc, directives, out)
    return out


def c_structure_moved(doc: Document, directives: list[Directive], old: Structure, findings: list[Finding],
                      moved: tuple[Callable[[Span], Span], range] | None = None) -> Structure:
    """A C/C++ file's structure after an edit that moved its directives and changed nothing
    they pair by (procedure_edit): `old`'s pairs, these findings, the extents read again.
    `moved`: how a span of the old text moves, and the directives whose extents may have
    changed otherwise (those in the edited function: the tree outside it is the same, moved);
    the others' extents are then `old`'s, moved, when it has read them (no chain of texts is
    kept for extents never read)."""
    out = Structure(pairs=old.pairs, findings=findings)
    if moved is None or callable(old.__dict__["extents"]):
        _defer_c_extents(doc, directives, out)
        return out
    span, among = moved
    out.extents = {i: span(e) for i, e in old.extents.items() if i not in among}
    _c_extents(doc, directives, out, among)
    return out


def _defer_c_extents(doc: Document, directives: list[Directive], out: Structure) -> None:
    def extents() -> dict[int, Span]:
        found = Structure()
        _c_extents(doc, directives, found)
        return found.extents
    out.extents = extents  # type: ignore[assignment]


__all__ = ["Structure", "analyse_structure", "association", "c_structure_moved", "is_delimited_declare_target"]
