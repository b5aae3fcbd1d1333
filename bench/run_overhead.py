#!/usr/bin/env python3
"""The overhead of `omp-lsp run` over invoking the compilers and the programs by hand.

Builds and runs a small offloading C program with each toolchain found here (clang 22 offloads to
the host-offload device, gcc 12 to nvptx): first with the bare commands `omp-lsp run` would use
(two builds, two runs), then through `build_and_run` (in process: what the editor's command
costs), then through the `omp-lsp run` command line (a new Python process). Interleaved runs,
each kind first in turn; medians. The goal is an overhead under 5 %. The compilers' own times
vary by ±20 % from run to run here, so build_and_run's own time (its wall time less that of the
processes it ran, in the same call) is printed too. The command line adds a fixed cost on top:
Python's start (about 40 ms) and the imports of the codegen and the configuration (about 40 ms;
tests/test_cli_run.py keeps the analysis and the server out of them).

    python bench/run_overhead.py [--runs 7] [--lines 2000]

`--lines N` adds a larger program: N lines of the check_speed benchmark's offloading units and a
main that calls one of them (where the builds take seconds, as real programs' do).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from omp_lsp.codegen.build_and_run import build_and_run
from omp_lsp.codegen.plans import plans
from omp_lsp.codegen.toolchains import discover, pick

PROGRAM = """\
#include <stdio.h>
#pragma omp declare target
static double scale(double x) { return 2.0 * x; }
#pragma omp end declare target
int main(void) {
  double a[1000];
  for (int i = 0; i < 1000; i++) a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < 1000; i++) a[i] = scale(a[i]);
  printf("%g\\n", a[999]);
  return 0;
}
"""


def bare(source: str, toolchain, folder: str) -> float:  # type: ignore[no-untyped-def]
    """The same builds and runs, invoked directly."""
    steps, _ = plans(toolchain, "c", source, folder)
    start = time.perf_counter()
    for step in steps:
        subprocess.run(step.command, check=True, capture_output=True)
        env = {**os.environ, "OMP_TARGET_OFFLOAD": "DISABLED" if step.kind == "host" else "MANDATORY"}
        subprocess.run([step.output], check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def larger(lines: int) -> str:
    """`lines` lines of check_speed's units (kernels, declare target, declare variant) and a main."""
    sys.path.insert(0, str(Path(__file__).parent))
    from check_speed import C_UNIT, generate
    return ("#include <stdio.h>\n" + generate(C_UNIT, lines) +
            "int main(void) {\n  static double a[256], b[256];\n  for (int i = 0; i < 256; i++) b[i] = i;\n"
            "  kernel0(256, a, b);\n  printf(\"%g\\n\", a[0] + a[255]);\n  return 0;\n}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--lines", type=int, default=0, help="also a program of this many lines")
    args = parser.parse_args()
    toolchains = discover()
    programs = [("a 12-line program", PROGRAM)] + ([(f"a {args.lines}-line program", larger(args.lines))]
                                                   if args.lines else [])
    print(f"omp-lsp run vs the bare compiler and program invocations, median of {args.runs} interleaved runs")
    for title, text in programs:
        print(title)
        measure(text, toolchains, args.runs)
    return 0


def measure(text: str, toolchains: list, runs: int) -> None:  # type: ignore[type-arg]
    with tempfile.TemporaryDirectory() as folder:
        source = str(Path(folder, "bench.c"))
        Path(source).write_text(text)
        for name in ("clang-22", "gcc-12"):
            toolchain = pick(toolchains, "c", name)
            if toolchain is None:
                print(f"  {name}: not installed")
                continue
            times: dict[str, list[float]] = {"bare": [], "build_and_run": [], "cli": [], "own": []}
            for i in range(runs):
                # (each run in turn goes first: the one after another build finds its files cached)
                for kind in ("bare", "build_and_run", "cli")[i % 3:] + ("bare", "build_and_run", "cli")[:i % 3]:
                    _measure(kind, source, toolchain, name, folder, times)
            base = statistics.median(times["bare"])
            print(f"  {toolchain.name}: bare {base * 1000:.0f} ms")
            for kind in ("build_and_run", "cli"):
                t = statistics.median(times[kind])
                print(f"    {kind:14} {t * 1000:6.0f} ms  overhead {100 * (t - base) / base:+.1f} %")
            own = statistics.median(times["own"])
            print(f"    build_and_run's own time (beside its four processes) {own * 1000:.0f} ms: "
                  f"{100 * own / base:.1f} % of the bare time")


def _measure(kind: str, source: str, toolchain, name: str, folder: str,  # type: ignore[no-untyped-def]
             times: dict[str, list[float]]) -> None:
    if kind == "bare":
        times["bare"].append(bare(source, toolchain, folder))
    elif kind == "build_and_run":
        start = time.perf_counter()
        report = build_and_run(source, "c", toolchain)
        took = time.perf_counter() - start
        times["build_and_run"].append(took)
        # its own share: the wall time less that of the four processes it ran (measured in the
        # same call, so the compilers' variance from run to run does not count)
        times["own"].append(took - sum(p.process.seconds for p in (*report.builds, *report.runs)))
        assert report.ok, report.as_json()
    else:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "omp_lsp", "run", source, "--toolchain", name, "--no-config"],
                       check=True, capture_output=True)
        times["cli"].append(time.perf_counter() - start)


if __name__ == "__main__":
    sys.exit(main())
