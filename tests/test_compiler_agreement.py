"""omp-lsp must not miss what the reference compilers reject.

For every C, C++ and Fortran fixture under tests/fixtures/declare_target/,
tests/fixtures/target/, tests/fixtures/declare_variant/, tests/fixtures/context_selectors/,
tests/fixtures/propagation/, tests/fixtures/workspaces/, tests/fixtures/structure/,
tests/fixtures/syntax/, tests/fixtures/configuration/ and tests/fixtures/valid/ (recursively), run the reference compiler the way a user
would check syntax (clang-22 for C and C++, flang-22 for Fortran; `-fsyntax-only
-fopenmp -fopenmp-version=VV` with the file's `openmp-version:` annotation, default
5.1), collect every *error* that concerns the rules omp-lsp checks, and assert that
omp-lsp has at least one finding on the same line. The other direction is not tested:
omp-lsp checks many rules the compilers do not (the annotations in the fixtures are the
specification; tests/test_fixtures.py checks those).

Which errors count is decided by their message text: the patterns of
tests/compiler_messages.py, one list per rule family, with what clang 22 and flang 22
print for the fixtures and which omp-lsp code answers each.

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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from compiler_messages import RELEVANT, Pattern
from expectations import actual, version_of

ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIRS = [ROOT / "tests" / "fixtures" / d
               for d in ("declare_target", "target", "declare_variant", "context_selectors", "propagation",
                         "workspaces", "valid", "structure", "syntax", "configuration")]

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
    for pattern in RELEVANT:
        if pattern.regex.search(diagnostic.message) and (pattern.line is None or pattern.line.match(text)):
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
        f"{_compiler_for(path)} reports errors that omp-lsp does not report on the same line "
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
