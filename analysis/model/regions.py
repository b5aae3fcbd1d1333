"""What target regions contain: facts the target region rules (OMP205-OMP216) need.

The program model knows declarations and references; these are the other things a rule
must see inside a `target` construct: its region (the construct's extent), the directives
nested in it, the calls made in it (every name applied to arguments, before any
resolution, so that OpenMP runtime routines from headers and modules are seen), member
accesses (`s.a`, `p->a`, `s%a`), and, for a `target` with a nested `teams`, the code
outside that `teams`. C and C++ read the tree-sitter tree (queries restricted to the
regions' bytes); Fortran reads the statement scanner's statements, line by line, so that
every name found keeps its exact bytes. Nothing here resolves names: rules do, with the
model. Everything is computed on first use and once per file.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from ..directives.source import split_fortran_comment
from ..syntax import reads
from ..syntax.document import Language, Span
from ..syntax.document import query as syntax_query
from ..syntax.records import dataclass, replace
from .file_model import is_target_region

if TYPE_CHECKING:
    import tree_sitter

    from ..directives.fortran_blocks import BlockEvent, Statement
    from ..directives.nodes import Directive
    from ..directives.structure import Structure
    from ..syntax.document import Document


@dataclass(eq=False)
class TargetRegion:
    """One `target` (or combined `target ...`) construct and the code it runs."""
    index: int                      # the directive's index in the file's directives
    span: Span                      # the region's code: the construct's extent
    ancestor: bool                  # a `device(ancestor: ...)` clause: the region runs on the parent device
    parent: TargetRegion | None = None   # the innermost target region around this one


@dataclass(frozen=True)
class Call:
    """A name applied to an argument list (`f(x)`, Fortran `call f(x)` and `call f`).

    Fortran cannot tell a function reference from an array element without declarations:
    `a(i)` is a Call too; rules compare names with tables or resolve them with the model.
    """
    name: str                       # as written
    key: str                        # lookup key (Fortran: lower case)
    span: Span                      # the name


@dataclass(frozen=True)
class MemberAccess:
    """`base.member`, `base->member` or Fortran `base%member`, where base is a plain name."""
    base: str
    base_key: str
    base_span: Span
    member: str
    member_key: str
    member_span: Span
    arrow: bool                     # C/C++ `->`: the structure is a pointer's target
    called: bool                    # the member is called (C++ method, function pointer, Fortran CALL)
    arguments: bool                 # Fortran: an argument or subscript list follows (`s%a(i)`, `s%f(x)`)

    @property
    def span(self) -> Span:
        return (self.base_span[0], self.member_span[1])


@dataclass(frozen=True)
class Branch:
    """A statement that leaves a target region's structured block (OMP217)."""
    kind: str                       # "return", "goto", "break", "continue"; Fortran "exit", "cycle"
    span: Span                      # the statement (C/C++: the keyword's statement node)
    target: str | None = None       # the label or construct name it names, as written


@dataclass(eq=False)
class TeamsNesting:
    """A `target` whose region holds a closely nested `teams` construct (OMP215)."""
    target: int                     # directive index of the target
    teams: int                      # directive index of the (first) closely nested teams
    outside: list[Span]             # statements, declarations and directives outside that teams,
                                    # in source order (each: its first line)


# The structure name under which reads of the code inside the target regions are recorded.
REGION_CODE = "region code"


def is_teams(d: Directive) -> bool:
    return d.name == "teams" or d.name.startswith("teams ")


def device_ancestor(d: Directive) -> bool:
    """A `device(ancestor: ...)` clause on the directive."""
    return any(c.modifier("ancestor") is not None for c in d.clauses_named("device"))


class Regions:
    """The target regions of one file and what they contain (see the module docstring)."""

    def __init__(self, document: Document, directives: list[Directive], structure: Structure,
                 targets: list[TargetRegion] | None = None, starts: list[int] | None = None,
                 nested: bool = False) -> None:
        self.document = document
        self.src = document.source
        self.fortran = document.language.is_fortran
        self.directives = directives
        self.structure = structure
        self._starts = [d.span[0] for d in directives] if starts is None else starts
        self._statements: list[Statement] | None = None
        self._statement_starts: list[int] | None = None
        self._extents: dict[int, Span | None] = {}
        self.targets: list[TargetRegion] = []
        self._calls: list[Call] | None = None
        self._members: list[MemberAccess] | None = None
        if targets is not None and nested:   # (another Regions' targets, nested already)
            self.targets = targets
        elif targets is not None:
            self._nest(targets)
        elif any(is_target_region(d) for d in directives):
            self._find_targets()
        self._target_starts = [r.span[0] for r in self.targets]

    # -- regions ---------------------------------------------------------------------------
    def _find_targets(self) -> None:
        found: list[TargetRegion] = []
        for i, d in enumerate(self.directives):
            if d.end_of is None and is_target_region(d):
                extent = self.extent(i)
                if extent is not None:
                    found.append(TargetRegion(i, extent, device_ancestor(d)))
        self._nest(found)

    def _nest(self, found: list[TargetRegion]) -> None:
        found.sort(key=lambda r: (r.span[0], -r.span[1]))
        stack: list[TargetRegion] = []
        for r in found:
            while stack and stack[-1].span[1] <= r.span[0]:
                stack.pop()
            r.parent = stack[-1] if stack else None
            stack.append(r)
        self.targets = found

    def moved(self, document: Document, structure: Structure, span: Callable[[Span], Span],
              edited: Span) -> Regions | None:
        """The regions of a text edited inside some constructs' extents, which the edit moved but
        did not change (procedure_edit and statement_edit check that), nor any directive:
        `span` moves a span of this text, `edited` is the text replaced (through the end of its
        line, which moves). The same targets, moved; the calls and member accesses read, of the
        outermost regions the edit is not in, moved, and of those it is in read again. None
        when a target's extent is not known in the new text."""
        extents = []
        for r in self.targets:
            extent = structure.extents.get(r.index)
            if extent is None and self.fortran:
                extent = span(r.span)   # (a BLOCK after the directive: _block_after)
            if extent is None:
                return None
            extents.append(extent)
        if all(extent == r.span for extent, r in zip(extents, self.targets)):
            # (most edits move no region's ends: the same regions, nested as they were)
            new = Regions(document, self.directives, structure, self.targets, self._starts, nested=True)
        else:   # (no directive moved)
            new = Regions(document, self.directives, structure,
                          [TargetRegion(r.index, extent, r.ancestor) for extent, r in zip(extents, self.targets)],
                          self._starts)
        edited_in = [k for k, r in enumerate(self.targets)
                     if r.parent is None and r.span[0] <= edited[1] and edited[0] < r.span[1]]
        before = [self.targets[k].span for k in edited_in]
        again = [new.targets[k].span for k in edited_in]
        if self._calls is not None:
            new._calls = sorted([*(_moved(c, span) for c in self._calls if not _inside(c.span[0], before)),
                                 *new._read_calls(again)], key=_call_start)
        if self._members is not None:
            new._members = sorted([*(_moved(m, span) for m in self._members if not _inside(m.base_span[0], before)),
                                   *new._read_members(again)], key=_base_start)
        return new   # (sorted stably: what starts at one offset is of one region, in its order)

    def extent(self, i: int) -> Span | None:
        """The code a construct applies to: the block structure's extent or, for a Fortran
        strictly structured block without its end directive, through the END BLOCK."""
        extent = self.structure.extents.get(i)
        if extent is not None or not self.fortran:
            return extent
        if i not in self._extents:
            self._extents[i] = self._block_after(self.directives[i].span[1])
        return self._extents[i]

    def by_directive(self) -> dict[int, TargetRegion]:
        """The regions by their target directive's index, in the order of `targets`."""
        found: dict[int, TargetRegion] | None = self.__dict__.get("_by_directive")
        if found is None:
            found = self.__dict__["_by_directive"] = {r.index: r for r in self.targets}
        return found

    def target_starts(self) -> list[int]:
        """Where the target regions start, in order (as `targets`)."""
        return self._target_starts

    def at(self, offset: int) -> TargetRegion | None:
        """The innermost target region holding `offset`."""
        k = bisect_right(self._target_starts, offset) - 1
        if k < 0:
            return None
        r: TargetRegion | None = self.targets[k]
        while r is not None and not (r.span[0] <= offset < r.span[1]):
            r = r.parent
        return r

    def directives_in(self, span: Span) -> list[int]:
        """Indices of the directives that start inside `span` (end directives left out)."""
        lo = bisect_left(self._starts, span[0])
        hi = bisect_left(self._starts, span[1])
        return [j for j in range(lo, hi) if not _is_end(self.directives[j])]

    def _outermost(self) -> list[Span]:
        return [r.span for r in self.targets if r.parent is None]

    # -- calls and member accesses ---------------------------------------------------------
    # What the rules read of the code in the regions (as opposed to which regions there are and
    # where), recorded apart: an edit inside a construct changes it, and the rules that read it
    # run again (construct_edit); the others keep what they found for the constructs it is not in.
    def calls(self) -> list[Call]:
        """Every call inside a target region, in source order."""
        reads.structure(REGION_CODE, self.document)
        if self._calls is None:
            self._calls = self._read_calls(self._outermost())
        return self._calls

    def member_accesses(self) -> list[MemberAccess]:
        """Every member access with a plain-name base inside a target region, in source order."""
        reads.structure(REGION_CODE, self.document)
        return self._all_members()

    def member_accesses_in(self, region: TargetRegion) -> list[MemberAccess]:
        """The member accesses inside `region` (with those of target regions nested in it): for a
        rule that checks the target directive with the code it applies to (a per_directive
        rule), which reads no other construct's code."""
        found = self._all_members()
        lo = bisect_left(found, region.span[0], key=_base_start)
        return found[lo:bisect_left(found, region.span[1], lo, key=_base_start)]

    def _all_members(self) -> list[MemberAccess]:
        if self._members is None:
            self._members = self._read_members(self._outermost())
        return self._members

    def _read_calls(self, spans: list[Span]) -> list[Call]:
        """The calls inside the (outermost region) spans."""
        if not spans:
            return []
        return self._fortran_calls(spans) if self.fortran else self._c_calls(spans)

    def _read_members(self, spans: list[Span]) -> list[MemberAccess]:
        if not spans:
            return []
        return self._fortran_members(spans) if self.fortran else self._c_members(spans)

    # -- C and C++ -------------------------------------------------------------------------
    def _c_matches(self, pattern: str, spans: list[Span]) -> Iterator[dict[str, list[tree_sitter.Node]]]:
        tree = self.document.tree
        if tree is None:
            return
        query = syntax_query(self.document.language, pattern)
        import tree_sitter
        for lo, hi in spans:
            cursor = tree_sitter.QueryCursor(query)
            cursor.set_byte_range(lo, hi)
            for _, captures in cursor.matches(tree.root_node):
                yield captures

    def _c_calls(self, spans: list[Span]) -> list[Call]:
        out = []
        for captures in self._c_matches(_CPP_CALL if self.document.language is Language.CPP else _C_CALL, spans):
            for node in captures.get("callee", []):
                name = self._text(node)
                out.append(Call(name, name, (node.start_byte, node.end_byte)))
            for node in captures.get("qualified", []):
                # `::f(x)` names the global f; `ns::f(x)` is another function
                name_node = node.child_by_field_name("name")
                if name_node is not None and name_node.type == "identifier" and node.child_by_field_name("scope") is None:
                    name = self._text(name_node)
                    out.append(Call(name, name, (name_node.start_byte, name_node.end_byte)))
        out.sort(key=lambda c: c.span[0])
        return out

    def _c_members(self, spans: list[Span]) -> list[MemberAccess]:
        out = []
        src = self.src
        for captures in self._c_matches(_C_MEMBER, spans):
            access, base, field = (captures.get(k, [None])[0] for k in ("access", "base", "field"))
            if access is None or base is None or field is None:
                continue
            parent = access.parent
            called = parent is not None and parent.type == "call_expression" and \
                parent.child_by_field_name("function") == access
            b, f = self._text(base), self._text(field)
            out.append(MemberAccess(b, b, (base.start_byte, base.end_byte), f, f, (field.start_byte, field.end_byte),
                                    b"->" in src[base.end_byte:field.start_byte], called, False))
        out.sort(key=lambda m: m.base_span[0])
        return out

    def _text(self, node: tree_sitter.Node) -> str:
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")

    # -- Fortran ---------------------------------------------------------------------------
    @property
    def statements(self) -> list[Statement]:
        if self._statements is None:
            stmts = self.structure.statements
            if stmts is None:
                from ..directives.fortran_blocks import statements
                stmts = statements(self.src, self.document.language is Language.FORTRAN_FIXED)
            self._statements = stmts
        return self._statements

    @property
    def statement_starts(self) -> list[int]:
        if self._statement_starts is None:
            self._statement_starts = [s.start for s in self.statements]
        return self._statement_starts

    def statements_in(self, span: Span) -> list[Statement]:
        """Fortran: the statements that start inside `span`."""
        starts = self.statement_starts
        return self.statements[bisect_left(starts, span[0]):bisect_left(starts, span[1])]

    def _block_after(self, offset: int) -> Span | None:
        """A BLOCK construct right after `offset`: (offset, end of its END BLOCK)."""
        stmts = self.statements
        k = bisect_left(self.statement_starts, offset)
        if k >= len(stmts) or not _F_BLOCK.match(stmts[k].text):
            return None
        depth = 0
        for st in stmts[k:]:
            if _F_BLOCK.match(st.text):
                depth += 1
            elif _F_END_BLOCK.match(st.text):
                depth -= 1
                if depth == 0:
                    return (offset, st.end)
            elif _F_UNIT_END.match(st.text):
                return None
        return None

    def _fortran_code(self, spans: list[Span]) -> Iterator[tuple[int, bytes]]:
        """(source offset, lower-case code with strings blanked) of each code line piece
        of the statements inside the (outermost target region) spans."""
        fixed = self.document.language is Language.FORTRAN_FIXED
        for span in spans:
            for st in self.statements_in(span):
                yield from _code_pieces(self.src, st, fixed)

    def _fortran_calls(self, spans: list[Span]) -> list[Call]:
        out = []
        src = self.src
        for base, code in self._fortran_code(spans):
            for m in _F_CALL.finditer(code):
                g = 1 if m.group(1) is not None else 2
                lo, hi = base + m.start(g), base + m.end(g)
                out.append(Call(src[lo:hi].decode("utf-8", "replace"), m.group(g).decode(), (lo, hi)))
        return out

    def _fortran_members(self, spans: list[Span]) -> list[MemberAccess]:
        out = []
        src = self.src
        for base, code in self._fortran_code(spans):
            for m in _F_MEMBER.finditer(code):
                b_lo, b_hi, f_lo, f_hi = (base + m.start(1), base + m.end(1), base + m.start(2), base + m.end(2))
                called = _F_CALL_BEFORE.search(code, 0, m.start()) is not None
                out.append(MemberAccess(src[b_lo:b_hi].decode("utf-8", "replace"), m.group(1).decode(), (b_lo, b_hi),
                                        src[f_lo:f_hi].decode("utf-8", "replace"), m.group(2).decode(), (f_lo, f_hi),
                                        False, called, m.group(3) == b"("))
        return out

    def statement_at(self, offset: int) -> Statement | None:
        """Fortran: the statement holding `offset`."""
        stmts = self.statements
        k = bisect_right(self.statement_starts, offset) - 1
        return stmts[k] if k >= 0 and offset <= stmts[k].end else None

    def declared_type(self, declaration: Span) -> str | None:
        """Fortran: the derived type (lower case) a type declaration statement gives
        (`type(t) :: x`, `class(t), pointer :: p`), or None."""
        st = self.statement_at(declaration[0])
        m = _F_DERIVED.match(st.text) if st is not None else None
        return m.group(1).decode() if m else None

    def components(self, definition: Span) -> frozenset[str] | None:
        """Fortran: the data component names of the derived type definition at `definition`
        (its TYPE statement through END TYPE), or None when a statement cannot be read."""
        names: set[str] = set()
        for st in self.statements_in(definition)[1:]:
            text = st.text
            if text == b"contains" or _F_END_TYPE.match(text):
                break
            if _F_TYPE_ATTRIBUTE.fullmatch(text):
                continue
            colons = text.find(b"::")
            if colons >= 0:
                entities = text[colons + 2:]
            else:
                m = _F_TYPE_SPEC.match(text)
                if m is None:
                    return None
                entities = text[m.end():]
            for part in _top_level_parts(entities):
                m = _F_LEADING_NAME.match(part)
                if m is None:
                    return None
                names.add(m.group(1).decode())
        return frozenset(names)

    # -- OMP217: branches out of a region -------------------------------------------------
    def branches_out(self, region: TargetRegion) -> list[Branch]:
        """The statements of the region (not of a target region nested in it) that leave it:
        a return, a jump to a label outside it, a break/continue/EXIT/CYCLE of a loop or
        construct outside it. Empty where the source cannot tell (syntax errors, macros that
        may open a loop). (It reads the region's own code: a rule checking the region's target
        directive with it is a per_directive one, nothing is recorded as REGION_CODE.)"""
        words = _F_BRANCH_WORDS if self.fortran else _C_BRANCH_WORDS
        if not words.search(self.document.source, region.span[0], region.span[1]):
            return []   # most regions hold no branch statement at all: no tree walk, no block reading
        found = self._fortran_branches(region) if self.fortran else self._c_branches(region)
        return [b for b in found if self.at(b.span[0]) is region]

    def _c_branches(self, region: TargetRegion) -> list[Branch]:
        tree = self.document.tree
        if tree is None:
            return []
        lo, hi = region.span
        node = tree.root_node.named_descendant_for_byte_range(lo, lo + 1)
        while node is not None and node.parent is not None and node.parent.start_byte == lo \
                and node.parent.end_byte <= hi:
            node = node.parent
        if node is None or (node.start_byte, node.end_byte) != (lo, hi) or node.has_error:
            return []   # not one statement the tree reads cleanly
        labels: set[str] = set()
        jumps: list[Branch] = []
        self._c_walk_branches(node, False, False, labels, jumps)
        return [b for b in jumps if b.kind != "goto" or b.target not in labels]

    def _c_walk_branches(self, node: tree_sitter.Node, loop: bool, switch: bool, labels: set[str],
                         out: list[Branch]) -> None:
        """Collect returns, gotos (and the region's labels), and break/continue with no loop or
        switch of the region around them. Lambdas and nested functions (local classes' member
        functions, or what a macro makes look like one) return from themselves."""
        kind = node.type
        if kind in _C_OWN_BODIES:
            return
        span = (node.start_byte, node.end_byte)
        if kind in ("return_statement", "co_return_statement"):
            out.append(Branch("return", span))
        elif kind == "goto_statement":
            label = node.child_by_field_name("label")
            if label is not None:
                out.append(Branch("goto", span, self._text(label)))
        elif kind == "break_statement" and not (loop or switch):
            out.append(Branch("break", span))
        elif kind == "continue_statement" and not loop:
            out.append(Branch("continue", span))
        elif kind == "labeled_statement":
            label = node.child_by_field_name("label")
            if label is not None:
                labels.add(self._text(label))
        loop = loop or kind in _C_LOOPS
        switch = switch or kind == "switch_statement"
        for child in node.named_children:
            self._c_walk_branches(child, loop, switch, labels, out)

    def _fortran_branches(self, region: TargetRegion) -> list[Branch]:
        from ..directives.fortran_blocks import block_events  # Fortran only: loaded when needed

        stmts = self.statements_in(region.span)
        labels = {int(st.label) for st in stmts if st.label.isdigit()}
        events: dict[int, list[BlockEvent]] = {}
        for ev in block_events(stmts):
            events.setdefault(ev.offset, []).append(ev)
        open_constructs: list[tuple[str, bytes | None, bytes]] = []   # (kind, construct name, DO label)
        out: list[Branch] = []
        for st in stmts:
            text = st.text.strip()
            named = _F_CONSTRUCT_NAME.match(text)
            body = text[named.end():] if named else text
            branch = _f_branch(_f_action(body), open_constructs, labels)
            if branch is not None:
                out.append(Branch(branch[0], (st.start, st.end), branch[1]))
            for ev in events.get(st.start, ()):
                if ev.kind == "open":
                    open_constructs.append((ev.construct, named.group(1) if named else None, ev.label))
                elif ev.kind == "close" and open_constructs:
                    open_constructs.pop()
                elif ev.kind == "label":
                    # a labelled DO ends with the statement that has its label
                    while open_constructs and open_constructs[-1][2] == ev.label:
                        open_constructs.pop()
        return out

    # -- OMP215: a target with a nested teams ----------------------------------------------
    def teams_nesting(self, region: TargetRegion) -> TeamsNesting | None:
        """For a non-combined `target` whose region holds a closely nested `teams` (no OpenMP
        construct in between): what lies outside that teams. None when there is no such
        teams, or when the source cannot tell (preprocessor conditionals, macros). (The region's
        own code, as `branches_out`.)"""
        d = self.directives[region.index]
        if d.name != "target":
            return None
        inside = self.directives_in(region.span)
        spans = {j: self._construct(j) for j in inside}
        teams = [j for j in inside if is_teams(self.directives[j])
                 and not any(k != j and (s := spans[k]) is not None and s[0] < self.directives[j].span[0] < s[1]
                             for k in inside)]
        if not teams:
            return None
        teams_span = spans[teams[0]]
        if teams_span is None:
            return None
        if self.fortran:
            outside: list[tuple[int, int]] | None = self._fortran_outside(region.span, teams_span, inside)
        else:
            if any(self.directives[j].raw.in_macro or self.directives[j].raw.form != "pragma" for j in inside):
                return None  # the tree does not show these as pragma lines
            outside = self._c_outside(region.span, teams_span, {self.directives[j].span[0] for j in inside})
        if not outside:
            return None
        return TeamsNesting(region.index, teams[0], outside)

    def _construct(self, j: int) -> Span | None:
        """A directive with the code it applies to (Fortran: through its end directive)."""
        d = self.directives[j]
        end = self.structure.pairs.get(j)
        if end is not None:
            return (d.span[0], self.directives[end].span[1])
        extent = self.extent(j)
        if extent is not None:
            return (d.span[0], extent[1])
        return (d.span[0], d.span[1]) if d.spec is not None and d.spec.association == "none" else None

    def _fortran_outside(self, region: Span, teams: Span, inside: list[int]) -> list[Span]:
        out = [(st.start, _line_end(self.src, st.start)) for st in self.statements_in(region)
               if not teams[0] <= st.start < teams[1] and st.text.strip(b"; \t")]  # flang ignores a lone `;`
        # (end directives are left out: their constructs are listed already)
        out += [self.directives[j].name_span for j in inside if not teams[0] <= self.directives[j].span[0] < teams[1]]
        out.sort()
        return out

    def _c_outside(self, region: Span, teams: Span, directive_starts: set[int]) -> list[Span] | None:
        if region[0] == teams[0]:
            return []  # `#pragma omp target` right before `#pragma omp teams`
        if region[0] in directive_starts:
            return None  # another directive first: the teams is not its direct content
        tree = self.document.tree
        if tree is None:
            return None
        # the statement the target applies to, as the block structure found it
        node = tree.root_node.named_descendant_for_byte_range(region[0], region[0] + 1)
        while node is not None and node.parent is not None and node.parent.start_byte == region[0] \
                and node.parent.end_byte <= region[1]:
            node = node.parent
        if node is None or (node.start_byte, node.end_byte) != region or node.has_error:
            return None
        out: list[Span] = []
        if not self._c_walk(node, teams, directive_starts, out):
            return None
        return out

    def _c_walk(self, node: tree_sitter.Node, teams: Span, directive_starts: set[int], out: list[Span]) -> bool:
        """Collect what is outside `teams` under `node`; False when the source cannot tell."""
        start, end = node.start_byte, node.end_byte
        if teams[0] <= start < teams[1]:
            return True
        contains = start <= teams[0] and teams[1] <= end
        if node.type != "compound_statement":
            if node.type in _C_NOT_STATEMENTS:
                return True
            if node.type in _C_CONDITIONALS:
                return False
            if node.type == "preproc_call" and start not in directive_starts:
                return True  # another pragma (`#pragma once`, GCC diagnostics): not OpenMP
            out.append((start, _line_end(self.src, start)))
            return True
        if not contains:
            out.append((start, _line_end(self.src, start)))
            return True
        skip_to = -1  # the statement after a stray directive belongs to it
        for child in node.named_children:
            if child.start_byte < skip_to:
                continue
            if child.type == "preproc_call" and child.start_byte in directive_starts \
                    and not teams[0] <= child.start_byte < teams[1]:
                out.append((child.start_byte, _line_end(self.src, child.start_byte)))
                j = bisect_left(self._starts, child.start_byte)
                extent = self.extent(j) if j < len(self._starts) and self._starts[j] == child.start_byte else None
                if extent is not None:
                    skip_to = extent[1]
                continue
            if not self._c_walk(child, teams, directive_starts, out):
                return False
        return True


def _call_start(c: Call) -> int:
    return c.span[0]


def _base_start(m: MemberAccess) -> int:
    return m.base_span[0]


def _inside(offset: int, spans: list[Span]) -> bool:
    return any(lo <= offset < hi for lo, hi in spans)


_Found = TypeVar("_Found", Call, MemberAccess)


def _moved(found: _Found, span: Callable[[Span], Span]) -> _Found:
    """A call or member access with its spans moved (most are not: the same record)."""
    if isinstance(found, Call):
        moved = span(found.span)
        return found if moved == found.span else replace(found, span=moved)
    base, member = span(found.base_span), span(found.member_span)
    return found if (base, member) == (found.base_span, found.member_span) \
        else replace(found, base_span=base, member_span=member)


def _is_end(d: Directive) -> bool:
    return d.end_of is not None or (d.spec is not None and d.spec.association == "end")


def _line_end(src: bytes, offset: int) -> int:
    end = src.find(b"\n", offset)
    end = len(src) if end < 0 else end
    return end - 1 if end > offset and src[end - 1:end] == b"\r" else end


# C/C++ nodes that are no statements: comments, macro definitions, includes.
_C_NOT_STATEMENTS = frozenset({"comment", "preproc_def", "preproc_function_def", "preproc_include"})
_C_CONDITIONALS = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
                             "ERROR"})

# C/C++: nodes whose own body a return or break inside belongs to (OMP217), and the loops.
_C_OWN_BODIES = frozenset({"lambda_expression", "function_definition", "class_specifier", "struct_specifier",
                           "union_specifier"})
_C_LOOPS = frozenset({"for_statement", "for_range_loop", "while_statement", "do_statement"})

_C_CALL = "(call_expression function: (identifier) @callee)"
_CPP_CALL = "(call_expression function: [(identifier) @callee (qualified_identifier) @qualified])"
_C_MEMBER = "(field_expression argument: (identifier) @base field: (field_identifier) @field) @access"

# Fortran, on lower-case code with strings blanked.
_F_NAME = rb"[a-z_][a-z0-9_$]*"
_F_CALL = re.compile(rb"(?<![\w%$.])(" + _F_NAME + rb")\s*\(|(?<![\w%$.])call\s+(" + _F_NAME + rb")\b(?!\s*[%(])")
_F_MEMBER = re.compile(rb"(?<![\w%$.)\]])(" + _F_NAME + rb")\s*%\s*(" + _F_NAME + rb")\s*(\(?)")
_F_CALL_BEFORE = re.compile(rb"(?:^|;)\s*call\s+$")
_F_BLOCK = re.compile(rb"(?:[a-z_]\w*\s*:\s*)?block$")
_F_END_BLOCK = re.compile(rb"end\s*block\b(?!\s*data)")
_F_UNIT_END = re.compile(rb"(?:end|end\s*(?:subroutine|function|program|module|submodule|procedure)\b.*|contains)$")
_F_DERIVED = re.compile(rb"(?:type|class)\s*\(\s*([a-z_][a-z0-9_$]*)\s*\)")
_F_END_TYPE = re.compile(rb"end\s*type\b")
_F_TYPE_ATTRIBUTE = re.compile(rb"sequence|private|public")
_F_TYPE_SPEC = re.compile(rb"(?:integer|real|complex|logical|character|double\s*precision|double\s*complex"
                          rb"|(?:type|class|procedure)\s*\([^()]*\))(?:\s*\*\s*(?:\d+|\(\s*\*\s*\))|\s*\([^()]*\))?\s*")
_F_LEADING_NAME = re.compile(rb"\s*([a-z_][a-z0-9_$]*)")


# The words a branch statement starts with (a cheap test before reading a region's statements).
_C_BRANCH_WORDS = re.compile(rb"\b(?:return|goto|break|continue|co_return)\b")
_F_BRANCH_WORDS = re.compile(rb"(?i)\b(?:return|exit|cycle|go)\b|goto")

# Fortran branches (OMP217), on a statement's lower-case text without its construct name.
_F_CONSTRUCT_NAME = re.compile(rb"([a-z_]\w*)\s*:(?!:)\s*")
_F_LOGICAL_IF = re.compile(rb"if\s*\(")
_F_RETURN = re.compile(rb"return\b(?!\s*=)")
_F_EXIT_CYCLE = re.compile(rb"(exit|cycle)\s*([a-z_]\w*)?\s*$")
_F_GOTO = re.compile(rb"go\s*to\s*(\d+)\s*$")
_F_COMPUTED_GOTO = re.compile(rb"go\s*to\s*\(([\d\s,]+)\)")


def _f_action(body: bytes) -> bytes:
    """The action statement of a logical IF (`if (c) exit`), or the statement itself."""
    from ..directives.fortran_blocks import closing_paren  # Fortran only: loaded when needed

    m = _F_LOGICAL_IF.match(body)
    if m is None:
        return body
    close = closing_paren(body, m.end() - 1)
    return body[close + 1:].strip() if close is not None else b""


def _f_branch(action: bytes, open_constructs: list[tuple[str, bytes | None, bytes]],
              labels: set[int]) -> tuple[str, str | None] | None:
    """(kind, target) when the action statement leaves the region."""
    if _F_RETURN.match(action):
        return "return", None
    m = _F_EXIT_CYCLE.match(action)
    if m is not None:
        word, name = m.group(1).decode(), m.group(2)
        if name is not None:
            return None if any(n == name for _, n, _ in open_constructs) else (word, name.decode())
        return None if any(kind == "do" for kind, _, _ in open_constructs) else (word, None)
    m = _F_GOTO.match(action)
    if m is not None:
        return None if int(m.group(1)) in labels else ("goto", m.group(1).decode())
    m = _F_COMPUTED_GOTO.match(action)
    if m is not None:
        outside = [t for t in re.split(rb"[\s,]+", m.group(1).strip()) if t and int(t) not in labels]
        return ("goto", outside[0].decode()) if outside else None
    return None


def _top_level_parts(text: bytes) -> list[bytes]:
    """`text` split at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in b"([":
            depth += 1
        elif c in b")]":
            depth -= 1
        elif c == 0x2C and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _code_pieces(src: bytes, st: Statement, fixed: bool) -> Iterator[tuple[int, bytes]]:
    """(source offset, code) of each line of a Fortran statement: lower case, comments cut,
    character literals blanked (a literal continued onto the next line stays open)."""
    from ..directives.fortran_blocks import (
        fixed_comment_line,  # Fortran only: loaded when needed
    )

    pos = src.rfind(b"\n", 0, st.start) + 1
    quote = 0
    first = True
    while pos <= st.end:
        end = src.find(b"\n", pos)
        end = len(src) if end < 0 else end
        line = src[pos:end].rstrip(b"\r")
        if fixed:
            if not fixed_comment_line(line):
                code = line[6:72]
                code, quote = _blank(code[:_comment_cut(code, quote)].lower(), quote)
                yield pos + 6, code
        else:
            lo = st.start - pos if first else 0
            body = line[lo:]
            stripped = body.lstrip()
            if stripped and stripped[:1] not in b"!#":
                cut = body[:_comment_cut(body, quote)]
                code, quote = _blank(cut.lower(), quote)
                yield pos + lo, code
        first = False
        pos = end + 1


def _comment_cut(body: bytes, quote: int) -> int:
    """Where a '!' comment starts in a line that may begin inside a character literal."""
    if quote == 0:
        return split_fortran_comment(body)
    close = body.find(bytes([quote]))
    if close < 0:
        return len(body)
    return close + 1 + split_fortran_comment(body[close + 1:])


def _blank(code: bytes, quote: int) -> tuple[bytes, int]:
    """Character literal contents replaced by blanks; the quote still open at the end."""
    if not quote and b"'" not in code and b'"' not in code:
        return code, 0
    out = bytearray(code)
    for i, c in enumerate(code):
        if quote:
            if c == quote:
                quote = 0
            else:
                out[i] = 0x20
        elif c in (0x22, 0x27):
            quote = c
    return bytes(out), quote


def analyse_regions(document: Document, directives: list[Directive], structure: Structure) -> Regions:
    return Regions(document, directives, structure)


__all__ = ["Branch", "Call", "MemberAccess", "Regions", "TargetRegion", "TeamsNesting", "analyse_regions",
           "device_ancestor", "is_teams"]
