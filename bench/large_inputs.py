#!/usr/bin/env python3
"""Time and peak memory of `omp-lsp --check` on large generated inputs, beside the compilers'
`-fopenmp -fsyntax-only` (clang-22 for C, flang-22 for Fortran) on the same files.

Cases (each about --size MB): one line of C that is a single array initializer; a `map` list on
one pragma line; a `map` list continued over many lines (C backslashes, Fortran `&`); declarations
of every name and a pragma mapping them. Directives longer than 64 KiB are read by name only
(OMP013), so a directive's cost stays bounded; long tables of numbers are hidden from tree-sitter
(syntax/tables.py: its tree would take about 140 bytes per byte of the table); the declarations
show what the program model costs (about 2 KB per declared name).

    python bench/large_inputs.py [--size 9.9] [--keep DIR] [--cases NAME,...]

Peak memory is the child's own (wait4's ru_maxrss); the interpreter alone takes about 20 MB.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def _names(count: int) -> list[str]:
    return [f"a{i}" for i in range(count)]


def _count_for(size: float, per_item: int) -> int:
    return max(1, int(size * 1e6) // per_item)


def table_line(size: float) -> tuple[str, str]:
    """One line: an initializer of `size` MB, no directive."""
    n = _count_for(size, 2)
    return "table_line.c", "int table[] = {" + ",".join("7" for _ in range(n)) + "};\n"


def _map_list(size: float) -> list[str]:
    """Names enough for a `map` list of `size` MB (about 8 bytes each)."""
    return _names(_count_for(size, 8))


def pragma_line(size: float) -> tuple[str, str]:
    """One pragma line mapping undeclared names (the compiler stops at its error limit)."""
    return "pragma_line.c", ("void f(void) {\n#pragma omp target map(tofrom: " + ",".join(_map_list(size))
                             + ")\n  { }\n}\n")


def pragma_continued(size: float) -> tuple[str, str]:
    items = _map_list(size)
    lines = [",".join(items[k:k + 10]) for k in range(0, len(items), 10)]
    return "pragma_continued.c", ("void f(void) {\n#pragma omp target map(tofrom: " + ", \\\n    ".join(lines)
                                  + ")\n  { }\n}\n")


def declared_names(size: float) -> tuple[str, str]:
    """Half declarations, half a pragma mapping them: valid C, and the program model's cost."""
    items = _map_list(size / 2)
    return "declared_names.c", ("int " + ",".join(items) + ";\nvoid f(void) {\n#pragma omp target map(tofrom: "
                                + ",".join(items) + ")\n  { }\n}\n")


def fortran_line(size: float) -> tuple[str, str]:
    """Implicitly typed locals (valid Fortran) on one directive line."""
    return "fortran_line.f90", ("subroutine s\n!$omp target map(tofrom: " + ",".join(_map_list(size))
                                + ")\n!$omp end target\nend subroutine\n")


def fortran_continued(size: float) -> tuple[str, str]:
    items = _map_list(size)
    chunks = [",".join(items[k:k + 10]) for k in range(0, len(items), 10)]
    return "fortran_continued.f90", ("subroutine s\n!$omp target map(tofrom: " + ", &\n!$omp& ".join(chunks)
                                     + ")\n!$omp end target\nend subroutine\n")


CASES: dict[str, Callable[[float], tuple[str, str]]] = {
    "table_line": table_line, "pragma_line": pragma_line, "pragma_continued": pragma_continued,
    "fortran_line": fortran_line, "fortran_continued": fortran_continued, "declared_names": declared_names,
}


def measure(cmd: list[str]) -> tuple[float, int, int]:
    """(seconds, peak RSS in MB, exit status) of one run; output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, usage.ru_maxrss // 1024, proc.returncode


def omp_lsp() -> list[str]:
    exe = shutil.which("omp-lsp", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "omp_lsp"]


def compiler(path: Path) -> list[str] | None:
    name = "flang-22" if path.suffix == ".f90" else "clang-22"
    exe = shutil.which(name)
    return [exe, "-fopenmp", "-fsyntax-only", str(path)] if exe else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=float, default=9.9, help="MB per input (default 9.9)")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated: " + ", ".join(CASES))
    parser.add_argument("--keep", type=Path, help="write the inputs here and keep them")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="omp-lsp-large-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'case':<20} {'MB':>6} | {'omp-lsp s':>9} {'MB':>6} {'exit':>4} | {'compiler s':>10} {'MB':>6} {'exit':>4}")
    try:
        for name in args.cases.split(","):
            file_name, text = CASES[name](args.size)
            path = folder / file_name
            path.write_text(text)
            size = path.stat().st_size / 1e6
            ours = measure([*omp_lsp(), "--check", "--max-file-size", str(max(10.0, size + 1)), str(path)])
            cmd = compiler(path)
            theirs = measure(cmd) if cmd else None
            row = f"{name:<20} {size:>6.1f} | {ours[0]:>9.2f} {ours[1]:>6} {ours[2]:>4} | "
            row += f"{theirs[0]:>10.2f} {theirs[1]:>6} {theirs[2]:>4}" if theirs else "(no compiler)"
            print(row, flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
