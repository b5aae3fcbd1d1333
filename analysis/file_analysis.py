"""One file analysed: its directives, block structure and findings (the pipeline up to the rules), and what an incremental re-analysis keeps of it."""
from __future__ import annotations

import re
from collections.abc import Generator
from typing import Protocol

from .directives.nodes import Directive
from .directives.parser import parse_directive
from .directives.source import extract
from .directives.structure import Structure, analyse_structure
from .rules import (
    RuleTrace,
    drain,
    rule_steps,
)
from .rules.registry import Rule, RuleFunc
from .semantics.context import FileContext, FileSummary, body_reads, body_words
from .syntax.diagnostics import SUPERSEDES, Finding
from .syntax.document import Document, Language, Span, parse_from
from .syntax.fixes import tidy
from .syntax.options import Options
from .syntax.records import dataclass, field, replace
from .units import Configuration, Unit, prepare


@dataclass
class FileAnalysis:
    document: Document
    directives: list[Directive]
    structure: Structure
    findings: list[Finding]
    internal_errors: list[str] = field(default_factory=list)
    context: FileContext | None = None   # what the rules read (holds the lazily built program model)
    trace: AnalysisTrace | None = None   # kept when asked for: what re-analysing one directive needs
    # what the cross-file rules read of it, when its model and tree were dropped (`summarized`)
    summary: FileSummary | None = None

    @property
    def configuration(self) -> Configuration | None:
        """The build's configuration of the file (inactive branches, includes, macros)."""
        return self.context.configuration if self.context is not None else None


@dataclass
class AnalysisTrace:
    """Each directive's parser findings and each rule's findings and reads (see directive_edit)."""
    options: Options
    problems: list[list[Finding]]
    rules: dict[Rule[RuleFunc], RuleTrace]
    starts: list[int] | None = None   # where each directive starts, once asked for
    succession: Succession | None = None   # made from another analysis by directive_edit
    # The spans of function bodies the rules read (procedure_edit): None when all of them may
    # have been read.
    bodies: list[Span] | None = None
    # Words whose presence in any function body what the rules read depends on (rules.body_words).
    words: frozenset[bytes] = frozenset()
    # The function bodies the program model had read when the rules were done, in order.
    expanded: list[Span] = field(default_factory=list)
    # The spans of function bodies searched for uses (FileModel.uses_read): the rest of what the
    # rules read of a body (`bodies`) is what it declares.
    uses: list[Span] = field(default_factory=list)

    def findings(self) -> list[Finding]:
        """The parser's findings, then each rule's (what `conclude` makes the file's findings of)."""
        return [*(f for found in self.problems for f in found), *(f for t in self.rules.values() for f in t.findings)]

    def directive_starts(self, directives: list[Directive]) -> list[int]:
        """Where each directive starts (kept from edit to edit: edits keep the directives' places)."""
        if self.starts is None:
            self.starts = [d.span[0] for d in directives]
        return self.starts


class LineMove(Protocol):
    """An edit on one line that moves what follows it on that line (incremental.line_edit)."""

    def finding(self, f: Finding, path: str | None = None, edited: str | None = None) -> Finding:
        """The finding (of file `path`) with its positions in the file `edited` moved (ValueError:
        one held replaced text)."""


@dataclass
class Succession:
    """An analysis made from `before`'s by an edit of one directive: its id there and here,
    which of its contents changed (syntax.reads keys), and which of the file's built
    structures were built again (their syntax.reads.structure names). Or (`moved`) by an edit
    on one line of a function body that changed nothing the file's rules read (procedure_edit):
    no directive, and what follows the edit on its line moved."""
    before: FileContext
    old: int
    new: int
    changed: set[str]
    rebuilt: frozenset[str] = frozenset()
    moved: LineMove | None = None


def analyze(document: Document, options: Options | None = None, path: str = "", unit: Unit | None = None) -> FileAnalysis:
    """Directives, block structure and diagnostics of one document; never raises on bad input.
    `unit`: how the file is compiled (macros, include folders, its includer; default: as the
    reference compiler compiles the file alone, headers read from disk).

    Cross-file rules are not run here: see `workspace.analyze_workspace`.
    """
    return drain(analysis_steps(document, options, path, unit=unit))


def analysis_steps(document: Document, options: Options | None = None, path: str = "",
                   trace: bool = False, unit: Unit | None = None,
                   previous: Document | None = None) -> Generator[FileContext | None, None, FileAnalysis]:
    """`analyze` in steps: it yields the file's context after parsing (its program model not
    built yet: a caller may time the phases), then None after each rule (see `rules.rule_steps`).
    `trace`: keep what `directive_edit` needs to re-analyse one edited directive; `previous`: the
    document an earlier analysis of the file read (its tree is reparsed where the texts differ)."""
    options = options or Options()
    document, configuration = prepare(document, unit, options.openmp_version, path)
    if previous is not None:
        parse_from(document, previous)
    macros = configuration.names
    directives, problems_of, internal = parsed_directives(document, options.openmp_version, macros)
    findings = [f for problems in problems_of for f in problems]
    try:
        structure = analyse_structure(document, directives)
    except Exception as err:
        internal.append(f"internal error in block structure: {type(err).__name__}: {err}")
        structure = Structure()
    context = FileContext(document, directives, structure, options.openmp_version, path, macros, configuration)
    yield context
    run = yield from rule_steps(context, options.disabled, trace)
    findings.extend(run.findings)
    internal.extend(run.internal_errors)
    model = context._model
    kept = AnalysisTrace(options, problems_of, run.traces, bodies=body_reads(context), words=body_words(context),
                         expanded=model.expanded() if model is not None else [],
                         uses=model.uses_read() if model is not None else []) \
        if run.traces is not None else None
    return FileAnalysis(document, directives, structure, conclude(findings, document, directives, options),
                        internal, context, kept)


def parsed_directives(document: Document, version: int,
                      macros: frozenset[str]) -> tuple[list[Directive], list[list[Finding]], list[str]]:
    """The file's directives (those a compiler sees for this version), each one's parser findings,
    and internal errors of the parser."""
    internal: list[str] = []
    directives: list[Directive] = []
    problems_of: list[list[Finding]] = []
    # Files without "omp" have no directive: their tree is never needed.
    tree = document.tree if not document.language.is_fortran and b"omp" in document.source else None
    raws = extract(document.source, document.language, tree)
    for raw in raws:
        try:
            directive, problems = parse_directive(raw, document.language, version, macros)
        except Exception as err:  # a parser bug must not hide the rest of the file
            internal.append(f"internal error parsing the directive at byte {raw.span[0]}: {type(err).__name__}: {err}")
            continue
        directives.append(directive)
        problems_of.append(problems)
    return directives, problems_of, internal


def conclude(findings: list[Finding], document: Document, directives: list[Directive],
             options: Options) -> list[Finding]:
    """The findings of a file as reported: Fortran fixes tidied, then `finish`."""
    if document.language.is_fortran and any(f.fixes for f in findings):
        findings = tidy(findings, document.source, document.language is Language.FORTRAN_FIXED,
                        [d.span for d in directives])
    return finish(findings, options)


def finish(findings: list[Finding], options: Options) -> list[Finding]:
    """Drop disabled and superseded findings, apply severity overrides, sort by position."""
    superseded = {(code, f.span) for f in findings for code in SUPERSEDES.get(f.code, ())}
    out = [_override(f, options) for f in findings
           if f.code not in options.disabled and (f.code, f.span) not in superseded]
    out.sort(key=lambda f: (f.span[0], f.code))
    return out


_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.MULTILINE)


def defined_macros(source: bytes) -> frozenset[str]:
    """Names #defined in the file: pragmas are macro-expanded, so these may stand for clauses."""
    if b"define" not in source:
        return frozenset()
    return frozenset(macro_definitions(source))


def macro_definitions(source: bytes, start: int = 0, end: int | None = None) -> list[str]:
    """The names #defined by the lines from `start` (a line start) to `end`, in order."""
    return [m.group(1).decode() for m in _DEFINE.finditer(source, start, len(source) if end is None else end)]


def _override(finding: Finding, options: Options) -> Finding:
    severity = options.severity.get(finding.code)
    # Findings may be shared with the parse cache: never changed in place.
    return finding if severity is None else replace(finding, severity=severity)
