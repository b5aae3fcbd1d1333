#!/usr/bin/env python3
"""Speed of `omp-lsp --check` against the reference compilers' own OpenMP checks.

Generates 10,000 lines of each of several shapes of offloading code (valid code: both compilers
accept them), then times, side by side and interleaved, `omp-lsp --check FILES` against
`clang-22 -fopenmp -fsyntax-only FILES` and `flang-22 -fopenmp -fsyntax-only FILES`, and prints
the medians and ratios. The shapes:
- C: units of declare target functions and variables, declare variants and several kinds of
  target constructs; Fortran: the same in modules;
- C small functions: many small functions and kernels, as code ported from CUDA has them;
- C call chains: helpers reached from kernels through long call chains;
- Fortran modules: library modules of declare target procedures, used from kernels in the
  modules of other files of the same run.
Goals: every C shape at most 1.0x clang's time, every Fortran shape at most 0.2x flang's.

Beside each check it times its floor, also side by side: the same interpreter started, `--check`'s
imports, the files read, parsed with tree-sitter (C; a check reads Fortran without it) and their
directives read with their block structure, then exit. Every check does that much before the
program model, any rule or the call graph, so no work on those can make a check faster than it.

    python bench/check_speed.py [--lines 10000] [--runs 7] [--shapes LABELS] [--keep DIR] [--in-place]

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


# Many small functions, as code ported from CUDA has them: per 16 lines, a begin/end declare
# target block with a static array and a helper, a plain function, a kernel calling both inside
# a combined construct with a reduction, and a `target update`.
C_SMALL_UNIT = """\
#pragma omp begin declare target
static double coef{k}[8] = {{{k}.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0}};
static double weight{k}(double x) {{ return x * coef{k}[{k} % 8] + 0.{k}; }}
#pragma omp end declare target
double shift{k}(double x) {{ return x + {k}.25; }}
void launch{k}(int n, double *a, double *out) {{
  double sum = 0.0;
#pragma omp target teams distribute parallel for reduction(+: sum) map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) {{
    a[i] = weight{k}(a[i]) + shift{k}(a[i]);
    sum += a[i];
  }}
#pragma omp target update from(a[0:n / {part}])
  *out = sum;
}}
"""

# Helpers reached from kernels through long call chains: twelve steps a unit (each defined before
# its caller), and a unit's last step calls the first of the unit before (runs of eight units: chains of up to 96 calls), none
# marked declare target (found on the device through the calls, propagation.md).
C_CHAIN_UNIT = "static double step{k}_11(double x) {{ return {tail}; }}\n" + "".join(
    f"static double step{{k}}_{i}(double x) {{{{ return step{{k}}_{i + 1}(x) * 0.5 + {i}.0; }}}}\n"
    for i in reversed(range(11))) + """\
void chain{k}(int n, double *a) {{
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) thread_limit({limit})
  for (int i = 0; i < n; i++) {{
    a[i] = step{k}_0(a[i]) + step{k}_6(a[i]);
  }}
}}
"""

# A Fortran program split in modules: library modules of procedures marked declare target, and
# kernel modules in other files of the same run that use them inside target constructs.
F_LIBRARY_PROCEDURE = """\
  pure real(8) function lib{m}_f{k}(x)
    !$omp declare target
    real(8), intent(in) :: x
    lib{m}_f{k} = x * {k}.5d0 + lib{m}_base
  end function lib{m}_f{k}

"""
F_KERNEL_PROCEDURE = """\
  subroutine kern{m}_s{k}(n, a)
    use lib{lib}
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n)
    integer :: i
    !$omp target teams distribute parallel do map(tofrom: a(1:n))
    do i = 1, n
      a(i) = lib{lib}_f{k}(a(i)) + lib{lib}_f{j}(1.0d0)
    end do
    !$omp end target teams distribute parallel do
  end subroutine kern{m}_s{k}

"""


def generate(unit: str, lines: int) -> str:
    per_unit = unit.count("\n")
    # Units differ in names and constants, as in real code.
    return "".join(unit.format(k=k, limit=32 + k % 97, part=2 + k % 13) for k in range(max(1, lines // per_unit)))


def chains(lines: int) -> str:
    per_unit = C_CHAIN_UNIT.count("\n")
    return "".join(C_CHAIN_UNIT.format(k=k, limit=32 + k % 97, tail=f"step{k - 1}_0(x) + 1.0" if k % 8 else "x")
                   for k in range(max(1, lines // per_unit)))


def fortran_modules(lines: int, files: int = 10) -> list[tuple[str, str]]:
    """(file name, text) of `files` library modules and as many kernel modules, `lines` lines in
    all, in the order a compiler reads them (each library before the kernels that use it)."""
    procedures = max(1, lines // (files * (F_LIBRARY_PROCEDURE.count("\n") + F_KERNEL_PROCEDURE.count("\n"))))
    out = []
    for m in range(files):
        body = "".join(F_LIBRARY_PROCEDURE.format(m=m, k=k) for k in range(procedures))
        out.append((f"lib{m}.f90", f"module lib{m}\n  implicit none\n  real(8), parameter :: lib{m}_base = {m}.0d0\n"
                                   f"contains\n\n{body}end module lib{m}\n"))
    for m in range(files):
        lib = (m + 1) % files
        body = "".join(F_KERNEL_PROCEDURE.format(m=m, k=k, j=(k + 1) % procedures, lib=lib) for k in range(procedures))
        out.append((f"kern{m}.f90", f"module kern{m}\n  implicit none\ncontains\n\n{body}end module kern{m}\n"))
    return out


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


# What every check does before the program model: start, imports, read, parse, directives.
FLOOR = """\
import gc, sys
gc.disable()  # (as a check of at most a batch of source runs)
from omp_lsp.server import cli  # noqa: F401  (what --check has imported when it starts reading)
from omp_lsp.analysis.check import Document, Options, analysis_steps, language_for_path
for path in sys.argv[1:]:
    language = language_for_path(path)
    with open(path, "rb") as file:
        document = Document(file.read(), language)
    if not language.is_fortran:
        document.tree
    context = next(analysis_steps(document, Options(), path))
"""


def python_of(command: list[str]) -> str:
    """The interpreter that runs omp-lsp: the script's, or this one."""
    if len(command) > 1:
        return command[0]
    with open(command[0], "rb") as script:
        first = script.readline()
    return first[2:].decode().strip() if first.startswith(b"#!") else sys.executable


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


def compare(label: str, paths: list[Path], compiler: list[str] | None, runs: int, goal: float) -> bool:
    ours = omp_lsp_command() + ["--check", *map(str, paths)]
    lines = sum(path.read_text().count("\n") for path in paths)
    # The input must be valid: omp-lsp reports nothing and the compiler accepts it.
    time_once(ours)
    if compiler is None:
        mine = statistics.median(time_once(ours) for _ in range(runs))
        print(f"{label:18} {lines:6} lines  omp-lsp {mine:.3f} s   (reference compiler not installed: no ratio)")
        return True
    time_once(compiler)
    floor = [python_of(omp_lsp_command()), "-c", FLOOR, *map(str, paths)]
    time_once(floor)
    mine_t: list[float] = []
    ref_t: list[float] = []
    floor_t: list[float] = []
    for _ in range(runs):  # interleaved, so all see the same machine load
        mine_t.append(time_once(ours))
        ref_t.append(time_once(compiler))
        floor_t.append(time_once(floor))
    mine, ref, least = statistics.median(mine_t), statistics.median(ref_t), statistics.median(floor_t)
    ratio = mine / ref
    verdict = "ok" if ratio <= goal else "SLOWER THAN GOAL"
    print(f"{label:18} {lines:6} lines  omp-lsp {mine:.3f} s   {Path(compiler[0]).name} {ref:.3f} s   "
          f"ratio {ratio:.2f}x (goal <= {goal:g}x) {verdict}; floor {least:.3f} s = {least / ref:.2f}x")
    return ratio <= goal


def shapes(lines: int) -> list[tuple[str, dict[str, str]]]:
    """(label, {file name: text}) of each shape of offloading code the bench times."""
    return [
        ("C", {"bench.c": generate(C_UNIT, lines)}),
        ("C small functions", {"small.c": generate(C_SMALL_UNIT, lines)}),
        ("C call chains", {"chains.c": chains(lines)}),
        ("Fortran", {"bench.f90": generate(F_UNIT, lines)}),
        ("Fortran modules", dict(fortran_modules(lines))),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", metavar="DIR", help="write the generated files here and keep them")
    parser.add_argument("--in-place", action="store_true",
                        help="time the omp-lsp of this environment instead of a fresh `pip install .`")
    parser.add_argument("--shapes", help="only these shapes (comma-separated labels, as printed)")
    args = parser.parse_args()
    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="omp-lsp-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    if not args.in_place:
        OMP_LSP.extend(install_as_a_user(workdir))
    clang = find_tool("clang-22")
    flang = find_tool("flang-22")
    print(f"omp-lsp --check vs the compilers' -fsyntax-only, median of {args.runs} interleaved runs")
    ok = True
    for label, files in shapes(args.lines):
        if args.shapes and not any(wanted.lower() == label.lower() for wanted in args.shapes.split(",")):
            continue
        paths = []
        for name, text in files.items():
            (workdir / name).write_text(text)
            paths.append(workdir / name)
        fortran = paths[0].suffix == ".f90"
        tool = flang if fortran else clang
        ok &= compare(label, paths, [tool, "-fopenmp", "-fsyntax-only", *map(str, paths)] if tool else None,
                      args.runs, 0.2 if fortran else 1.0)
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
