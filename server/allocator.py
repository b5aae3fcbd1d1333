"""The server's memory allocator: one that gives pages back, and is fast.

The server lives long, and its memory comes and goes with the files open. CPython's own allocator
for small objects keeps a 1 MiB arena as long as one object in it lives, and the few objects that
outlive a wave of work (opening 200 files, closing them) are spread over all of its arenas:
closing gave back a tenth of what opening took. So the server runs on a C allocator that hands
free pages back once idle (`give_back_memory`). The C library's own is about a fifth slower than
CPython's for the analysis's many small objects (keystroke latency through the server, measured
side by side); jemalloc and mimalloc are not. The server therefore starts itself again (the same
process: exec) with `PYTHONMALLOC=malloc` and, when the system has one, jemalloc or mimalloc
preloaded. The processes it starts (compilers, the user's programs) get the user's environment
back: the preload is the server's own.

A user who sets `PYTHONMALLOC` chooses: the server is not started again. A user's own
`LD_PRELOAD` (which may be an allocator of their choice) is kept, and nothing is added to it.
"""
from __future__ import annotations

import ctypes
import os
import sys
import sysconfig
from collections.abc import Callable

# (name, library, the call it frees with), in order of preference
PRELOADED = (("jemalloc", "libjemalloc.so.2", "mallctl"), ("mimalloc", "libmimalloc.so.2", "mi_collect"))
# the environment's LD_PRELOAD before the server started itself again ("" when it had none):
# present only in the server started again
USER_PRELOAD = "OMP_LSP_USER_LD_PRELOAD"
# jemalloc: every arena (MALLCTL_ARENAS_ALL)
_JEMALLOC_PURGE_ALL = b"arena.4096.purge"


def preloadable() -> str | None:
    """The path of the first allocator of PRELOADED the system has (None: the C library's).
    Looked up in the system's library folders, not with ctypes.util.find_library, which runs
    a compiler when the library is missing (tens of ms of every start)."""
    multiarch = sysconfig.get_config_var("MULTIARCH") or ""
    folders = [f"/usr/lib/{multiarch}", f"/lib/{multiarch}"] if multiarch else []
    folders += ["/usr/lib64", "/lib64", "/usr/lib", "/lib", "/usr/local/lib"]
    for _, library, _ in PRELOADED:
        for folder in folders:
            path = os.path.join(folder, library)
            if os.path.isfile(path):
                return path
    return None


def start_again_on_c_allocator() -> None:
    """Start this process again (exec) on a C allocator, unless the user chose one or this is
    the process started again; the latter hands its children the user's environment back."""
    if USER_PRELOAD in os.environ:
        restore_user_environment()
        return
    if os.environ.get("PYTHONMALLOC") or not sys.platform.startswith("linux"):
        return   # (chosen by the user, or no way here to give pages back)
    before = os.environ.get("LD_PRELOAD", "")
    env = {**os.environ, "PYTHONMALLOC": "malloc", USER_PRELOAD: before}
    library = preloadable() if not before else None   # (a user's own preload may be an allocator)
    if library is not None:
        env["LD_PRELOAD"] = library
    argv = [sys.executable, *sys.orig_argv[1:]]   # (the interpreter's own options too: -X, -W)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, argv, env)


def restore_user_environment() -> None:
    """The environment the user started the server with, for the processes it starts (the
    allocator this process runs on stays loaded)."""
    before = os.environ.pop(USER_PRELOAD)
    if before:
        os.environ["LD_PRELOAD"] = before
    else:
        os.environ.pop("LD_PRELOAD", None)
    os.environ.pop("PYTHONMALLOC", None)   # (the server's: the user had none)


def allocator_name() -> str:
    """The C allocator this process can hand pages back from: jemalloc, mimalloc or malloc (the
    C library's; also what CPython's own allocator takes its arenas from)."""
    program = ctypes.CDLL(None)
    return next((name for name, _, symbol in PRELOADED if getattr(program, symbol, None) is not None), "malloc")


def _give_back() -> Callable[[], object]:
    """The call that hands the free pages of the allocator this process runs on back to the
    system (nothing where none is known)."""
    program = ctypes.CDLL(None)
    name = allocator_name()
    if name == "jemalloc":
        return lambda: program.mallctl(_JEMALLOC_PURGE_ALL, None, None, None, ctypes.c_size_t(0))
    if name == "mimalloc":
        return lambda: program.mi_collect(ctypes.c_bool(True))
    malloc_trim = getattr(program, "malloc_trim", None)   # (the C library's: glibc has it)
    return (lambda: malloc_trim(ctypes.c_size_t(0))) if malloc_trim is not None else (lambda: None)


try:
    give_back_memory: Callable[[], object] = _give_back()
except OSError:   # (no C library to ask)
    give_back_memory = lambda: None  # noqa: E731
