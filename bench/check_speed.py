#!/usr/bin/env python3
"""Speed of `omp-lsp --check` against the reference compilers' own OpenMP checks.

Generates a 10,000-line C file and a 10,000-line Fortran file full of offload
directives and declare variants (valid code: both compilers accept them), then times, side by side and
interleaved, `omp-lsp --check FILE` against `clang-22 -fopenmp -fsyntax-only FILE`
and `flang-22 -fopenmp -fsyntax-only FILE`, and prints the medians and ratios.
Goals: C at most 1.0x clang's time, Fortran at most 0.2x flang's.

    python bench/check_speed.py [--lines 10000] [--runs 7] [--keep DIR] [--in-place]

By default it first installs the project with `pip install .` into a throw-away virtual
environment, so that omp-lsp is timed as users run it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

C_UNIT = """\
#pragma omp declare target
static double scale{k}(double x) {{ return x * {k}.5 + 1.0; }}
#pragma omp end declare target
double table{k}[64];
#pragma omp declare target to(table{k})
double blend{k}_gpu(double x, double y) {{ return x * 0.{k} + y; }}
#pragma omp declare variant(blend{k}_gpu) match(device = {{kind(gpu), arch(nvptx64)}}, implementation = {{vendor(llvm)}})
double blend{k}(double x, double y);

void kernel{k}(int n, double *restrict a, const double *restrict b) {{
  double sum = 0.0;
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n]) thread_limit({limit})
  for (int i = 0; i < n; i++) {{
    a[i] = a[i] + scale{k}(b[i]) + table{k}[i % 64];
  }}
#pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n])
  {{
#pragma omp target teams distribute parallel for simd reduction(+: sum) collapse(1)
    for (int i = 0; i < n; i++) {{
      sum += a[i] * b[i];
    }}
#pragma omp target update from(a[0:n / {part}])
  }}
#pragma omp target enter data map(to: b[0:n])
#pragma omp target map(tofrom: sum) if(target: n > {k}) device(0)
  {{
    sum += b[0];
  }}
#pragma omp target exit data map(release: b[0:n])
  a[0] = sum;
}}

"""

F_UNIT = """\
module m{k}
  implicit none
  real(8) :: table{k}(64)
  !$omp declare target(table{k})
contains
  pure real(8) function scale{k}(x)
    !$omp declare target
    real(8), intent(in) :: x
    scale{k} = x * {k}.5d0 + 1.0d0
  end function scale{k}

  pure real(8) function blend{k}_gpu(x)
    real(8), intent(in) :: x
    blend{k}_gpu = x * 0.{k}d0
  end function blend{k}_gpu

  pure real(8) function blend{k}(x)
    !$omp declare variant(blend{k}_gpu) match(device={{kind(gpu)}}, implementation={{vendor(llvm)}})
    real(8), intent(in) :: x
    blend{k} = x
  end function blend{k}

  subroutine kernel{k}(n, a, b)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n)
    real(8), intent(in) :: b(n)
    real(8) :: s
    integer :: i
    s = 0.0d0
    !$omp target teams distribute parallel do map(tofrom: a(1:n)) &
    !$omp& map(to: b(1:n)) thread_limit({limit})
    do i = 1, n
      a(i) = a(i) + scale{k}(b(i)) + table{k}(mod(i, 64) + 1)
    end do
    !$omp end target teams distribute parallel do
    !$omp target data map(tofrom: a(1:n))
    !$omp target teams distribute parallel do simd reduction(+: s)
    do i = 1, n
      s = s + a(i) * b(i)
    end do
    !$omp target update from(a(1:n/{part}))
    !$omp end target data
    a(1) = s
  end subroutine kernel{k}
end module m{k}

"""


def generate(unit: str, lines: int) -> str:
    per_unit = unit.count("\n")
    # Units differ in names and constants, as in real code.
    return "".join(unit.format(k=k, limit=32 + k % 97, part=2 + k % 13) for k in range(max(1, lines // per_unit)))


def workspace_file(k: int, lines: int) -> str:
    """The C file `k` of a generated workspace: `lines` lines of C units whose global names differ
    from the other files'."""
    return generate(C_UNIT, lines).replace("kernel", f"kernel{k}_").replace("blend", f"blend{k}_") \
        .replace("scale", f"scale{k}_")


def find_tool(name: str) -> str | None:
    """A versioned compiler on PATH or in the LLVM installation folder."""
    found = shutil.which(name)
    if found:
        return found
    base, _, version = name.rpartition("-")
    candidate = Path(f"/usr/lib/llvm-{version}/bin/{base}")
    return str(candidate) if candidate.exists() else None


def omp_lsp_command() -> list[str]:
    if OMP_LSP:
        return OMP_LSP
    exe = shutil.which("omp-lsp", path=os.path.dirname(sys.executable)) or shutil.which("omp-lsp")
    return [exe] if exe else [sys.executable, "-m", "omp_lsp"]


def install_as_a_user(workdir: Path) -> list[str]:
    """`pip install .` into a throw-away virtual environment: omp-lsp as users run it (byte-code
    compiled at install time, no editable-install finder at start-up)."""
    venv = workdir / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    root = Path(__file__).resolve().parent.parent
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(root)], check=True)
    return [str(venv / "bin" / "omp-lsp")]


ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
OMP_LSP: list[str] = []


def time_once(cmd: list[str], ok_codes: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    # Run in the file's folder: flang writes .mod files into the working directory.
    proc = subprocess.run(cmd, capture_output=True, timeout=600, cwd=Path(cmd[-1]).parent, env=ENV, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok_codes:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout.decode()[-2000:]}"
                           f"{proc.stderr.decode()[-2000:]}")
    return elapsed


def compare(label: str, path: Path, compiler: list[str] | None, runs: int, goal: float) -> bool:
    ours = omp_lsp_command() + ["--check", str(path)]
    lines = path.read_text().count("\n")
    # The input must be valid: omp-lsp reports nothing and the compiler accepts it.
    time_once(ours)
    if compiler is None:
        mine = statistics.median(time_once(ours) for _ in range(runs))
        print(f"{label:8} {lines:6} lines  omp-lsp {mine:.3f} s   (reference compiler not installed: no ratio)")
        return True
    time_once(compiler)
    mine_t: list[float] = []
    ref_t: list[float] = []
    for _ in range(runs):  # interleaved, so both see the same machine load
        mine_t.append(time_once(ours))
        ref_t.append(time_once(compiler))
    mine, ref = statistics.median(mine_t), statistics.median(ref_t)
    ratio = mine / ref
    verdict = "ok" if ratio <= goal else "SLOWER THAN GOAL"
    print(f"{label:8} {lines:6} lines  omp-lsp {mine:.3f} s   {Path(compiler[0]).name} {ref:.3f} s   "
          f"ratio {ratio:.2f}x (goal <= {goal:g}x) {verdict}")
    return ratio <= goal


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", metavar="DIR", help="write the generated files here and keep them")
    parser.add_argument("--in-place", action="store_true",
                        help="time the omp-lsp of this environment instead of a fresh `pip install .`")
    args = parser.parse_args()
    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="omp-lsp-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    c_file = workdir / "bench.c"
    f_file = workdir / "bench.f90"
    c_file.write_text(generate(C_UNIT, args.lines))
    f_file.write_text(generate(F_UNIT, args.lines))
    if not args.in_place:
        OMP_LSP.extend(install_as_a_user(workdir))
    clang = find_tool("clang-22")
    flang = find_tool("flang-22")
    print(f"omp-lsp --check vs the compilers' -fsyntax-only, median of {args.runs} interleaved runs")
    ok = compare("C", c_file, [clang, "-fopenmp", "-fsyntax-only", str(c_file)] if clang else None, args.runs, 1.0)
    ok &= compare("Fortran", f_file, [flang, "-fopenmp", "-fsyntax-only", str(f_file)] if flang else None,
                  args.runs, 0.2)
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
