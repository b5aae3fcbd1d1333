"""File names no output format may pass on raw: bytes that are not UTF-8, a newline, a terminal
escape sequence, a bidirectional override. `omp-lsp --check` and `--device-map` run as real
processes on real files with such names; every output is read strictly (valid UTF-8, JSON
without lone surrogates, one gcc line per diagnostic, no control character), and so are the
command line's messages on stderr (files skipped, usage errors)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

import pytest
from pygls.uris import from_fs_path
from raw_client import RawServer

# One unknown directive per file: one error each, on line 2.
SOURCE = b"int main(void) {\n#pragma omp frobnicate\n  return 0;\n}\n"
NAMES = [b"bad\xff\xfe.c", b"new\nline.c", b"esc\x1b[31mred.c", b"bidi\xe2\x80\xaeexe.c", b"plain.c"]
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def check(*args: str | bytes, cwd: Path) -> str:
    """stdout of `omp-lsp ARGS`, which must be valid UTF-8."""
    done = subprocess.run([sys.executable, "-m", "omp_lsp", *args], capture_output=True, cwd=cwd, timeout=120)
    assert b"Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.decode("utf-8")   # strict: raises on a byte that is not UTF-8


def strict_json(text: str) -> Any:
    """What a strict parser reads: JSON whose strings are all valid Unicode (no lone surrogate)."""
    doc = json.loads(text)
    json.dumps(doc, ensure_ascii=False).encode("utf-8", errors="strict")
    return doc


@pytest.fixture
def odd_tree(tmp_path: Path) -> Path:
    for name in NAMES:
        with open(os.path.join(os.fsencode(tmp_path), name), "wb") as f:
            f.write(SOURCE)
    return tmp_path


def _given(tree: Path, how: str) -> list[str | bytes]:
    """The folder, or every file by name (argv carries the raw bytes)."""
    return ["."] if how == "folder" else [os.path.join(os.fsencode(tree), n) for n in NAMES]


@pytest.mark.parametrize("how", ["folder", "files"])
def test_gcc_format_one_printable_line_per_diagnostic(odd_tree: Path, how: str) -> None:
    out = check("--check", *_given(odd_tree, how), cwd=odd_tree)
    lines = out.splitlines()
    assert len(lines) == len(NAMES) + 1, out   # one line each, and the summary
    assert lines[-1] == f"omp-lsp: {len(NAMES)} errors in {len(NAMES)} files"
    assert not CONTROL.search(out.replace("\n", "")), out
    for line in lines[:-1]:
        assert re.fullmatch(r".+:2:13: error: unknown OpenMP directive 'frobnicate' \[OMP001\]", line), line
    shown = {os.path.basename(line.split(":2:13:")[0]) for line in lines[:-1]}
    assert shown == {"bad\\xff\\xfe.c", "new\\x0aline.c", "esc\\x1b[31mred.c", "bidi\\u202eexe.c", "plain.c"}


@pytest.mark.parametrize("how", ["folder", "files"])
def test_json_format_is_strict_json(odd_tree: Path, how: str) -> None:
    doc = strict_json(check("--check", "--format", "json", *_given(odd_tree, how), cwd=odd_tree))
    files = sorted(os.path.basename(d["file"]) for d in doc["diagnostics"])
    # JSON escapes control characters itself: those names arrive whole; a byte that is not
    # UTF-8 arrives as U+FFFD
    assert files == sorted(["bad\ufffd\ufffd.c", "new\nline.c", "esc\x1b[31mred.c", "bidi\u202eexe.c", "plain.c"])


@pytest.mark.parametrize("where", ["inside", "outside"])
def test_sarif_uris_are_percent_encoded_names(odd_tree: Path, where: str) -> None:
    """Relative URIs (under %SRCROOT%) or file: URIs (run from elsewhere): each decodes to the
    name's bytes."""
    cwd = odd_tree if where == "inside" else odd_tree.parent
    given = "." if where == "inside" else str(odd_tree)
    sarif = strict_json(check("--check", "--format", "sarif", given, cwd=cwd))
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]]
    assert len(uris) == len(NAMES)
    for uri in uris:
        assert re.fullmatch(r"[A-Za-z0-9._~:/%-]+", uri), uri   # nothing raw in a URI
    names = sorted(unquote_to_bytes(uri).rsplit(b"/", 1)[-1] for uri in uris)
    assert names == sorted(NAMES)


def test_device_map_text_and_json(odd_tree: Path) -> None:
    out = check("--device-map", ".", cwd=odd_tree)
    assert len(out.splitlines()) == 1 + len(NAMES) + 1, out   # header, one row each, summary
    assert not CONTROL.search(out.replace("\n", "")), out
    assert "./new\\x0aline.c:1" in out and "./bad\\xff\\xfe.c:1" in out
    doc = strict_json(check("--device-map", "--format", "json", ".", cwd=odd_tree))
    assert sorted(os.path.basename(e["file"]) for e in doc["entities"]) == \
        sorted(["bad\ufffd\ufffd.c", "new\nline.c", "esc\x1b[31mred.c", "bidi\u202eexe.c", "plain.c"])


ODD = b"odd\xff\n\x1b[31m"   # a byte that is not UTF-8, a newline, a terminal escape
ODD_SHOWN = "odd\\xff\\x0a\\x1b[31m"


def stderr_of(*args: str | bytes, cwd: Path) -> tuple[int, list[str]]:
    """Exit status and stderr lines of `omp-lsp ARGS`, stderr valid UTF-8 with no control character."""
    done = subprocess.run([sys.executable, "-m", "omp_lsp", *args], capture_output=True, cwd=cwd, timeout=120)
    err = done.stderr.decode("utf-8")   # strict
    assert "Traceback" not in err and not CONTROL.search(err.replace("\n", "")), err
    return done.returncode, err.splitlines()


@pytest.fixture
def unreadable_tree(tmp_path: Path) -> Path:
    """A regular file, a named pipe and a symbolic link loop, the last two with odd names."""
    (tmp_path / "ok.c").write_bytes(SOURCE)
    os.mkfifo(os.path.join(os.fsencode(tmp_path), ODD + b"pipe.c"))
    os.symlink(ODD + b"loop.c", os.path.join(os.fsencode(tmp_path), ODD + b"loop.c"))
    return tmp_path


def test_the_command_line_escapes_the_names_it_skips(unreadable_tree: Path) -> None:
    status, lines = stderr_of("--check", ".", cwd=unreadable_tree)
    assert status == 1 and sorted(lines) == [
        f"omp-lsp: warning: ./{ODD_SHOWN}loop.c: skipped: Too many levels of symbolic links",
        f"omp-lsp: warning: ./{ODD_SHOWN}pipe.c: skipped: not a regular file (a named pipe)"]


@pytest.mark.parametrize(("name", "said"), [("pipe.c", "cannot read: not a regular file (a named pipe)"),
                                            ("loop.c", "cannot read: Too many levels of symbolic links"),
                                            ("missing.c", "no such file or directory")])
def test_the_command_line_escapes_the_name_in_a_usage_error(unreadable_tree: Path, name: str, said: str) -> None:
    """Given by name, or as compile_commands.json: a usage error, its one line naming the file escaped."""
    status, lines = stderr_of("--check", ODD + name.encode(), cwd=unreadable_tree)
    assert status == 2 and lines == [f"omp-lsp: error: {ODD_SHOWN}{name}: {said}"]
    status, lines = stderr_of("--check", b"--compile-commands=" + ODD + name.encode(), "ok.c", cwd=unreadable_tree)
    said = said if name != "missing.c" else "cannot read: No such file or directory"
    assert status == 2 and lines == [f"omp-lsp: error: {ODD_SHOWN}{name}: {said}"]


def test_omp_lsp_run_escapes_the_name_in_a_usage_error(unreadable_tree: Path) -> None:
    status, lines = stderr_of("run", ODD + b"missing.c", cwd=unreadable_tree)
    assert status == 2 and lines == [f"omp-lsp run: error: {ODD_SHOWN}missing.c: no such file"]


def test_the_server_answers_commands_in_valid_unicode(tmp_path: Path) -> None:
    """A workspace whose files' (and a folder's) names are not UTF-8: the device map command's
    answer is valid Unicode, as the JSON report is, each such byte U+FFFD (a lone surrogate
    would make a strict client refuse the whole answer)."""
    root = os.fsencode(tmp_path)
    os.mkdir(os.path.join(root, b"dir\xfe"))
    for name in [*NAMES, b"dir\xfe/in.c"]:
        with open(os.path.join(root, name), "wb") as f:
            f.write(SOURCE)
    server = RawServer().start(from_fs_path(str(tmp_path)))
    try:
        answer = server.request("workspace/executeCommand", {"command": "omp-lsp.showDeviceMap"})
        assert not any("Traceback" in line for line in server.stderr), "".join(server.stderr)
    finally:
        server.close()
    strict_json(json.dumps(answer))
    assert sorted(os.path.relpath(e["file"], tmp_path) for e in answer["result"]["entities"]) == sorted(
        ["bad\ufffd\ufffd.c", "new\nline.c", "esc\x1b[31mred.c", "bidi\u202eexe.c", "plain.c", "dir\ufffd/in.c"])
