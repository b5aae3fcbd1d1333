"""Keeping a Fortran file's analysis after an edit inside one statement of an execution part.

The Fortran program model reads most statements of an execution part for their references
only: by their text alone (model_fortran `plain`: no END, CONTAINS, DATA, ENTRY, FORMAT or
INCLUDE, no `;`, no word that may open a unit or a BLOCK), or as an assignment to a name (the
first executable statement of a unit: it ends the specification part). The model can read such
a statement again (FileModel.statement_reader) when its new text is read the same way. An
edit of such a statement S can change nothing but S's references when:

- it stays on one line, S starts and ends on that line (no continuation either way), and the
  statement scanner finds S's new text there starting where S did, with the same label, and
  the statements before and after it as they were;
- the model reads the new text as it read S, and it has S's block events (a DO, an IF-THEN
  or an END DO keeps them: the block structure is the same);
- no directive stands right before S (a construct may take it as its extent), no construct's
  extent ends with S, and every construct of S's unit has an extent the block structure knows;
  when constructs hold S, their target regions are built again and the rules that may have
  read S run again (construct_edit);
- no rule read the references (FileModel.body_reads is not None), and neither the old nor the
  new line spells a word that a search of the whole text by a rule depended on
  (rules.body_words).

A fresh analysis of the new text then reads what the last one read, and finds what it found:
the findings are kept (moved along the edited line), and so are the directives, the block
structure and every structure built on demand. The model takes S's new text in place
(FileModel.statement_reader), and the call graph reads S's references again and keeps every
other edge (call_graph._graph_after_statement_read_again). tests/test_statement_edit.py checks
all of it against fresh analyses on random edits.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right

from ..directives.fortran_blocks import Statement, block_events, statements
from ..directives.structure import association
from ..file_analysis import FileAnalysis, Succession, conclude
from ..model.file_model import FileModel, Scope
from ..model.model_fortran import UNIT_KINDS
from ..semantics.context import FileContext
from ..syntax.document import Document, Language, LineIndex, parse_from
from ..syntax.padding import Padding
from ..syntax.records import replace
from ..units.edits import touches_configuration
from .construct_edit import EXTENDED, moved_regions, rules_inside
from .line_edit import LineEdit, Moved

# Structures of the old context that do not hold for the new text (built again when read).
_NOT_KEPT = frozenset({"_facts", "_file_graph", "_device_graph", "_lowered_source", "_mentions",
                       "_owner", "_statement_read_again"})


def reanalyse(old: FileAnalysis, padding: Padding, start: int, old_end: int,
              text: bytes) -> tuple[FileAnalysis, Padding] | None:
    """The analysis of `old`'s (padded) Fortran text with [start, old_end) replaced by `text` and
    the line's spare blanks taking up the difference, and the padding then; None when the edit
    is not one this can keep the analysis for."""
    trace, ctx, doc = old.trace, old.context, old.document
    if trace is None or ctx is None or trace.bodies is None or old.internal_errors \
            or not doc.language.is_fortran or old.structure.statements is None:
        return None
    model = ctx._model   # (None: no rule read it; built from the new text when asked)
    if model is not None and model.statement_reader is None:
        return None
    if touches_configuration(ctx.configuration, doc.source, start, old_end, text):
        return None   # the build's configuration may change, or the edit is in text it does not compile
    src = doc.source
    if any(c in text for c in b"\r\n") or any(c in src[start:old_end] for c in b"\r\n"):
        return None
    typed = padding.typed(src, start, old_end, text)
    if typed is None:
        return None
    new_src, k, delta, line, pad_start = typed
    stmts = old.structure.statements
    found = _statement_again(stmts, new_src, line, pad_start, delta, doc.language is Language.FORTRAN_FIXED)
    if found is None:
        return None
    stmts, i, new = found
    st = stmts[i]
    reader = model.statement_reader if model is not None else None
    assert model is None or reader is not None  # (a model without a reader returned above)
    take = reader(st, new) if reader is not None else None
    within = _constructs_holding(old, model, stmts, i)
    if (model is not None and take is None) or block_events([st]) != block_events([new]) or within is None \
            or _spells(trace.words, src[line:pad_start], new_src[line:pad_start + delta]):
        return None
    edit = LineEdit(start, old_end, delta, pad_start)
    try:
        # the cross-file findings are kept too, moved, while the device graph only moved
        moved = replace(edit.trace(trace), succession=Succession(ctx, 0, 0, set(), moved=edit))
        if any(edit.finding(f) is not f for f in old.structure.findings):
            return None   # (at a directive: none is on the line)
    except Moved:
        return None
    document = Document(new_src, doc.language, doc.version, LineIndex.same_lines(new_src, doc.lines))
    end = typed.changed_end
    parse_from(document, doc, (start, end, end))
    structure = old.structure   # its statements are the model's: S's successor takes S's place below
    context = FileContext(document, old.directives, structure, ctx.version, ctx.path, ctx.macros, ctx.configuration)
    for key in [key for key in ctx.__dict__ if key.startswith("_") and key not in _NOT_KEPT]:
        context.__dict__[key] = ctx.give_up(key)
    if take is not None:
        refs, unresolved = take(new_src)
        context.__dict__["_statement_read_again"] = (ctx, (st.start, st.end), refs, unresolved)
    if within:
        moved_regions(context, edit)
    else:
        regions = context.__dict__.get("_regions")
        if regions is not None:
            regions.document, regions.src = document, new_src
    if within:
        moved = rules_inside(moved, context, within)
    analysis = FileAnalysis(document, old.directives, structure,
                            conclude(moved.findings(), document, old.directives, trace.options),
                            [e for t in moved.rules.values() for e in t.errors], context, moved)
    return analysis, padding.consumed(k, delta)


def _statement_again(stmts: list[Statement], new_src: bytes, line: int, line_end: int, delta: int,
                     fixed: bool) -> tuple[list[Statement], int, Statement] | None:
    """The statements, the index of the statement S on the edited line (the only one there,
    starting and ending on it) and what the scanner finds in its place in the new text; None
    when the line holds no such statement, or the new text is not one statement starting where
    S did with S's label, between the same statements before and after it (the line may have
    become a continuation of the one before: fixed form's column 6). (`line_end`: where the
    line's spare blanks start in the old text; `delta` bytes later in the new one.)"""
    i = bisect_right(stmts, line_end, key=lambda s: s.start) - 1
    if i < 0:
        return None
    st = stmts[i]
    if st.start < line or st.end > line_end:
        return None
    around = stmts[max(0, i - 1):i + 2]   # S with its neighbours, as the scanner reads them again
    first = new_src.rfind(b"\n", 0, around[0].start) + 1
    end = new_src.find(b"\n", around[-1].end)
    found = [Statement(f.start + first, f.end + first, f.label, f.text)
             for f in statements(new_src[first:len(new_src) if end < 0 else end], fixed)]
    k = around.index(st)
    if len(found) != len(around) or found[:k] != around[:k] or found[k + 1:] != around[k + 1:]:
        return None
    new = found[k]
    if new.start != st.start or new.label != st.label or new.end > line_end + delta:
        return None
    return stmts, i, new


def _constructs_holding(old: FileAnalysis, model: FileModel | None, stmts: list[Statement],
                        i: int) -> list[int] | None:
    """The constructs whose extents hold statement `i`, in source order; None when a directive
    may read it other than through references and the target regions: one right before it (a
    construct may take the next statement, or its BLOCK, as its extent), a construct whose extent
    ends with it, or one in its unit whose extent the block structure does not know (read from
    the statements its own way). Without a model, every construct of the file is looked at."""
    st = stmts[i]
    unit: Scope | None = model.scope_at(st.start, expand=False) if model is not None else None
    while unit is not None and unit.kind not in UNIT_KINDS:
        unit = unit.parent
    if unit is None and model is not None:
        return None
    span = unit.span if unit is not None else (0, len(old.document.source))
    assert old.trace is not None
    starts = old.trace.directive_starts(old.directives)
    j = bisect_left(starts, stmts[i - 1].end if i else 0)
    if j < len(starts) and starts[j] < st.start:
        return None
    extents = old.structure.extents
    lo, hi = bisect_left(starts, span[0]), bisect_left(starts, span[1])
    if any(e[0] <= st.start < e[1] for k, e in extents.items() if not lo <= k < hi):
        return None   # (a unit that starts with its first statement, after a construct holding it:
        # an implicit main program)
    within: list[int] = []
    for k in range(lo, hi):
        if association(old.directives[k]) in EXTENDED:
            extent = extents.get(k)
            if extent is None or (extent[0] <= st.start < extent[1] and extent[1] <= st.end):
                return None
            if extent[0] <= st.start < extent[1]:
                within.append(k)
    return within


def _spells(words: frozenset[bytes], *lines: bytes) -> bool:
    """Whether one of the lines spells one of the words (Fortran: in any case)."""
    return any(w.lower() in line.lower() for line in lines for w in words)
