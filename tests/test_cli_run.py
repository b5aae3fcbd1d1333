"""`omp-lsp run FILE` (server/run_command.py): text and JSON reports, exit status, usage errors."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from omp_lsp.server.cli import main

pytestmark = pytest.mark.skipif(shutil.which("clang-22") is None, reason="the README's set-up installs clang-22")

PROGRAM = """\
#include <stdio.h>
int main(void) {
  int x = 0;
#pragma omp target map(tofrom: x)
  x += 41;
  printf("%d\\n", x + 1);
  return 0;
}
"""


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["run", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_run_reports_both_builds_and_runs_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "p.c"
    source.write_text(PROGRAM)
    code, out, _ = _run([str(source), "--toolchain", "clang-22", "--format", "json", "--no-config"], capsys)
    report = json.loads(out)
    assert code == 0 and report["toolchain"] == "llvm-22" and report["same_output"] is True
    assert [(b["kind"], b["ok"]) for b in report["builds"]] == [("host", True), ("device", True)]
    assert [(r["kind"], r["stdout"], r["offloaded"]) for r in report["runs"]] == [("host", "42\n", None),
                                                                                  ("device", "42\n", True)]
    assert set(report) >= {"file", "toolchain", "builds", "runs", "same_output", "offload_entries"}


def test_a_failing_build_exits_1_with_the_compiler_message_in_text(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bad.c"
    source.write_text(PROGRAM.replace("x += 41;", "x += y;"))
    code, out, _ = _run([str(source), "--toolchain", "llvm-22", "--no-config"], capsys)
    assert code == 1 and f"{source}:5:8: error:" in out and "[OMP501]" in out


@pytest.mark.parametrize("argv, message", [
    (["missing.c"], "no such file"),
    (["README.md"], "not a C, C++ or Fortran file"),
    (["{src}", "--toolchain", "icx"], "no toolchain named icx"),
    (["{src}", "--timeout", "0"], "--timeout must be positive"),
    (["{src}", "--format", "xml"], "invalid choice"),
])
def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    source = tmp_path / "p.c"
    source.write_text(PROGRAM)
    (tmp_path / "README.md").write_text("# not code\n")
    args = [str(source) if a == "{src}" else str(tmp_path / a) if a.endswith((".c", ".md")) else a for a in argv]
    code, out, err = _run(args, capsys)
    assert code == 2 and message in err and out == ""
