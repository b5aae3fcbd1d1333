#!/usr/bin/env python3
"""`omp-lsp --check` over a whole application: time and memory, in all and per phase.

Generates a workspace of `--files` files of `--lines` lines each (half C, half Fortran modules,
each file's names its own: the check_speed units), then
- runs `omp-lsp --check -j N FOLDER` as users run it (N = 1 and every CPU), printing its wall time
  and peak RSS (of the main process, and of it and its workers together), beside
  `clang-22 -fopenmp -fsyntax-only` and `flang-22 -fopenmp -fsyntax-only` on every file, one
  after the other (as one core of a build would; `--no-compilers` skips them);
- runs the same check in this process phase by phase, printing each phase's time and the RSS
  after it: read (the files' bytes), parse (tree-sitter), directives (read, and their block
  structure), model (the program model), rules (the per-file rules), call graph (each file's
  references and its facts for the device graph and the cross-file rules, after which its
  analysis is dropped), cross-file (the device graph and the rules).

    python bench/workspace_check.py [--files 100] [--lines 10000] [--keep DIR] [--no-compilers] [-j N]

Goals (issue 24): at most 20 s wall and 500 MB peak RSS for 1,000,000 lines in 100 files.
"""
from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import F_UNIT, find_tool, generate, omp_lsp_command, workspace_file

WALL_GOAL = 20.0
RSS_GOAL_MB = 500


def fortran_workspace_file(k: int, lines: int) -> str:
    """The Fortran file `k` of a generated workspace: modules named after the file."""
    return generate(F_UNIT, lines).replace("module m", f"module w{k}_m")


def write_workspace(folder: Path, files: int, lines: int) -> list[Path]:
    paths = []
    for k in range(files):
        path = folder / (f"unit{k}.c" if k % 2 == 0 else f"unit{k}.f90")
        path.write_text(workspace_file(k, lines) if k % 2 == 0 else fortran_workspace_file(k, lines))
        paths.append(path)
    return paths


def _tree_pss_kb(pid: int) -> int:
    """Memory of a process and of all its descendants (workers), in kB: the sum of their PSS
    (a page a forked worker shares with its parent counts once, not in each); 0 once gone."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("Pss:"))
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return total


def run_measured(cmd: list[str], cwd: Path) -> tuple[float, int, int, int]:
    """(wall seconds, peak RSS in MB (10^6 bytes, as everywhere here) of the process itself,
    peak of the sum of its and its workers' PSS (sampled every 20 ms), exit code) of a command."""
    start = time.perf_counter()
    # (no pipe: one never read would stop a child that writes more than it holds)
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak_sum = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak_sum = max(peak_sum, _tree_pss_kb(proc.pid))
        time.sleep(0.02)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss * 1024 // 1_000_000, peak_sum * 1024 // 1_000_000, proc.returncode


def compilers(paths: list[Path], folder: Path) -> None:
    for suffix, name in ((".c", "clang-22"), (".f90", "flang-22")):
        tool = find_tool(name)
        mine = [p for p in paths if p.suffix == suffix]
        if tool is None or not mine:
            print(f"  {name}: not installed")
            continue
        wall, peak = 0.0, 0
        for path in mine:
            seconds, rss, _, code = run_measured([tool, "-fopenmp", "-fsyntax-only", str(path)], folder)
            if code != 0:
                raise RuntimeError(f"{name} rejected {path}")
            wall += seconds
            peak = max(peak, rss)
        print(f"  {name} -fopenmp -fsyntax-only, {len(mine)} files one after the other: {wall:.1f} s, "
              f"peak RSS {peak} MB (one file)")


def _rss_mb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1_000_000


def _peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 // 1_000_000


def phases(paths: list[Path]) -> None:
    """The check with one job (server/check_jobs.py), in this process, phase by phase: each file
    is parsed, analysed and summarised, and its analysis dropped, before the next, without the
    cycle collector, as in a worker (its garbage is collected between files, not timed). The phases:
    read (the files' bytes), parse (tree-sitter), directives (the directives read and their
    block structure), model (the program model), rules (the per-file rules), call graph (each
    file's references and the summary the cross-file rules read), cross-file (the device graph
    and the cross-file rules)."""
    from omp_lsp.analysis.check import (
        Build,
        Document,
        Options,
        analysis_steps,
        cross_file_results,
        drain,
        include_groups,
        language_for_path,
        result_of,
    )
    from omp_lsp.server.cli import GC_THRESHOLDS
    gc.set_threshold(*GC_THRESHOLDS)
    options = Options()
    rows: list[tuple[str, float]] = []
    collecting = 0.0

    def phase(name: str, seconds: float) -> None:
        rows.append((name, seconds))
        print(f"  {name:14} {seconds:6.2f} s   RSS after {_rss_mb():5d} MB   peak {_peak_mb():5d} MB")

    start = time.perf_counter()
    texts = {str(p): p.read_bytes() for p in paths}
    phase("read", time.perf_counter() - start)
    documents = {}
    for path, text in texts.items():
        language = language_for_path(path)
        assert language is not None
        documents[path] = Document(text, language)
    spent = dict.fromkeys(("parse", "directives", "model", "rules", "call graph"), 0.0)
    results = {}
    for group in include_groups(documents, Build()):
        # (the generated files include nothing: each is its own translation unit, analysed alone)
        assert len(group) == 1, group
        path = group[0]
        # (as in a worker, which collects nothing: it exits when its batch is done)
        gc.disable()
        start = time.perf_counter()
        fresh = Document(documents[path].source, documents[path].language, lines=documents[path].lines)
        if not fresh.language.is_fortran:   # (a check reads Fortran without tree-sitter: the text is scanned)
            fresh.tree
        spent["parse"] += time.perf_counter() - start
        start = time.perf_counter()
        steps = analysis_steps(fresh, options, path)
        context = next(steps)
        spent["directives"] += time.perf_counter() - start
        assert context is not None
        start = time.perf_counter()
        context.model
        spent["model"] += time.perf_counter() - start
        start = time.perf_counter()
        analysis = drain(steps)
        spent["rules"] += time.perf_counter() - start
        start = time.perf_counter()
        results[path] = result_of(path, analysis, True)
        context.release()
        spent["call graph"] += time.perf_counter() - start
        del analysis, context, steps, fresh
        start = time.perf_counter()
        gc.enable()
        gc.collect()   # (what a worker's exit frees)
        collecting += time.perf_counter() - start
    for name, seconds in spent.items():
        phase(name, seconds)
    print(f"  ({collecting:.2f} s collecting the garbage of each file: a check's workers exit instead)")
    start = time.perf_counter()
    found = cross_file_results(results, options, None, lambda path: {})
    phase("cross-file", time.perf_counter() - start)
    count = sum(len(r.findings) for r in found.values())
    print(f"  {'all':14} {sum(s for _, s in rows):6.2f} s   ({count} findings: the workspace is valid code, expect 0)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--keep", metavar="DIR", help="write the workspace here and keep it")
    parser.add_argument("--no-compilers", action="store_true", help="do not time the compilers")
    parser.add_argument("-j", "--jobs", type=int, help="time --check with this -j only (default: 1 and every CPU)")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="omp-lsp-workspace-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        paths = write_workspace(folder, args.files, args.lines)
        lines = sum(p.read_bytes().count(b"\n") for p in paths)
        print(f"omp-lsp --check over {len(paths)} files, {lines:,} lines (C and Fortran)")
        met = True
        for jobs in ([] if args.jobs is None else [args.jobs]) or [1, os.cpu_count() or 1]:
            wall, peak, peak_sum, code = run_measured([*omp_lsp_command(), "--check", "-j", str(jobs), str(folder)],
                                                      folder)
            met = wall <= WALL_GOAL and peak_sum <= RSS_GOAL_MB
            print(f"  omp-lsp --check -j {jobs}: {wall:.1f} s, peak RSS {peak} MB (the main process), "
                  f"{peak_sum} MB (PSS, with its workers), exit {code} "
                  f"(goal <= {WALL_GOAL:g} s and <= {RSS_GOAL_MB} MB: {'met' if met else 'NOT MET'})")
        if not args.no_compilers:
            compilers(paths, folder)
        print("phases, in this process:")
        phases(paths)
        return 0 if met and code == 0 else 1
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
