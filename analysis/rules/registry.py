"""The rule registry: each rule is a function registered under its catalogue codes. The rule
modules register themselves here when imported (rules/__init__ imports them all)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Generic, TypeVar

from ..syntax.diagnostics import CATALOGUE, Finding
from ..syntax.records import dataclass

if TYPE_CHECKING:
    from ..semantics.context import FileContext, WorkspaceContext

RuleFunc = Callable[["FileContext"], Iterable[Finding]]
WorkspaceRuleFunc = Callable[["WorkspaceContext"], Iterable[tuple[str, Finding]]]
F = TypeVar("F", bound=Callable[..., Iterable[object]])   # a Rule's function: RuleFunc or WorkspaceRuleFunc


@dataclass(frozen=True)
class Rule(Generic[F]):
    codes: tuple[str, ...]
    func: F
    # Checks each directive on its own (through `FileContext.each_directive`), so that a focused
    # run re-checks one (directive_edit); tests/test_directive_edit.py holds every such rule to it.
    per_directive: bool = False

    @property
    def name(self) -> str:
        return self.func.__name__


REGISTRY: list[Rule[RuleFunc]] = []
WORKSPACE_REGISTRY: list[Rule[WorkspaceRuleFunc]] = []
# What the cross-file rules read of each file, as small plain values (WorkspaceContext.fact):
# computed for every file when its analysis ends, when the workspace keeps summaries.
FILE_FACTS: list[Callable[[FileContext], object]] = []


def _check_codes(codes: tuple[str, ...]) -> None:
    for code in codes:
        if code not in CATALOGUE:
            raise ValueError(f"{code} is not in the rule catalogue")


def rule(*codes: str, per_directive: bool = False) -> Callable[[RuleFunc], RuleFunc]:
    """Register a per-file rule under the catalogue codes it may report (`per_directive`: see Rule)."""
    _check_codes(codes)

    def register(func: RuleFunc) -> RuleFunc:
        REGISTRY.append(Rule(codes, func, per_directive))
        return func
    return register


def workspace_rule(*codes: str) -> Callable[[WorkspaceRuleFunc], WorkspaceRuleFunc]:
    """Register a cross-file rule: it reads every file and yields (path, finding) pairs."""
    _check_codes(codes)

    def register(func: WorkspaceRuleFunc) -> WorkspaceRuleFunc:
        WORKSPACE_REGISTRY.append(Rule(codes, func))
        return func
    return register




FactFunc = TypeVar("FactFunc", bound=Callable[..., object])


def file_fact(func: FactFunc) -> FactFunc:
    """Register a file fact: a function of one file's context whose value (plain data, small)
    a cross-file rule reads through `WorkspaceContext.fact`."""
    FILE_FACTS.append(func)
    return func
