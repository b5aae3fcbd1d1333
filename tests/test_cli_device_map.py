"""`omp-lsp --device-map`, the propagation options and compile_commands.json on the command line."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "lsp_propagation"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "omp_lsp", *args], check=False, capture_output=True, text=True, timeout=120,
                          cwd=cwd)


def test_text_table_lists_every_entity_with_its_chain() -> None:
    out = run("--device-map", str(FIXTURE))
    assert out.returncode == 0, out.stderr
    rows = {line.split()[2]: line for line in out.stdout.splitlines()[1:-1]}
    assert set(rows) == {"square", "scale", "host_report", "marked_norm", "main", "relax", "damp", "v"}
    assert "any          implicit  target region in main (app.c:15) → scale (app.c:16) → square (app.c:5)" \
        in rows["square"]
    assert " explicit" in rows["marked_norm"] and " none " in rows["host_report"]
    assert out.stdout.splitlines()[-1].startswith("omp-lsp: 8 procedures and static variables, 5 on the device")


def test_json_and_flang_mode() -> None:
    out = run("--device-map", "--format", "json", "--propagation", "flang", str(FIXTURE / "app.c"))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["propagation"] == "flang"
    by_name = {e["name"]: e for e in doc["entities"]}
    # reached only from the target region: flang generates them nohost
    assert by_name["scale"]["device_type"] == by_name["square"]["device_type"] == "nohost"
    assert by_name["marked_norm"] == {**by_name["marked_norm"], "device_type": "any", "explicit": True, "chain": []}
    assert [s["label"] for s in by_name["square"]["chain"]] == ["target region in main", "scale", "square"]
    assert by_name["square"]["chain"][1]["line"] == 16 and by_name["square"]["line"] == 3


def test_usage_errors_exit_2() -> None:
    for args in (["--device-map"], ["--device-map", "--check", str(FIXTURE)],
                 ["--device-map", "--format", "sarif", str(FIXTURE)],
                 ["--check", "--device-toolchain", "pdp11", str(FIXTURE)],
                 ["--check", "--propagation", "gcc", str(FIXTURE)]):
        out = run(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert out.stderr.startswith(("omp-lsp: error:", "usage:")) and "Traceback" not in out.stderr


def _program(tmp_path: Path) -> Path:
    (tmp_path / "main.c").write_text(
        "double damp(double x);\nint main(void) {\n  double r = 1.0;\n#pragma omp target map(tofrom: r)\n"
        "  r = damp(r);\n  return r > 0.0 ? 0 : 1;\n}\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "damp.c").write_text("double damp(double x) { return 0.5 * x; }\n")
    (tmp_path / "v.c").write_text("int x;\n#pragma omp declare target to(x)\n")
    database = [{"directory": str(tmp_path), "file": name, "arguments": ["clang", "-fopenmp", "-fopenmp-version=52",
                                                                          "-c", name]}
                for name in ("main.c", "src/damp.c", "v.c")]
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "compile_commands.json").write_text(json.dumps(database))
    return tmp_path


def test_compile_commands_names_the_program_and_its_version(tmp_path: Path) -> None:
    folder = _program(tmp_path)
    # damp.c is not given, but the database says it is part of the program: the call needs its mark
    out = run("--check", "main.c", cwd=folder)
    assert out.returncode == 0, out.stderr
    assert "main.c:5:7: warning: 'damp' runs on the device here" in out.stdout and "[OMP403]" in out.stdout
    assert f"{folder / 'src' / 'damp.c'}:1:8: note: 'damp' is defined here without declare target" in out.stdout
    assert "v.c" not in out.stdout   # reported only for the files given
    # -fopenmp-version=52 from the database: `to` is deprecated there
    assert "[OMP007]" in run("--check", "v.c", cwd=folder).stdout
    assert "[OMP007]" not in run("--check", "v.c", "--openmp-version", "5.1", cwd=folder).stdout


def test_broken_compile_commands_is_a_usage_error(tmp_path: Path) -> None:
    folder = _program(tmp_path)
    (folder / "build" / "compile_commands.json").write_text("{ not json")
    out = run("--check", "main.c", cwd=folder)
    assert out.returncode == 2
    assert "compile_commands.json: invalid JSON" in out.stderr


def test_variants_called_through_their_base_are_on_the_device(tmp_path: Path) -> None:
    (tmp_path / "v.c").write_text(
        "double dot_gpu(double x) { return x; }\ndouble dot_host(double x) { return x; }\n"
        "#pragma omp declare variant(dot_gpu) match(device = {kind(gpu)})\n"
        "#pragma omp declare variant(dot_host) match(device = {kind(host)})\n"
        "double dot(double x) { return x; }\n"
        "int main(void) {\n  double r = 1.0;\n#pragma omp target map(tofrom: r)\n  r = dot(r);\n  return 0;\n}\n")
    out = run("--device-map", "--format", "json", str(tmp_path / "v.c"))
    assert out.returncode == 0, out.stderr
    by_name = {e["name"]: e for e in json.loads(out.stdout)["entities"]}
    assert by_name["dot"]["device_type"] == by_name["dot_gpu"]["device_type"] == "any"
    assert by_name["dot_host"]["device_type"] == "none" and by_name["dot_host"]["chain"] == []
    last = by_name["dot_gpu"]["chain"][-1]
    assert last["label"] == ("dot_gpu (called through the base function dot, declare variant "
                             "match(device={kind(gpu)}))")
    assert last["line"] == 9   # the call of the base
    text = run("--device-map", str(tmp_path / "v.c")).stdout
    assert "→ dot_gpu (called through the base function dot, declare variant match(device={kind(gpu)})) (v.c:9)" \
        in text
