"""Building and running with the real compilers of this machine (codegen): clang 22 offloads C
to the host-offload device through libomptarget, gcc 12 builds real NVPTX images that fall back
to the host (no GPU here), flang 22 builds for the host only; and the runner's timeout (the
whole process group) and output cap."""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from omp_lsp.codegen.build_and_run import build_and_run, compiler_diagnostics
from omp_lsp.codegen.link_errors import device_link_diagnostics
from omp_lsp.codegen.places import analyse
from omp_lsp.codegen.runner import run
from omp_lsp.codegen.toolchains import Toolchain, discover, pick

BUILDS = Path(__file__).parent / "fixtures" / "builds"   # (programs shared with test_build_fixtures)

TOOLCHAINS = discover()
HANG_GUARD = 120.0   # seconds: only a hang reaches it


def _toolchain(name: str, language: str) -> Toolchain:
    found = pick(TOOLCHAINS, language, name)
    if found is None:
        pytest.skip(f"the README's set-up installs {name}")
    return found


DECLARE_TARGET_C = """\
#include <stdio.h>
#pragma omp declare target
static int twice(int x) { return 2 * x; }
#pragma omp end declare target
int main(void) {
  int a[4] = {1, 2, 3, 4};
#pragma omp target map(tofrom: a)
  for (int i = 0; i < 4; i++) a[i] = twice(a[i]);
  printf("%d %d %d %d\\n", a[0], a[1], a[2], a[3]);
  return 0;
}
"""

WHERE_C = """\
#include <stdio.h>
#include <omp.h>
int main(void) {
  int initial = 1;
#pragma omp target map(from: initial)
  initial = omp_is_initial_device();
  printf("initial device: %d\\n", initial);
  return 0;
}
"""

DECLARE_TARGET_F = """\
module twice_m
contains
  integer function twice(x)
    !$omp declare target
    integer, intent(in) :: x
    twice = 2 * x
  end function twice
end module twice_m
program main
  use twice_m
  integer :: a(4), i
  a = [1, 2, 3, 4]
  !$omp target map(tofrom: a)
  do i = 1, 4
    a(i) = twice(a(i))
  end do
  !$omp end target
  print '(4i3)', a
end program main
"""


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_clang_offloads_a_declare_target_program_to_the_host_offload_device(tmp_path: Path) -> None:
    report = build_and_run(_write(tmp_path, "p.c", DECLARE_TARGET_C), "c", _toolchain("clang-22", "c"))
    assert [(b.kind, b.process.ok) for b in report.builds] == [("host", True), ("device", True)]
    assert any(a.startswith("-fopenmp-targets=x86_64") for a in report.builds[1].process.command)
    host, device = report.runs
    assert host.process.stdout == device.process.stdout == b"2 4 6 8\n" and report.same_output and report.ok
    assert (host.offloaded, device.offloaded) == (None, True)
    assert b"omptarget" not in device.stderr   # libomptarget's reports are taken out


def test_a_program_that_prints_where_it_ran_differs_between_the_runs(tmp_path: Path) -> None:
    report = build_and_run(_write(tmp_path, "where.c", WHERE_C), "c", _toolchain("clang-22", "c"))
    assert [r.process.stdout for r in report.runs] == [b"initial device: 1\n", b"initial device: 0\n"]
    assert report.same_output is False and not report.ok
    [found] = report.diagnostics
    assert (found["code"], found["line"]) == ("OMP503", 3) and "'initial device: 1'" in found["message"]


def test_gcc_builds_an_nvptx_image_that_runs_on_the_host_here(tmp_path: Path) -> None:
    report = build_and_run(_write(tmp_path, "p.c", DECLARE_TARGET_C), "c", _toolchain("gcc-12", "c"))
    assert [(b.kind, b.process.ok) for b in report.builds] == [("host", True), ("device", True)]
    assert "-foffload=nvptx-none" in report.builds[1].process.command
    assert report.same_output and report.runs[1].offloaded is Path("/dev/nvidiactl").exists()
    # the PTX image's own part: the declare target function and the target region's kernel
    assert {(e["kind"], e.get("function", e["name"])) for e in report.offload_entries} == {
        ("function", "twice"), ("kernel", "main")}


def test_flang_builds_fortran_for_the_host_only_and_says_why(tmp_path: Path) -> None:
    report = build_and_run(_write(tmp_path, "p.f90", DECLARE_TARGET_F), "fortran", _toolchain("flang-22", "fortran"),
                           others=TOOLCHAINS)
    assert [(b.kind, b.process.ok) for b in report.builds] == [("host", True)]
    assert report.runs[0].process.stdout.split() == [b"2", b"4", b"6", b"8"]
    assert any("flang" in note for note in report.notes) and report.same_output is None
    assert report.diagnostics == []   # (gfortran builds device code here: test below)
    alone = build_and_run(_write(tmp_path, "p.f90", DECLARE_TARGET_F), "fortran", _toolchain("flang-22", "fortran"),
                          others=[t for t in TOOLCHAINS if t.family == "llvm"])
    [found] = alone.diagnostics
    assert (found["code"], found["line"]) == ("OMP504", 9) and "gcc-12-offload-nvptx" in found["message"]


def test_gfortran_builds_fortran_for_nvptx(tmp_path: Path) -> None:
    report = build_and_run(_write(tmp_path, "p.f90", DECLARE_TARGET_F), "fortran", _toolchain("gcc-12", "fortran"))
    assert [(b.kind, b.process.ok) for b in report.builds] == [("host", True), ("device", True)]
    assert report.same_output and report.runs[1].process.stdout.split() == [b"2", b"4", b"6", b"8"]


def test_a_compiler_error_is_reported_at_its_line(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    source = _write(tmp_path, "bad.c", DECLARE_TARGET_C.replace("return 2 * x;", "return 2 * y;"))
    report = build_and_run(source, "c", _toolchain("clang-22", "c"))
    assert not report.builds[0].process.ok and report.runs == []
    [found] = [d for d in report.builds[0].diagnostics if d["severity"] == "error"]
    column = "static int twice(int x) { return 2 * y; }".index("y;") + 1   # (1-based, as --check's)
    assert (found["code"], found["line"], found["column"]) == ("OMP501", 3, column) and "'y'" in found["message"]
    assert compiler_diagnostics(b"other.c:1:1: error: x\n", source) == []   # (no such file)
    # the project's headers (the source's folder, -I folders) are reported, the system's are not
    include = tmp_path_factory.mktemp("include")
    (include / "util.h").write_text("int f(void);\n")
    (tmp_path / "near.h").write_text("int g(void);\n")
    output = (b"/usr/include/stdio.h:1:1: error: a\n" + f"{include}/util.h:1:5: error: b\n".encode()
              + b"near.h:1:5: warning: c\n")
    assert [(d["file"], d["message"]) for d in compiler_diagnostics(output, source, str(tmp_path), [f"-I{include}"])] == [
        (str(include / "util.h"), "b"), (str(tmp_path / "near.h"), "c")]
    assert [d["message"] for d in compiler_diagnostics(output, source, str(tmp_path))] == ["c"]


def test_a_program_that_never_ends_is_killed_with_its_children_at_the_timeout(tmp_path: Path) -> None:
    marker = f"{time.time_ns() % 10_000_000}.5"   # a sleep no other process runs
    done = run(["sh", "-c", f"sleep {marker} & sleep {marker}"], str(tmp_path), timeout=0.5)
    assert done.timed_out and done.exit_code is None and 0.4 < done.seconds < 10
    left = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True, check=False)
    assert left.stdout == b""


def test_a_cancelled_run_is_killed_with_its_children_and_the_rest_skipped(tmp_path: Path) -> None:
    marker = f"{time.time_ns() % 10_000_000}.25"
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    done = run(["sh", "-c", f"sleep {marker} & sleep {marker}"], str(tmp_path), timeout=60, cancel=cancel)
    assert done.error == "cancelled" and done.exit_code is None and not done.timed_out and done.seconds < 30
    left = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True, check=False)
    assert left.stdout == b""
    # what comes after a cancel does not start
    assert run(["true"], str(tmp_path), cancel=cancel).error == "cancelled"
    report = build_and_run(_write(tmp_path, "p.c", DECLARE_TARGET_C), "c", _toolchain("clang-22", "c"), cancel=cancel)
    assert [b.process.error for b in report.builds] == ["cancelled", "cancelled"] and report.runs == []


def test_output_past_the_cap_is_dropped(tmp_path: Path) -> None:
    head = shutil.which("head")
    assert head is not None
    done = run([head, "-c", str(100 << 20), "/dev/zero"], str(tmp_path), cap=1 << 20)
    assert done.ok and done.truncated and len(done.stdout) == 1 << 20


LINK_C = """\
#include <stdio.h>
int counter = 5;
int bump(int x) { return x + counter; }
#pragma omp declare target to(bump)
int main(void) {
  int r = 0;
#pragma omp target map(from: r)
  r = bump(1);
  printf("%d\\n", r);
  return 0;
}
"""


@pytest.mark.parametrize("toolchain", ["clang-22", "gcc-12"])
def test_a_global_the_device_needs_but_lacks_fails_the_device_link_at_its_declaration(tmp_path: Path,
                                                                                      toolchain: str) -> None:
    report = build_and_run(_write(tmp_path, "link.c", LINK_C), "c", _toolchain(toolchain, "c"))
    host, device = report.builds
    assert host.process.ok and not device.process.ok and [r.kind for r in report.runs] == ["host"]
    [found] = [d for d in device.diagnostics if d["code"] == "OMP502"]
    assert (found["line"], found["column"]) == (2, 5) and "'counter'" in found["message"]
    assert not any(d["code"] == "OMP501" and d["line"] == 2 for d in device.diagnostics)
    # the device use: the function the linker names (clang), or one marked declare target (gcc)
    assert [(r["line"], r["column"]) for r in found["related"]] == [(3, LINK_C.splitlines()[2].index("counter") + 1)]


IMPLIED_C = LINK_C.replace("#pragma omp declare target to(bump)\n", "")


@pytest.mark.parametrize("toolchain", ["clang-22", "gcc-12"])
def test_the_device_use_of_a_missing_global_may_be_in_a_procedure_implied_by_a_call(tmp_path: Path,
                                                                                     toolchain: str) -> None:
    """bump is device code only by propagation (called from the target region): the use in it
    is the one that needs the global on the device."""
    report = build_and_run(_write(tmp_path, "link.c", IMPLIED_C), "c", _toolchain(toolchain, "c"))
    [found] = [d for d in report.builds[1].diagnostics if d["code"] == "OMP502"]
    assert (found["line"], found["column"]) == (2, 5)
    assert [(r["line"], r["column"]) for r in found["related"]] == [(3, IMPLIED_C.splitlines()[2].index("counter") + 1)]


@pytest.mark.parametrize(("name", "language", "at"), [
    ("c/omp502_host_library_call.c", "c", (11, 9)), ("fortran/omp502_host_library_call.f90", "fortran", (10, 8))])
def test_a_host_library_procedure_the_nvptx_libraries_lack_fails_the_device_link_at_its_call(
        tmp_path: Path, name: str, language: str, at: tuple[int, int]) -> None:
    report = build_and_run(_write(tmp_path, Path(name).name, (BUILDS / name).read_text()), language,
                           _toolchain("gcc-12", language))
    host, device = report.builds
    assert host.process.ok and not device.process.ok
    [found] = [d for d in device.diagnostics if d["code"] == "OMP502"]
    assert (found["line"], found["column"]) == at and "libraries do not define it" in found["message"]
    assert found["related"] == []


UNDEFINED_C = """\
#include <stdio.h>
void helper(int *x);
int main(void) {
  int r = 0;
#pragma omp target map(tofrom: r)
  helper(&r);
  printf("%d\\n", r);
  return 0;
}
"""


def test_a_procedure_declared_but_defined_elsewhere_fails_the_device_link_at_its_declaration(tmp_path: Path) -> None:
    """clang names the kernel (`__omp_offloading_..._main_l5`): the use is in main's target region."""
    report = build_and_run(_write(tmp_path, "undefined.c", UNDEFINED_C), "c", _toolchain("clang-22", "c"))
    [found] = [d for d in report.builds[1].diagnostics if d["code"] == "OMP502"]
    assert (found["line"], found["column"]) == (2, 6) and "'helper'" in found["message"]
    assert "(in 'main')" in found["message"] and [(r["line"], r["column"]) for r in found["related"]] == [(6, 3)]


INDIRECT_C = """\
#include <stdio.h>
#pragma omp begin declare target indirect
int add1(int x) { return x + 1; }
int add2(int x) { return x + 2; }
#pragma omp end declare target
int table_data[4] = {1, 2, 3, 4};
#pragma omp declare target enter(table_data)
int main(void) {
  int (*fp)(int) = add2;
  int r = 0;
#pragma omp target map(from: r) firstprivate(fp)
  r = fp(table_data[0]);
  printf("%d\\n", r);
  return 0;
}
"""

VARIANT_C = """\
#include <stdio.h>
int twice_gpu(int x) { return x << 1; }
#pragma omp declare variant(twice_gpu) match(construct={target})
int twice(int x) { return 2 * x; }
#pragma omp declare target enter(twice, twice_gpu)
int main(void) {
  int r = 0;
#pragma omp target map(from: r)
  r = twice(21);
  printf("%d\\n", r);
  return 0;
}
"""


def test_indirect_calls_through_function_pointers_run_and_the_image_lists_their_entries(tmp_path: Path) -> None:
    report = build_and_run(_write(tmp_path, "ind.c", INDIRECT_C), "c", _toolchain("clang-22", "c"), openmp_version=52)
    assert report.ok and [r.process.stdout for r in report.runs] == [b"3\n", b"3\n"] and report.runs[1].offloaded
    entries = {(e["kind"], e.get("function", e["name"])) for e in report.offload_entries}
    assert {("indirect", "add1"), ("indirect", "add2"), ("kernel", "main"), ("variable", "table_data"),
            ("function", "add1"), ("function", "add2")} <= entries
    [kernel] = [e for e in report.offload_entries if e["kind"] == "kernel"]
    assert kernel["line"] == 11   # the target construct's line


def test_a_declare_variant_program_builds_and_runs_on_both(tmp_path: Path) -> None:
    report = build_and_run(_write(tmp_path, "variant.c", VARIANT_C), "c", _toolchain("clang-22", "c"), openmp_version=52)
    assert report.ok and [r.process.stdout for r in report.runs] == [b"42\n", b"42\n"]


def test_a_program_that_never_ends_is_killed_at_the_timeout(tmp_path: Path) -> None:
    source = _write(tmp_path, "loop.c", "int main(void) {\n  volatile int x = 0;\n  for (;;) x++;\n}\n")
    report = build_and_run(source, "c", _toolchain("clang-22", "c"), timeout=4.0)   # (room for the builds)
    assert [r.process.timed_out for r in report.runs] == [True, True]
    assert all(r.process.exit_code is None for r in report.runs) and not report.ok


def test_a_program_that_prints_100_megabytes_is_capped(tmp_path: Path) -> None:
    source = _write(tmp_path, "loud.c", '#include <stdio.h>\n#include <string.h>\nint main(void) {\n'
                    '  static char line[1 << 20];\n  memset(line, 120, sizeof line - 1);\n'
                    '  for (int i = 0; i < 100; i++) puts(line);\n  return 0;\n}\n')
    report = build_and_run(source, "c", _toolchain("clang-22", "c"), cap=1 << 20)
    assert all(r.process.truncated and len(r.process.stdout) == 1 << 20 and r.process.ok for r in report.runs)


CXX_PROGRAM = """\
#include <cstdio>
#include <vector>
#pragma omp declare target
template <typename T> T twice(T x) { return x + x; }
#pragma omp end declare target
int main() {
  std::vector<double> v{1.5, 2.5};
  double *a = v.data();
  std::size_t n = v.size();
#pragma omp target map(tofrom: a[0:n])
  for (std::size_t i = 0; i < n; i++) a[i] = twice(a[i]);
  std::printf("%g %g\\n", v[0], v[1]);
  return 0;
}
"""


def test_clang_builds_cxx_with_its_cxx_driver_and_offloads(tmp_path: Path) -> None:
    report = build_and_run(_write(tmp_path, "p.cpp", CXX_PROGRAM), "c++", _toolchain("clang-22", "c++"))
    assert Path(report.builds[1].process.command[0]).name == "clang++-22"   # (the C driver cannot link C++)
    assert report.ok and report.runs[1].process.stdout == b"3 5\n" and report.runs[1].offloaded


def test_gfortran_reports_a_module_variable_the_device_lacks_at_its_declaration(tmp_path: Path) -> None:
    text = (BUILDS / "fortran" / "omp502_module_variable.f90").read_text()
    report = build_and_run(_write(tmp_path, "link.f90", text), "fortran", _toolchain("gcc-12", "fortran"))
    [found] = [d for d in report.builds[1].diagnostics if d["code"] == "OMP502"]
    assert (found["line"], found["column"]) == (5, 14)
    assert [(r["line"], r["column"]) for r in found["related"]] == [(10, 16)]   # in bump, declare target


def test_with_no_toolchain_at_all_the_report_says_which_packages_would_do(tmp_path: Path) -> None:
    report = build_and_run(_write(tmp_path, "p.c", DECLARE_TARGET_C), "c", None)
    assert report.builds == [] and report.toolchain is None and not report.ok
    [found] = report.diagnostics
    assert found["code"] == "OMP504" and "clang-22" in found["message"] and found["line"] == 5   # main


@pytest.mark.parametrize("kind", ["named pipe", "link to /dev/zero"])
def test_a_pipe_or_device_in_the_place_of_the_source_gives_no_place_and_is_never_read(tmp_path: Path,
                                                                                    kind: str) -> None:
    """The report's places (OMP502, OMP503, OMP504) read the source again, regular files only: a
    named pipe put in its place (whose open waits for a writer) or a link to /dev/zero (which
    never ends) gives no place, and the report is made at once. The same name as a regular file
    is analysed."""
    path = tmp_path / "p.c"
    if kind == "named pipe":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    found: list[Any] = []
    worker = threading.Thread(target=lambda: found.append((
        analyse(str(path)), device_link_diagnostics(b"undefined symbol: counter\n", str(path)),
        build_and_run(str(path), "c", None).diagnostics)), daemon=True)
    worker.start()
    worker.join(HANG_GUARD)   # (a hang guard: the reads are refused before any open)
    assert found == [(None, [], [])]
    regular = _write(tmp_path, "q.c", DECLARE_TARGET_C)
    assert analyse(str(regular)) is not None
