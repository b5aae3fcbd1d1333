"""What lets the server give memory back (bench/lsp_load.py measures how much): it runs on a C
allocator that hands free pages back (jemalloc where the system has it, else the C library's),
and the device graph forgets the files that leave it."""
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
from omp_lsp.server import allocator

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


def _mapped(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="(pages are given back on Linux)")
def test_the_server_runs_on_a_c_allocator() -> None:
    """On the C library's malloc, or on jemalloc where the system has it (the install does)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", "LD_PRELOAD")}
    pid, environ = _environment_of_server(env)
    assert environ.get("PYTHONMALLOC") == "malloc"
    library = allocator.preloadable()
    assert environ.get("LD_PRELOAD") == library
    assert environ.get(allocator.USER_PRELOAD) == ""


@pytest.mark.skipif(allocator.preloadable() is None, reason="no jemalloc or mimalloc on this system")
def test_the_preloaded_allocator_is_loaded() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", "LD_PRELOAD")}
    proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        proc.stdin.flush()
        assert proc.stdout.readline().startswith(b"Content-Length:")
        library = allocator.preloadable()
        assert library is not None and os.path.realpath(library) in _mapped(proc.pid)
    finally:
        proc.kill()
        proc.wait(timeout=30)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="(as above)")
def test_an_allocator_the_user_chose_is_kept() -> None:
    _, environ = _environment_of_server({**os.environ, "PYTHONMALLOC": "pymalloc"})
    assert environ.get("PYTHONMALLOC") == "pymalloc"
    assert allocator.USER_PRELOAD not in environ


# A process started as the server starts: exec'd again once, then it runs a child and reports
# the allocator it runs on, what giving pages back answered, and the child's environment.
_STARTED_AGAIN = """\
import json, os, subprocess, sys
from omp_lsp.server import allocator
allocator.start_again_on_c_allocator()
answer = allocator.give_back_memory()
child = subprocess.run([sys.executable, "-c", "import json, os; print(json.dumps(dict(os.environ)))"],
                       capture_output=True, text=True, check=True)
print(json.dumps({"allocator": allocator.allocator_name(), "answer": answer,
                  "child": json.loads(child.stdout), "own": dict(os.environ)}))
"""


def _started_again(env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", _STARTED_AGAIN], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""   # (a preload the loader could not find would be reported here)
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="(as above)")
def test_the_processes_the_server_starts_get_the_users_environment() -> None:
    """Compilers and the user's programs run without the server's allocator choice."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", "LD_PRELOAD")}
    result = _started_again(env)
    child = result["child"]
    assert isinstance(child, dict)
    assert "LD_PRELOAD" not in child and "PYTHONMALLOC" not in child and allocator.USER_PRELOAD not in child
    library = allocator.preloadable()
    expected = "malloc" if library is None else next(n for n, file, _ in allocator.PRELOADED if library.endswith(file))
    assert result["allocator"] == expected
    # jemalloc's mallctl answers 0 when the purge is done; malloc_trim 0 or 1; mi_collect nothing
    assert result["answer"] in ({"jemalloc": (0,), "mimalloc": (None,)}.get(expected, (0, 1)))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="(as above)")
def test_a_preload_the_user_set_is_kept_and_handed_on() -> None:
    """The user's own LD_PRELOAD (which may be an allocator) wins: nothing is added to it."""
    own = "libm.so.6"   # (harmless to preload: every Python process has it)
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}, "LD_PRELOAD": own}
    result = _started_again(env)
    mine = result["own"]
    child = result["child"]
    assert isinstance(mine, dict) and isinstance(child, dict)
    assert child.get("LD_PRELOAD") == own and "PYTHONMALLOC" not in child
    assert mine.get("LD_PRELOAD") == own
    assert result["allocator"] == "malloc"


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
