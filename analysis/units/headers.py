"""Finding and reading the project's headers for the preprocessor.

`#include "x.h"` is looked up in the including file's folder, then the `-iquote` folders, then
the `-I` folders; `#include <x.h>` in the `-I` folders only. A header found there is the
project's own and is read; one found nowhere is a system header (or one the build generates)
and is not read: omp-lsp never reads the system's headers.

`Headers` caches what it read (validated by size and modification time) and the directive
lines scanned from it. The language server gives it the texts of open documents (`overlay`),
which replace what is on disk.
"""
from __future__ import annotations

import os

from ..syntax.regular_files import read_regular_file
from .lines import Line, scan

MAX_HEADER_BYTES = 4_000_000   # a larger "header" is data, not declarations


class Headers:
    def __init__(self) -> None:
        self.overlay: dict[str, bytes] = {}     # path -> text that replaces the disk's
        self._lines: dict[tuple[str, bool], tuple[object, tuple[Line, ...]]] = {}
        self._texts: dict[str, tuple[object, bytes | None]] = {}
        self._files: dict[str, bool] = {}

    def forget(self, path: str | None = None) -> None:
        """Forget what was read of `path` (None: of every file) and which files exist."""
        if path is None:
            self._lines.clear()
            self._texts.clear()
        else:
            self._lines.pop((path, False), None)
            self._lines.pop((path, True), None)
            self._texts.pop(path, None)
        self._files.clear()

    def is_file(self, path: str) -> bool:
        found = self._files.get(path)
        if found is None:
            try:
                found = path in self.overlay or os.path.isfile(path)
            except (OSError, ValueError):
                found = False
            self._files[path] = found
        return found

    def _stamp(self, path: str) -> object:
        text = self.overlay.get(path)
        if text is not None:
            return id(text), len(text)
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return None
        return st.st_size, st.st_mtime_ns

    def text(self, path: str) -> bytes | None:
        """The header's text (None: it cannot be read, or it is too large to be a header)."""
        stamp = self._stamp(path)
        kept = self._texts.get(path)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        data = self.overlay.get(path)
        if data is None and stamp is not None:
            try:
                data = read_regular_file(path, MAX_HEADER_BYTES)
            except OSError:
                data = None
            if data is not None and (len(data) > MAX_HEADER_BYTES or b"\0" in data[:8192]):
                data = None
        self._texts[path] = (stamp, data)
        return data

    def lines(self, path: str, fortran: bool = False) -> tuple[Line, ...] | None:
        """The header's preprocessor lines (None: it cannot be read)."""
        stamp = self._stamp(path)
        kept = self._lines.get((path, fortran))
        if kept is not None and kept[0] == stamp:
            return kept[1]
        text = self.text(path)
        if text is None:
            return None
        found = scan(text, fortran)
        self._lines[(path, fortran)] = (stamp, found)
        return found

    def find(self, header: str, angle: bool, folder: str, quote_dirs: tuple[str, ...],
             dirs: tuple[str, ...]) -> str | None:
        """The project file `#include` names, or None (a system header, or not found)."""
        if not header or "\0" in header:
            return None
        if os.path.isabs(header):
            return os.path.normpath(header) if not angle and self.is_file(header) else None
        searched = dirs if angle else (*((folder,) if folder else ()), *quote_dirs, *dirs)
        for directory in searched:
            candidate = os.path.normpath(os.path.join(directory, header))
            if self.is_file(candidate):
                return candidate
        return None


DISK = Headers()   # the default: headers as they are on disk


__all__ = ["DISK", "MAX_HEADER_BYTES", "Headers"]
