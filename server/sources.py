"""Finding and reading source files: shared by `omp-lsp --check` and the server's workspace index.

Every file is read through `read_regular_file` (regular files only, within a bound); a folder
or entry that cannot be read is skipped and noted, and the rest of the walk goes on.
"""
from __future__ import annotations

import errno
import fnmatch
import os
import re
from collections.abc import Sequence
from typing import NamedTuple

from omp_lsp.analysis.check import (
    SOURCE_EXTENSIONS,
    Document,
    decode_source,
    language_for_path,
    read_regular_file,
    require_regular_file,
)
from omp_lsp.server.config import DEFAULT_MAX_FILE_MB

_BINARY_PROBE = 8192
MAX_GITIGNORE_BYTES = 10_000_000
_GLOB = re.compile(r"[*?\[]")


class Skipped(NamedTuple):
    """A folder, file or settings file the walk could not read, and why."""
    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class _Globs:
    """Globs matched as one expression, compiled on first use (most groups never are)."""
    __slots__ = ("_regex", "patterns")

    def __init__(self) -> None:
        self.patterns: list[str] = []
        self._regex: re.Pattern[str] | None = None

    def match(self, text: str) -> bool:
        if self._regex is None:
            self._regex = re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in self.patterns))
        return self._regex.match(text) is not None


def _find(groups: dict[str, _Globs], lengths: list[int], text: str, head: bool) -> bool:
    """Whether a group keyed by `text`'s first (`head`) or last `n` characters, for each length
    `n` of the keys, matches `text`."""
    for n in lengths:
        if n > len(text):
            break
        group = groups.get(text[:n] if head else text[-n:])
        if group is not None and group.match(text):
            return True
    return False


class Excludes:
    """Exclude globs (--exclude, the `exclude` setting, .gitignore lines) compiled once: a path is
    excluded when the whole relative path or one of its parts matches one (`fnmatchcase`).

    Matching each glob against each entry costs a regular expression per pattern, and with tens
    of thousands of patterns the `re` cache thrashes. So plain names are looked up in a set, and
    every other glob is filed under the literal text it starts with (`cache_*`, `gen_?.c`) or,
    when it starts with a wildcard, the literal text it ends with (`*.tmp`, `[ab].log`): an
    entry is matched only against the globs filed under its own first or last characters."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self.names: set[str] = set()
        self._heads: dict[str, _Globs] = {}
        self._tails: dict[str, _Globs] = {}
        self._rest = _Globs()   # globs with no literal start or end: `*`, `*.[ch]*`
        for raw in patterns:
            pattern = raw.rstrip("/")
            if not pattern:
                continue
            first = _GLOB.search(pattern)
            if first is None:
                self.names.add(pattern)
                continue
            head = pattern[:first.start()]
            tail = pattern[max(pattern.rfind(c) for c in "*?]") + 1:]
            if head:
                self._heads.setdefault(head, _Globs()).patterns.append(pattern)
            elif tail:
                self._tails.setdefault(tail, _Globs()).patterns.append(pattern)
            else:
                self._rest.patterns.append(pattern)
        self._head_lengths = sorted({len(h) for h in self._heads})
        self._tail_lengths = sorted({len(t) for t in self._tails})

    def __bool__(self) -> bool:
        return bool(self.names or self._heads or self._tails or self._rest.patterns)

    def matches(self, text: str) -> bool:
        """Whether one pattern matches `text` (a name or a relative path) as a whole."""
        return (text in self.names or _find(self._heads, self._head_lengths, text, head=True)
                or _find(self._tails, self._tail_lengths, text, head=False)
                or (bool(self._rest.patterns) and self._rest.match(text)))

    def excludes(self, rel: str) -> bool:
        """Whether the relative path `rel` ('/'-separated) or one of its parts is excluded."""
        return self.matches(rel) or any(self.matches(part) for part in rel.split("/"))


def gitignore_patterns(root: str) -> list[str]:
    """The exclude patterns of `root/.gitignore` that `Excludes` can apply: comments, blank lines
    and negations (`!keep`) are left out, an anchoring `/` is dropped (a git checkout ignores
    these files; the server's workspace index does too). [] without a .gitignore; raises
    OSError when it is there but cannot be read (a named pipe, too large)."""
    path = os.path.join(root, ".gitignore")
    try:
        data = read_regular_file(path, MAX_GITIGNORE_BYTES)
    except FileNotFoundError:
        return []
    if len(data) > MAX_GITIGNORE_BYTES:
        raise OSError(errno.EFBIG, f"larger than {MAX_GITIGNORE_BYTES // 1_000_000} MB", path)
    out = []
    for line in data.decode("utf-8", errors="replace").splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith(("#", "!")):
            continue
        out.append(pattern.lstrip("/"))
    return out


def walk(root: str, excludes: Excludes | Sequence[str], skipped: list[Skipped] | None = None) -> list[str]:
    """Source files (by extension) below `root`, skipping hidden folders and excluded paths.
    What cannot be read (a folder that cannot be listed, a symbolic link loop) is left out and
    appended to `skipped`; the rest of the walk goes on."""
    matcher = excludes if isinstance(excludes, Excludes) else Excludes(excludes)
    found: list[str] = []
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as err:
            if skipped is not None:
                skipped.append(Skipped(directory, f"cannot read directory: {err.strerror}"))
            continue
        prefix = "" if directory == root else os.path.relpath(directory, root).replace(os.sep, "/") + "/"
        subdirs = []
        for entry in entries:
            # The folders above were matched on the way down: only the entry's name and whole path are new.
            if matcher and (matcher.matches(entry.name) or matcher.matches(prefix + entry.name)):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.name.startswith("."):
                        subdirs.append(entry.path)
                elif os.path.splitext(entry.name)[1] in SOURCE_EXTENSIONS:
                    if not entry.is_file():   # a named pipe, a device: say which
                        require_regular_file(entry.stat().st_mode, entry.path)
                    found.append(entry.path)
            except FileNotFoundError:   # a dangling link, a file gone meanwhile
                pass
            except OSError as err:   # a symbolic link loop, a named pipe, a device
                if skipped is not None:
                    skipped.append(Skipped(entry.path, err.strerror or str(err)))
        stack.extend(reversed(subdirs))
    return found


def read_document(path: str, max_bytes: int) -> tuple[Document | None, str | None]:
    """The file as a Document, or None with the reason it is skipped; a second value warns
    about something the analysis works around (invalid UTF-8). Raises OSError, also for
    what is not a regular file (a named pipe, a device)."""
    language = language_for_path(path)
    if language is None:
        return None, "not a C, C++ or Fortran source file"
    data = read_regular_file(path, max_bytes)
    if len(data) > max_bytes:
        return None, f"skipped: larger than the {max_bytes / 1e6:g} MB limit (--max-file-size)"
    if b"\0" in data[:_BINARY_PROBE]:
        return None, "skipped: binary file (contains NUL bytes)"
    source, problem = decode_source(data)
    return Document(source, language), problem


MAX_ANALYSED_BYTES = int(DEFAULT_MAX_FILE_MB * 1e6)   # larger files are not analysed (as --check skips them)


def read_source(path: str) -> tuple[Document | None, str | None]:
    """A closed file as the workspace index reads it from disk (None: not analysed), and why it
    could not be read."""
    try:
        return read_document(path, MAX_ANALYSED_BYTES)[0], None
    except OSError as err:
        return None, err.strerror or str(err)
