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
  'The module name cannot be in a DECLARE TARGET directive'          OMP164
  "No explicit type declared for 'x'" on a declare target line
   (IMPLICIT NONE)                                                   OMP165 (OMP164 for a
                                                                     module or program name;
                                                                     flang 22 also says it
                                                                     from 5.2 in enter/to,
                                                                     where 5.2 makes the name
                                                                     an external procedure:
                                                                     compiler-differs)

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

## Target construct clauses (OMP201-OMP204, OMP207-OMP210, OMP213)

  clang-22                                                           omp-lsp
  "map type 'x' is not allowed for '#pragma omp target ...'"         OMP201
  "map type must be specified for '#pragma omp target enter|exit
   data'" (before 5.2)                                               OMP201
  "device clause with ancestor device-modifier used without
   specifying 'requires reverse_offload'" (only when compiling for
   an offload target, which this test does not)                      OMP202
  "argument to 'device' clause must be a non-negative integer value" OMP210 (OMP203 with
                                                                     ancestor; clang 22 also
                                                                     rejects -1 and the named
                                                                     omp_initial_device /
                                                                     omp_invalid_device under
                                                                     5.2: compiler-differs)
  "argument to 'thread_limit' clause must be a strictly positive
   integer value"                                                    OMP210
  "firstprivate|private variable cannot be in a map clause in
   '#pragma omp target' directive"                                   OMP207
  "variable already marked as mapped in current construct", "pointer
   cannot be mapped along with a section derived from itself" (on a
   target line), "firstprivate|private variable cannot be in a
   is_device_ptr|has_device_addr clause"                             OMP208
  "expected pointer, array, reference to pointer, or reference to
   array in 'is_device_ptr clause'"                                  OMP209
  "allocator must be specified in the 'uses_allocators' clause"      OMP213
  "invalid 'this' expression on 'map' clause", "expected addressable
   lvalue in 'map'|'to'|'from' clause"                               OMP218
  flang-22
  'Only the ALLOC, FROM, TO, TOFROM map types are permitted for MAP
   clauses on the TARGET directive' (and the other directives)       OMP201
  "Variable 'x' may not appear on both MAP and FIRSTPRIVATE|PRIVATE
   clauses on a TARGET construct"                                    OMP207 (flang 22 also
                                                                     reports it when only an
                                                                     earlier construct maps
                                                                     the variable:
                                                                     compiler-differs)
  "Variable 'x' may not appear on both IS_DEVICE_PTR and
   HAS_DEVICE_ADDR|FIRSTPRIVATE clauses on a TARGET construct"       OMP208
  "Variable 'x' in IS_DEVICE_PTR clause must be of type C_PTR"       OMP209 (a warning in
                                                                     omp-lsp: 5.1 deprecates
                                                                     such items, it does not
                                                                     forbid them)
  'The device expression of the DEVICE clause must be a positive
   integer expression', 'The parameter of the THREAD_LIMIT clause
   must be a positive integer expression'                            OMP210
  "'x' must be a variable" (on a target line)                        OMP218

Not matched: clang's 'unexpected OpenMP clause 'reverse_offload' in directive '#pragma omp
requires'' (OMP505; the fixtures that need the directive skip compilation) and 'incorrect map
type' for the 6.0 `storage` map type (the parser's OMP004/OMP007); flang's 'REQUIRES directive
with 'REVERSE_OFFLOAD' clause found lexically after device construct' (flang treats the file
as the compilation unit; for Fortran OpenMP says the program unit) and its warning that an
is_device_ptr item 'must be a dummy argument' (a 4.5/5.0 rule). clang checks allocators only
in allocate clauses of the target construct itself, not in nested constructs or memory
routine calls; neither compiler checks OMP203 or OMP204, and flang does not check OMP202 or
OMP213.

## Target region contents (OMP205, OMP206, OMP211, OMP212, OMP214-OMP217)

  clang-22                                                           omp-lsp
  "region cannot be nested inside 'target' region" (also 'target
   teams ...'), on a target data / update / enter / exit data or
   target line                                                       OMP206 (clang also
                                                                     rejects a nested target
                                                                     with device(ancestor: 1),
                                                                     which the spec allows:
                                                                     compiler-differs)
  'target construct with nested teams region contains statements
   outside of the teams construct'                                   OMP215
  'cannot return from OpenMP region', ''break'|'continue' statement
   not in loop [or switch] statement' (in the outlined region)       OMP217
  flang-22
  'TARGET construct with nested TEAMS region contains statements or
   directives outside of the TEAMS construct'                        OMP215 (flang also
                                                                     counts BLOCK / END BLOCK
                                                                     around the teams; clang
                                                                     does not count braces:
                                                                     omp-lsp follows each)
  'RETURN statement is not allowed in a TARGET construct', 'EXIT|CYCLE
   to construct ['name'] outside of TARGET construct is not
   allowed', 'invalid branch leaving an OpenMP structured block'     OMP217

Not matched: clang 22's 'unexpected OpenMP clause 'reverse_offload' in directive '#pragma
omp requires'' (clang does not implement it yet: the fixtures' requires lines say
compiler-differs); flang's 'If TARGET DATA|UPDATE|ENTER DATA|EXIT DATA|... directive is
nested inside TARGET region, the behaviour is unspecified' is a portability warning (OMP206
reports it as an error, as the rule catalogue says). Not checked by either compiler:
OMP205, OMP211 (clang rejects thread-local variables in a region only when it compiles for
a GPU: 'thread-local storage is not supported for the current target'), OMP212, OMP214,
OMP216, and OMP206 in device_type(nohost) procedures.

## Context selectors (OMP351-OMP362)

clang 22 reports almost every context-selector fault as a *warning* ("... is not a valid
context set/selector/property ...; ... ignored", "... cannot have a score", "... was used
already ..."), which this test does not count; its errors are device_num's and a bare score's:

  clang-22                                                           omp-lsp
  "argument to 'device_num' clause must be a non-negative integer
   value" (on a declare variant line)                                OMP361
  "expected '(' after 'score'"                                       OMP004
  flang-22
  'Repeated trait set name X in a context specifier'                 OMP352
  'Repeated trait name X in a trait set'                             OMP354
  'X is not a valid trait for Y trait set'                           OMP353 (OMP361 for
                                                                     DEVICE_NUM)
  'Directive name is not a valid trait for Y trait set',
  'Extension traits are not valid for Y trait set'                   OMP353
  'SCORE is not allowed for Y trait set'                             OMP355
  'SCORE expression must be a non-negative constant integer
   expression'                                                       OMP356 (flang says it
                                                                     for non-constant
                                                                     expressions too, which
                                                                     omp-lsp leaves alone:
                                                                     the fixtures have none)
  'Directive-name traits cannot have properties',
  'SIMD trait requires a clause that is allowed on the DECLARE SIMD
   directive'                                                        OMP360

Not matched: flang's parse error for an unknown trait set ('expected end of line': flang
stops reading the file, so the OMP351 fixture is a file of its own); flang's property-shape
errors ('Trait property should be a name|clause|scalar expression', 'ATOMIC_DEFAULT_MEM_ORDER
trait requires ...', 'REQUIRES trait requires a clause from the requirement clause set'),
which no omp-lsp code covers; clang's parse errors for properties it does not read
('expected ')'' on simd(simdlen(8)), atomic_default_mem_order(seq_cst) and a score in
condition): the spec allows those, and the fixture lines carry `compiler-differs`.
clang and flang do not check OMP357 (clang warns on a repeated property), OMP358, OMP359,
OMP362 (clang warns) or the version of a set or selector (both accept target_device under
5.0).

## Declare variant, C and C++ (OMP301-OMP314, OMP316)

  clang-22                                                           omp-lsp
  "expected 'match'[, 'adjust_args', or 'append_args'] clause on
   'omp declare variant' directive"                                  OMP301
  "use of undeclared identifier" on a declare variant line           OMP302 (the variant),
                                                                     OMP309 (an adjust_args
                                                                     argument), OMP316 (a
                                                                     match expression)
  "unexpected type name 'T': expected expression", "'T' does not
   refer to a value", "no member named 'f' in namespace 'n'" on a
   declare variant line                                              OMP302
  "'#pragma omp declare variant' can only be applied to functions"   OMP302 (the variant is
                                                                     a variable), OMP304 (at
                                                                     a variable after the
                                                                     directive)
  "variant in '#pragma omp declare variant' with type 'A' is
   incompatible with type 'B' [with appended arguments]", "'append_args'
   is not allowed with varargs functions", "function with '#pragma omp
   declare variant' must have a prototype when 'append_args' is used" OMP303
  "function declaration is expected after 'declare variant'
   directive", "single declaration is expected after 'declare
   variant' directive"                                               OMP304
  "variant in '#pragma omp declare variant' is the same as the base
   function"                                                         OMP305
  "'adjust_args'|'append_args' clause requires 'dispatch' context
   selector"                                                         OMP308
  "'adjust_arg' argument 'x' used in multiple clauses", "expected
   reference to one of the parameters of function 'f'"               OMP309
  "'#pragma omp declare variant' does not support virtual functions|
   constructors|destructors|deleted functions|defaulted functions|
   consteval function|function templates|deduced return types",
   "function 'v' with deduced return type cannot be used before it is
   defined" (on a declare variant line)                              OMP312
  "... does not support constexpr functions"                         OMP312 for consteval
                                                                     functions (clang says
                                                                     constexpr for them too)
  "expected interop type: 'target' and/or 'targetsync'"              OMP317
  "the user condition in the OpenMP context selector needs to be
   constant", "'#pragma omp declare variant' is not compatible with
   any target-specific attributes"                                   OMP363 (a warning: 5.1
                                                                     allows dynamic conditions
                                                                     and the attributes)
  "nested OpenMP context selector contains duplicated trait ... with
   different score"                                                  OMP364 (clang also says
                                                                     it for equal scores,
                                                                     which the spec allows:
                                                                     compiler-differs)

clang's warnings for OMP306 ('variant function ... is itself marked as ...') and OMP307
('cannot be applied ... after first usage|to the function that was defined already') are
warnings and not checked.

Not matched: clang's "function with '#pragma omp declare variant' has a different storage
class|inline specification|linkage|calling convention|constexpr specification" and "does
not support constexpr functions" for a constexpr (not consteval) function: the spec does not
require the base and the variant to agree on those, so omp-lsp reports nothing (the fixtures
avoid them); "nested user conditions in OpenMP context selector not supported (yet)" (a clang
22 limitation); clang's parse error on
'simd(simdlen(8))' in a construct selector (the fixtures write plain 'simd'). clang does not
check OMP310, OMP311, OMP313, OMP314 or OMP316 (but for undeclared names), and accepts
adjust_args/append_args without a match clause in every version (OMP301 follows the spec:
only 6.0 allows it).

## Declare variant, Fortran (OMP302, OMP305, OMP306, OMP309, OMP310, OMP313-OMP316)

  flang-22                                                           omp-lsp
  "The name 'x' should refer to a procedure" (variant or
   base-proc-name; on a declare variant line)                        OMP302 (flang resolves
                                                                     the name at the directive:
                                                                     a procedure declared later
                                                                     in the specification part
                                                                     is a compiler-differs line)
  'misplaced declaration in the execution part', "expected 'END'",
   "expected 'END INTERFACE'" (parse errors on a declare variant
   line: in an execution part, after CONTAINS, between interface
   bodies)                                                           OMP315
  "No explicit type declared for 'x'" on a declare variant line
   with adjust_args (IMPLICIT NONE)                                  OMP309

Not matched: flang's "'x' is a data object and may not be EXTERNAL" and "'x' is already
declared in this scoping unit", which follow from the same resolution at the directive
(the spec lets declarations follow); its parse errors for a directive outside any program
unit, which land on the lines after it ('expected '('' ...); its errors for undeclared
names in match expressions, which no omp-lsp code covers. flang 22 does not check OMP305,
OMP306, OMP309 (but through IMPLICIT NONE), OMP310, OMP313, OMP314, OMP316, nor the
generic, procedure pointer and entry names and the missing base-proc-name of OMP315.

## Device-type propagation (OMP401-OMP407)

clang reports these only when it compiles for offload targets (`-fopenmp-targets=...`),
not at the plain `-fsyntax-only` this test runs, so the patterns are here for a run with
targets (checked by hand on tests/fixtures/propagation with
`-fopenmp-targets=x86_64-unknown-linux-gnu`: every such error has a finding on its line
but the compiler-differs lines below):

  clang-22 (with offload targets)                                    omp-lsp
  "function with 'device_type(nohost)' is not available on host"     OMP402 (also for a
                                                                     pointer initializer)
  "function with 'device_type(host)' is not available on device"     OMP401 (clang: only in
                                                                     explicit declare target
                                                                     functions; omp-lsp also
                                                                     follows implicit marks)

Not matched (compiler-differs on the fixture lines): clang also reports a nohost function
called in a target region, because it compiles the region's host fallback too (the spec's
target region is device code), and a nohost base function whose declare variant replaces it
on the host (clang checks the base before the variant). clang's 'declaration is not declared
in any declare target region' (OMP404) is a warning. flang 22 checks none of OMP401-OMP407;
clang does not check OMP403, OMP405, OMP406 (nohost variables in host code) or OMP407:
most of these surface only at the device link or in another toolchain.

## Directive syntax from the tables (OMP011, OMP012, OMP001 for capitalised names)

  clang-22                                                           omp-lsp
  "'a' and 'b' clause are mutually exclusive and may not appear on
   the same directive", "unexpected 'notinbranch' clause, 'inbranch'
   is specified already", "'reduction' clause cannot be used with
   'nogroup' clause", "directive '#pragma omp atomic|flush' cannot
   contain more than one ... clause"                                 OMP011 (clang also
                                                                     counts capture and
                                                                     compare with update,
                                                                     which 5.1 allows: such a
                                                                     line needs
                                                                     compiler-differs)
  "argument of aligned clause should be array or pointer, not 'T'"   OMP012
  flang-22
  "X and Y clauses are mutually exclusive and may not appear on the
   same D directive", "At most one clause from the 'atomic|memory-
   order' group is allowed on D construct"                           OMP011
  "'a' in ALIGNED clause must be of type C_PTR, POINTER or
   ALLOCATABLE"                                                      OMP012

clang's error for a directive name in capitals (`#pragma omp TARGET`) is its generic "expected
an OpenMP directive", not matched here (OMP001 answers it when no macro of the build can be the
name); flang does not check nogroup with reduction.

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
    _p(r"unexpected clause after an implicit 'to' clause"),                   # OMP003: list and clauses
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
    _p(r"DECLARE TARGET directive can have argument or clauses, but not both"),   # OMP003
    _p(r"No explicit type declared for", line=DECLARE_TARGET_LINE),                # OMP165
    # Anything else that names the directive.
    _p(r"\bdeclare[ _]target\b"),
]

# Target construct clauses (OMP201-OMP204, OMP207-OMP210, OMP213).
TARGET: list[Pattern] = [
    # clang-22
    _p(r"map type '\w+' is not allowed for '#pragma omp "),
    _p(r"map type must be specified for '#pragma omp target (?:enter|exit) data'"),
    _p(r"device clause with ancestor device-modifier used without specifying 'requires reverse_offload'"),
    _p(r"argument to 'device' clause must be a non-negative integer value"),
    _p(r"argument to 'thread_limit' clause must be a strictly positive integer value"),
    _p(r"(?:first)?private variable cannot be in a map clause in '#pragma omp target"),
    _p(r"variable already marked as mapped in current construct", line=TARGET_LINE),
    _p(r"pointer cannot be mapped along with a section derived from itself", line=TARGET_LINE),
    _p(r"(?:first)?private variable cannot be in a (?:is_device_ptr|has_device_addr) clause"),
    _p(r"expected pointer, array, reference to pointer, or reference to array in 'is_device_ptr clause'"),
    _p(r"allocator must be specified in the 'uses_allocators' clause"),
    _p(r"invalid 'this' expression on 'map' clause"),                              # OMP218
    _p(r"expected addressable lvalue in '(?:map|to|from)' clause"),                # OMP218
    # flang-22
    _p(r"Only the [A-Z, ]+ map types are permitted for MAP clauses on the"),
    # (also on a combined TARGET SIMD construct, whose firstprivate only target takes: OMP207)
    _p(r"may not appear on both MAP and (?:FIRST)?PRIVATE clauses on a TARGET(?: [A-Z ]+)? construct"),
    _p(r"may not appear on both (?:IS_DEVICE_PTR|HAS_DEVICE_ADDR) and \w+ clauses"),
    _p(r"in IS_DEVICE_PTR clause must be of type C_PTR"),
    _p(r"The device expression of the DEVICE clause must be a positive integer expression"),
    _p(r"The parameter of the THREAD_LIMIT clause must be a positive integer expression"),
    _p(r"'\w+' must be a variable", line=TARGET_LINE),                              # OMP218
]

# Target region contents (OMP205, OMP206, OMP211, OMP212, OMP214-OMP217).
TARGET_REGIONS: list[Pattern] = [
    # clang-22: a device construct nested in a target region (also a nested target with
    # device(ancestor: 1), which the spec allows: those lines say compiler-differs)
    _p(r"region cannot be nested inside 'target[^']*' region", line=TARGET_LINE),
    # clang-22 and flang-22
    _p(r"target construct with nested teams region contains statements"),
    # OMP217: clang-22 (a break/continue outside any loop of the outlined region), flang-22
    _p(r"cannot return from OpenMP region"),
    _p(r"'(?:break|continue)' statement not in loop(?: or switch)? statement"),
    _p(r"RETURN statement is not allowed in a \w+ construct"),
    _p(r"(?:EXIT|CYCLE) to construct (?:'\w+' )?outside of \w+ construct is not allowed"),
    _p(r"invalid branch leaving an OpenMP structured block"),
]

# Declare variant (OMP3xx), C and C++.
DECLARE_VARIANT: list[Pattern] = [
    # clang-22
    _p(r"expected 'match'(?:, 'adjust_args', or 'append_args')? clause on 'omp declare variant' directive"),
    _p(r"use of undeclared identifier", line=DECLARE_VARIANT_LINE),
    _p(r"unexpected type name '\w+': expected expression|does not refer to a value|no member named '\w+' in",
       line=DECLARE_VARIANT_LINE),
    _p(r"'#pragma omp declare variant' can only be applied to functions"),
    _p(r"variant in '#pragma omp declare variant' with type .* is incompatible with type"),
    _p(r"'append_args' is not allowed with varargs functions"),
    _p(r"must have a prototype when 'append_args' is used"),
    _p(r"(?:function|single) declaration is expected after 'declare variant' directive"),
    _p(r"variant in '#pragma omp declare variant' is the same as the base function"),
    _p(r"'(?:adjust_args|append_args)' clause requires 'dispatch' context selector"),
    _p(r"'adjust_arg' argument '\w+' used in multiple clauses"),
    _p(r"expected reference to one of the parameters of function"),
    _p(r"'#pragma omp declare variant' does not support (?:function templates|virtual functions|deduced return "
       r"types|constructors|destructors|deleted functions|defaulted functions|constexpr functions|consteval)"),
    _p(r"with deduced return type cannot be used before it is defined", line=DECLARE_VARIANT_LINE),
    _p(r"expected interop type: 'target' and/or 'targetsync'"),
    _p(r"the user condition in the OpenMP context selector needs to be constant"),
    _p(r"'#pragma omp declare variant' is not compatible with any target-specific attributes"),
    _p(r"nested OpenMP context selector contains duplicated trait"),
]

# Declare variant (OMP3xx), Fortran.
DECLARE_VARIANT_FORTRAN: list[Pattern] = [
    # flang-22
    _p(r"The name '\w+' should refer to a procedure", line=DECLARE_VARIANT_LINE),
    _p(r"misplaced declaration in the execution part|expected 'END(?: INTERFACE)?'", line=DECLARE_VARIANT_LINE),
    _p(r"No explicit type declared for", line=_directive_line(r"declare\s+variant\b.*\badjust_args")),
]

# Context selectors (OMP351-OMP362).
CONTEXT_SELECTORS: list[Pattern] = [
    # clang-22 (the other context-selector checks of clang are warnings)
    _p(r"argument to 'device_num' clause must be a non-negative integer value", line=DECLARE_VARIANT_LINE),
    _p(r"expected '\(' after 'score'"),
    # flang-22
    _p(r"Repeated trait set name \w+ in a context specifier"),
    _p(r"Repeated trait name \w+ in a trait set"),
    _p(r"\w+ is not a valid trait for \w+ trait set"),
    _p(r"Directive name is not a valid trait for \w+ trait set"),
    _p(r"Extension traits are not valid for \w+ trait set"),
    _p(r"SCORE is not allowed for \w+ trait set"),
    _p(r"SCORE expression must be a non-negative constant integer expression"),
    _p(r"Directive-name traits cannot have properties"),
    _p(r"SIMD trait requires a clause that is allowed on the DECLARE.SIMD directive"),
]

# Device-type propagation (OMP401-OMP407): clang reports these only with offload targets.
PROPAGATION: list[Pattern] = [
    # clang-22
    _p(r"function with 'device_type\(nohost\)' is not available on host"),
    _p(r"function with 'device_type\(host\)' is not available on device"),
]

# Directive syntax from the tables (OMP011, OMP012).
DIRECTIVE_SYNTAX: list[Pattern] = [
    # clang-22
    _p(r"'\w+' and '\w+' clause are mutually exclusive and may not appear on the same directive"),
    _p(r"unexpected '(?:in|notin)branch' clause, '(?:in|notin)branch' is specified already"),
    _p(r"'reduction' clause cannot be used with 'nogroup' clause"),
    _p(r"directive '#pragma omp (?:atomic|flush)' cannot contain more than one '\w+'"),
    _p(r"argument of aligned clause should be array or pointer"),
    # flang-22
    _p(r"\w+ and \w+ clauses are mutually exclusive and may not appear on the same"),
    _p(r"At most one clause from the '(?:atomic|memory-order)' group is allowed"),
    _p(r"in ALIGNED clause must be of type C_PTR, POINTER or ALLOCATABLE"),
]

RELEVANT: list[Pattern] = [*DECLARE_TARGET, *TARGET, *TARGET_REGIONS, *DECLARE_VARIANT, *DECLARE_VARIANT_FORTRAN,
                           *CONTEXT_SELECTORS, *PROPAGATION, *DIRECTIVE_SYNTAX]
