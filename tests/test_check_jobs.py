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


def test_bad_numbers_of_jobs_are_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(CALLEE)
    for value in ("0", "-2", "many"):
        r = _cli("-j", value, str(tmp_path))
        assert r.returncode == 2 and "Traceback" not in r.stderr, (value, r.stderr)
