"""The import contracts (pyproject.toml [tool.importlinter]) see every module of the package and
fail when one is broken. `make lint` runs them, ruff and mypy before the tests; this shows that
the contract check is not vacuous: it reads all the modules, and a contract the code breaks fails.
It also holds analysis.check, the one entry point of the server and the codegen, to the analysis
folder: the contract that keeps them to it forbids every other part, and its table of names is the
one its imports for the type checker declare."""
from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Collection
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
FOLDERS = ("analysis", "server", "codegen")

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="the lint extra is not installed")


def _view(tmp: Path, copied: Collection[str] = ()) -> Path:
    """The package under its import names, as `make lint` builds it; the `copied` folders are
    copies (a test may add a module to them) instead of links."""
    package = tmp / "omp_lsp"
    package.mkdir()
    for source in (ROOT / "src" / "omp_lsp").glob("*.py"):
        shutil.copy(source, package / source.name)
    for folder in FOLDERS:
        if folder in copied:
            shutil.copytree(ROOT / folder, package / folder, ignore=shutil.ignore_patterns("__pycache__"))
        else:
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


ENTRY_POINT = "the server and codegen call the analysis through analysis.check alone"


def _contract(name: str) -> dict[str, object]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"] == name)


def test_the_server_and_codegen_may_import_no_part_of_the_analysis_but_check() -> None:
    """A new layer of the analysis is forbidden to them as soon as it exists (else it would slip past)."""
    parts = {p.stem if p.suffix == ".py" else p.name for p in (ROOT / "analysis").iterdir()
             if (p.suffix == ".py" or (p / "__init__.py").exists())}
    contract = _contract(ENTRY_POINT)
    assert contract["source_modules"] == ["omp_lsp.server", "omp_lsp.codegen"]
    assert contract["allow_indirect_imports"] == "True"
    forbidden = contract["forbidden_modules"]
    assert isinstance(forbidden, list) and len(forbidden) == len(set(forbidden))
    assert set(forbidden) == {f"omp_lsp.analysis.{part}" for part in parts - {"__init__", "check"}}


def test_a_server_module_importing_an_analysis_part_directly_breaks_the_entry_point_contract(tmp_path: Path) -> None:
    view = _view(tmp_path, copied=("server",))
    (view / "omp_lsp" / "server" / "direct.py").write_text(
        '"""Reads a document without going through analysis.check."""\n'
        "from omp_lsp.analysis.syntax.document import Document\n\n__all__ = [\"Document\"]\n")
    done = _lint_imports(view, ROOT / "pyproject.toml")
    assert done.returncode != 0
    assert "Contracts: 4 kept, 1 broken." in done.stdout, done.stdout
    assert re.search(rf"{re.escape(ENTRY_POINT)}\s+BROKEN", done.stdout), done.stdout
    assert "omp_lsp.server.direct -> omp_lsp.analysis.syntax.document" in done.stdout, done.stdout


def test_check_declares_to_the_type_checker_each_name_it_loads_and_no_other() -> None:
    """analysis.check names each of its names three times: an import under TYPE_CHECKING (what mypy and
    import-linter read), its home in the table `__getattr__` loads it from, and `__all__`."""
    from omp_lsp.analysis import check
    tree = ast.parse((ROOT / "analysis" / "check.py").read_text(encoding="utf-8"))
    guarded = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    declared: dict[str, str] = {}
    for node in guarded.body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is not None
        for alias in node.names:
            own = "" if alias.asname in (None, alias.name) else f":{alias.name}"
            declared[alias.asname or alias.name] = node.module + own
    assert declared == check._HOMES
    assert sorted(check.__all__) == sorted(declared) and len(check.__all__) == len(declared)
