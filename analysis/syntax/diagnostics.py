"""Findings (what a rule reports) and the rule catalogue (codes, severities, titles).

The catalogue mirrors the project's rule catalogue (shared/spec/rules.md); the CLI's SARIF
output, severity overrides and the server all read it from here.
"""
from __future__ import annotations

import enum
from typing import Any

from .document import Span
from .records import dataclass, field


class Severity(enum.IntEnum):
    """Ordered so that a larger value is more severe."""
    HINT = 1
    INFORMATION = 2
    WARNING = 3
    ERROR = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        aliases = {"info": "information", "warn": "warning", "err": "error"}
        return cls[aliases.get(text.lower(), text.lower()).upper()]


@dataclass(frozen=True)
class Related:
    span: Span
    message: str
    path: str | None = None  # None: the same file


@dataclass(frozen=True)
class Fix:
    """A quick fix: replace each byte span with its text."""
    title: str
    edits: tuple[tuple[Span, str], ...]


@dataclass
class Finding:
    code: str
    message: str
    span: Span
    severity: Severity | None = None  # None: the catalogue's default
    related: list[Related] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def effective_severity(self) -> Severity:
        return self.severity if self.severity is not None else CATALOGUE[self.code].severity


# A specific rule's finding replaces a generic one on the same span: `to` on `begin declare
# target` is reported as OMP108, not also as the table's "clause not allowed" (OMP003); likewise a
# clause other than match on `begin declare variant` (OMP311).
SUPERSEDES: dict[str, tuple[str, ...]] = {"OMP108": ("OMP003",), "OMP311": ("OMP003",),
                                          "OMP110": ("OMP404",)}  # the lambda finding says it precisely


@dataclass(frozen=True)
class RuleInfo:
    code: str
    severity: Severity
    title: str
    spec: str  # OpenMP section (5.1 numbering unless marked)


_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFORMATION

_ROWS: tuple[tuple[str, Severity, str, str], ...] = (
    ("OMP001", _E, "Unknown OpenMP directive name", "5.1 2.1"),
    ("OMP002", _E, "Unknown OpenMP clause name", "5.1 2.1"),
    ("OMP003", _E, "Clause not allowed on this directive", "5.1 2.1"),
    ("OMP004", _E, "Malformed clause or directive arguments", "5.1 2.1"),
    ("OMP005", _E, "Clause that may appear only once is repeated", "5.1 2.1"),
    ("OMP006", _E, "Unpaired begin/end directive", "5.1 2.1"),
    ("OMP007", _E, "Spelling not valid in the selected OpenMP version", "5.2 2.14.7"),
    ("OMP008", _E, "Directive in a place its kind does not allow", "5.1 2.1"),
    ("OMP009", _W, "Extra tokens after a directive that takes none", "5.1 2.1"),
    ("OMP010", _I, "OpenMP directives in code the build does not compile are not checked", "5.1 2.2"),
    ("OMP011", _E, "Clauses that exclude each other on one directive", "5.1 2.1"),
    ("OMP012", _E, "declare simd aligned list item that is not a pointer or array", "5.1 2.11.5.3"),
    ("OMP013", _I, "Directive too large to check", ""),
    ("OMP101", _E, "Threadprivate variable in declare target", "5.1 2.14.7"),
    ("OMP102", _E, "Declare target variable without a mappable type", "5.1 2.14.7"),
    ("OMP103", _E, "List item repeated in one declare target directive", "5.1 2.14.7"),
    ("OMP104", _E, "List item in both to/enter and link clauses", "5.1 2.14.7"),
    ("OMP105", _E, "Declare target with clauses but no to/enter/link/indirect", "5.1 2.14.7"),
    ("OMP106", _E, "device_type(nohost) variable in a link clause", "5.1 2.14.7"),
    ("OMP107", _E, "indirect with a device_type other than any", "5.1 2.14.7"),
    ("OMP108", _E, "to/enter or link clause on begin declare target", "5.1 2.14.7"),
    ("OMP109", _E, "Overloaded or template function in an explicit list", "5.1 2.14.7"),
    ("OMP110", _E, "Lambda in a declare target region uses a static variable that is not declare target", "5.1 2.14.7"),
    ("OMP111", _E, "Module import/export inside begin/end declare target", "5.1 2.14.7"),
    ("OMP112", _E, "Function in a link clause", "5.1 2.14.7"),
    ("OMP113", _E, "List item not declared before the directive", "5.1 2.14.7"),
    ("OMP114", _E, "Declare target variable without static storage duration", "5.1 2.14.7"),
    ("OMP115", _E, "indirect argument is not a constant boolean expression", "5.1 2.14.7"),
    ("OMP116", _W, "Declaration given different device types", "5.1 2.14.7"),
    ("OMP117", _W, "Declaration marked declare target after its first use", "5.1 2.14.7"),
    ("OMP151", _E, "Generic name, procedure pointer, entry or statement function in declare target", "5.1 2.14.7"),
    ("OMP152", _E, "Clause-less declare target outside a subprogram's specification part", "5.1 2.14.7"),
    ("OMP153", _W, "Procedure list item outside that procedure's specification part (5.1 only)", "5.1 2.14.7"),
    ("OMP154", _E, "Variable list item outside a subprogram, program or module specification part", "5.1 2.14.7"),
    ("OMP155", _E, "Interface block directive does not match the procedure's definition", "5.1 2.14.7"),
    ("OMP156", _E, "Procedure declaration statement without declare target in the same specification part", "5.1 2.14.7"),
    ("OMP157", _E, "List item that is part of another variable", "5.1 2.14.7"),
    ("OMP158", _E, "Directive outside the scoping unit that declares the variable", "5.1 2.14.7"),
    ("OMP159", _E, "Common block declare target in one unit but not another", "5.1 2.14.7"),
    ("OMP160", _W, "BIND(C) list item whose C entity is not declare target", "5.1 2.14.7"),
    ("OMP161", _E, "Common block element, EQUIVALENCE variable or blank common in declare target", "5.1 2.14.7"),
    ("OMP162", _E, "Variable neither in a module nor SAVE", "5.1 2.14.7"),
    ("OMP163", _E, "Internal procedure with declare target under a host device_type", "5.1 2.14.7"),
    ("OMP164", _E, "Module or main program name in declare target", "5.1 2.14.7"),
    ("OMP165", _E, "Name declared nowhere under IMPLICIT NONE in declare target", "5.1 2.14.7"),
    ("OMP201", _E, "Map type not allowed on target", "5.1 2.14.5"),
    ("OMP202", _E, "device(ancestor) without requires reverse_offload", "5.1 2.14.5"),
    ("OMP203", _E, "device(ancestor) with a constant other than 1", "5.1 2.14.5"),
    ("OMP204", _E, "Clause not allowed with device(ancestor)", "5.1 2.14.5"),
    ("OMP205", _E, "OpenMP construct or runtime call in a device(ancestor) region", "5.1 2.14.5"),
    ("OMP206", _E, "Device-affecting construct inside device code", "5.1 2.14.5"),
    ("OMP207", _E, "List item in both map and a data-sharing clause", "5.1 2.14.5"),
    ("OMP208", _E, "is_device_ptr / has_device_addr / map conflict", "5.1 2.14.5"),
    ("OMP209", _E, "is_device_ptr list item that is not a pointer", "5.1 2.14.5"),
    ("OMP210", _E, "Negative device or non-positive thread_limit constant", "5.1 2.14.5"),
    ("OMP211", _W, "Threadprivate variable referenced in a target region", "5.1 2.14.5"),
    ("OMP212", _W, "Unspecified runtime call in a target region", "5.1 2.14.5"),
    ("OMP213", _E, "Allocator neither predefined nor in uses_allocators", "5.1 2.14.5"),
    ("OMP214", _W, "Internal procedure with host association called in a target region", "5.1 2.14.5"),
    ("OMP215", _E, "Nested teams beside other statements in a target", "5.1 2.14.5"),
    ("OMP216", _W, "Structure partly mapped", "5.1 2.14.5"),
    ("OMP217", _E, "Branch out of a target region", "5.1 2.1"),
    ("OMP218", _E, "Map list item that is not storage (a function, a 'this' form)", "5.1 2.21.7.1"),
    ("OMP301", _E, "declare variant without match", "5.1 2.3.5"),
    ("OMP302", _E, "Variant name does not name a declared function", "5.1 2.3.5"),
    ("OMP303", _E, "Variant type incompatible with the base function", "5.1 2.3.5"),
    ("OMP304", _E, "declare variant not followed by a function declaration", "5.1 2.3.5"),
    ("OMP305", _E, "Variant is the base function itself", "5.1 2.3.5"),
    ("OMP306", _W, "Variant is itself a base function", "5.1 2.3.5"),
    ("OMP307", _W, "declare variant after the base function was used", "5.1 2.3.5"),
    ("OMP308", _E, "adjust_args/append_args without dispatch", "5.1 2.3.5"),
    ("OMP309", _E, "adjust_args argument not a parameter, or repeated", "5.1 2.3.5"),
    ("OMP310", _E, "need_device_ptr argument that is not a pointer", "5.1 2.3.5"),
    ("OMP311", _E, "Invalid begin declare variant", "5.1 2.3.5"),
    ("OMP312", _E, "declare variant on a function that cannot have variants", "5.1 2.3.5"),
    ("OMP313", _E, "Variant with differing construct selector sets", "5.1 2.3.5"),
    ("OMP314", _W, "Variant called outside the context its construct selector names", "5.1 2.3.5"),
    ("OMP315", _E, "Fortran declare variant placement", "5.1 2.3.5"),
    ("OMP316", _W, "match expression variable not accessible at a call site", "5.1 2.3.5"),
    ("OMP317", _E, "append_args interop operation without a valid interop type", "5.1 2.3.5"),
    ("OMP351", _E, "Unknown context-selector trait set", "5.1 2.3.2"),
    ("OMP352", _E, "Trait set repeated in a selector", "5.1 2.3.2"),
    ("OMP353", _E, "Trait selector in the wrong set", "5.1 2.3.2"),
    ("OMP354", _E, "Trait selector repeated in a set", "5.1 2.3.2"),
    ("OMP355", _E, "score in a construct, device or target_device set", "5.1 2.3.2"),
    ("OMP356", _E, "score that is not a non-negative constant integer", "5.1 2.3.2"),
    ("OMP357", _E, "Trait property repeated, or kind(any) with another property", "5.1 2.3.2"),
    ("OMP358", _E, "Unknown kind property", "5.1 2.3.2"),
    ("OMP359", _W, "Unknown vendor", "5.1 2.3.2"),
    ("OMP360", _E, "Construct trait with invalid properties", "5.1 2.3.2"),
    ("OMP361", _E, "device_num outside target_device or negative", "5.1 2.3.2"),
    ("OMP362", _I, "isa/arch property unknown to the configured toolchains", "5.1 2.3.2"),
    ("OMP363", _W, "declare variant that compilers reject although OpenMP allows it", "5.1 2.3.5"),
    ("OMP364", _E, "Trait repeated with a different score in nested context selectors", "5.1 2.3.5"),
    ("OMP401", _E, "device_type(host) procedure referenced from device code", "5.1 2.14.7"),
    ("OMP402", _E, "device_type(nohost) procedure referenced from host code", "5.1 2.14.7"),
    ("OMP403", _W, "Device code calls an unmarked procedure defined in another file", "5.1 2.14.7"),
    ("OMP404", _E, "Global variable used by device code is not declare target", "5.1 2.14.7"),
    ("OMP405", _W, "Indirect call to a procedure without indirect", "5.1 2.14.7"),
    ("OMP406", _E, "device_type(nohost) variable referenced from host code", "5.1 2.14.7"),
    ("OMP407", _W, "Device code the selected toolchains cannot support", "5.1 2.14.7"),
    ("OMP501", _E, "Compiler diagnostic from a host or device build", ""),
    ("OMP502", _E, "Device link error", ""),
    ("OMP503", _W, "Host and device runs differ", ""),
    ("OMP504", _I, "No device-capable toolchain", ""),
    ("OMP505", _I, "Feature the configured toolchain rejects", ""),
)

CATALOGUE: dict[str, RuleInfo] = {row[0]: RuleInfo(*row) for row in _ROWS}
