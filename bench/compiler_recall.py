#!/usr/bin/env python3
"""Recall against the compilers' own tests: does omp-lsp flag the lines they reject?

    python bench/compiler_recall.py PATH [PATH ...] [--openmp-version 5.1] [--omp-lsp CMD] [--jobs N]

Each PATH is a C, C++ or Fortran file (or a folder of them), typically the compilers' own
OpenMP diagnostic tests brought onto this machine (never into the repository). Every file is
compiled alone as the issue measures it: `clang-22`/`clang++-22 -fsyntax-only -fopenmp
-fopenmp-version=VV -ferror-limit=0`, or `flang-22 -fsyntax-only -fopenmp -fopenmp-version=VV`.
A line counts when the compiler reports an *OpenMP error* there: an error on an OpenMP directive
line (or a line continuing one), or one whose message speaks of OpenMP (the words in
`_OPENMP_WORDS`). Then `omp-lsp --check` checks each file alone at the same version.

Printed: every compiler OpenMP-error line omp-lsp leaves without an error or warning (with the
compiler's message), every line where only omp-lsp reports an error or warning (to be judged by
hand), and the line recall: lines where both report over lines where the compiler does.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

LANGUAGES = {".c": "c", ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp",
             ".f90": "fortran", ".F90": "fortran", ".f": "fortran", ".F": "fortran"}
_DIAGNOSTIC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+):\s+(?P<severity>fatal error|error|warning|note):\s+(?P<message>.*)$")
_OPENMP_WORDS = re.compile(
    r"\bomp\b|openmp|declare target|declare variant|target|threadprivate|\bmap\b|map type|variant|clause|"
    r"directive|device|interop|context selector|selector|trait|indirect|simd|teams|region|\blink\b|\benter\b|"
    r"append_args|adjust_args|\bmatch\b",
    re.I)
_DIRECTIVE = re.compile(r"^\s*(#\s*pragma\s+omp\b|!\$omp\b)", re.I)
TIMEOUT = 120


@dataclass
class FileResult:
    path: Path
    compiler_lines: dict[int, list[str]] = field(default_factory=dict)
    omp_lsp_lines: dict[int, list[str]] = field(default_factory=dict)
    other_error_lines: set[int] = field(default_factory=set)
    problem: str = ""


def directive_lines(text: str) -> set[int]:
    """Lines that are an OpenMP directive or continue one (C backslash, Fortran `&` / `!$omp&`)."""
    found: set[int] = set()
    lines = text.splitlines()
    inside = False
    for number, line in enumerate(lines, 1):
        if inside or _DIRECTIVE.match(line):
            found.add(number)
            stripped = line.rstrip()
            inside = stripped.endswith("\\") or stripped.endswith("&")
        else:
            inside = False
    return found


def compile_command(path: Path, version: str) -> list[str]:
    language = LANGUAGES[path.suffix]
    flag = f"-fopenmp-version={version.replace('.', '')}"
    if language == "fortran":
        return ["flang-22", "-fsyntax-only", "-fopenmp", flag, str(path)]
    compiler = "clang++-22" if language == "cpp" else "clang-22"
    return [compiler, "-fsyntax-only", "-fopenmp", flag, "-ferror-limit=0", str(path)]


def check(path: Path, version: str, omp_lsp: list[str], scratch: Path) -> FileResult:
    result = FileResult(path)
    text = path.read_text(errors="replace")
    pragmas = directive_lines(text)
    work = scratch / (str(abs(hash(path))))
    work.mkdir(parents=True, exist_ok=True)  # flang writes module files into the working folder
    try:
        done = subprocess.run(compile_command(path, version), capture_output=True, text=True,
                              timeout=TIMEOUT, cwd=work, errors="replace")
    except subprocess.TimeoutExpired:
        result.problem = "compiler timed out"
        return result
    for raw in done.stderr.splitlines():
        match = _DIAGNOSTIC.match(raw)
        if not match or "error" not in match["severity"]:
            continue
        if os.path.realpath(match["file"]) != os.path.realpath(path):
            continue
        line, message = int(match["line"]), match["message"]
        if line in pragmas or _OPENMP_WORDS.search(message):
            result.compiler_lines.setdefault(line, []).append(message)
        else:
            result.other_error_lines.add(line)
    args = [*omp_lsp, "--check", str(path), "--no-config", "--openmp-version", version,
            "--format", "json", "--fail-on", "error"]
    try:
        checked = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        result.problem = "omp-lsp timed out"
        return result
    if checked.returncode not in (0, 1):
        result.problem = f"omp-lsp exit {checked.returncode}: {checked.stderr.strip()[:300]}"
        return result
    for finding in json.loads(checked.stdout)["diagnostics"]:
        if finding["severity"] in ("error", "warning"):
            result.omp_lsp_lines.setdefault(finding["line"], []).append(
                f"{finding['code']} {finding['severity']}: {finding['message']}")
    return result


def files_of(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in LANGUAGES and p.is_file()))
        elif path.suffix in LANGUAGES:
            found.append(path)
        else:
            sys.exit(f"compiler_recall: {given}: not a C, C++ or Fortran file")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--openmp-version", default="5.1")
    parser.add_argument("--omp-lsp", default="omp-lsp", help="command that runs omp-lsp")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--quiet", action="store_true", help="print the totals only")
    options = parser.parse_args()
    import shlex
    import tempfile
    omp_lsp = shlex.split(options.omp_lsp)
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        results = list(pool.map(lambda p: check(p, options.openmp_version, omp_lsp, Path(scratch)),
                                files_of(options.paths)))
    total = hit = only = 0
    for result in results:
        source = result.path.read_text(errors="replace").splitlines()
        shown = lambda n: source[n - 1].strip()[:100] if n <= len(source) else ""
        if result.problem:
            print(f"{result.path}: {result.problem}")
        missed = sorted(set(result.compiler_lines) - set(result.omp_lsp_lines))
        extra = sorted(set(result.omp_lsp_lines) - set(result.compiler_lines) - result.other_error_lines)
        total += len(result.compiler_lines)
        hit += len(result.compiler_lines) - len(missed)
        only += len(extra)
        file_hit = len(result.compiler_lines) - len(missed)
        print(f"== {result.path}: {file_hit}/{len(result.compiler_lines)} compiler lines flagged, "
              f"{len(extra)} lines only omp-lsp flags")
        if options.quiet:
            continue
        for number in missed:
            print(f"  missed {number}: {shown(number)}")
            for message in result.compiler_lines[number]:
                print(f"      compiler: {message}")
        for number in extra:
            print(f"  only omp-lsp {number}: {shown(number)}")
            for message in result.omp_lsp_lines[number]:
                print(f"      {message}")
    recall = 100.0 * hit / total if total else 100.0
    print(f"\nline recall: {hit}/{total} = {recall:.1f} % of the lines where the compilers report an "
          f"OpenMP error; {only} lines only omp-lsp flags (judge each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
