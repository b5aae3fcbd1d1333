"""The distribution puts everything under omp_lsp: nothing with a generic name in site-packages."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_holds_only_the_omp_lsp_namespace(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(ROOT)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    wheel = next(tmp_path.glob("omp_lsp-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert top == {"omp_lsp", next(t for t in top if t.endswith(".dist-info"))}, top
    for module in ("omp_lsp/__main__.py", "omp_lsp/analysis/check.py", "omp_lsp/analysis/directives/tables.py",
                   "omp_lsp/analysis/rules/directive_syntax.py", "omp_lsp/server/cli.py", "omp_lsp/codegen/__init__.py"):
        assert module in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "omp-lsp = omp_lsp.__main__:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_no_partial_package_at_the_top_of_the_checkout() -> None:
    # `python -m omp_lsp` run from the checkout would import a top-level omp_lsp/ folder instead of
    # the installed package (which has analysis/ and server/ mapped into it) and fail.
    assert not (ROOT / "omp_lsp").exists()
    assert (ROOT / "src" / "omp_lsp" / "__main__.py").exists()
