"""What lets the server give memory back (bench/lsp_load.py measures how much): it runs on the C
library's allocator, and the device graph forgets the files that leave it."""
from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

import pytest
from omp_lsp.analysis.check import DeviceGraph, Document, Language, analyze

SERVER = [sys.executable, "-m", "omp_lsp", "--stdio"]


def _environment_of_server(env: dict[str, str]) -> tuple[int, dict[str, str]]:
    """Start the server, have it answer `initialize`, and read its process's environment."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
    proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        proc.stdin.flush()
        header = proc.stdout.readline()
        assert header.startswith(b"Content-Length:"), header
        environ = Path(f"/proc/{proc.pid}/environ").read_bytes()
        pairs = (entry.split(b"=", 1) for entry in environ.split(b"\0") if b"=" in entry)
        return proc.pid, {k.decode(): v.decode(errors="replace") for k, v in pairs}
    finally:
        proc.kill()
        proc.wait(timeout=30)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim gives the pages back")
def test_the_server_runs_on_the_c_allocator() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}
    _, environ = _environment_of_server(env)
    assert environ.get("PYTHONMALLOC") == "malloc"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="(as above)")
def test_an_allocator_the_user_chose_is_kept() -> None:
    _, environ = _environment_of_server({**os.environ, "PYTHONMALLOC": "pymalloc"})
    assert environ.get("PYTHONMALLOC") == "pymalloc"


def test_the_checker_keeps_python_s_allocator(tmp_path: Path) -> None:
    """(A check is short: it is not started again.)"""
    source = tmp_path / "a.c"
    source.write_text("int main(void) { return 0; }\n")
    probe = "import os, sys\nfrom omp_lsp.__main__ import _command\n" \
            f"code = _command(['--check', {str(source)!r}, '--no-config'], own_process=True)\n" \
            "print(code, os.environ.get('PYTHONMALLOC'))\n"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout.splitlines()[-1].split() == ["0", "None"], done.stderr


def test_a_file_that_leaves_the_device_graph_is_freed() -> None:
    """The graph's per-file caches (names in a program's scope) let go of a file it no longer
    holds: they held its graph, and so its program model."""
    main = "int helper(int);\nint main(void) {\n#pragma omp target\n  helper(1);\n  return 0;\n}\n"
    other = "int helper(int x) { return x; }\nint main(void) { return helper(2); }\n"
    analyses = {"/w/main.c": analyze(Document(main, Language.C), path="/w/main.c"),
                "/w/other.c": analyze(Document(other, Language.C), path="/w/other.c")}
    graph = DeviceGraph()
    graph.sync({path: a.context for path, a in analyses.items() if a.context is not None})
    context = analyses["/w/other.c"].context
    assert context is not None and context.holds_model
    model = weakref.ref(context.model)
    del analyses["/w/other.c"], context
    graph.sync({path: a.context for path, a in analyses.items() if a.context is not None})
    gc.collect()
    assert model() is None
