"""The rule registry: each rule is a function registered under its catalogue code.

A rule reads the analysed file (`FileContext`) and yields findings; it never parses
text and never talks LSP. `run_rules` isolates rules from each other: an exception
inside one becomes an internal error for that rule and file, and the rest still run.
"""
from __future__ import annotations

from ..records import dataclass, field
from typing import Callable, Iterable, Iterator

from ..diagnostics import CATALOGUE, Finding
from ..directives.nodes import Directive
from ..directives.structure import Structure
from ..syntax import Document

RuleFunc = Callable[["FileContext"], Iterable[Finding]]


@dataclass
class FileContext:
    document: Document
    directives: list[Directive]
    structure: Structure
    version: int


@dataclass(frozen=True)
class Rule:
    codes: tuple[str, ...]
    func: RuleFunc

    @property
    def name(self) -> str:
        return self.func.__name__


REGISTRY: list[Rule] = []


def rule(*codes: str) -> Callable[[RuleFunc], RuleFunc]:
    """Register a rule under the catalogue codes it may report."""
    for code in codes:
        if code not in CATALOGUE:
            raise ValueError(f"{code} is not in the rule catalogue")

    def register(func: RuleFunc) -> RuleFunc:
        REGISTRY.append(Rule(codes, func))
        return func
    return register


@dataclass
class RuleRun:
    findings: list[Finding] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)


def run_rules(ctx: FileContext, disabled: frozenset[str] = frozenset()) -> RuleRun:
    _load()
    out = RuleRun()
    for r in REGISTRY:
        if all(code in disabled for code in r.codes):
            continue
        try:
            for finding in r.func(ctx):
                if finding.code not in r.codes:
                    raise ValueError(f"rule {r.name} reported {finding.code}, which it does not declare")
                out.findings.append(finding)
        except Exception as err:  # a broken rule must not take the others down
            out.internal_errors.append(f"internal error in rule {r.name} ({', '.join(r.codes)}): "
                                       f"{type(err).__name__}: {err}")
    return out


def _load() -> None:
    """Import the rule modules once (registration happens at import)."""
    from . import directive_syntax  # noqa: F401


def iter_rules() -> Iterator[Rule]:
    _load()
    return iter(REGISTRY)
