"""`omp-lsp run FILE` (server/run_command.py): text and JSON reports, exit status, usage errors."""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from omp_lsp.__main__ import main

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


def test_a_device_link_failure_is_shown_with_its_own_code_in_text(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "link.c"
    source.write_text("int counter = 5;\nint bump(int x) { return x + counter; }\n#pragma omp declare target to(bump)\n"
                      + PROGRAM.replace("x += 41;", "x = bump(41);"))
    code, out, _ = _run([str(source), "--toolchain", "llvm-22", "--no-config"], capsys)
    assert code == 1 and f"{source}:1:5: error: 'counter' is used in device code (in 'bump')" in out
    assert "[OMP502]" in out and "[OMP501]" not in out


MACROS_C = """\
#include <stdio.h>
#include "scale.h"
int main(void) {
  int x = 0;
#pragma omp target map(tofrom: x)
  x = SCALE(N);
  printf("%d %ld\\n", x, __STDC_VERSION__);
  return 0;
}
"""


def test_the_compile_command_gives_the_builds_its_macros_with_values_include_folders_and_standard(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "scale.h").write_text("#define SCALE(v) (FACTOR * (v))\n")
    source = tmp_path / "src" / "p.c"
    source.write_text(MACROS_C)
    (tmp_path / "compile_commands.json").write_text(json.dumps([{
        "directory": str(tmp_path), "file": "src/p.c",
        "arguments": ["cc", "-DN=7", "-D", "FACTOR=3", "-DGONE", "-UGONE", "-Iinclude", "-std=c11", "-O2",
                      "-fopenmp", "-c", "src/p.c", "-o", "p.o"]}]))
    code, out, _ = _run([str(source), "--toolchain", "clang-22", "--format", "json", "--no-config"], capsys)
    report = json.loads(out)
    assert code == 0 and [r["stdout"] for r in report["runs"]] == ["21 201112\n", "21 201112\n"]
    assert report["builds"][0]["command"][3:10] == ["-DN=7", "-DFACTOR=3", "-DGONE", "-UGONE", "-I",
                                                    str(tmp_path / "include"), "-std=c11"]


@pytest.mark.parametrize("argv, message", [
    (["missing.c"], "no such file"),
    (["fifo.c"], "cannot read: not a regular file (a named pipe)"),
    (["folder.c"], "cannot read: not a regular file (a directory)"),
    (["README.md"], "not a C, C++ or Fortran file"),
    (["{src}", "--toolchain", "icx"], "no toolchain named icx"),
    (["{src}", "--timeout", "0"], "--timeout must be positive"),
    (["{src}", "--format", "xml"], "invalid choice"),
])
def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    source = tmp_path / "p.c"
    source.write_text(PROGRAM)
    (tmp_path / "README.md").write_text("# not code\n")
    os.mkfifo(tmp_path / "fifo.c")
    (tmp_path / "folder.c").mkdir()
    args = [str(source) if a == "{src}" else str(tmp_path / a) if a.endswith((".c", ".md")) else a for a in argv]
    code, out, err = _run(args, capsys)
    assert code == 2 and message in err and out == ""


def test_a_toolchain_not_found_lists_the_names_that_select_each_found(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "p.c"
    source.write_text(PROGRAM)
    code, _, err = _run([str(source), "--toolchain", "clang-21", "--no-config"], capsys)
    assert code == 2 and "no toolchain named clang-21 compiles c here (found: llvm-22, also named llvm, clang, " in err


def test_the_readme_example_toolchain_clang_is_taken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "p.c"
    source.write_text(PROGRAM)
    (tmp_path / ".omp-lsp.toml").write_text('toolchain = "clang"\n')
    code, out, _ = _run([str(source), "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["toolchain"] == "llvm-22"


def test_the_text_report_quotes_build_commands_for_a_shell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A command pasted into bash gives the compiler the same words: a folder with a space, a name
    with a quote, a dollar sign and a newline (written `$'...'`, the command on one line)."""
    folder = tmp_path / "my dir"
    folder.mkdir()
    source = folder / "it's $HOME\nx.c"
    source.write_text(PROGRAM)
    code, out, _ = _run([str(source), "--toolchain", "clang-22", "--no-config"], capsys)
    assert code == 0, out
    commands = [line.split(" s: ", 1)[1] for line in out.splitlines() if " build: ok in " in line]
    assert len(commands) == 2
    for command in commands:
        words = subprocess.run(["bash", "-c", f"printf '%s\\0' {command}"], capture_output=True, text=True,
                               check=True, timeout=30).stdout.split("\0")[:-1]
        assert words[0] == shutil.which("clang-22") and words[1] == "-fopenmp" and str(source) in words
        assert words[words.index("-o") - 1] == str(source)


def test_a_successful_run_does_not_load_the_analysis_or_the_server(tmp_path: Path) -> None:
    """Its start-up counts in the overhead over running the compilers by hand (bench/run_overhead.py):
    the program model is loaded only to place the diagnostics of a build or run that went wrong."""
    source = tmp_path / "p.c"
    source.write_text(PROGRAM)
    probe = ("import sys\nfrom omp_lsp.__main__ import main\n"
             f"code = main(['run', {str(source)!r}, '--toolchain', 'clang-22', '--no-config'])\n"
             "print(code, sorted(m for m in sys.modules if m.startswith(('omp_lsp.analysis.', 'omp_lsp.server.', "
             "'pygls', 'tree_sitter'))))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    code, loaded = done.stdout.splitlines()[-1].split(" ", 1)
    assert code == "0"
    assert ast.literal_eval(loaded) == [
        "omp_lsp.analysis.check",   # the analysis's entry point: it loads each name when asked for it
        "omp_lsp.analysis.syntax", "omp_lsp.analysis.syntax.compile_commands", "omp_lsp.analysis.syntax.device_limits",
        "omp_lsp.analysis.syntax.diagnostics", "omp_lsp.analysis.syntax.document", "omp_lsp.analysis.syntax.options",
        "omp_lsp.analysis.syntax.reads",   # (the read recorder: records and documents record reads)
        "omp_lsp.analysis.syntax.records", "omp_lsp.analysis.syntax.regular_files", "omp_lsp.analysis.syntax.tables",
        "omp_lsp.server.config", "omp_lsp.server.escaping",
        "omp_lsp.server.run_command"]
