"""A file's cost is bounded by its size: a directive over MAX_DIRECTIVE_BYTES is read by name only
and reported once (OMP013), the rest of the file is checked as usual, and the rules do not take
its unread contents for absent ones. Inputs are generated; each check runs `omp-lsp --check` as a
real process and reads its peak resident memory (no timings: those are bench/large_inputs.py's)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from omp_lsp.analysis import Document, Language, Options
from omp_lsp.analysis.check import FileAnalysis, analysis_steps
from omp_lsp.analysis.directives.lexer import tokenize, tokenize_head
from omp_lsp.analysis.directives.parser import MAX_DIRECTIVE_BYTES
from omp_lsp.analysis.incremental.directive_edit import reanalyse
from omp_lsp.analysis.rules import drain
from omp_lsp.analysis.syntax.padding import pad
from test_directive_edit import _padded

# Before the bound, a 4 MB map list took about 700 MB; a checker process starts at about 25 MB.
MEMORY_BOUND_KB = 300_000


def check(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The JSON diagnostics of `omp-lsp --check path` and the process's peak RSS in KiB."""
    exe = shutil.which("omp-lsp", path=os.path.dirname(sys.executable))
    cmd = [exe] if exe else [sys.executable, "-m", "omp_lsp"]
    out = path.with_suffix(".json")
    with open(out, "wb") as stdout:
        proc = subprocess.Popen([*cmd, "--check", "--format", "json", str(path)], stdout=stdout,
                                stderr=subprocess.PIPE)
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)   # this child's own peak, not the test run's
        proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode in (0, 1), err.decode()
    assert b"Traceback" not in err and b"internal error" not in err, err.decode()
    return json.loads(out.read_text())["diagnostics"], usage.ru_maxrss


def codes(diagnostics: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return sorted((d["line"], d["code"]) for d in diagnostics)


def names(count: int, prefix: str = "a") -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def c_declarations(items: list[str]) -> str:
    return "int " + ", ".join(items) + ";\n"


# -- a large map list, on one line and continued ---------------------------------------------------
def test_a_4_mb_pragma_on_one_line_is_reported_once_and_the_rest_is_checked(tmp_path: Path) -> None:
    items = ",".join(names(520_000))
    path = tmp_path / "huge_map.c"
    path.write_text(f"int g;\nvoid f(void) {{\n#pragma omp target map(tofrom: g, {items})\n  {{ g = 1; }}\n"
                    "#pragma omp target map(release: g)\n  { }\n}\n")
    assert path.stat().st_size > 4_000_000
    diagnostics, peak = check(path)
    assert codes(diagnostics) == [(3, "OMP013"), (5, "OMP201")]
    note = diagnostics[0]
    assert note["severity"] == "information" and (note["column"], note["end_column"]) == (13, 19)   # `target`
    assert "KiB long" in note["message"] and "not checked" in note["message"]
    assert peak < MEMORY_BOUND_KB, f"peak RSS {peak} KiB"


def test_a_large_directive_with_a_name_in_capitals_is_read_by_its_first_words(tmp_path: Path) -> None:
    items = ",".join(names(520_000))
    path = tmp_path / "capitals.c"
    path.write_text(f"void f(void) {{\n#pragma omp TARGET map(tofrom: {items})\n  {{ }}\n}}\n")
    diagnostics, peak = check(path)
    assert codes(diagnostics) == [(2, "OMP001"), (2, "OMP013")]
    assert "did you mean 'target'" in next(d["message"] for d in diagnostics if d["code"] == "OMP001")
    assert peak < MEMORY_BOUND_KB, f"peak RSS {peak} KiB"


def test_a_continued_pragma_is_reported_once(tmp_path: Path) -> None:
    lines = [",".join(names(10, f"a{k}_")) for k in range(12_000)]
    path = tmp_path / "continued.c"
    path.write_text("void f(void) {\n#pragma omp target teams map(to: " + ", \\\n    ".join(lines)
                    + ")\n  { }\n#pragma omp targte\n  { }\n}\n")
    diagnostics, peak = check(path)
    assert codes(diagnostics) == [(2, "OMP013"), (12_003, "OMP001")]
    assert peak < MEMORY_BOUND_KB, f"peak RSS {peak} KiB"


def test_a_continued_fortran_directive_is_reported_once_and_its_end_directive_pairs(tmp_path: Path) -> None:
    lines = [",".join(names(10, f"a{k}_")) for k in range(12_000)]
    path = tmp_path / "continued.f90"
    path.write_text("subroutine s\n!$omp target map(to: " + ", &\n!$omp& ".join(lines) + ")\n!$omp end target\n"
                    "!$omp targte\nend subroutine\n")
    diagnostics, peak = check(path)
    # the end directive pairs with the target it ends: no OMP006
    assert codes(diagnostics) == [(2, "OMP013"), (12_003, "OMP001")]
    assert peak < MEMORY_BOUND_KB, f"peak RSS {peak} KiB"


def test_a_directive_just_under_the_limit_is_checked_in_full(tmp_path: Path) -> None:
    items = names(1)
    while len(", ".join(items)) < MAX_DIRECTIVE_BYTES - 200:
        items.append(f"a{len(items)}")
    path = tmp_path / "under.c"
    path.write_text(c_declarations(items) + f"#pragma omp declare target to({', '.join(items)}, a0)\n")
    diagnostics, _ = check(path)
    assert codes(diagnostics) == [(2, "OMP103")]   # a0 twice: the whole list was read


# -- its unread contents are not taken for absent ones ------------------------------------------------
def test_a_variable_in_a_large_declare_target_is_not_reported_missing(tmp_path: Path) -> None:
    items = names(20_000)
    path = tmp_path / "marks.c"
    path.write_text(c_declarations(items) + "int g, h;\n"
                    f"#pragma omp declare target to(g, {', '.join(items)})\n"
                    "#pragma omp declare target\nvoid dev(void) { g = 2; h = 3; }\n#pragma omp end declare target\n")
    diagnostics, _ = check(path)
    # g may be marked by the unread directive; h is not named there: still reported
    assert codes(diagnostics) == [(3, "OMP013"), (5, "OMP404")]
    assert "'h'" in diagnostics[1]["message"]


def test_a_large_fortran_declare_target_is_not_the_clause_less_form(tmp_path: Path) -> None:
    lines = [", ".join(names(10, f"a{k}_")) for k in range(3_000)]
    path = tmp_path / "marks.f90"
    path.write_text("module m\n" + "".join(f"  integer :: {line}\n" for line in lines)
                    + "!$omp declare target(" + ", &\n!$omp& ".join(lines) + ")\nend module\n")
    diagnostics, _ = check(path)
    # (read as a clause-less directive it would be OMP152: one outside a subprogram)
    assert codes(diagnostics) == [(3_002, "OMP013")]


# -- one long line without directives ------------------------------------------------------------------
def test_a_long_line_without_directives(tmp_path: Path) -> None:
    path = tmp_path / "table.c"
    path.write_text("int table[] = {" + ",".join("7" for _ in range(250_000)) + "};\n"
                    "void f(void) {\n#pragma omp targte\n  { }\n}\n")
    diagnostics, peak = check(path)
    assert codes(diagnostics) == [(3, "OMP001")]
    assert peak < MEMORY_BOUND_KB, f"peak RSS {peak} KiB"


# -- the name of a directive of any length is read from its first tokens --------------------------------
@pytest.mark.parametrize("body", [
    b" target teams map(to: a[0:n]) nowait",
    b"declare   target\t(x)   ",
    b"  \xc3\xa9t\xc3\xa9 map(x)",
    b"",
    b"   ",
    b'"unclosed string',
])
@pytest.mark.parametrize("count", [0, 1, 3, 16])
def test_tokenize_head_is_a_prefix_of_tokenize(body: bytes, count: int) -> None:
    assert tokenize_head(body, count) == tokenize(body)[:count]


# -- typing in and around the limit: an edited directive re-analysed equals a fresh analysis ------------
def _analysed(padded: bytes, language: Language) -> FileAnalysis:
    return drain(analysis_steps(Document(padded, language), Options(), "/w/large.c", trace=True))


@pytest.mark.parametrize("edit", ["grow", "shrink below", "grow above", "in the name"])
def test_an_edit_of_a_large_directive_equals_a_fresh_analysis(edit: str) -> None:
    items = names(1)
    while len(", ".join(items)) < MAX_DIRECTIVE_BYTES - 40:
        items.append(f"a{len(items)}")
    size = {"grow": 200, "shrink below": 200, "grow above": 0, "in the name": 200}[edit]
    head = b"int g;\nvoid f(void) {\n#pragma omp target map(tofrom: "
    real = head + ", ".join([*items, *names(size, "b")]).encode() + b")\n  { g = 1; }\n}\n"
    language = Language.C
    padded, padding = pad(real, language)
    analysis = _analysed(padded, language)
    assert [f.code for f in analysis.findings] == (["OMP013"] if size else [])
    at, removed, typed = {"grow": (len(head) + 3, 0, b"zz, "), "shrink below": (len(head), 400, b""),
                          "grow above": (len(head), 0, b"c0, " * 20), "in the name": (len(head) - 20, 0, b" ")}[edit]
    real = real[:at] + typed + real[at + removed:]
    done = reanalyse(analysis, padding, padding.to_padded(at), padding.to_padded(at + removed), typed)
    if done is None:
        return   # the server would analyse the file afresh: nothing to compare
    analysis, padding = done
    fresh = _analysed(_padded(real, padding), language)
    assert analysis.document.source == fresh.document.source
    assert analysis.findings == fresh.findings and analysis.directives == fresh.directives

