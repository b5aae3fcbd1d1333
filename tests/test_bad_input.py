"""Bad input gets a clear message or diagnostic, never a traceback."""
from __future__ import annotations

import json
from pathlib import Path

from test_cli import run


def test_binary_file_is_skipped_with_a_message(tmp_path: Path) -> None:
    f = tmp_path / "blob.c"
    f.write_bytes(bytes(range(256)) * 64)
    r = run("--check", str(f))
    assert r.returncode == 0
    assert "skipped: binary file" in r.stderr and "Traceback" not in r.stderr


def test_invalid_utf8_is_analysed_with_a_warning(tmp_path: Path) -> None:
    f = tmp_path / "latin1.c"
    f.write_bytes(b"/* caf\xe9 */\n#pragma omp targte\nint x;\n")
    r = run("--check", str(f), "--format", "json")
    assert "not valid UTF-8" in r.stderr and "line 1" in r.stderr
    doc = json.loads(r.stdout)
    assert [(d["line"], d["code"]) for d in doc["diagnostics"]] == [(2, "OMP001")]


def test_unterminated_continuations(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_bytes(b"void f(void) {\n#pragma omp parallel \\")
    (tmp_path / "b.f90").write_text("program p\n!$omp parallel &\nx = 1\nend program\n")
    (tmp_path / "c.c").write_text('#pragma omp declare target /* never closed\n')
    (tmp_path / "d.c").write_text('_Pragma("omp parallel\n')
    r = run("--check", str(tmp_path), "--format", "json")
    assert "Traceback" not in r.stderr
    doc = json.loads(r.stdout)
    codes = {(Path(d["file"]).name, d["code"]) for d in doc["diagnostics"]}
    assert ("a.c", "OMP004") in codes
    assert ("b.f90", "OMP004") in codes
    assert ("c.c", "OMP004") in codes
    assert ("d.c", "OMP004") in codes


def test_fifty_megabyte_file_is_skipped_clearly(tmp_path: Path) -> None:
    f = tmp_path / "huge.c"
    chunk = b"#pragma omp parallel for\nfor (int i = 0; i < n; i++) a[i] = i;\n" * 1000
    with f.open("wb") as fh:
        while fh.tell() < 50_000_000:
            fh.write(chunk)
    r = run("--check", str(f))
    assert r.returncode == 0
    assert "skipped" in r.stderr and "MB" in r.stderr and "--max-file-size" in r.stderr
    assert "Traceback" not in r.stderr


def test_ten_thousand_files(tmp_path: Path) -> None:
    many = tmp_path / "many"
    many.mkdir()
    for i in range(10_000):
        body = (f"void f{i}(int n, int *a) {{\n#pragma omp parallel for\n  for (int i = 0; i < n; i++) a[i] = i;\n}}\n"
                if i % 2 else f"int v{i};\n")
        if i == 7777:
            body = "#pragma omp paralel for\n"
        (many / f"f{i:05}.c").write_text(body)
    r = run("--check", str(many), "--format", "json", timeout=600)
    assert "Traceback" not in r.stderr
    doc = json.loads(r.stdout)
    assert doc["files_checked"] == 10_000
    assert [(Path(d["file"]).name, d["code"]) for d in doc["diagnostics"]] == [("f07777.c", "OMP001")]
