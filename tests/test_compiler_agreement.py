"""omp-lsp must not miss what the reference compilers reject about declare target.

For every C, C++ and Fortran fixture under tests/fixtures/declare_target/ and
tests/fixtures/workspaces/ (recursively), run the reference compiler the way a user
would check syntax (clang-22 for C and C++, flang-22 for Fortran; `-fsyntax-only
-fopenmp -fopenmp-version=VV` with the file's `openmp-version:` annotation, default
5.1), collect every *error* that concerns declare target, and assert that omp-lsp has
at least one finding on the same line. The other direction is not tested: omp-lsp
checks many rules the compilers do not (the annotations in the fixtures are the
specification; tests/test_fixtures.py checks those).

Which errors concern declare target is decided by the message text (`_RELEVANT`),
from what clang 22 and flang 22 actually print for the fixtures:

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

Markers:
  `// compiler-agreement: skip <reason>` (or `! ...`) anywhere in a file: not compiled
      (e.g. C++20 modules, which need a module-aware build).
  `// compiler-differs: <reason>` on a line: the compiler's error on that line is a
      known disagreement with the spec (clang 22 rejects `indirect(0)` with
      device_type(nohost); the spec allows it), so omp-lsp need not report it.

Compilers missing: the tests skip, except when the CI environment variable is set
(the Makefile installs the compilers there), where they fail.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from expectations import actual, version_of

ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIRS = [ROOT / "tests" / "fixtures" / "declare_target", ROOT / "tests" / "fixtures" / "workspaces"]

C_SUFFIXES = {".c"}
CPP_SUFFIXES = {".cpp", ".cc", ".cxx", ".c++", ".C"}
FORTRAN_SUFFIXES = {
    ".f90", ".f95", ".f03", ".f08", ".f18", ".F90", ".F95", ".F03", ".F08", ".F18",
    ".f", ".for", ".ftn", ".f77", ".F", ".FOR", ".FTN", ".F77",
}
# Headers are compiled through the files that include them.

CLANG = "clang-22"
FLANG = "flang-22"
TIMEOUT = 60

SKIP_MARKER = re.compile(r"(?://|!)\s*compiler-agreement:\s*skip\b")
DIFFERS_MARKER = re.compile(r"(?://|!)\s*compiler-differs:")

# A declare target directive line (the generic messages count only there).
DIRECTIVE_LINE = re.compile(
    r"^\s*(?:#\s*pragma\s+omp\s+|.*_Pragma\s*\(\s*\"omp\s+|[!cC*]\$omp\s+)(?:begin\s+|end\s+)?declare\s+target\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str]
    on_directive_line_only: bool = False
    # Reported at the variable's declaration; the codes omp-lsp reports at the directive.
    at_declaration: frozenset[str] = frozenset()


def _p(text: str, *, directive_only: bool = False, at_declaration: Iterable[str] = ()) -> Pattern:
    return Pattern(re.compile(text, re.IGNORECASE), directive_only, frozenset(at_declaration))


_RELEVANT: list[Pattern] = [
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
    _p(r"use of undeclared identifier", directive_only=True),
    _p(r"is not an integ(?:er|ral) constant expression", directive_only=True),
    # flang-22
    _p(r"A THREADPRIVATE variable cannot (?:be in \w+ clause|appear in a DECLARE TARGET directive)"),
    _p(r"If the DECLARE TARGET directive has a clause, it must contain at least one"),
    _p(r"The INDIRECT clause cannot be used without the ENTER clause"),
    # Anything else that names the directive.
    _p(r"\bdeclare[ _]target\b"),
]

_DIAGNOSTIC = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+):\s+(?P<severity>fatal error|error|warning|note|portability|remark):\s+(?P<message>.*)$"
)


@dataclass
class Diagnostic:
    line: int
    column: int
    severity: str
    message: str
    notes: list[tuple[int, int, str]] = field(default_factory=list)


@dataclass
class Compilation:
    path: Path
    command: list[str]
    returncode: int | None  # None: timed out
    output: str
    diagnostics: list[Diagnostic]


def _language(path: Path) -> str | None:
    if path.suffix in C_SUFFIXES:
        return "c"
    if path.suffix in CPP_SUFFIXES:
        return "c++"
    if path.suffix in FORTRAN_SUFFIXES:
        return "fortran"
    return None


def _corpus() -> list[Path]:
    files: list[Path] = []
    for base in CORPUS_DIRS:
        if base.is_dir():
            files.extend(p for p in base.rglob("*") if p.is_file() and _language(p) is not None)
    return sorted(files)


CORPUS = _corpus()
SKIPPED = {p for p in CORPUS if SKIP_MARKER.search(p.read_text(encoding="utf-8"))}
COMPILED = [p for p in CORPUS if p not in SKIPPED]


def _compiler_for(path: Path) -> str:
    return FLANG if _language(path) == "fortran" else CLANG


def _command(path: Path) -> list[str]:
    version = version_of(path.read_text(encoding="utf-8"))
    common = ["-fopenmp", f"-fopenmp-version={version}", "-fsyntax-only"]
    language = _language(path)
    if language == "fortran":
        return [FLANG, *common, str(path)]
    flags = ["-x", "c"] if language == "c" else ["-x", "c++", "-std=c++20"]
    return [CLANG, *common, "-ferror-limit=0", "-fno-color-diagnostics", "-fno-caret-diagnostics",
            "-fno-diagnostics-show-option", *flags, str(path)]


def _same_file(reported: str, path: Path, cwd: Path) -> bool:
    candidate = Path(reported)
    if not candidate.is_absolute():
        candidate = cwd / candidate
    try:
        return candidate.resolve() == path.resolve()
    except OSError:
        return False


def _parse(output: str, path: Path, cwd: Path) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    last: Diagnostic | None = None
    for raw in output.splitlines():
        m = _DIAGNOSTIC.match(raw)
        if not m:
            continue
        if not _same_file(m["file"], path, cwd):
            if m["severity"] != "note":
                last = None
            continue
        line, column = int(m["line"]), int(m["col"])
        if m["severity"] == "note":
            if last is not None:
                last.notes.append((line, column, m["message"]))
            continue
        last = Diagnostic(line, column, m["severity"], m["message"])
        diagnostics.append(last)
    return diagnostics


def _compile(path: Path, cwd: Path) -> Compilation:
    command = _command(path)
    # Argument list, no shell; its own process group so that a timeout also ends the
    # compiler's subprocesses (clang -cc1, flang -fc1).
    proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace", start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return Compilation(path, command, None, f"timed out after {TIMEOUT} s", [])
    return Compilation(path, command, proc.returncode, output, _parse(output, path, cwd))


def _require(compiler: str) -> None:
    if shutil.which(compiler) is None:
        message = f"{compiler} is not installed (the Makefile installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def compilations(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Compilation]:
    """Every corpus file compiled once, in parallel, each in a fresh directory."""
    available = {c for c in (CLANG, FLANG) if shutil.which(c) is not None}
    jobs = [p for p in COMPILED if _compiler_for(p) in available]

    # One directory per file, made here before the threads start: pytest's mktemp creates its base
    # directory on first use and is not safe to call from several threads at once.
    folders = {path: tmp_path_factory.mktemp(path.stem) for path in jobs}

    def run(path: Path) -> Compilation:
        return _compile(path, folders[path])

    with ThreadPoolExecutor(max_workers=min(16, (os.cpu_count() or 2) * 2)) as pool:
        return dict(zip(jobs, pool.map(run, jobs)))


def _relevant(diagnostic: Diagnostic, lines: list[str]) -> Pattern | None:
    if diagnostic.severity not in ("error", "fatal error"):
        return None
    text = lines[diagnostic.line - 1] if 0 < diagnostic.line <= len(lines) else ""
    on_directive = bool(DIRECTIVE_LINE.match(text))
    for pattern in _RELEVANT:
        if pattern.regex.search(diagnostic.message) and (on_directive or not pattern.on_directive_line_only):
            return pattern
    return None


def _identifier_at(lines: list[str], line: int, column: int) -> str | None:
    if not 0 < line <= len(lines):
        return None
    m = re.match(r"[A-Za-z_]\w*", lines[line - 1][column - 1:])
    return m.group(0) if m else None


def _missed(compilation: Compilation) -> list[str]:
    """The relevant compiler errors that have no omp-lsp finding where they belong."""
    path = compilation.path
    lines = path.read_text(encoding="utf-8").splitlines()
    found = actual(path)
    finding_lines = {line for (line, _code) in found}
    missed: list[str] = []
    for d in compilation.diagnostics:
        pattern = _relevant(d, lines)
        if pattern is None:
            continue
        if 0 < d.line <= len(lines) and DIFFERS_MARKER.search(lines[d.line - 1]):
            continue
        if d.line in finding_lines:
            continue
        if pattern.at_declaration:
            if any(note_line in finding_lines for (note_line, _c, _m) in d.notes):
                continue
            name = _identifier_at(lines, d.line, d.column)
            if name is not None:
                word = re.compile(rf"\b{re.escape(name)}\b")
                if any(code in pattern.at_declaration and 0 < line <= len(lines) and word.search(lines[line - 1])
                       for (line, code) in found):
                    continue
        missed.append(f"  line {d.line}:{d.column}: {d.severity}: {d.message}")
    return missed


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", COMPILED, ids=_rel)
def test_compiler_errors_are_reported(path: Path, compilations: dict[Path, Compilation]) -> None:
    _require(_compiler_for(path))
    compilation = compilations[path]
    assert compilation.returncode is not None, f"{' '.join(compilation.command)}: {compilation.output}"
    assert "unknown argument" not in compilation.output and "unsupported option" not in compilation.output, (
        f"the compiler did not accept the command {compilation.command}:\n{compilation.output}")
    missed = _missed(compilation)
    assert not missed, (
        f"{_compiler_for(path)} reports declare target errors that omp-lsp does not report on the same line "
        f"({' '.join(compilation.command)}):\n" + "\n".join(missed))


@pytest.mark.parametrize("path", [p for p in COMPILED if "valid" in p.relative_to(ROOT).parts], ids=_rel)
def test_valid_programs_compile(path: Path, compilations: dict[Path, Compilation]) -> None:
    """The valid programs must be valid for the compilers too (else the corpus is wrong)."""
    _require(_compiler_for(path))
    compilation = compilations[path]
    assert compilation.returncode == 0, f"{' '.join(compilation.command)}:\n{compilation.output}"


def test_corpus_has_compiler_checked_errors(compilations: dict[Path, Compilation]) -> None:
    """Guards against a broken compiler invocation passing vacuously."""
    _require(CLANG)
    _require(FLANG)
    assert len(COMPILED) >= 20
    relevant: dict[str, int] = {CLANG: 0, FLANG: 0}
    for path, compilation in compilations.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        relevant[_compiler_for(path)] += sum(1 for d in compilation.diagnostics if _relevant(d, lines))
    assert relevant[CLANG] >= 20, relevant
    assert relevant[FLANG] >= 3, relevant


def test_skipped_files_say_why() -> None:
    for path in SKIPPED:
        text = path.read_text(encoding="utf-8")
        m = re.search(r"compiler-agreement:\s*skip\b\s*(?:--|:)?\s*(.*)", text)
        assert m and len(m.group(1).strip()) >= 10, f"{_rel(path)}: give a reason after 'compiler-agreement: skip'"
