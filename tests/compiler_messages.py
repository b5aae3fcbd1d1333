"""Which reference-compiler errors concern the rules omp-lsp checks (tests/test_compiler_agreement.py).

One list per rule family; each pattern is a regular expression over the compiler's message,
optionally only counted on a line that holds a given kind of directive (generic messages such
as "use of undeclared identifier" matter only there).

## Declare target (OMP1xx)

From what clang 22 and flang 22 actually print for the fixtures:

  clang-22                                                           omp-lsp
  'threadprivate variables cannot be used in target constructs'      OMP101 (*)
  "'x' appears multiple times in clauses on the same declare target
   directive"                                                        OMP103
  "'x' must not appear in both clauses 'to' and 'link'"              OMP104 (also on
                                                                     `link(x) to(x)` of
                                                                     one directive: OMP103)
  "expected at least one 'to', 'link' or 'indirect' clause"          OMP105
  "only 'device_type(any)' clause is allowed with indirect clause"   OMP107 (also for
                                                                     indirect(0): see below)
  "unexpected 'to'|'link'|'enter' clause, only 'device_type',
   'indirect' clauses expected"                                      OMP108
  "variable captured in declare target region must appear in a to
   clause"                                                           OMP110 (*)
  "function name is not allowed in 'link' clause"                    OMP112
  "use of undeclared identifier 'x'" on a declare target line        OMP113, OMP109
  "'T' used in declare target directive is not a variable or a
   function name"                                                    OMP113
  "local variable 'x' should not be used in 'declare target'
   directive"                                                        OMP114
  "expression is not an integer/integral constant expression" on a
   declare target line                                               OMP115
  "'device_type(a)' does not match previously specified
   'device_type(b)' for the same declaration"                        OMP116 (an error in
                                                                     clang, a warning in
                                                                     omp-lsp)
  flang-22
  'A THREADPRIVATE variable cannot be in TO|LINK clause',
  'A THREADPRIVATE variable cannot appear in a DECLARE TARGET
   directive'                                                        OMP101
  'If the DECLARE TARGET directive has a clause, it must contain at
   least one ENTER clause or LINK clause'                            OMP105
  'The INDIRECT clause cannot be used without the ENTER clause ...'  none: a flang 22
                                                                     limitation (the spec
                                                                     allows `to` with
                                                                     indirect), so Fortran
                                                                     fixtures with indirect
                                                                     use 5.2 and `enter`

(*) clang reports these at the variable's declaration, not at the directive: there
the finding may also be on a line of one of the error's notes, or be a finding with
that code on a line that names the variable.

clang's warning 'declaration marked as declare target after first use' (OMP117) is a
warning and not checked: clang also gives it when a `threadprivate` directive names
the variable before the declare target directive, which omp-lsp does not count as a
use.

Rules the compilers do not check at all (observed with the fixtures):
  clang-22: OMP102 (incomplete types, polymorphic classes under 4.5), OMP106 (nohost
            variable in link), OMP109 (reported only as 'use of undeclared identifier'
            for overloads and templates), OMP111 (modules not tried).
  flang-22: OMP103, OMP104, OMP106, OMP107, OMP112, OMP115, OMP116 (and the C/C++-only
            rules do not apply). flang checks only OMP101 and OMP105 of OMP101-OMP117.

"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


def _directive_line(names: str) -> re.Pattern[str]:
    """A line holding one of the directives `names` (a regex), in C/C++ or Fortran."""
    return re.compile(r"^\s*(?:#\s*pragma\s+omp\s+|.*_Pragma\s*\(\s*\"omp\s+|[!cC*]\$omp\s+)(?:" + names + r")\b",
                      re.IGNORECASE)


DECLARE_TARGET_LINE = _directive_line(r"(?:begin\s+|end\s+)?declare\s+target")
TARGET_LINE = _directive_line(r"target")
DECLARE_VARIANT_LINE = _directive_line(r"(?:begin\s+)?declare\s+variant")


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str]
    line: re.Pattern[str] | None = None    # counted only on a line matching this
    # Reported at the variable's declaration; the codes omp-lsp reports at the directive.
    at_declaration: frozenset[str] = frozenset()


def _p(text: str, *, line: re.Pattern[str] | None = None, at_declaration: Iterable[str] = ()) -> Pattern:
    return Pattern(re.compile(text, re.IGNORECASE), line, frozenset(at_declaration))

DECLARE_TARGET: list[Pattern] = [
    # clang-22
    _p(r"threadprivate variables cannot be used in target constructs", at_declaration={"OMP101"}),
    _p(r"variable captured in declare target region must appear in a to clause", at_declaration={"OMP110"}),
    _p(r"appears multiple times in clauses on the same declare target directive"),
    _p(r"must not appear in both clauses 'to' and 'link'"),
    _p(r"expected at least one 'to', 'link' or 'indirect' clause"),
    _p(r"only 'device_type\(any\)' clause is allowed with indirect clause"),
    _p(r"unexpected '(?:to|link|enter)' clause, only 'device_type', 'indirect' clauses expected"),
    _p(r"function name is not allowed in 'link' clause"),
    _p(r"used in declare target directive is not a variable or a function name"),
    _p(r"should not be used in 'declare target' directive"),
    _p(r"'device_type\(\w+\)' does not match previously specified 'device_type\(\w+\)'"),
    _p(r"use of undeclared identifier", line=DECLARE_TARGET_LINE),
    _p(r"is not an integ(?:er|ral) constant expression", line=DECLARE_TARGET_LINE),
    # flang-22
    _p(r"A THREADPRIVATE variable cannot (?:be in \w+ clause|appear in a DECLARE TARGET directive)"),
    _p(r"If the DECLARE TARGET directive has a clause, it must contain at least one"),
    _p(r"The INDIRECT clause cannot be used without the ENTER clause"),
    # Anything else that names the directive.
    _p(r"\bdeclare[ _]target\b"),
]

# Target construct clauses (OMP201-OMP204, OMP207-OMP210, OMP213).
TARGET: list[Pattern] = [
]

# Target region contents (OMP205, OMP206, OMP211, OMP212, OMP214-OMP216).
TARGET_REGIONS: list[Pattern] = [
]

# Declare variant (OMP3xx), C and C++.
DECLARE_VARIANT: list[Pattern] = [
]

# Declare variant (OMP3xx), Fortran.
DECLARE_VARIANT_FORTRAN: list[Pattern] = [
]

# Context selectors (OMP351-OMP362).
CONTEXT_SELECTORS: list[Pattern] = [
]

RELEVANT: list[Pattern] = [*DECLARE_TARGET, *TARGET, *TARGET_REGIONS, *DECLARE_VARIANT, *DECLARE_VARIANT_FORTRAN, *CONTEXT_SELECTORS]
