"""Finding and reading source files: shared by `omp-lsp --check` and the server's workspace index."""
from __future__ import annotations

import fnmatch
import os
from collections.abc import Sequence

from omp_lsp.analysis.check import SOURCE_EXTENSIONS, Document, decode_source, language_for_path

_BINARY_PROBE = 8192


class UnreadableDirectory(Exception):
    """A directory below a checked folder could not be listed."""


def excluded(rel: str, patterns: Sequence[str]) -> bool:
    parts = rel.split("/")
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if fnmatch.fnmatchcase(rel, pattern) or any(fnmatch.fnmatchcase(part, pattern) for part in parts):
            return True
    return False


def gitignore_patterns(root: str) -> list[str]:
    """The exclude patterns of `root/.gitignore` that `excluded` can apply: comments, blank lines
    and negations (`!keep`) are left out, an anchoring `/` is dropped (a git checkout ignores
    these files; the server's workspace index does too)."""
    try:
        with open(os.path.join(root, ".gitignore"), encoding="utf-8", errors="replace") as f:
            lines = f.read(1_000_000).splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        pattern = line.strip()
        if not pattern or pattern.startswith(("#", "!")):
            continue
        out.append(pattern.lstrip("/"))
    return out


def walk(root: str, excludes: Sequence[str]) -> list[str]:
    """Source files (by extension) below `root`, skipping hidden folders and excluded paths."""
    found: list[str] = []
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as err:
            raise UnreadableDirectory(f"{directory}: cannot read directory: {err.strerror}") from None
        subdirs = []
        for entry in entries:
            rel = os.path.relpath(entry.path, root).replace(os.sep, "/")
            if excluded(rel, excludes):
                continue
            if entry.is_dir(follow_symlinks=False):
                if not entry.name.startswith("."):
                    subdirs.append(entry.path)
            elif os.path.splitext(entry.name)[1] in SOURCE_EXTENSIONS and entry.is_file():
                found.append(entry.path)
        stack.extend(reversed(subdirs))
    return found


def read_document(path: str, max_bytes: int) -> tuple[Document | None, str | None]:
    """The file as a Document, or None with the reason it is skipped; a second value warns
    about something the analysis works around (invalid UTF-8). Raises OSError."""
    language = language_for_path(path)
    if language is None:
        return None, "not a C, C++ or Fortran source file"
    size = os.path.getsize(path)
    if size > max_bytes:
        return None, (f"skipped: {size / 1e6:.1f} MB is larger than the {max_bytes / 1e6:g} MB limit "
                      "(--max-file-size)")
    with open(path, "rb") as fh:
        data = fh.read()
    if b"\0" in data[:_BINARY_PROBE]:
        return None, "skipped: binary file (contains NUL bytes)"
    source, problem = decode_source(data)
    return Document(source, language), problem
