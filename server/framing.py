"""The base protocol's framing (headers, then a body of Content-Length bytes), read more leniently
and more safely than pygls' reader, which stops listening for good after one malformed header and
allocates whatever length a header asks for.

- Header names are matched without regard to case or surrounding blanks, lines may end in LF alone,
  and headers other than Content-Length are ignored: each of these still tells where the body is.
- A Content-Length longer than its body is found out when the body is a complete JSON value
  followed by more bytes (the next message's), or followed by silence: the value is taken as the
  message and the rest read as the next one.
- Where the next message cannot be found (a header line that is not a header, a header section
  without Content-Length, or one that never ends) or a message is larger than MAX_MESSAGE_BYTES,
  reading stops with a `FramingError`: the server says so on stderr and exits non-zero, so that
  the editor starts it again, rather than staying alive and deaf. A length is refused before
  anything is read or allocated for it.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import threading
from collections.abc import Awaitable, Callable
from typing import BinaryIO

from omp_lsp.server.config import DEFAULT_MAX_FILE_MB

# The largest message: far above the largest document the server analyses (--max-file-size's
# default), escaped as JSON (up to 6 bytes a byte), so that a larger document is still opened
# and told to be skipped; far below what would exhaust the memory of the machine.
MAX_MESSAGE_BYTES = 256 * 1024 * 1024
assert MAX_MESSAGE_BYTES > 6 * DEFAULT_MAX_FILE_MB * 1e6
MAX_HEADER_BYTES = 8192          # a header section is two short lines
CHUNK = 65536
# How long a body that is already a complete JSON value waits for the rest of its Content-Length
# before the length is taken for too long (a client that waits for the answer sends nothing more).
STALL_SECONDS = 2.0

_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


class FramingError(Exception):
    """The stream cannot be read on: the message says why, in one line."""


class MessageReader:
    """The bodies of the messages read by `read` (a chunk of bytes; b"" at the end)."""

    def __init__(self, read: Callable[[], Awaitable[bytes]], max_bytes: int = MAX_MESSAGE_BYTES) -> None:
        self._read = read
        self._max = max_bytes
        self._buffer = bytearray()
        self._ended = False
        self.warnings: list[str] = []   # lenient readings the caller logs (one line each)

    async def _fill(self, timeout: float | None = None) -> bool:
        """More bytes into the buffer: False at the end of the stream (or the timeout)."""
        if self._ended:
            return False
        try:
            chunk = await (asyncio.wait_for(self._read(), timeout) if timeout is not None else self._read())
        except TimeoutError:
            return False
        if not chunk:
            self._ended = True
            return False
        self._buffer.extend(chunk)
        return True

    async def next_body(self) -> bytes | None:
        """The next message's body; None at the end of the stream between messages."""
        length = await self._headers()
        if length is None:
            return None
        while len(self._buffer) < length:
            if not await self._fill(STALL_SECONDS):
                if self._ended:
                    raise FramingError(f"the input ended inside a message ({len(self._buffer)} of its "
                                       f"{length} bytes came)")
                end = _json_end(self._buffer)   # a complete message, and nothing more comes?
                if end is not None and (end == len(self._buffer) or _looks_like_headers(self._buffer[end:])):
                    return self._take(end, length)
        body = bytes(self._buffer[:length])
        # (a body that ends as an object or array does is not searched for the next message's start)
        if not body.rstrip().endswith((b"}", b"]")):
            end = _json_end(body)
            if end is not None and end < length and _looks_like_headers(body[end:]):
                return self._take(end, length)
        del self._buffer[:length]
        return body

    def _take(self, end: int, length: int) -> bytes:
        self.warnings.append(f"a Content-Length of {length} exceeds its message's {end} bytes; "
                             "reading the next message after the message")
        body = bytes(self._buffer[:end])
        del self._buffer[:end]
        return body

    async def _line(self) -> bytes | None:
        """The next header line without its LF or CRLF; None at the end of the stream."""
        while (newline := self._buffer.find(b"\n")) < 0:
            if len(self._buffer) > MAX_HEADER_BYTES:
                raise FramingError(f"not a message header: {_shown(self._buffer)}")
            if not await self._fill():
                if self._buffer.strip():
                    raise FramingError(f"the input ended inside a message header: {_shown(self._buffer)}")
                return None
        line = bytes(self._buffer[:newline])
        del self._buffer[:newline + 1]
        return line.removesuffix(b"\r")

    async def _headers(self) -> int | None:
        """Read a header section: the Content-Length it gives (None at the end of the stream)."""
        length: int | None = None
        seen = 0   # bytes of header lines read
        while True:
            line = await self._line()
            if line is None:
                if seen:
                    raise FramingError("the input ended inside a message header")
                return None
            if not line.strip():
                if not seen:
                    continue   # blank lines between messages
                if length is None:
                    raise FramingError("a message header without Content-Length: cannot tell where the "
                                       "message ends")
                return length
            seen += len(line) + 1
            if seen > MAX_HEADER_BYTES:
                raise FramingError(f"a message header longer than {MAX_HEADER_BYTES} bytes")
            name, colon, value = line.partition(b":")
            name = name.strip()
            if not colon or not _TOKEN.fullmatch(name):
                raise FramingError(f"not a message header: {_shown(line)}")
            if name.lower() == b"content-length":
                length = _content_length(value.strip(), self._max)


def _content_length(value: bytes, max_bytes: int) -> int:
    if not value.isascii() or not value.isdigit():
        raise FramingError(f"Content-Length is not a number: {_shown(value)}")
    if len(value) > 18 or int(value) > max_bytes:   # (refused before anything is allocated)
        raise FramingError(f"a message of {_shown(value)[1:-1]} bytes is larger than the limit of {max_bytes} bytes")
    return int(value)


def _json_end(data: bytes | bytearray) -> int | None:
    """Where the JSON value at the start of `data` ends, blanks after it included; None if it does
    not start with one."""
    text = bytes(data).decode("utf-8", "surrogateescape")
    try:
        _, end = json.JSONDecoder().raw_decode(text, len(text) - len(text.lstrip()))
    except (ValueError, RecursionError):
        return None
    end += len(text[end:]) - len(text[end:].lstrip())
    return len(text[:end].encode("utf-8", "surrogateescape"))


def _looks_like_headers(data: bytes | bytearray) -> bool:
    """The bytes after a complete value could start the next message's header."""
    head = bytes(data[:8]).lower()
    return bool(head) and b"content-".startswith(head)


def _shown(data: bytes | bytearray) -> str:
    text = bytes(data[:60]).decode("utf-8", "backslashreplace")
    return repr(text + ("..." if len(data) > 60 else ""))


def stdin_chunks(stream: BinaryIO, loop: asyncio.AbstractEventLoop) -> Callable[[], Awaitable[bytes]]:
    """A `read` for MessageReader from a blocking stream: a daemon thread reads its file
    descriptor (unbuffered: it holds no lock that the exit of the process would wait for), at
    most a few chunks ahead of the server."""
    queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=4)
    descriptor = stream.fileno()

    def pump() -> None:
        while True:
            try:
                chunk = os.read(descriptor, CHUNK)
            except OSError:
                chunk = b""
            try:
                asyncio.run_coroutine_threadsafe(queue.put(chunk), loop).result()
            except Exception:   # the loop is gone (or going): the server ends
                return
            if not chunk:
                return

    threading.Thread(target=pump, name="omp-lsp-stdin", daemon=True).start()
    return queue.get
