"""OMP401, OMP404 and OMP407 against clang's device link: what omp-lsp says device code needs but
cannot have is exactly the device link's undefined references (no more, no fewer)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from omp_lsp.analysis import Document, Language
from omp_lsp.analysis.workspace import analyze_workspace
from test_device_agreement import _require

FOLDER = Path(__file__).resolve().parent / "device_link_needs"


def _undefined(tmp_path: Path, program: Path) -> set[str]:
    """The undefined references of the program's device link (which must fail)."""
    tools = _require()
    build = subprocess.run([tools.clang, "-fopenmp", "-fopenmp-version=51", "-fopenmp-targets=x86_64-unknown-linux-gnu",
                            str(program), "-lm", "-o", str(tmp_path / "a.out")], capture_output=True, text=True,
                           timeout=120, cwd=tmp_path, check=False)
    assert build.returncode != 0, "the device link was expected to fail"
    return set(re.findall(r"undefined reference to [`'\"]([^`'\"]+)[`'\"]", build.stdout + build.stderr))


def _named(program: Path) -> dict[str, set[str]]:
    """code -> the names omp-lsp's findings are about (the first quoted name of each message), the
    program's folder (its headers) analysed with it."""
    path = str(program)
    documents = {str(p): Document(p.read_text(encoding="utf-8"), Language.C) for p in FOLDER.iterdir()
                 if p == program or p.suffix == ".h"}
    findings = analyze_workspace(documents)[path].findings
    out: dict[str, set[str]] = {}
    for f in findings:
        out.setdefault(f.code, set()).add(re.search(r"'([^']+)'", f.message).group(1))  # type: ignore[union-attr]
    return out


def test_omp404_names_exactly_the_undefined_globals(tmp_path: Path) -> None:
    program = FOLDER / "globals.c"
    undefined = _undefined(tmp_path, program)
    assert _named(program) == {"OMP404": undefined}
    assert undefined == {"counter", "coeffs", "label"}


def test_omp401_and_omp407_name_exactly_the_undefined_procedures(tmp_path: Path) -> None:
    program = FOLDER / "procedures.c"
    undefined = _undefined(tmp_path, program)
    assert _named(program) == {"OMP401": {"host_log"}, "OMP407": {"from_a_library"}}
    assert undefined == {"host_log", "from_a_library"}


def test_omp402_is_where_clang_rejects_a_nohost_reference(tmp_path: Path) -> None:
    tools = _require()
    program = FOLDER / "nohost.c"
    build = subprocess.run([tools.clang, "-fopenmp", "-fopenmp-version=51", "-fopenmp-targets=x86_64-unknown-linux-gnu",
                            "-fsyntax-only", str(program)], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                           check=False)
    rejected = {int(line) for line in re.findall(r"nohost\.c:(\d+):\d+: error: function with 'device_type\(nohost\)' "
                                                 r"is not available on host", build.stderr)}
    path = str(program)
    text = program.read_text(encoding="utf-8")
    findings = analyze_workspace({path: Document(text, Language.C)})[path].findings
    reported = {text.count("\n", 0, len(text.encode()[:f.span[0]].decode())) + 1 for f in findings if f.code == "OMP402"}
    assert reported == {7, 10, 14}, reported
    # clang also rejects the call inside the target region (line 16): it compiles the region's host
    # fallback too. The rule catalogue counts a target region as device code, so OMP402 does not.
    assert rejected == reported | {16}, build.stderr[-2000:]
    assert {f.code for f in findings} == {"OMP402"}
