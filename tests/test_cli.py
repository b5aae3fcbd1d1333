"""`omp-lsp --check`: exit codes, output formats, paths and bad input, run as a real process."""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

BAD_C = """\
#pragma omp declare target
int counter;
#pragma omp end declare target

void f(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) privte(n)
  for (int i = 0; i < n; i++) a[i] += counter;
}
#pragma omp end declare target
"""

GOOD_C = """\
void f(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2.0;
}
"""

WARN_C = """\
#pragma omp begin declare target
int x;
#pragma omp end declare target extra
"""


def run(*args: str, cwd: Path | None = None, module: bool = False, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("omp-lsp", path=os.path.dirname(sys.executable)) or shutil.which("omp-lsp")
    cmd = [sys.executable, "-m", "omp_lsp", *args] if module or exe is None else [exe, *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=timeout)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "bad.c").write_text(BAD_C)
    (tmp_path / "good.c").write_text(GOOD_C)
    (tmp_path / "warn.c").write_text(WARN_C)
    return tmp_path


def test_console_script_is_installed() -> None:
    assert shutil.which("omp-lsp", path=os.path.dirname(sys.executable)), "omp-lsp console script missing"


def test_gcc_format_lines_and_summary(tree: Path) -> None:
    r = run("--check", str(tree / "bad.c"))
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    assert re.fullmatch(rf"{re.escape(str(tree / 'bad.c'))}:6:\d+: error: unknown clause 'privte'; did you mean "
                        r"'private'\? \[OMP002\]", lines[0]), lines
    assert any(line.endswith("[OMP006]") and ":9:" in line for line in lines)
    assert lines[-1] == "omp-lsp: 2 errors in 1 file"
    col = int(lines[0].split(":")[2])
    assert BAD_C.splitlines()[5][col - 1:].startswith("privte")


def test_clean_file_exits_zero(tree: Path) -> None:
    r = run("--check", str(tree / "good.c"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == "omp-lsp: no problems in 1 file"


def test_python_dash_m_is_the_same_program(tree: Path) -> None:
    a = run("--check", str(tree), "--format", "json")
    b = run("--check", str(tree), "--format", "json", module=True)
    assert a.returncode == b.returncode == 1
    assert json.loads(a.stdout) == json.loads(b.stdout)


def test_json_format(tree: Path) -> None:
    r = run("--check", str(tree), "--format", "json")
    doc = json.loads(r.stdout)
    assert doc["version"] == 1 and doc["files_checked"] == 3
    by_code = {d["code"]: d for d in doc["diagnostics"]}
    d = by_code["OMP002"]
    assert d["file"].endswith("bad.c") and d["line"] == 6 and d["severity"] == "error"
    line = BAD_C.splitlines()[5]
    assert line[d["column"] - 1:d["end_column"] - 1] == "privte"
    assert d["end_line"] == 6 and d["related"] == []
    assert set(d) == {"file", "line", "column", "end_line", "end_column", "severity", "code", "message", "related"}
    assert by_code["OMP009"]["severity"] == "warning"


def test_sarif_format(tree: Path) -> None:
    r = run("--check", ".", "--format", "sarif", cwd=tree)
    sarif = json.loads(r.stdout)
    assert sarif["version"] == "2.1.0"
    run0 = sarif["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert "OMP001" in ids and "OMP103" in ids and len(ids) == len(set(ids))
    results = run0["results"]
    assert {res["ruleId"] for res in results} == {"OMP002", "OMP006", "OMP009"}
    for res in results:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert not loc["artifactLocation"]["uri"].startswith("/")
        assert loc["region"]["startLine"] >= 1 and loc["region"]["startColumn"] >= 1
        assert res["level"] in ("error", "warning", "note")
        assert res["message"]["text"]
        assert res["partialFingerprints"]["primaryLocationLineHash"]
    # The SARIF object model accepts it (types, enums, required fields).
    from sarif_pydantic import Sarif
    Sarif.model_validate(sarif)


def test_fail_on_warning(tree: Path) -> None:
    assert run("--check", str(tree / "warn.c")).returncode == 0
    assert run("--check", "--fail-on", "warning", str(tree / "warn.c")).returncode == 1


def test_directories_recursive_and_exclude(tree: Path) -> None:
    sub = tree / "sub" / "deeper"
    sub.mkdir(parents=True)
    (sub / "k.f90").write_text("program p\n!$omp parallle\n!$omp end parallel\nend program\n")
    (sub / "notes.txt").write_text("#pragma omp targte\n")
    r = run("--check", str(tree), "--format", "json")
    doc = json.loads(r.stdout)
    assert doc["files_checked"] == 4
    assert any(d["file"].endswith("k.f90") and d["code"] == "OMP001" for d in doc["diagnostics"])
    r = run("--check", str(tree), "--format", "json", "--exclude", "sub", "--exclude", "bad.c")
    doc = json.loads(r.stdout)
    assert doc["files_checked"] == 2 and r.returncode == 0


def test_openmp_version_option(tree: Path) -> None:
    f = tree / "enter.c"
    f.write_text("int x;\n#pragma omp declare target enter(x)\n")
    assert run("--check", str(f)).returncode == 1
    assert run("--check", "--openmp-version", "5.2", str(f)).returncode == 0
    r = run("--check", "--openmp-version", "7.3", str(f))
    assert r.returncode == 2 and "unknown OpenMP version" in r.stderr


@pytest.mark.parametrize("args, message", [
    (["--check", "/no/such/path.c"], "no such file or directory"),
    (["--check"], "needs at least one file"),
    (["--check", "--format", "xml", "x.c"], "invalid choice"),
    (["--bogus"], "unrecognized arguments"),
    (["--stdio", "-j", "0"], "-j needs a positive number of processes"),   # (the server's index)
])
def test_usage_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    r = run(*args)
    assert r.returncode == 2
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_unknown_extension_is_a_usage_error(tmp_path: Path) -> None:
    f = tmp_path / "readme.txt"
    f.write_text("hello")
    r = run("--check", str(f))
    assert r.returncode == 2 and "not a C, C++ or Fortran source" in r.stderr


def test_unreadable_path_exits_2(tmp_path: Path) -> None:
    # A Unix socket cannot be opened for reading, even by root.
    path = tmp_path / "sock.c"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    try:
        r = run("--check", str(path))
    finally:
        s.close()
    assert r.returncode == 2 and "cannot read" in r.stderr and "Traceback" not in r.stderr


def test_examples_are_checked(tmp_path: Path) -> None:
    r = run("--check", str(EXAMPLES), "--format", "json")
    doc = json.loads(r.stdout)
    assert doc["files_checked"] >= 4
    flagged = {Path(d["file"]).name for d in doc["diagnostics"]}
    assert flagged == {"mistakes.c", "mistakes.f90"}, doc["diagnostics"]


def test_check_does_not_import_the_server_stack(tree: Path) -> None:
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "omp_lsp", "--check", str(tree / "good.c")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "omp_lsp.analysis.file_analysis" in imported
    assert not {m for m in imported if m.split(".")[0] in ("pygls", "lsprotocol", "cattrs", "asyncio")}


def test_a_c_check_loads_no_fortran_rules_and_still_reports_every_annotated_finding() -> None:
    """Fortran-only rule modules (and the Fortran model) load with the first Fortran file."""
    from expectations import expected
    path = EXAMPLES / "mistakes.c"
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "omp_lsp", "--check", "--format", "json", str(path)],
                       capture_output=True, text=True, timeout=60)
    imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "omp_lsp.analysis.rules.target_clauses" in imported
    assert not {m for m in imported if "fortran" in m}, sorted(m for m in imported if "fortran" in m)
    found = sorted((d["line"], d["code"]) for d in json.loads(r.stdout)["diagnostics"])
    assert found == sorted(expected(path.read_text(encoding="utf-8")).elements())


WORKSPACE = Path(__file__).resolve().parent / "fixtures" / "workspaces" / "omp160_bind_c"


def test_cross_file_rules_see_every_file_given_and_point_into_the_other_file() -> None:
    both = run("--check", "--format", "json", str(WORKSPACE / "main.f90"), str(WORKSPACE / "device.c"))
    alone = run("--check", "--format", "json", str(WORKSPACE / "main.f90"))
    codes = [d["code"] for d in json.loads(both.stdout)["diagnostics"]]
    assert "OMP160" in codes and both.returncode == 0  # a warning: exit 0 under --fail-on error
    assert "OMP160" not in [d["code"] for d in json.loads(alone.stdout)["diagnostics"]]  # no C file: silent
    related = [r for d in json.loads(both.stdout)["diagnostics"] if d["code"] == "OMP160" for r in d["related"]]
    c_lines = (WORKSPACE / "device.c").read_text().splitlines()
    for r in related:
        assert r["file"].endswith("device.c")
        assert 1 <= r["line"] <= len(c_lines)
    gcc = run("--check", str(WORKSPACE))
    notes = [line for line in gcc.stdout.splitlines() if ": note: " in line and "device.c" in line]
    assert notes and not any(":0:0:" in line for line in notes)
