"""The code the speed benchmarks generate is valid: the compilers accept every shape of
bench/check_speed.py and bench/workspace_check.py, and omp-lsp reports nothing in it (a bench
that timed error reporting would measure another path)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from omp_lsp.analysis import Document, language_for_path
from omp_lsp.analysis.workspace import analyze_workspace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from check_speed import FLOOR, find_tool, shapes, workspace_file
from workspace_check import fortran_workspace_file

LINES = 900   # a few units of each shape (the benches write 10,000 lines)
SHAPES = shapes(LINES)


@pytest.mark.parametrize("label, files", SHAPES, ids=[label for label, _ in SHAPES])
def test_every_shape_is_accepted_by_the_compiler_and_omp_lsp_finds_nothing(
        label: str, files: dict[str, str], tmp_path: Path) -> None:
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        paths.append(tmp_path / name)
    assert sum(text.count("\n") for text in files.values()) >= LINES * 0.9
    fortran = paths[0].suffix == ".f90"
    tool = find_tool("flang-22" if fortran else "clang-22")
    assert tool is not None, "the reference compilers are installed by the README's test command"
    # (flang writes the modules' .mod files into its working folder: the later files use them)
    done = subprocess.run([tool, "-fopenmp", "-fsyntax-only", *map(str, paths)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    documents = {str(p): Document(p.read_bytes(), language_for_path(str(p))) for p in paths}  # type: ignore[arg-type]
    found = [(path, f.code) for path, result in analyze_workspace(documents).items() for f in result.findings]
    assert found == []


@pytest.mark.parametrize("label, files", SHAPES, ids=[label for label, _ in SHAPES])
def test_the_floor_reads_every_shape_as_the_check_does(label: str, files: dict[str, str], tmp_path: Path) -> None:
    """The floor check_speed times runs on the analysis as it is now, and reads the directives
    of every file (a floor that stopped early would time less than every check must do)."""
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    counting = FLOOR + "    print(len(context.directives))\n"   # (in the loop over the files)
    done = subprocess.run([sys.executable, "-c", counting, *paths], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    # (a Fortran directive's continuation lines, `!$omp&`, are part of it)
    assert done.stdout.split() == [str(text.count("#pragma omp") + text.count("!$omp ")) for text in files.values()]


def test_the_workspace_files_declare_names_of_their_own() -> None:
    documents = {f"/ws/unit{k}.c": Document(workspace_file(k, 300), language_for_path("a.c"))  # type: ignore[arg-type]
                 for k in (0, 2)}
    documents.update({f"/ws/unit{k}.f90": Document(fortran_workspace_file(k, 300), language_for_path("a.f90"))  # type: ignore[arg-type]
                      for k in (1, 3)})
    results = analyze_workspace(documents)
    assert [f.code for result in results.values() for f in result.findings] == []
    assert "module w1_m0" in fortran_workspace_file(1, 300) and "module w3_m0" in fortran_workspace_file(3, 300)
