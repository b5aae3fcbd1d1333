#!/usr/bin/env python3
"""Latency of the language server through a real stdio connection, and its memory.

Starts `python -m omp_lsp --stdio`, opens a generated 10,000-line C file (and then a Fortran
file) full of offload directives, and sends one-character `didChange`s inside pragmas, timing
until `publishDiagnostics` arrives for that version: 40 blanks typed at the end of a directive
(inert: the analysis is moved, not redone) and 40 digits typed into a clause and deleted again
(the directive changes: it is analysed again, and what read it). Prints p50 and p95 of each kind
per language, the second also by the kind of directive edited, beside `clang-22 -fopenmp
-fsyntax-only` on the same file, and the server's memory (RSS) with the file open and with a
100-file workspace indexed. It also times digits typed into a number in code:
in a kernel (before its target constructs, and in the loop of a target construct), in a one-line
function, and in a function of several lines (C); their findings are kept when nothing the rules
read changed, and inside a construct the rules that read it run again.

    python bench/lsp_latency.py [--lines 10000] [--edits 40]

Goals (p95, each language): at most 20 ms for edits in directives, at most 50 ms for every kind
of edit in code.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import C_UNIT, F_UNIT, find_tool, generate, workspace_file
from lsp_client import Server, percentile

Edit = tuple[int, int, int, str]   # line, first character, last character, new text
# A function of several lines without directives, after each unit of the C file: what most edits
# in code touch (the check_speed unit's own helpers are one-liners).
C_HELPER = """\
double smooth{k}(const double *a, int n) {{
  double acc = 0.0;
  for (int i = 1; i < n; i++)
    acc += 0.25 * (a[i] - a[i - 1]);
  return acc;
}}
"""
CODE_EDITS = 5                     # digits typed (and deleted) in code, per kind of place
DIRECTIVE_GOAL_MS = 20             # p95 of edits in directives
CODE_GOAL_MS = 50                  # p95 of edits in code


def _pragma_edits(text: str, language_id: str, count: int) -> tuple[list[Edit], list[Edit]]:
    """One-character edits inside pragmas, spread over the file: a blank typed at the end of the
    directive (the meaning stays: the analysis is moved), and a digit typed before the last
    closing parenthesis then deleted again (the meaning changes)."""
    sentinel = "!$omp" if language_id == "fortran" else "#pragma omp"
    lines = text.splitlines()
    pragmas = [i for i, line in enumerate(lines) if line.lstrip().lower().startswith(sentinel)]
    step = max(1, len(pragmas) // count)
    blanks, digits = [], []
    for k in range(count):
        line = pragmas[(k * step) % len(pragmas)]
        end = len(lines[line].rstrip())
        blanks.append((line, end, end, " "))
    with_parens = [i for i in pragmas if ")" in lines[i]]
    step = max(1, len(with_parens) // max(1, count // 2))
    for k in range(count // 2):
        line = with_parens[(k * step) % len(with_parens)]
        column = lines[line].rindex(")")
        digits.extend([(line, column, column, "1"), (line, column, column + 1, "")])
    return blanks, digits


def _code_edits(text: str, language_id: str, count: int, kind: str = "kernel") -> list[Edit]:
    """A digit typed into a number in a function body and deleted again, in `count` places
    spread over the file: an edit outside directives, which keeps the findings (C/C++:
    analysis/procedure_edit.py, Fortran: analysis/statement_edit.py). In a kernel (`kind`
    "kernel": a statement before its target constructs), in the loop of its first target
    construct ("region": the rules that read it run again), in a one-line function ("one-line":
    the helpers of the check_speed unit) and in a function of several lines ("lines", C only:
    C_HELPER)."""
    lines = text.splitlines()
    fortran = language_id == "fortran"
    if kind == "kernel":
        literal = "s = 0.0d0" if fortran else "double sum = 0.0;"
        places = [i for i, line in enumerate(lines) if line.strip() == literal]
    elif kind == "region":
        marker = "mod(i, 64) + 1)" if fortran else "[i % 64]"
        places = [i for i, line in enumerate(lines) if marker in line]
    else:
        marker = ("_gpu = x * 0." if fortran else "static double scale") if kind == "one-line" else "acc += 0.25"
        places = [i for i, line in enumerate(lines) if marker in line]
    step = max(1, len(places) // max(1, count))
    edits: list[Edit] = []
    for k in range(count if places else 0):
        line = places[(k * step) % len(places)]
        text_line = lines[line]
        if kind == "region":   # after the 64 (C) or the + 1 (Fortran) inside the first loop
            column = text_line.index("+ 1)") + 3 if fortran else text_line.index("% 64") + 4
        else:
            column = (len(text_line.rstrip().rstrip(";")) if kind == "kernel" else text_line.index("d0") if fortran
                      else text_line.index(" + 1.0") if kind == "one-line" else text_line.index("0.25") + 4)
        edits.extend([(line, column, column, "1"), (line, column, column + 1, "")])
    return edits


def _kind(line: str) -> str:
    """The group an edited directive line is reported in."""
    lowered = line.lower()
    for kind in ("declare variant", "declare target"):
        if kind in lowered:
            return kind
    return "target constructs"


def measure(server: Server, path: Path, language_id: str,
            edits: int) -> tuple[list[float], list[float], list[str], list[list[float]], float]:
    """Times to diagnostics of the inert edits, of the edits that change a directive (with the
    kind of directive each changed), of edits in kernels' code and in other functions' code, and RSS."""
    uri = path.as_uri()
    text = path.read_text()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language_id, "version": 1,
                                                            "text": text}})
    server.wait_diagnostics(uri, 1)
    rss = server.rss_mb()
    version = 1
    series: list[list[float]] = []
    planned = [*_pragma_edits(text, language_id, edits), *(_code_edits(text, language_id, CODE_EDITS, kind)
                                                          for kind in ("kernel", "region", "one-line", "lines"))]
    for kind in planned:
        times = []
        for line, first, last, new in kind:
            version += 1
            start = time.perf_counter()
            server.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": line, "character": first},
                                              "end": {"line": line, "character": last}}, "text": new}]})
            arrived = server.wait_diagnostics(uri, version)
            times.append((arrived - start) * 1000)
        series.append(times)
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    lines = text.splitlines()
    return series[0], series[1], [_kind(lines[line]) for line, *_ in planned[1]], series[2:], rss


def _compiler_ms(command: list[str], path: Path, runs: int = 5) -> float | None:
    tool = find_tool(command[0])
    if tool is None:
        return None
    command = [tool, *command[1:]]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        # in the file's directory: flang writes .mod files where it runs
        subprocess.run([*command, str(path)], capture_output=True, check=False, timeout=300, cwd=path.parent)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--files", type=int, default=100, help="files of the indexed workspace")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        single = root / "single"
        single.mkdir()
        c_file, f_file = single / "bench.c", single / "bench.f90"
        c_file.write_text(generate(C_UNIT + C_HELPER, args.lines))
        f_file.write_text(generate(F_UNIT, args.lines))
        server = Server(single)
        try:
            rows = []
            for path, language_id, compiler in ((c_file, "c", ["clang-22", "-fopenmp", "-fsyntax-only"]),
                                                (f_file, "fortran", ["flang-22", "-fopenmp", "-fsyntax-only"])):
                blanks, digits, kinds, code, rss = measure(server, path, language_id, args.edits)
                rows.append((language_id, blanks, digits, kinds, code, rss, _compiler_ms(compiler, path),
                             compiler[0]))
        finally:
            server.close()
        # memory with a workspace of many files indexed (closed files are read from disk)
        workspace = root / "workspace"
        workspace.mkdir()
        per_file = max(50, args.lines // args.files)
        for k in range(args.files):
            (workspace / f"unit{k}.c").write_text(workspace_file(k, per_file))
        server = Server(workspace)
        try:
            first = workspace / "unit0.c"
            server.notify("textDocument/didOpen", {"textDocument": {"uri": first.as_uri(), "languageId": "c",
                                                                    "version": 1, "text": first.read_text()}})
            server.wait_diagnostics(first.as_uri(), 1, timeout=600)
            workspace_rss = server.rss_mb()
        finally:
            server.close()
    print(f"omp-lsp over stdio: {args.edits} one-character edits inside pragmas of each kind, time to diagnostics")
    missed: list[str] = []
    for language_id, blanks, digits, kinds, code, rss, compiler_ms, compiler in rows:
        versus = f"{compiler} -fsyntax-only {compiler_ms:.0f} ms" if compiler_ms is not None else ""
        print(f"{language_id} ({args.lines} lines, RSS {rss:.0f} MB with it open; {versus})")
        for label, times in (("blank typed (meaning kept)", blanks), ("digit typed/deleted (meaning changed)", digits)):
            p50, p95 = statistics.median(times), percentile(times, 0.95)
            if p95 > DIRECTIVE_GOAL_MS:
                missed.append(f"{language_id} {label}")
            print(f"  {label:40} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  max {max(times):7.1f} ms")
        for kind in sorted(set(kinds)):   # the meaning-changing edits by the directive they changed
            times = [t for t, k in zip(digits, kinds) if k == kind]
            label = f"  in {kind} ({len(times)} edits)"
            print(f"  {label:40} p50 {statistics.median(times):7.1f} ms  p95 {percentile(times, 0.95):7.1f} ms  "
                  f"max {max(times):7.1f} ms")
        # edits in code
        for label, times in zip(("digit in a kernel's code", "digit in a target region's loop",
                                 "digit in a one-line function", "digit in a function's lines"), code):
            if not times:
                continue
            if percentile(times, 0.95) > CODE_GOAL_MS:
                missed.append(f"{language_id} {label}")
            label = f"{label} ({len(times)})"
            print(f"  {label:40} p50 {statistics.median(times):7.1f} ms  p95 {percentile(times, 0.95):7.1f} ms  "
                  f"max {max(times):7.1f} ms")
    print(f"workspace of {args.files} files ({per_file} lines each) indexed: RSS {workspace_rss:.0f} MB")
    print(f"goals p95 <= {DIRECTIVE_GOAL_MS} ms in directives, <= {CODE_GOAL_MS} ms in code: "
          + ("met" if not missed else "NOT MET (" + "; ".join(missed) + ")"))
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
