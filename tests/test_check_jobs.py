"""`omp-lsp --check -j N`: files analysed in worker processes, then the cross-file rules over
each file's summary (`FileResult`): the same output for every N, a file's analysis made again
only for the files whose context a cross-file rule asks for, and no worker for one file. (That
summaries give the findings of whole analyses: test_summaries.py.)"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from omp_lsp.analysis.check import FileContext, Options, analyze_files
from test_summaries import ROOT, documents_of

CALLER = """\
extern double scale(double);
int steps = 3;
static double weight(double x) { return x * steps; }
void run(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] = scale(weight(a[i]));
}
int main(void) { double a[4] = {0}; run(4, a); return 0; }
"""
CALLEE = "double scale(double x) { return 2 * x; }\n"
QUIET = """\
#pragma omp declare target
static double twice_{n}(double x) {{ return 2 * x; }}
#pragma omp end declare target
void kernel_{n}(int n, double *a) {{
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] = twice_{n}(a[i]);
}}
"""


def test_a_context_is_made_again_only_for_the_files_a_rule_asks_about(tmp_path: Path) -> None:
    (tmp_path / "caller.c").write_text(CALLER)
    (tmp_path / "callee.c").write_text(CALLEE)
    for n in range(4):
        (tmp_path / f"quiet{n}.c").write_text(QUIET.format(n=n))
    from omp_lsp.analysis.check import cross_file_results, result_of
    options = Options()
    documents = documents_of(sorted(tmp_path.iterdir()))
    analyses = analyze_files(documents, options)
    results = {p: result_of(p, a, False) for p, a in analyses.items()}
    loaded: list[str] = []

    def load(path: str) -> dict[str, FileContext]:
        loaded.append(path)
        return {p: a.context for p, a in analyze_files({path: documents[path]}, options).items() if a.context}
    found = cross_file_results(results, options, None, load)
    codes = {Path(p).name: sorted(f.code for f in r.findings) for p, r in found.items()}
    assert codes["caller.c"] == ["OMP403", "OMP404"], codes
    # OMP404's fix is made from the text of the file that declares the variable: that file alone
    assert [Path(p).name for p in loaded] == ["caller.c"]
    assert found == {p: r for p, r in cross_file_results(results, options, None, load).items()}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "omp_lsp", "--check", "--no-config", "--format", "json", *args],
                          capture_output=True, text=True, timeout=600)


MODULE = """\
module lib_{n}
contains
  subroutine axpy_{n}(x, y)
    !$omp declare target
    real, intent(in) :: x
    real, intent(inout) :: y
    y = y + {n} * x
  end subroutine
end module
"""
USER = """\
subroutine use_{n}(a, b, m)
  use lib_{n}
  integer :: m, i
  real :: a(m), b(m)
  !$omp target teams distribute parallel do map(to: a) map(tofrom: b)
  do i = 1, m
    call axpy_{n}(a(i), b(i))
  end do
end subroutine
"""
HEADER = "#pragma omp declare target\nint shared_steps(void);\n#pragma omp end declare target\n"
INCLUDER = """\
#include "steps.h"
void step_{n}(int n, double *a) {{
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += shared_steps();
}}
"""


def test_the_output_is_the_same_for_every_number_of_jobs(tmp_path: Path) -> None:
    (tmp_path / "caller.c").write_text(CALLER)
    (tmp_path / "callee.c").write_text(CALLEE)
    (tmp_path / "steps.h").write_text(HEADER)
    for n in range(3):
        (tmp_path / f"quiet{n}.c").write_text(QUIET.format(n=n))
        (tmp_path / f"lib{n}.f90").write_text(MODULE.format(n=n))
        (tmp_path / f"user{n}.f90").write_text(USER.format(n=n))
        (tmp_path / f"step{n}.c").write_text(INCLUDER.format(n=n))
    runs = {jobs: _cli("-j", str(jobs), str(tmp_path), str(ROOT / "examples")) for jobs in (1, 2, 3, 8)}
    for jobs, r in runs.items():
        assert r.returncode == 1 and not r.stderr, (jobs, r.stderr)
        assert r.stdout == runs[1].stdout, jobs
    found = {(Path(d["file"]).name, d["code"]) for d in json.loads(runs[1].stdout)["diagnostics"]}
    assert {("caller.c", "OMP403"), ("caller.c", "OMP404")} <= found
    assert not any(name.startswith(("quiet", "lib", "user", "step")) for name, _ in found)


ONE_FILE = textwrap.dedent("""\
    import resource, sys
    from omp_lsp.server.cli import main
    status = main(["--check", "-j", "4", "--no-config", sys.argv[1]])
    print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
""")


@pytest.mark.parametrize("files,forks", [(1, False), (3, True)])
def test_one_file_pays_no_pool_start_up(tmp_path: Path, files: int, forks: bool) -> None:
    for n in range(files):
        (tmp_path / f"quiet{n}.c").write_text(QUIET.format(n=n))
    target = tmp_path if files > 1 else tmp_path / "quiet0.c"
    r = subprocess.run([sys.executable, "-c", ONE_FILE, str(target)], capture_output=True, text=True, timeout=300)
    status, children_rss = r.stderr.split()[-2:]
    assert status == "0", r.stderr
    # RUSAGE_CHILDREN counts the processes waited for: none unless workers were started
    assert (int(children_rss) > 0) is forks


COLLECTS = textwrap.dedent("""\
    import gc, sys
    from omp_lsp.server.cli import main
    status = main(["--check", "--no-config", sys.argv[1]], own_process=sys.argv[2] == "own")
    print(status, gc.isenabled(), file=sys.stderr)
""")


@pytest.mark.parametrize("size,own,collects", [("small", "own", False), ("small", "call", True),
                                               ("large", "own", True)])
def test_a_check_that_exits_when_done_collects_no_garbage_as_its_workers(tmp_path: Path, size: str, own: str,
                                                                         collects: bool) -> None:
    """A program that checks at most a worker's batch of source and exits collects nothing (a
    collection of a 10,000-line file's analysis cost a twentieth of its check); a larger check,
    or a call from Python that goes on, keeps the collector."""
    from omp_lsp.server.check_jobs import BATCH_BYTES
    text = QUIET.format(n=0)
    if size == "large":
        text += "/* padding */\n" * (BATCH_BYTES // 14 + 1)
    (tmp_path / "a.c").write_text(text)
    r = subprocess.run([sys.executable, "-c", COLLECTS, str(tmp_path / "a.c"), own], capture_output=True, text=True,
                       timeout=300)
    assert r.stderr.split()[-2:] == ["0", str(collects)], r.stderr


def test_bad_numbers_of_jobs_are_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(CALLEE)
    for value in ("0", "-2", "many"):
        r = _cli("-j", value, str(tmp_path))
        assert r.returncode == 2 and "Traceback" not in r.stderr, (value, r.stderr)


def test_groups_whose_units_read_each_other_s_files_are_analysed_together(tmp_path: Path) -> None:
    """b.h is found only through a folder of main.c's command (`-Iinc2`), from a.h: the scan of
    a.h alone does not find it, so b.h starts in a group of its own. main.c's analysis shows that
    its unit read b.h, with USE_GPU defined: the groups are joined and b.h is read in main.c's
    context, as the whole analysis reads it (alone, its directive would be in an inactive branch)."""
    from omp_lsp.analysis.check import Build, cross_file, include_groups, load_compile_commands, replace, with_overlay
    from omp_lsp.server.check_jobs import check
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc2").mkdir()
    (tmp_path / "inc" / "a.h").write_text('#include "b.h"\n')
    (tmp_path / "inc2" / "b.h").write_text(
        "#ifdef USE_GPU\n#pragma omp declare target\nint counter;\n#pragma omp end declare target\n#endif\n")
    (tmp_path / "main.c").write_text('#define USE_GPU\n#include "a.h"\nint main(void) { return counter; }\n')
    (tmp_path / "other.c").write_text(CALLEE)
    (tmp_path / "compile_commands.json").write_text(json.dumps([{
        "directory": str(tmp_path), "file": "main.c", "arguments": ["clang", "-fopenmp", "-Iinc", "-Iinc2", "-c", "main.c"]},
        {"directory": str(tmp_path), "file": "other.c", "arguments": ["clang", "-fopenmp", "-c", "other.c"]}]))
    database = load_compile_commands(str(tmp_path / "compile_commands.json"))
    paths = [tmp_path / "main.c", tmp_path / "inc" / "a.h", tmp_path / "inc2" / "b.h", tmp_path / "other.c"]
    options = Options()
    build = Build(database)
    groups = include_groups(documents_of(paths), replace(build, headers=with_overlay(build.headers, documents_of(paths))))
    assert [str(tmp_path / "inc2" / "b.h")] in groups   # (the scan alone keeps b.h apart)
    whole = cross_file(analyze_files(documents_of(paths), options, build), options, None, database)
    alone = analyze_files(documents_of([paths[2]]), options)[str(paths[2])]
    b_h = str(paths[2])
    assert [f.code for f in whole[b_h].findings] != [f.code for f in alone.findings]
    for jobs in (1, 2):
        found = check(documents_of(paths), options, build, database, jobs)
        assert {p: r.findings for p, r in found.items()} == {p: a.findings for p, a in whole.items()}, jobs

