"""File names and messages made safe for each output: one printable line (the gcc format, the
text tables and reports), valid Unicode (JSON), a percent-encoded URI path (SARIF, and the server's
URIs of names that are not UTF-8, read back as the same bytes), a shell word (the build commands
a report prints).

A POSIX file name is bytes: Python holds the bytes that are not UTF-8 as lone surrogates
(U+DC80-U+DCFF, `surrogateescape`), which strict JSON parsers and UTF-8 encoders refuse, and a
name may hold a newline (one diagnostic read as two) or a terminal escape sequence.
"""
from __future__ import annotations

import os
import re
import shlex
from typing import Any

# What must not reach a terminal or a line-based reader raw: control characters (C0, DEL, C1),
# Unicode's line and paragraph separators, the bidirectional overrides and isolates (text shown
# in another order than it is read), and lone surrogates (bytes that are not UTF-8).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    """A byte (one that is not UTF-8, or a C0 control or DEL) as \\xNN; a character as \\uNNNN."""
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:   # the byte surrogateescape kept
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x80:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def line_text(text: str) -> str:
    """`text` as printable UTF-8 on one line: `\\x0a` for a newline, `\\x1b` for an escape,
    `\\xff` for a byte that is not UTF-8, `\\u202e` for a bidirectional override."""
    return _UNPRINTABLE.sub(_escape, text)


def unicode_text(text: str) -> str:
    """`text` as valid Unicode (what a strict JSON parser accepts): each byte that is not UTF-8
    becomes U+FFFD. Control characters stay: JSON escapes them itself."""
    return _SURROGATE.sub("\ufffd", text)


def unicode_values(value: Any) -> Any:
    """A JSON document (dicts, lists, strings...) with every string made valid Unicode."""
    if isinstance(value, str):
        return unicode_text(value)
    if isinstance(value, dict):
        return {unicode_text(str(k)): unicode_values(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [unicode_values(v) for v in value]
    return value


def uri_path(path: str) -> str:
    """A relative path as a URI reference: every byte of its file system name that is not an
    unreserved character percent-encoded (`bad%FF.c`, `new%0Aline.c`)."""
    from urllib.parse import quote  # SARIF's alone: `omp-lsp run` starts without it
    return quote(os.fsencode(path))


def file_uri(path: str) -> str:
    """The server's URI of a file: pygls' (the form clients compare with theirs), or for a name
    that is not UTF-8, which pygls cannot encode (it raised, and no diagnostic related to that
    file was published), its bytes percent-encoded; a path that is not absolute stands as it is."""
    from pygls.uris import from_fs_path  # the server's alone: a check starts without pygls
    try:
        return from_fs_path(path) or path
    except UnicodeEncodeError:
        return "file://" + uri_path(path) if os.path.isabs(path) else path


def file_path(uri: str) -> str:
    """The path of a client's URI, `file_uri`'s inverse: pygls' reading, or where its
    percent-escapes are bytes that are not UTF-8 (which pygls reads as U+FFFD: another name
    than the file's), those bytes as the file system's name."""
    from pygls.uris import to_fs_path
    path = to_fs_path(uri) or uri
    if "\ufffd" in path and uri.startswith("file:///"):
        from urllib.parse import unquote_to_bytes, urlsplit
        return os.fsdecode(unquote_to_bytes(urlsplit(uri).path))
    return path


def _ansi_c(match: re.Match[str]) -> str:
    text = match.group()
    return "\\" + text if text in "\\'" else _escape(match)


_ANSI_C = re.compile(f"[\\\\']|{_UNPRINTABLE.pattern}")


def shell_word(arg: str) -> str:
    """`arg` as one word a shell reads back as it is: POSIX quoting (`'my file.c'`), or bash's
    `$'...'` for a word with control characters or bytes that are not UTF-8 (`$'new\\x0aline.c'`),
    so that a command stays on one line."""
    if _UNPRINTABLE.search(arg) is None:
        return shlex.quote(arg)
    return "$'" + _ANSI_C.sub(_ansi_c, arg) + "'"


def shell_command(args: list[str] | tuple[str, ...]) -> str:
    """A command line to paste into a shell."""
    return " ".join(shell_word(a) for a in args)
