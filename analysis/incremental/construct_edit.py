"""The rules' findings after an edit inside the extent of some constructs: the code they apply
to changed, and nothing else the rules read (procedure_edit and statement_edit check that: the
text changed on one line, which declares what it declared, outside every directive).

A per-directive rule checks each directive on its own (rules.FileContext.each_directive), and
what it reads while checking one is recorded; it reads the code around the directive it checks,
not inside another construct, except through the target regions' code (regions.Regions: the
calls, member accesses and branches in each, recorded as REGION_CODE). So the rules run again
are: every rule that read the code of the target regions (moved, and read again where the edit
is: Regions.moved), and every rule that checks the whole file at once and read what leads to
the code inside constructs (_WHOLE_FILE_KEPT: the tree, the extents, the Fortran statements,
the regions); the other whole-file rules read the code only through the program model, as
after an edit in a function body outside constructs, and are kept; the other per-directive
rules check again only the constructs whose extent holds the edit (`within`), and keep what
they found for the other directives.
"""
from __future__ import annotations

from ..directives.structure import EXTENTS, STATEMENTS
from ..file_analysis import AnalysisTrace
from ..model.regions import REGION_CODE
from ..rules import (
    FileContext,
    Rule,
    RuleFunc,
    RuleTrace,
    active_rules,
    body_reads,
    body_words,
    checked_again,
    run_rule,
)
from ..syntax.document import TREE
from ..syntax.reads import STRUCTURES
from ..syntax.records import replace
from .line_edit import LineEdit

# What a rule reads to find the code inside a construct: the syntax tree, the extents or Fortran
# statements, the target regions, the call graph (built from the regions). One that read none of
# them read that code only through the program model, which is read again as after an edit in any
# function body (procedure_edit): it is kept (a per-directive rule too, for the constructs' own
# directives: what it read of them is the same).
_WHOLE_FILE_KEPT = frozenset({TREE, EXTENTS, STATEMENTS, "regions", "device_graph"})
# Associations of the directives that apply to code after them (their extent).
EXTENDED = frozenset({"block", "loop", "statement", "begin", "separating"})


def moved_regions(context: FileContext, edit: LineEdit) -> None:
    """The target regions handed to `context` (when built) after an edit inside constructs, moved
    with it (Regions.moved), or left to be built again."""
    regions = context.__dict__.pop("_regions", None)
    if regions is not None:
        moved = regions.moved(context.document, context.structure, edit.span, (edit.start, edit.line_end))
        if moved is not None:
            context.__dict__["_regions"] = moved


def rules_inside(trace: AnalysisTrace, context: FileContext, within: list[int]) -> AnalysisTrace:
    """The trace of `context`'s text, whose code inside the extents of the directives `within`
    changed (the directives are `trace`'s, and `context` builds its target regions afresh): each
    rule's, and what the rules run again read."""
    traces: dict[Rule[RuleFunc], RuleTrace] = {}
    for r in active_rules(context, trace.options.disabled):
        kept = trace.rules.get(r)
        read: set[str] | frozenset[str] = kept.reads.get(STRUCTURES, frozenset()) if kept is not None else frozenset()
        if kept is None or REGION_CODE in read or (not r.per_directive and not _WHOLE_FILE_KEPT.isdisjoint(read)):
            traces[r] = run_rule(r, context, True)
            continue
        if not r.per_directive or _WHOLE_FILE_KEPT.isdisjoint(read):
            # it found its way to no construct's code (a per-directive rule checking the
            # constructs' directives too: their code is reached only through those structures)
            traces[r] = kept
            continue
        for i in within:
            kept = checked_again(r, kept, context, i, id(context.directives[i]))
        traces[r] = kept
    model = context._model
    return replace(trace, rules=traces, bodies=body_reads(context),
                   words=trace.words | body_words(context),
                   expanded=model.expanded() if model is not None else trace.expanded,
                   uses=sorted({*trace.uses, *(model.uses_read() if model is not None else ())}))
