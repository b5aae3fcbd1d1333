"""Reading a file the user named or the workspace holds: regular files only, and never more than a bound.

Every read of a user's file goes through here (sources, headers, compile_commands.json, project
files, .gitignore): opening a named pipe waits for a writer forever, and a device such as
/dev/zero never ends, so neither is ever opened for reading; the size a stat gives is not
trusted either (files under /proc say 0 and are longer).
"""
from __future__ import annotations

import errno
import os
import stat

# The flags of every open: O_NONBLOCK in case a pipe replaces the file between the stat and the
# open (the open then returns at once instead of waiting for a writer).
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
_CHUNK = 1 << 20
# Sources larger than this are not analysed: the default of --check's --max-file-size, the
# workspace index's bound, and build-and-run's for the places it reports.
MAX_SOURCE_BYTES = 10_000_000

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def require_regular_file(mode: int, path: str) -> None:
    """Raise OSError, saying what kind of file it is, unless `mode` (st_mode) is a regular file's."""
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "a special file")
        raise OSError(errno.EINVAL, f"not a regular file ({kind})", path)


def read_regular_file(path: str, limit: int) -> bytes:
    """At most `limit + 1` bytes of the regular file `path` (more than `limit` tells the caller
    the file is too large). Raises OSError for a file that cannot be read and for anything but
    a regular file (its strerror says which kind it is)."""
    require_regular_file(os.stat(path).st_mode, path)   # before opening: opening a device may act
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        require_regular_file(info.st_mode, path)   # replaced between the stat and the open
        chunks: list[bytes] = []
        left = limit + 1
        want = min(left, info.st_size + 1) if info.st_size else min(left, _CHUNK)
        while left > 0:
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
            want = min(left, _CHUNK)
        return b"".join(chunks)
    finally:
        os.close(fd)


__all__ = ["MAX_SOURCE_BYTES", "read_regular_file", "require_regular_file"]
