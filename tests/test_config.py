"""The configuration schema shared by `--check` and the server: spellings, values, project files."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from omp_lsp.analysis.syntax.diagnostics import Severity
from omp_lsp.server.config import (
    Config,
    apply,
    canonical,
    find_project_file,
    project_config,
    read_project_file,
)


def test_keys_in_every_spelling() -> None:
    for key in ("openmpVersion", "openmp-version", "openmp_version", "OPENMP_VERSION"):
        assert canonical(key) == "openmpVersion"
    assert canonical("device-toolchains") == "deviceToolchains"
    assert canonical("openmp-verison") is None


def test_values_are_applied_and_problems_named() -> None:
    config, problems = apply({
        "openmp-version": "5.2", "disable": ["omp117"], "severity": {"OMP403": "error", "OMP405": "off"},
        "propagation": "flang", "device-toolchains": ["gcc-nvptx"], "exclude": ["build/*"], "toolchain": "gcc",
    }, Config(), "test")
    assert problems == []
    o = config.options
    assert (o.openmp_version, o.propagation, o.device_toolchains) == (52, "flang", ("gcc-nvptx",))
    assert o.disabled == {"OMP117", "OMP405"} and o.severity == {"OMP403": Severity.ERROR}
    assert config.exclude == ("build/*",) and config.toolchain == "gcc"


def test_an_invalid_setting_keeps_the_previous_value() -> None:
    base, _ = apply({"openmpVersion": "5.2", "propagation": "flang"}, Config(), "base")
    config, problems = apply({"openmpVersion": "7.3", "propagation": "sideways", "severity": {"OMP999": "error"},
                              "disable": "OMP401", "deviceToolchains": 3, "colour": "blue"}, base, "settings")
    assert config.options.openmp_version == 52 and config.options.propagation == "flang"
    assert config.options.disabled == {"OMP401"}          # a single string is a list of one
    assert len(problems) == 5
    assert "settings: openmpVersion: unknown OpenMP version '7.3'" in problems[0]
    assert "keeping the previous value (5.2)" in problems[0]
    assert any("unknown setting 'colour'" in p for p in problems)
    assert any("unknown diagnostic code 'OMP999'" in p for p in problems)
    assert apply("not a table", base, "x")[1] == ["x: settings must be a table of names to values"]  # type: ignore[arg-type]


def test_project_files_are_found_upwards(tmp_path: Path) -> None:
    (tmp_path / "src" / "deep").mkdir(parents=True)
    assert find_project_file(str(tmp_path / "src" / "deep")) is None
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "omp-lsp-user"\n')   # no table: not ours
    assert find_project_file(str(tmp_path / "src" / "deep")) is None
    (tmp_path / "pyproject.toml").write_text('[tool.omp-lsp]\nopenmp-version = "5.2"\n')
    assert find_project_file(str(tmp_path / "src" / "deep" / "a.c")) == str(tmp_path / "pyproject.toml")
    (tmp_path / "src" / ".omp-lsp.toml").write_text('propagation = "flang"\n')
    config, path, problems = project_config(str(tmp_path / "src" / "deep"))
    assert path == str(tmp_path / "src" / ".omp-lsp.toml") and problems == []
    assert config.options.propagation == "flang" and config.options.openmp_version == 51


def test_broken_project_files_get_a_message(tmp_path: Path) -> None:
    (tmp_path / ".omp-lsp.toml").write_text("openmp-version = \n")
    settings, problems = read_project_file(str(tmp_path / ".omp-lsp.toml"))
    assert settings == {} and "not valid TOML" in problems[0]


def _check(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "omp_lsp", "--check", *args], capture_output=True, text=True,
                          timeout=120, cwd=folder, check=False)


def test_check_reads_the_project_file(tmp_path: Path) -> None:
    (tmp_path / "src" / "generated").mkdir(parents=True)
    (tmp_path / "src" / "a.c").write_text("int x;\n#pragma omp declare target to(x)\n")
    (tmp_path / "src" / "generated" / "b.c").write_text("int y;\n#pragma omp declare target to(y) to(y)\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.omp-lsp]\nopenmp-version = "5.2"\nexclude = ["generated"]\nseverity = { OMP007 = "error" }\n'
        'bogus = 1\n')
    out = _check(tmp_path, "src")
    assert out.returncode == 1, out.stderr      # OMP007 (deprecated `to` in 5.2) raised to an error
    assert "src/a.c:2:28: error:" in out.stdout and "[OMP007]" in out.stdout and "b.c" not in out.stdout
    assert "unknown setting 'bogus'" in out.stderr
    assert _check(tmp_path, "src", "--openmp-version", "5.1").returncode == 0      # flags win
    plain = _check(tmp_path, "src", "--no-config")
    assert plain.returncode == 1 and "b.c" in plain.stdout and "OMP007" not in plain.stdout
    bad = _check(tmp_path, "src", "--device-toolchain", "pdp11")
    assert bad.returncode == 2 and "--device-toolchain: a device toolchain must be one of" in bad.stderr


def test_gitignore_patterns_exclude_from_the_workspace_walk(tmp_path: Path) -> None:
    from omp_lsp.server.sources import gitignore_patterns, walk
    (tmp_path / "build").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "build" / "gen.c").write_text("int g;\n")
    (tmp_path / "src" / "a.c").write_text("int a;\n")
    (tmp_path / "src" / "scratch.c").write_text("int s;\n")
    (tmp_path / ".gitignore").write_text("# comment\n\n/build/\nscratch.c\n!src/keep.c\n")
    patterns = gitignore_patterns(str(tmp_path))
    assert patterns == ["build/", "scratch.c"]
    assert [Path(p).name for p in walk(str(tmp_path), patterns)] == ["a.c"]
    assert gitignore_patterns(str(tmp_path / "src")) == []


def test_unset_values_and_the_editors_own_settings_are_not_applied() -> None:
    """VS Code sends its settings' defaults (null: unset) and its own keys with the section."""
    base, _ = apply({"openmpVersion": "5.2", "propagation": "flang"}, Config(), "project")
    config, problems = apply({"openmpVersion": None, "propagation": None, "toolchain": None,
                              "server": {"command": ["omp-lsp"]}, "trace": {"server": "off"}}, base, "settings")
    assert problems == [] and config == base
