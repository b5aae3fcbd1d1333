"""OMP404 against clang's device link: the globals omp-lsp says device code uses without declare
target are exactly the undefined references of the device link (no more, no fewer)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from omp_lsp.analysis import Document, Language
from omp_lsp.analysis.workspace import analyze_workspace
from test_device_agreement import _require

PROGRAM = Path(__file__).resolve().parent / "device_link_globals" / "globals.c"


def test_omp404_names_exactly_the_undefined_device_symbols(tmp_path: Path) -> None:
    tools = _require()
    build = subprocess.run([tools.clang, "-fopenmp", "-fopenmp-version=51", "-fopenmp-targets=x86_64-unknown-linux-gnu",
                            str(PROGRAM), "-o", str(tmp_path / "a.out")], capture_output=True, text=True, timeout=120,
                           cwd=tmp_path, check=False)
    assert build.returncode != 0, "the device link was expected to fail"
    undefined = set(re.findall(r"undefined reference to [`'\"]([^`'\"]+)[`'\"]", build.stdout + build.stderr))
    path = str(PROGRAM)
    findings = analyze_workspace({path: Document(PROGRAM.read_text(encoding="utf-8"), Language.C)})[path].findings
    reported = {re.match(r"global variable '([^']+)'", f.message).group(1)  # type: ignore[union-attr]
                for f in findings if f.code == "OMP404"}
    assert reported == undefined == {"counter", "coeffs", "label"}, (reported, undefined, build.stderr[-2000:])
    assert {f.code for f in findings} == {"OMP404"}
