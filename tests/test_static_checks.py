"""The import contracts (pyproject.toml [tool.importlinter]) see every module of the package and
fail when one is broken. `make lint` runs them, ruff and mypy before the tests; this shows that
the contract check is not vacuous: it reads all the modules, and a contract the code breaks fails."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
FOLDERS = ("analysis", "server", "codegen")

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="the lint extra is not installed")


def _view(tmp: Path) -> Path:
    """The package under its import names, as `make lint` builds it."""
    package = tmp / "omp_lsp"
    package.mkdir()
    for source in (ROOT / "src" / "omp_lsp").glob("*.py"):
        shutil.copy(source, package / source.name)
    for folder in FOLDERS:
        (package / folder).symlink_to(ROOT / folder)
    return tmp


def _lint_imports(view: Path, config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--config", str(config), "--no-cache"], cwd=view, text=True,
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(view)}, timeout=300)


def _modules() -> int:
    files = list((ROOT / "src" / "omp_lsp").glob("*.py"))
    for folder in FOLDERS:
        files += [p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts]
    return len(files)


def test_the_project_contracts_hold_over_every_module(tmp_path: Path) -> None:
    done = _lint_imports(_view(tmp_path), ROOT / "pyproject.toml")
    assert done.returncode == 0, done.stdout + done.stderr
    analysed = re.search(r"Analyzed (\d+) files", done.stdout)
    assert analysed is not None and int(analysed.group(1)) == _modules(), done.stdout


def test_a_contract_the_code_breaks_fails(tmp_path: Path) -> None:
    config = tmp_path / "broken.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "omp_lsp"\n\n'
        '[[tool.importlinter.contracts]]\nname = "the server knows nothing of the analysis (false)"\n'
        'type = "forbidden"\nsource_modules = ["omp_lsp.server"]\nforbidden_modules = ["omp_lsp.analysis"]\n')
    view = tmp_path / "view"
    view.mkdir()
    done = _lint_imports(_view(view), config)
    assert done.returncode != 0
    assert "BROKEN" in done.stdout and "omp_lsp.server" in done.stdout
