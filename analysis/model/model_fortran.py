"""The Fortran program model, from the statement scanner (free and fixed form, no tree).

Program units, interface blocks, derived types and BLOCK constructs become scopes;
declarations (type declarations, attribute statements, COMMON, EQUIVALENCE, DATA,
procedure declarations, ENTRY, statement functions) become symbols; executable
statements give references. Names are lower-case keys. The builder never raises: what it
cannot read is skipped, and a scope (or the model) it is unsure of is marked incomplete,
so that rules reading it stay silent there.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from ..directives.fortran_blocks import Statement, fixed_comment_line, statements
from ..directives.source import split_fortran_comment
from ..syntax.document import Language, Span
from .file_model import (
    AUTOMATIC,
    COMMON,
    ENTRY,
    FUNCTION,
    GENERIC,
    MODULE,
    PROCEDURE,
    PROCEDURE_KINDS,
    PROCEDURE_POINTER,
    STATEMENT_FUNCTION,
    STATIC,
    TYPE,
    VARIABLE,
    FileModel,
    Reference,
    Scope,
    Symbol,
    find_includes,
    is_target_region,
)

if TYPE_CHECKING:
    from ..directives.nodes import Directive
    from ..directives.structure import Structure
    from ..syntax.document import Document

UNIT_KINDS = frozenset({"program", "module", "submodule", "subroutine", "function", "block data"})
# What END <word> closes (END BLOCK DATA: see end_statement).
_END_WANT: dict[bytes, tuple[str, ...]] = {
    b"subroutine": ("subroutine",), b"function": ("function",), b"program": ("program",), b"module": ("module",),
    b"submodule": ("submodule",), b"procedure": ("subroutine", "function"), b"interface": ("interface",),
    b"type": ("type",), b"enum": ()}
_IMPLICIT_SAVE_UNITS = frozenset({"program", "module", "submodule", "block data"})
_NO_ENTITIES = frozenset({"file", "interface", "type"})  # frames whose names are not entities of their own
# specifier sets shared by many symbols (frozensets: never changed, only replaced)
_NO_WORDS: frozenset[str] = frozenset()
_PROCEDURE_WORDS = frozenset({"procedure"})
_DUMMY_WORDS = frozenset({"dummy"})

_NAME = re.compile(rb"[a-z_][a-z0-9_$]*")
_WS = re.compile(rb"\s*")
_OPERATOR = re.compile(rb"\.[a-z]+\.")
_IDENT = re.compile(rb"(?<![\w.%$])[a-z_][a-z0-9_$]*")
_CALL = re.compile(rb"(?:^|\))\s*call\s+([a-z_][a-z0-9_$]*)(?!\s*%)")

_TYPE_KW = re.compile(rb"(?:integer|real|complex|logical|character|double\s*precision|double\s*complex|byte)\b"
                      rb"|(?:type|class)\s*(?=\()")
_PREFIX_KW = re.compile(rb"(?:recursive|pure|impure|elemental|non_recursive|module|simple)\b")
_SUBPROGRAM = re.compile(rb"(subroutine|function)\s+([a-z_][a-z0-9_$]*)")
_END = re.compile(rb"end\s*(subroutine|function|program|submodule|module|procedure|block\s*data|interface|type"
                  rb"|enum)?\b\s*(.*)$")
_PROGRAM = re.compile(rb"program\s+([a-z_][a-z0-9_$]*)\s*$")
_MODULE = re.compile(rb"module\s+([a-z_][a-z0-9_$]*)\s*$")
_SUBMODULE = re.compile(rb"submodule\s*\([^)]*\)\s*([a-z_][a-z0-9_$]*)\s*$")
_BLOCK_DATA = re.compile(rb"block\s*data\b\s*([a-z_][a-z0-9_$]*)?\s*$")
_MODULE_PROCEDURE = re.compile(rb"module\s+procedure\s*(?:::)?\s*([a-z_][a-z0-9_$]*)\s*$")
_INTERFACE = re.compile(rb"(abstract\s+)?interface\b\s*(.*)$")
_TYPE_DEF = re.compile(rb"type\s*(?:,(.*?))?::\s*([a-z_][a-z0-9_$]*)\s*(?:\(.*\))?\s*$"
                       rb"|type\s+(?!is\b)([a-z_][a-z0-9_$]*)\s*(?:\(.*\))?\s*$")
_BLOCK = re.compile(rb"(?:[a-z_]\w*\s*:\s*)?block\s*$")
_END_BLOCK = re.compile(rb"end\s*block\b(?!\s*data)")
_RESULT = re.compile(rb"\s*result\s*\(\s*([a-z_][a-z0-9_$]*)")
_ENTRY = re.compile(rb"entry\s+([a-z_][a-z0-9_$]*)")
_USE = re.compile(rb"use\b\s*(?:,\s*(?:non_)?intrinsic\s*)?(?:::)?\s*([a-z_][a-z0-9_$]*)")
_GENERIC = re.compile(rb"generic\b\s*(?:,[^:]*)?::\s*([a-z_][a-z0-9_$]*)\s*=>")
_PROC_DECL = re.compile(rb"procedure\s*\(")
_DATA = re.compile(rb"data\b")
_PARAMETER = re.compile(rb"parameter\s*\(")
_CRAY_POINTER = re.compile(rb"pointer\s*\(")
_BIND = re.compile(rb"bind\s*\(")
_TYPE_FIRST = frozenset(b"irclbdt")  # first letters of what _TYPE_KW matches
_BIND_C = re.compile(rb"bind\s*\(\s*c\s*(?:,\s*name\s*=\s*(['\"]))?")

# Statements of the specification part that take an entity list after optional `::`.
_ATTRIBUTE_STATEMENTS = ("allocatable", "asynchronous", "codimension", "contiguous", "dimension", "external",
                         "intent", "optional", "pointer", "protected", "save", "target", "value", "volatile",
                         "automatic", "static")
_ATTRIBUTE_RE = re.compile(rb"(" + b"|".join(w.encode() for w in _ATTRIBUTE_STATEMENTS) + rb")\b\s*(\([^)]*\))?")
# Statements that belong to the specification part (or may appear in both parts) and declare
# nothing this model records.
_NEUTRAL = re.compile(rb"(?:implicit|import|format|namelist|include|public|private|intrinsic|enum\b|end\s*enum"
                      rb"|entry|data|parameter|common|equivalence|use|generic|enumerator|sequence)\b")
# First words of executable statements (anything else unknown makes the scope uncertain).
# Compiled on first use (by `re`'s cache): the largest pattern here, and most files never need it.
_EXECUTABLE = (
    rb"(?:allocate|assign|associate|backspace|call|case|change\s*team|class\s*(?:is|default)|close|continue"
    rb"|critical|cycle|deallocate|do|else|elseif|elsewhere|end\s*(?:do|if|select|associate|where|forall"
    rb"|critical|team|block)|endfile|end\s*file|error\s*stop|event|exit|fail\s*image|flush|forall|form\s*team|go\s*to"
    rb"|if|inquire|lock|nullify|open|pause|print|rank|read|return|rewind|select|stop|sync|type\s*is|unlock"
    rb"|wait|where|write)\b|[a-z_]\w*\s*:\s*(?:do|if|select|block|associate|critical|forall|where)\b|\d")
# In an execution part, statements that may end it or declare something (the rest are executable).
# (The look-ahead spans the blanks: `end\s*(?!do\b)` let `end do` through by matching no blank.)
_NEEDS_READING = re.compile(rb"\s*(?:end(?!\s*(?:do|if|select|where|forall|associate|critical|team)\b)"
                            rb"|contains|data\b|entry\b|format\b|include\b)")
_NEEDS_READING_FIRST = frozenset(b"ecdfi \t\n\r\x0b\x0c")  # where a match can start
# ... and words that may start or end a unit or a BLOCK anywhere in them, or several statements
# (one search: faster than a test per word).
_NOT_PLAIN = re.compile(rb";|subroutine|function|program|module|procedure|block")


class _Map:
    """Offsets in a statement's joined text -> byte offsets in the source."""
    __slots__ = ("base", "source_offsets", "text_offsets")

    def __init__(self, segments: list[tuple[int, int]]) -> None:
        self.base = segments[0][1] if len(segments) == 1 else None   # one line: a plain shift
        self.text_offsets = [s[0] for s in segments]
        self.source_offsets = [s[1] for s in segments]

    @classmethod
    def shift(cls, base: int) -> _Map:
        """The map of a one-line statement (`_Map([(0, base)])` without the lists)."""
        m = cls.__new__(cls)
        m.base = base
        m.text_offsets = [0]
        m.source_offsets = [base]
        return m

    def __call__(self, offset: int) -> int:
        if self.base is not None:
            return self.base + offset
        i = bisect_right(self.text_offsets, offset) - 1
        i = max(i, 0)
        return self.source_offsets[i] + offset - self.text_offsets[i]


def _segments(src: bytes, st: Statement, fixed: bool) -> list[tuple[int, int]]:
    """(text offset, source offset) of each source line joined into a statement.

    Mirrors how `statements` joins continuation lines, so that names found in the joined
    text can be given their exact bytes in the source.
    """
    lead = len(st.text) - len(st.text.lstrip())
    if src.find(b"\n", st.start, st.end) < 0:
        return [(0, st.start - lead)]
    segs: list[tuple[int, int]] = []
    pos = src.rfind(b"\n", 0, st.start) + 1
    text_off = 0
    first = True
    n = len(src)
    while pos <= st.end and pos <= n:
        e = src.find(b"\n", pos)
        e = n if e < 0 else e
        line = src[pos:e].rstrip(b"\r")
        if fixed:
            if not fixed_comment_line(line):
                code = line[6:72]
                code = code[:split_fortran_comment(code)].rstrip()
                segs.append((text_off, pos + 6))
                text_off += len(code) + 1
                first = False
        else:
            body = line[:split_fortran_comment(line)].rstrip()
            stripped = body.lstrip()
            if stripped and stripped[:1] != b"#":
                if first:
                    start, length = st.start, pos + len(body) - st.start
                else:
                    amp = 1 if stripped[:1] == b"&" else 0
                    start, length = pos + len(body) - len(stripped) + amp, len(stripped) - amp
                if body.endswith(b"&"):
                    length -= 1
                segs.append((text_off, start))
                text_off += length + 1
                first = False
        pos = e + 1
    if not segs or text_off - 1 != len(st.text):
        return [(0, st.start - lead)]  # an approximation: offsets within the first line stay right
    return segs


def _blank_strings(text: bytes) -> bytes:
    """The text with the contents of character literals replaced by spaces (quotes kept)."""
    if b"'" not in text and b'"' not in text:
        return text
    out = bytearray(text)
    quote = 0
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = 0
            else:
                out[i] = 0x20
        elif c in (0x22, 0x27):
            quote = c
    return bytes(out)


def _close_paren(t: bytes, i: int) -> int:
    """Index just after the bracket that closes the one at `i` (len(t) when unbalanced)."""
    if 0 <= i < len(t) and t[i] == 0x28 and b"[" not in t and b"]" not in t:
        # the common case, `(...)` with no brackets inside: one search instead of a loop per byte
        k = t.find(b")", i + 1)
        if k >= 0 and t.find(b"(", i + 1, k) < 0:
            return k + 1
    depth = 0
    for j in range(i, len(t)):
        c = t[j]
        if c in (0x28, 0x5B):
            depth += 1
        elif c in (0x29, 0x5D):
            depth -= 1
            if depth == 0:
                return j + 1
    return len(t)


def _depth(t: bytes, lo: int, hi: int) -> int:
    """Open brackets minus closed ones in t[lo:hi] (round and square alike)."""
    seg = t[lo:hi]
    d = seg.count(b"(") - seg.count(b")")
    if b"[" in seg or b"]" in seg:
        d += seg.count(b"[") - seg.count(b"]")
    return d


def _split_top(t: bytes, lo: int, hi: int, sep: bytes = b",") -> list[tuple[int, int]]:
    """(start, end) of the parts of t[lo:hi] separated by `sep` outside brackets."""
    # Searches from one separator to the next, counting brackets in between (no loop per byte).
    j = t.find(sep, lo, hi)
    if j < 0:
        return [(lo, hi)]
    parts = []
    if t.find(b"(", lo, hi) < 0 and t.find(b"[", lo, hi) < 0:  # no brackets: every separator splits
        start = lo
        while j >= 0:
            parts.append((start, j))
            start = j + 1
            j = t.find(sep, start, hi)
        parts.append((start, hi))
        return parts
    depth = 0
    start = prev = lo
    while j >= 0:
        depth += _depth(t, prev, j)
        prev = j
        if depth <= 0:
            parts.append((start, j))
            start = j + 1
        j = t.find(sep, j + 1, hi)
    parts.append((start, hi))
    return parts


def _find_top(t: bytes, needle: bytes, lo: int, hi: int) -> int:
    """Index of `needle` in t[lo:hi] outside brackets, or -1."""
    j = t.find(needle, lo, hi)
    while j >= 0:
        seg = t[lo:j]
        if (0x28 not in seg and 0x5B not in seg) or _depth(t, lo, j) <= 0:  # no bracket opens before it
            return j
        j = t.find(needle, j + 1, hi)
    return -1


_SPACE = frozenset(b" \t\n\r\x0b\x0c")  # what `\s` matches in a bytes pattern


def _skip_ws(t: bytes, i: int) -> int:
    if 0 <= i < len(t):
        # most calls: nothing to skip, or the one blank after a comma (no regex call)
        if t[i] not in _SPACE:
            return i
        if i + 1 < len(t) and t[i + 1] not in _SPACE:
            return i + 1
    return _WS.match(t, i).end()  # type: ignore[union-attr]


def _skip_type_spec(t: bytes, i: int) -> int:
    """Index after a type keyword's kind/length selector: `(...)`, `*8`, `*(*)`."""
    j = _skip_ws(t, i)
    if j < len(t) and t[j] == 0x28:
        return _close_paren(t, j)
    if j < len(t) and t[j] == 0x2A:
        j = _skip_ws(t, j + 1)
        if j < len(t) and t[j] == 0x28:
            return _close_paren(t, j)
        while j < len(t) and t[j:j + 1].isdigit():
            j += 1
        return j
    return i


def _assignment(t: bytes, lo: int, hi: int) -> tuple[int, int, bool, bool] | None:
    """A designator followed by `=` or `=>`: (name start, name end, has subscripts only, pointer)."""
    m = _NAME.match(t, lo)
    if m is None:
        return None
    name_end = m.end()
    j = _skip_ws(t, name_end)
    simple = True
    subscripted = False
    while j < hi:
        c = t[j]
        if c in (0x28, 0x5B):
            j = _skip_ws(t, _close_paren(t, j))
            subscripted = True
            continue
        if c == 0x25:  # %component
            simple = False
            mm = _NAME.match(t, _skip_ws(t, j + 1))
            if mm is None:
                return None
            j = _skip_ws(t, mm.end())
            continue
        break
    if j >= hi or t[j] != 0x3D:
        return None
    if t[j + 1:j + 2] == b"=":
        return None
    return m.start(), name_end, simple and subscripted, t[j + 1:j + 2] == b">"


# A declared entity: (name start, name end, key, has dimensions, is initialized), offsets in the
# statement's text.
_Entity = tuple[int, int, str, bool, bool]
# A type declaration as read: (piece start, piece end, `::` or -1, specifier words, BIND(C), entities).
_Declaration = tuple[int, int, int, frozenset[str], bool, tuple[_Entity, ...], str]


def _entity_list(t: bytes, start: int, hi: int, dims: bool, initialized: bool) -> tuple[_Entity, ...]:
    """The names of the entity list t[start:hi] of a declaration, with what follows each name."""
    n = len(t)
    out = []
    name_match = _NAME.match
    for e_lo, e_hi in _split_top(t, start, hi):
        if e_lo < n and t[e_lo] in _SPACE:
            e_lo = _skip_ws(t, e_lo)
        m = name_match(t, e_lo, e_hi)
        if m is None:
            continue
        name_lo, j = m.span()
        # what follows the name (`_skip_ws` inlined: usually nothing to skip)
        c = t[j] if j < n else -1
        if c in _SPACE:
            j = _skip_ws(t, j)
            c = t[j] if j < n else -1
        array = dims or c == 0x28
        while j < e_hi and (c == 0x28 or c == 0x5B):  # (dimensions) [codimensions]
            j = _skip_ws(t, _close_paren(t, j))
            c = t[j] if j < n else -1
        if c == 0x2A:  # character length
            j = _skip_ws(t, _skip_type_spec(t, j))
            c = t[j] if j < n else -1
        # `= value`, `=> null()`, old-style `/value/`
        out.append((name_lo, m.end(), m.group().decode("ascii"), array, initialized or c == 0x3D or c == 0x2F))
    return tuple(out)


class _Nothing:
    """`specification`'s answer for a statement it read that declares nothing (truthy)."""
    __slots__ = ()


_NOTHING = _Nothing()


class _Frame:
    """A scope being built, with what the builder needs to finish it."""
    __slots__ = (
        "abstract",
        "arrays",
        "common_bind",
        "contains",
        "entities",
        "kind",
        "save_all",
        "scope",
        "skip_keys",
        "spec_end",
        "spec_start",
        "typed",
    )

    def __init__(self, scope: Scope, kind: str, spec_start: int) -> None:
        self.scope = scope
        self.kind = kind
        self.spec_start = spec_start
        self.spec_end: int | None = None
        self.entities: dict[str, Symbol] = {}
        self.arrays: set[str] = set()
        self.save_all = False
        self.contains = False
        self.skip_keys: set[str] = set()     # function name and result: not symbols of their own scope
        self.abstract = False
        self.common_bind: dict[str, str] = {}
        self.typed: set[str] = set()         # names given a type declaration (their symbol's span)


class _Builder:
    def __init__(self, document: Document, directives: list[Directive], structure: Structure) -> None:
        self.src = document.source
        self.fixed = document.language is Language.FORTRAN_FIXED
        self.root = Scope("file", "", (0, len(self.src)))
        self.model = FileModel(document.language, self.root, includes=find_includes(self.src, True))
        self.frames: list[_Frame] = [_Frame(self.root, "file", 0)]
        self.candidates: list[tuple[str, _Map, int, int, Scope, bool]] = []
        self.candidates_read = False
        self.exec_pieces: list[tuple[Statement, int, int, Scope]] = []   # read for references on demand
        self.modules: dict[str, Scope] = {}
        self.exec_directives = sorted(d.span[0] for d in directives
                                      if d.spec is not None and d.spec.kind == "executable" and d.end_of is None)
        self.statements = structure.statements  # the scanner's statements, shared with the block structure
        # for target regions, read with the references (copies: C-speed, and as they are now)
        self.directives = list(directives)
        self.extents = dict(structure.extents)
        # per statement
        self.st: Statement | None = None
        self.text = b""
        self._map: _Map | None = None
        self.base: int | None = None  # one-line statement: source offset = base + text offset
        self.attribute_lists: dict[tuple[bytes, bool], tuple[frozenset[str], bool, bool]] = {}
        self.declarations: dict[bytes, _Declaration] = {}  # statement text -> its type declaration
        self.whole = True   # the piece read is the whole statement (no `;`)
        self.neutral: set[bytes] = set()   # statement texts that do nothing (in a scope)
        # execution-part statements read for their references alone, by start: _PLAIN (the fast
        # path) or _ASSIGNMENT (a whole statement assigning to a name): see `read_again`
        self.read_as: dict[int, str] = {}

    # -- helpers -------------------------------------------------------------------------
    @property
    def map(self) -> _Map:
        """The current statement's text -> source offsets (built when a name needs its bytes)."""
        if self._map is None:
            st = self.st
            assert st is not None
            self._map = _Map.shift(self.base) if self.base is not None else _Map(_segments(self.src, st, self.fixed))
        return self._map

    def source_span(self, lo: int, hi: int) -> Span:
        base = self.base
        if base is not None:  # a one-line statement (most): a plain shift, no search
            return (base + lo, base + hi) if hi > lo else (base + lo, base + lo)
        m = self.map
        return m(lo), m(max(hi - 1, lo)) + (1 if hi > lo else 0)

    def name_at(self, lo: int, hi: int) -> tuple[str, Span]:
        span = self.source_span(lo, hi)
        written_bytes = self.src[span[0]:span[1]]
        name_bytes = self.text[lo:hi]
        if name_bytes.isascii() and written_bytes.lower() == name_bytes:
            return written_bytes.decode("ascii"), span  # the usual case: decoded once, compared as bytes
        written = written_bytes.decode("utf-8", "replace")
        key = name_bytes.decode("ascii", "replace")
        return (written if written.lower() == key else key), span

    def piece_span(self, lo: int, hi: int) -> Span:
        t = self.text
        if 0 <= lo < hi <= len(t) and t[lo] not in _SPACE and t[hi - 1] not in _SPACE:
            # pieces come trimmed already: nothing to strip (and `source_span`, inlined)
            base = self.base
            return (base + lo, base + hi) if base is not None else self.source_span(lo, hi)
        piece = t[lo:hi]
        body = piece.lstrip()
        lo += len(piece) - len(body)
        hi = lo + len(body.rstrip())
        return self.source_span(lo, hi)

    def add(self, scope: Scope, name: str, key: str, kind: str, span: Span, name_span: Span, **kw: object) -> Symbol:
        sym = Symbol(name, key, kind, span, name_span, scope, **kw)  # type: ignore[arg-type]
        if scope.kind in ("module", "submodule") and not sym.qualified:
            sym.qualified = f"{scope.name.lower()}::{key}"
        scope.symbols.append(sym)
        self.model.symbols.append(sym)
        return sym

    def entity(self, lo: int, hi: int, span: Span, frame: _Frame | None = None) -> Symbol | None:
        """The symbol of a name declared in the frame's scope (created on first mention)."""
        if frame is None:
            frame = self.frames[-1]
        if frame.kind in _NO_ENTITIES:
            return None
        name_bytes = self.text[lo:hi]
        key = name_bytes.decode("ascii", "replace")
        if key in frame.skip_keys:
            return None
        sym = frame.entities.get(key)
        if sym is None:
            base = self.base
            if base is not None and hi > lo:  # `name_at`, inlined for a one-line statement
                name_span = (base + lo, base + hi)
                written = self.src[base + lo:base + hi]
                if written == name_bytes:
                    name = key
                elif written.lower() == name_bytes and name_bytes.isascii():
                    name = written.decode("ascii")
                else:
                    name = self.name_at(lo, hi)[0]
            else:
                name, name_span = self.name_at(lo, hi)
            scope = frame.scope
            sym = Symbol(name, key, VARIABLE, span, name_span, scope)  # `add`, inlined: the commonest symbol
            if scope.kind in ("module", "submodule"):
                sym.qualified = f"{scope.name.lower()}::{key}"
            scope.symbols.append(sym)
            self.model.symbols.append(sym)
            frame.entities[key] = sym
        return sym

    def specify(self, sym: Symbol | None, *words: str) -> None:
        if sym is not None and words:
            sym.specifiers = sym.specifiers | frozenset(words)

    # -- driving -------------------------------------------------------------------------
    def run(self) -> FileModel:
        try:
            stmts = self.statements if self.statements is not None else statements(self.src, self.fixed)
        except Exception:
            self.model.complete = False
            return self.model
        pending = 0
        exec_directives = self.exec_directives
        next_directive = exec_directives[0] if exec_directives else -1
        frames = self.frames
        exec_pieces = self.exec_pieces
        declarations = self.declarations
        neutral = self.neutral
        find_newline = self.src.find
        needs_reading = _NEEDS_READING.match
        not_plain = _NOT_PLAIN.search
        read_as = self.read_as
        for st in stmts:
            if 0 <= next_directive < st.start:
                while pending < len(exec_directives) and exec_directives[pending] < st.start:
                    self.executable_at(exec_directives[pending])
                    pending += 1
                next_directive = exec_directives[pending] if pending < len(exec_directives) else -1
            # The execution-part fast path: in an execution part, a statement that can be nothing but
            # executable is kept for references, unread (most statements of a long execution part).
            frame = frames[-1]
            text = st.text
            if frame.spec_end is not None and not frame.contains and frame.kind not in _NO_ENTITIES \
                    and (not text or text[0] not in _NEEDS_READING_FIRST or needs_reading(text) is None) \
                    and not_plain(text) is None:   # (`plain`, inlined)
                exec_pieces.append((st, 0, len(text), frame.scope))
                read_as[st.start] = _PLAIN
                continue
            if text in neutral and frame.kind not in _NO_ENTITIES:
                continue  # read before, word for word: declares nothing
            try:
                # The current statement: its text -> source offsets by a plain shift when it is one
                # line (as `_segments` finds, quicker), or else by a `_Map` built on first use.
                self.st = st
                self._map = None
                if find_newline(b"\n", st.start, st.end) < 0:
                    self.base = st.start - (len(text) - len(text.lstrip()) if text[:1].isspace() else 0)
                else:
                    self.base = None
                decl = declarations.get(text)
                if 0x27 in text or 0x22 in text:
                    text = _blank_strings(text)
                self.text = text
                if decl is not None and frame.kind not in _NO_ENTITIES:
                    self.declare(decl)  # a declaration read before, word for word: apply it again
                elif 0x3B in text:
                    self.whole = False
                    for lo, hi in _split_top(text, 0, len(text), b";"):
                        if text[lo:hi].strip():
                            self.piece(lo, hi)
                else:
                    self.whole = True
                    self.piece(0, len(text))
            except Exception:
                self.model.complete = False
                self.frames[-1].scope.complete = False
        for off in exec_directives[pending:]:
            self.executable_at(off)
        while len(self.frames) > 1:
            self.model.complete = False
            self.close(len(self.src))
        self.model.symbols.sort(key=lambda s: s.name_span[0])
        if "reference_builder" in self.model.__dict__:
            self.model.reference_builder = self.references  # only rules that read references pay
            self.model.filtered_builder = self.references
        else:
            self.model.references = self.references()
        self.model.statement_reader = self.read_again
        return self.model

    def read_again(self, old: Statement, new: Statement) -> Callable[[bytes], tuple[list[Reference], list[Reference]]] | None:
        """A function that takes `new` (starting where `old` does, in a source given to it) for
        `old`, a statement this builder read for its references alone, and returns the new one's
        references and unresolved names; the statement lists and the references read so far
        follow. None unless the builder would read `new` there as it read `old`: by the fast path
        (`plain`), or (the first executable statement, or one with a word that may open a unit)
        as an assignment to a name, which only ends the specification part where `old` did."""
        how = self.read_as.get(old.start)
        if how is None or new.start != old.start:
            return None
        if how == _PLAIN:
            if not plain(new.text):
                return None
        elif not _assigns_to_a_name(new.text) or new.text in self.declarations or new.text in self.neutral:
            return None
        return lambda src: self.take(old, new, src)

    def take(self, old: Statement, new: Statement, src: bytes) -> tuple[list[Reference], list[Reference]]:
        """`read_again`'s work: `new` in place of `old`."""
        pieces, stmts = self.exec_pieces, self.statements
        i = bisect_left(pieces, old.start, key=lambda p: p[0].start)
        assert pieces[i][0] is old and stmts is not None
        scope = pieces[i][3]
        pieces[i] = (new, 0, len(new.text), scope)
        stmts[bisect_left(stmts, old.start, key=lambda s: s.start)] = new   # (shared: the block structure's)
        self.src = src
        kept, self.candidates = self.candidates, []
        self.collect_references(_blank_strings(new.text), _Map(_segments(src, new, self.fixed)), 0, len(new.text),
                                scope)
        fresh, self.candidates = self.candidates, kept
        refs: list[Reference] = []
        unresolved: list[Reference] = []
        self.resolve_references(refs, None, fresh, unresolved)
        span = (old.start, old.end)
        model = self.model
        if not self.candidates_read:
            return refs, unresolved   # (nothing read yet)
        if model.reference_builder is None:   # all resolved
            _splice(model._references, span, refs)
        else:   # read, resolved when asked (candidates in source order, by statement)
            kept = self.candidates
            lo = bisect_left(kept, span[0], key=lambda c: c[1](c[2]))
            kept[lo:bisect_left(kept, span[1], lo, key=lambda c: c[1](c[2]))] = fresh
        _splice(model.unresolved, span, unresolved)
        return refs, unresolved

    def executable_at(self, offset: int) -> None:
        """An executable OpenMP directive ends the specification part it appears in."""
        frame = self.frames[-1]
        if frame.kind not in ("file", "interface", "type") and frame.spec_end is None and offset >= frame.spec_start:
            frame.spec_end = offset

    def piece(self, lo: int, hi: int) -> None:
        t = self.text
        if lo >= len(t) or t[lo] in _SPACE:
            lo = _skip_ws(t, lo)
        if hi > lo and t[hi - 1] in _SPACE:
            while hi > lo and t[hi - 1:hi].isspace():
                hi -= 1
        frame = self.frames[-1]
        kind = frame.kind
        if kind == "type":
            m = _END.match(t, lo, hi)
            if m and m.group(1) == b"type":
                self.close(self.piece_span(lo, hi)[1])
                return
            if m and m.group(1) and m.group(1) != b"type":
                self.frames[-1].scope.complete = False  # an unterminated type: close it, go on
                self.close(self.piece_span(lo, hi)[0])
                self.piece(lo, hi)
            return
        if t.find(b"=", lo, hi) >= 0:  # an assignment needs one
            a = _assignment(t, lo, hi)
            if a is not None:
                self.assignment(lo, hi, a)
                return
        c = t[lo] if lo < hi else 0
        if c in _TYPE_FIRST and kind not in _NO_ENTITIES:
            # A type declaration (the commonest statement of a specification part) goes straight
            # to `type_declaration` when nothing `unit_statement` tries can match it: no unit or
            # interface or type definition starts with a type keyword; left are `block` and headers.
            m = _TYPE_KW.match(t, lo, hi)
            if m is not None and not t.endswith(b"block", lo, hi) and t.find(b"function", lo, hi) < 0 \
                    and t.find(b"subroutine", lo, hi) < 0:
                decl = self.type_declaration(lo, hi, _skip_type_spec(t, m.end()), procedure=False)
                if decl is not None and self.whole:
                    # The way here depended on the text alone (the frame kind aside): statements
                    # written the same way again (`integer :: i`...) skip it.
                    assert self.st is not None
                    self.declarations[self.st.text] = decl
                return
        if self.unit_statement(lo, hi, c):
            return
        if kind == "interface":
            return  # bodies are headers (read above); the rest only lists procedures
        if kind == "file":
            # Statements outside any unit: a main program without a PROGRAM statement.
            start = self.piece_span(lo, hi)[0]
            self.open("program", "", start, start, None)
        read = self.specification(lo, hi, c)
        if read:
            if read is _NOTHING and kind not in _NO_ENTITIES and self.whole and c != 0x65:
                # Read, and nothing to do (`implicit none`, `public`...), whatever came before it
                # (statements starting with `e` aside: END depends on what is open): skip it next time.
                assert self.st is not None
                self.neutral.add(self.st.text)
            return
        self.executable(lo, hi, known=None)

    # -- program units -------------------------------------------------------------------
    def unit_statement(self, lo: int, hi: int, c: int) -> bool:
        """Headers, END, CONTAINS, interface and type definitions, BLOCK constructs.

        `c` is the statement's first byte (0 for none): each statement form is tried only
        where it can start.
        """
        t = self.text
        if c == 0x65:  # e
            m = _END.match(t, lo, hi)
            if m is not None and self.end_statement(lo, hi, m):
                return True
        elif c == 0x63:  # c
            if t[lo:hi] == b"contains":
                frame = self.frames[-1]
                if frame.spec_end is None:
                    frame.spec_end = self.piece_span(lo, hi)[0]
                frame.contains = True
                return True
        elif c == 0x70:  # p
            m = _PROGRAM.match(t, lo, hi)
            if m:
                self.open_unit("program", lo, hi, m.start(1), m.end(1))
                return True
        elif c == 0x6D:  # m
            m = _MODULE.match(t, lo, hi)
            if m and m.group(1) not in (b"procedure", b"subroutine", b"function"):
                self.open_unit("module", lo, hi, m.start(1), m.end(1))
                return True
            m = _MODULE_PROCEDURE.match(t, lo, hi)
            if m and self.frames[-1].kind != "interface":
                self.subprogram(lo, hi, "subroutine", m.start(1), m.end(1), [b"module", b"separate"], hi)
                return True
        elif c == 0x73:  # s
            m = _SUBMODULE.match(t, lo, hi) if t.startswith(b"submodule", lo) else None
            if m:
                self.open_unit("submodule", lo, hi, m.start(1), m.end(1))
                return True
        elif c == 0x62:  # b
            m = _BLOCK_DATA.match(t, lo, hi)
            if m:
                self.open_unit("block data", lo, hi, m.start(1), m.end(1))
                return True
        # `block`, or named: `outer: block` (the pattern ends with `block`)
        if t.endswith(b"block", lo, hi) and _BLOCK.match(t, lo, hi) and self.frames[-1].kind not in ("file", "interface"):
            self.executable(lo, hi, known=True)
            span = self.piece_span(lo, hi)
            self.open("block", "", span[0], span[1], None)
            return True
        if c == 0x69 or c == 0x61:  # i, a
            m = _INTERFACE.match(t, lo, hi)
            if m and self.frames[-1].kind not in ("file", "interface"):
                self.interface(lo, hi, m)
                return True
        elif c == 0x74:  # t
            m = _TYPE_DEF.match(t, lo, hi)
            if m and self.frames[-1].kind not in ("file", "interface"):
                self.type_definition(lo, hi, m)
                return True
        return self.subprogram_header(lo, hi)

    def subprogram_header(self, lo: int, hi: int) -> bool:
        t = self.text
        if t.find(b"function", lo, hi) < 0 and t.find(b"subroutine", lo, hi) < 0:
            return False  # most statements: no header keyword at all
        prefixes: list[bytes] = []
        # A bare `subroutine x` / `function x` first: no prefix or type could have matched before.
        m = _SUBPROGRAM.match(t, lo, hi)
        if m is None:
            pos = lo
            typed = False
            while True:
                pos = _skip_ws(t, pos)
                m = _PREFIX_KW.match(t, pos, hi)
                if m:
                    prefixes.append(m.group(0))
                    pos = m.end()
                    continue
                m = _TYPE_KW.match(t, pos, hi)
                if m and not typed:
                    typed = True
                    pos = _skip_type_spec(t, m.end())
                    continue
                break
            m = _SUBPROGRAM.match(t, pos, hi)
            if m is None:
                return False
        kind = m.group(1).decode()
        after = _skip_ws(t, m.end())
        if after < hi and t[after] not in b"(b" and kind == "function" and t[after:after + 6] != b"result":
            return False  # `function` followed by something else: not a header
        self.subprogram(lo, hi, kind, m.start(2), m.end(2), prefixes, after)
        return True

    def subprogram(self, lo: int, hi: int, kind: str, name_lo: int, name_hi: int, prefixes: list[bytes],
                   after: int) -> None:
        frame = self.frames[-1]
        # A header where no subprogram may start: the unit before it was not terminated.
        while frame.kind in UNIT_KINDS and not frame.contains:
            self.model.complete = False
            self.close(self.piece_span(lo, hi)[0])
            frame = self.frames[-1]
        if frame.kind == "block":
            self.model.complete = False
            frame.scope.complete = False
            return
        t = self.text
        interface_body = frame.kind == "interface"
        span = self.piece_span(lo, hi)
        name, name_span = self.name_at(name_lo, name_hi)
        key = t[name_lo:name_hi].decode("ascii", "replace")
        host = frame.scope.parent if interface_body and frame.scope.parent is not None else frame.scope
        words = {p.decode() for p in prefixes} if prefixes else set()
        if interface_body and frame.abstract:
            words.add("abstract")
        bind_name = self.bind_name(after, hi, key) if t.find(b"bind", after, hi) >= 0 else None
        if bind_name is not None:
            words.add("bind(c)")
        sym = self.add(host, name, key, FUNCTION, span, name_span, definition=not interface_body,
                       specifiers=frozenset(words), bind_name=bind_name)
        new = self.open(kind, name, span[0], span[1], sym)
        new.scope.interface_body = interface_body
        new.scope.internal = frame.kind in ("subroutine", "function", "program") and not interface_body
        new.skip_keys.add(key)
        # dummy arguments and the result name
        j = _skip_ws(t, after)
        if j < hi and t[j] == 0x28:
            close = _close_paren(t, j)
            for a_lo, a_hi in _split_top(t, j + 1, close - 1):
                if a_lo < len(t) and t[a_lo] in _SPACE:
                    a_lo = _skip_ws(t, a_lo)
                m = _NAME.match(t, a_lo, a_hi)
                if m:
                    arg = self.entity(m.start(), m.end(), span, new)
                    if arg is not None:
                        spec = arg.specifiers
                        arg.specifiers = spec | _DUMMY_WORDS if spec else _DUMMY_WORDS
            j = close
        if t.find(b"result", j, hi) >= 0:
            m = _RESULT.match(t, j, hi)
            if m:
                new.skip_keys.add(m.group(1).decode())

    def bind_name(self, lo: int, hi: int, key: str) -> str | None:
        """The C name of a `bind(c[, name="..."])` in t[lo:hi], or None without one."""
        if self.text.find(b"bind", lo, hi) < 0:
            return None  # (what the search below needs first: most headers have no BIND)
        m = _BIND_C.search(self.text, lo, hi)
        if m is None:
            return None
        if m.group(1) is None:
            return key
        q = m.end()
        end = self.text.find(m.group(1), q, hi)
        if end < 0:
            return key
        span = self.source_span(q, end)
        return self.src[span[0]:span[1]].decode("utf-8", "replace").strip()

    def open_unit(self, kind: str, lo: int, hi: int, name_lo: int, name_hi: int) -> None:
        while len(self.frames) > 1:  # program units do not nest: close what was left open
            self.model.complete = False
            self.close(self.piece_span(lo, hi)[0])
        span = self.piece_span(lo, hi)
        sym = None
        name = ""
        if name_lo >= 0 and name_hi > name_lo:
            name, name_span = self.name_at(name_lo, name_hi)
            if kind == "module":
                sym = self.add(self.root, name, name.lower(), MODULE, span, name_span)
        frame = self.open(kind, name, span[0], span[1], sym)
        if kind == "module":
            self.modules[name.lower()] = frame.scope

    def open(self, kind: str, name: str, start: int, header_end: int, sym: Symbol | None) -> _Frame:
        parent = self.frames[-1].scope
        scope = Scope(kind, name, (start, len(self.src)), parent, symbol=sym)
        parent.children.append(scope)
        frame = _Frame(scope, kind, header_end)
        self.frames.append(frame)
        return frame

    def close(self, end: int) -> None:
        frame = self.frames.pop()
        scope = frame.scope
        scope.span = (scope.span[0], max(end, scope.span[0]))
        if frame.kind not in ("interface", "type"):
            spec_end = frame.spec_end if frame.spec_end is not None else scope.span[1]
            scope.spec_part = (frame.spec_start, max(spec_end, frame.spec_start))
        if frame.entities or frame.common_bind:
            self.finish_entities(frame)

    def end_statement(self, lo: int, hi: int, m: re.Match[bytes]) -> bool:
        word = m.group(1)
        rest = m.group(2).strip()
        if word is None and rest:
            if _END_BLOCK.match(self.text, lo, hi) and self.frames[-1].kind == "block":
                self.close(self.piece_span(lo, hi)[1])
                return True
            return False  # end do, end if, endfile ...: executable
        want: Collection[str] | None = _END_WANT.get(word or b"", None)
        if word is not None and word.startswith(b"block"):
            want = ("block data",)
        if want == ():
            return True  # end enum
        if want is None:  # bare END: the innermost program unit or subprogram
            want = UNIT_KINDS
        for depth in range(len(self.frames) - 1, 0, -1):
            if self.frames[depth].kind in want:
                break
        else:
            self.model.complete = False  # an END with nothing to close
            return True
        span = self.piece_span(lo, hi)
        while len(self.frames) - 1 > depth:
            self.model.complete = False
            self.frames[-1].scope.complete = False
            self.close(span[0])
        frame = self.frames[-1]
        if frame.spec_end is None:
            frame.spec_end = span[0]
        self.close(span[1])
        return True

    def interface(self, lo: int, hi: int, m: re.Match[bytes]) -> None:
        span = self.piece_span(lo, hi)
        spec = m.group(2).strip()
        frame = self.frames[-1]
        name = ""
        if spec and _NAME.fullmatch(spec):
            start = m.start(2) + (len(m.group(2)) - len(m.group(2).lstrip()))
            name, name_span = self.name_at(start, start + len(spec))
            if frame.kind not in ("file", "type"):
                self.add(frame.scope, name, spec.decode(), GENERIC, span, name_span)
        new = self.open("interface", name, span[0], span[1], None)
        new.abstract = m.group(1) is not None

    def type_definition(self, lo: int, hi: int, m: re.Match[bytes]) -> None:
        span = self.piece_span(lo, hi)
        g = 2 if m.group(2) else 3
        name, name_span = self.name_at(m.start(g), m.end(g))
        attrs = m.group(1) or b""
        words = frozenset({"bind(c)"}) if b"bind" in attrs else frozenset()
        sym = self.add(self.frames[-1].scope, name, m.group(g).decode(), TYPE, span, name_span, specifiers=words,
                       definition=True)
        self.open("type", name, span[0], span[1], sym)

    # -- specification part --------------------------------------------------------------
    def specification(self, lo: int, hi: int, c: int) -> bool | _Nothing:
        """A statement of the specification part (`c`: its first byte): True when read as one,
        _NOTHING when read as one that declares nothing (and so changed nothing), else False."""
        t = self.text
        if c in _TYPE_FIRST:
            m = _TYPE_KW.match(t, lo, hi)
            if m:
                self.type_declaration(lo, hi, _skip_type_spec(t, m.end()), procedure=False)
                return True
        elif c == 0x70:  # p
            m = _PROC_DECL.match(t, lo, hi)
            if m:
                self.type_declaration(lo, hi, _close_paren(t, m.end() - 1), procedure=True)
                return True
        elif c == 0x75:  # u
            m = _USE.match(t, lo, hi)
            if m:
                self.frames[-1].scope.uses.append(m.group(1).decode())
                return True
        if c == 0x63:  # c
            if t.startswith(b"common", lo):
                self.common(lo, hi)
                return True
        elif c == 0x65:  # e (which is also how `enumerator` starts: read by _NEUTRAL below)
            if t.startswith(b"equivalence", lo):
                self.equivalence(lo, hi)
                return True
            m = _ENTRY.match(t, lo, hi)
            if m:
                self.entry(lo, hi, m)
                return True
        elif c == 0x64:  # d
            if _DATA.match(t, lo, hi):
                self.data(lo + 4, hi)
                return True
        elif c == 0x70:  # p
            if _PARAMETER.match(t, lo, hi):
                self.parameter(lo, hi)
                return True
            if _CRAY_POINTER.match(t, lo, hi):
                return True  # Cray pointer: neither names a Fortran pointer nor ends the part
        elif c == 0x62:  # b
            if _BIND.match(t, lo, hi):
                self.bind_statement(lo, hi)
                return True
        elif c == 0x67:  # g
            m = _GENERIC.match(t, lo, hi)
            if m:
                span = self.piece_span(lo, hi)
                name, name_span = self.name_at(m.start(1), m.end(1))
                self.add(self.frames[-1].scope, name, m.group(1).decode(), GENERIC, span, name_span)
                return True
        elif c == 0x73 and t[lo:hi] == b"save":
            self.frames[-1].save_all = True
            return True
        elif c == 0x69 and t.startswith(b"include", lo):
            self.frames[-1].scope.complete = False  # declarations we cannot see
            return True
        m = _ATTRIBUTE_RE.match(t, lo, hi)
        if m:
            j = _skip_ws(t, m.end())
            if j < hi and t[j] in b":_abcdefghijklmnopqrstuvwxyz/":
                self.attribute_statement(lo, hi, m)
                return True
        return _NOTHING if _NEUTRAL.match(t, lo, hi) is not None else False

    def type_declaration(self, lo: int, hi: int, pos: int, procedure: bool) -> _Declaration | None:
        """A type (or procedure) declaration statement t[lo:hi]; `pos`: after the type.
        Returns what was read (None for a malformed one), which `declare` can apply again."""
        t = self.text
        colons = _find_top(t, b"::", pos, hi)
        j = _skip_ws(t, pos)
        if colons >= 0:
            if j < colons and t[j] == 0x2C:
                words, dims, bind = self.attributes(t[j + 1:colons], procedure)
            else:
                words, dims, bind = _PROCEDURE_WORDS if procedure else _NO_WORDS, False, False
            start = colons + 2
        else:
            if j < hi and t[j] == 0x2C:
                return None  # malformed: attributes without '::'
            words, dims, bind = _PROCEDURE_WORDS if procedure else _NO_WORDS, False, False
            start = j
        type_text = " ".join(t[lo:pos].decode("ascii", "replace").split())
        decl = (lo, hi, colons, words, bind, _entity_list(t, start, hi, dims, False), type_text)
        self.declare(decl)
        return decl

    def attributes(self, text: bytes, procedure: bool) -> tuple[frozenset[str], bool, bool]:
        """The attribute list of a type declaration (between the type and `::`): the specifier
        words, whether it gives dimensions, whether it has BIND(C). Declarations repeat a few
        attribute lists (`intent(in)`, `parameter`...): each is read once per file."""
        key = (text, procedure)
        hit = self.attribute_lists.get(key)
        if hit is not None:
            return hit
        words: set[str] = {"procedure"} if procedure else set()
        dims = bind = False
        for a_lo, a_hi in _split_top(text, 0, len(text)):
            am = _NAME.match(text, _skip_ws(text, a_lo), a_hi)
            if am is None:
                continue
            word = am.group(0).decode()
            if word == "bind":
                words.add("bind(c)")
                bind = True
            elif word == "dimension" or word == "codimension":
                dims = True
                words.add(word)
            else:
                words.add(word)
        hit = self.attribute_lists[key] = (frozenset(words), dims, bind)
        return hit

    def declare(self, decl: _Declaration) -> None:
        """Apply a type declaration read by `type_declaration` (of this statement's text): one
        symbol per entity name, given the declaration's span and specifiers."""
        lo, hi, colons, words, bind, entities, type_text = decl
        frame = self.frames[-1]
        base = self.base
        # pieces come trimmed: `piece_span` is a plain shift for a one-line statement
        span = (base + lo, base + hi) if base is not None and hi > lo else self.piece_span(lo, hi)
        arrays = frame.arrays
        out: list[Symbol | None] = []
        # `entity`, `name_at` and `source_span` inlined for a one-line statement (the common case):
        # declarations are most of a specification part, and their names most of the symbols.
        readable = frame.kind not in _NO_ENTITIES
        known = frame.entities
        skip_keys = frame.skip_keys
        typed = frame.typed
        src = self.src
        t = self.text
        for name_lo, name_hi, key, array, initialized in entities:
            if base is None or not readable:
                sym = self.entity(name_lo, name_hi, span, frame)
                name_span = None
            elif key in skip_keys:
                sym = None
            else:
                name_span = (base + name_lo, base + name_hi)
                sym = known.get(key)
                if sym is None:  # `entity`'s new symbol, inlined
                    written = src[name_span[0]:name_span[1]]
                    name_bytes = t[name_lo:name_hi]
                    if written == name_bytes:
                        name = key
                    elif written.lower() == name_bytes:  # (names are ASCII)
                        name = written.decode("ascii")
                    else:
                        name = self.name_at(name_lo, name_hi)[0]
                    scope = frame.scope
                    sym = Symbol(name, key, VARIABLE, span, name_span, scope)
                    if scope.kind in ("module", "submodule"):
                        sym.qualified = f"{scope.name.lower()}::{key}"
                    scope.symbols.append(sym)
                    self.model.symbols.append(sym)
                    known[key] = sym
            if bind:
                out.append(sym)
            if sym is None:
                continue
            if key not in typed:  # the type declaration is the one to point at
                typed.add(key)
                sym.span, sym.name_span = span, (name_span if name_span is not None
                                                 else self.source_span(name_lo, name_hi))
                sym.type_text = type_text
            if words:
                spec = sym.specifiers
                sym.specifiers = spec | words if spec else words
            if array:
                arrays.add(key)
            if initialized:
                sym.initialized = True
        if bind:
            for sym in out:
                if sym is not None:
                    sym.bind_name = self.bind_name(lo, colons, sym.key)

    def attribute_statement(self, lo: int, hi: int, m: re.Match[bytes]) -> None:
        t = self.text
        word = m.group(1).decode()
        if word in ("automatic", "static"):
            word = "save" if word == "static" else word
        start = m.end()
        colons = _find_top(t, b"::", start, hi)
        if colons >= 0:
            start = colons + 2
        span = self.piece_span(lo, hi)
        for e_lo, e_hi in _split_top(t, start, hi):
            j = _skip_ws(t, e_lo)
            if t[j:j + 1] == b"/":
                continue  # save :: /blk/
            nm = _NAME.match(t, j, e_hi)
            if nm is None:
                continue
            if word == "intent" or word == "optional" or word == "value":
                sym = self.frames[-1].entities.get(nm.group(0).decode())
            else:
                sym = self.entity(nm.start(), nm.end(), span)
            self.specify(sym, word)
            rest = t[nm.end():e_hi].lstrip()
            if sym is not None and (word == "dimension" or rest.startswith(b"(")) and word != "external":
                self.frames[-1].arrays.add(sym.key)

    def bind_statement(self, lo: int, hi: int) -> None:
        t = self.text
        paren = t.find(b"(", lo, hi)
        close = _close_paren(t, paren)
        colons = _find_top(t, b"::", close, hi)
        start = colons + 2 if colons >= 0 else close
        span = self.piece_span(lo, hi)
        for e_lo, e_hi in _split_top(t, start, hi):
            j = _skip_ws(t, e_lo)
            if t[j:j + 1] == b"/":
                nm = _NAME.match(t, _skip_ws(t, j + 1), e_hi)
                if nm:
                    key = nm.group(0).decode()
                    self.frames[-1].common_bind[f"/{key}/"] = self.bind_name(lo, close, key) or key
                continue
            nm = _NAME.match(t, j, e_hi)
            if nm:
                sym = self.entity(nm.start(), nm.end(), span)
                if sym is not None:
                    self.specify(sym, "bind(c)")
                    sym.bind_name = self.bind_name(lo, close, sym.key)

    def parameter(self, lo: int, hi: int) -> None:
        t = self.text
        paren = t.find(b"(", lo, hi)
        close = _close_paren(t, paren)
        span = self.piece_span(lo, hi)
        for e_lo, e_hi in _split_top(t, paren + 1, close - 1):
            nm = _NAME.match(t, _skip_ws(t, e_lo), e_hi)
            if nm:
                sym = self.entity(nm.start(), nm.end(), span)
                self.specify(sym, "parameter")
                if sym is not None:
                    sym.initialized = True

    def common(self, lo: int, hi: int) -> None:
        t = self.text
        span = self.piece_span(lo, hi)
        j = lo + len(b"common")
        block: str | None = ""
        block_name_span: Span = self.source_span(lo, lo + len(b"common"))
        block_key_written = ""
        announced = False
        for e_lo, e_hi in _split_top(t, j, hi):
            k = _skip_ws(t, e_lo)
            while k < e_hi and t[k] == 0x2F:  # /name/ (possibly //)
                close = t.find(b"/", k + 1, e_hi)
                if close < 0:
                    return
                inner = t[k + 1:close].strip()
                block = inner.decode("ascii", "replace")
                if inner:
                    s = k + 1 + (len(t[k + 1:close]) - len(t[k + 1:close].lstrip()))
                    block_key_written, block_name_span = self.name_at(s, s + len(inner))
                else:
                    block_key_written, block_name_span = "", self.source_span(k, close + 1)
                announced = False
                k = _skip_ws(t, close + 1)
            nm = _NAME.match(t, k, e_hi)
            if nm is None:
                continue
            if not announced:
                self.add(self.frames[-1].scope, block_key_written, f"/{block}/", COMMON, span, block_name_span)
                announced = True
            sym = self.entity(nm.start(), nm.end(), span)
            if sym is not None:
                sym.common = block
                if t[nm.end():e_hi].lstrip().startswith(b"("):
                    self.frames[-1].arrays.add(sym.key)

    def equivalence(self, lo: int, hi: int) -> None:
        t = self.text
        span = self.piece_span(lo, hi)
        for g_lo, _g_hi in _split_top(t, lo + len(b"equivalence"), hi):
            k = _skip_ws(t, g_lo)
            if t[k:k + 1] != b"(":
                continue
            close = _close_paren(t, k)
            for e_lo, e_hi in _split_top(t, k + 1, close - 1):
                nm = _NAME.match(t, _skip_ws(t, e_lo), e_hi)
                if nm:
                    sym = self.entity(nm.start(), nm.end(), span)
                    if sym is not None:
                        sym.equivalenced = True

    def data(self, lo: int, hi: int) -> None:
        """DATA object-list /values/ [, object-list /values/]...: the objects are initialized."""
        t = self.text
        span = self.piece_span(lo, hi)
        k = lo
        while k < hi:
            slash = _find_top(t, b"/", k, hi)
            if slash < 0:
                return
            for e_lo, e_hi in _split_top(t, k, slash):
                j = _skip_ws(t, e_lo)
                while t[j:j + 1] == b"(":  # implied DO: the first name inside
                    j = _skip_ws(t, j + 1)
                nm = _NAME.match(t, j, e_hi)
                if nm:
                    sym = self.entity(nm.start(), nm.end(), span)
                    if sym is not None:
                        sym.initialized = True
            end = t.find(b"/", slash + 1, hi)
            if end < 0:
                return
            k = end + 1
            k = _skip_ws(t, k)
            if t[k:k + 1] == b",":
                k += 1

    def entry(self, lo: int, hi: int, m: re.Match[bytes]) -> None:
        frame = self.frames[-1]
        if frame.kind not in ("subroutine", "function"):
            return
        span = self.piece_span(lo, hi)
        name, name_span = self.name_at(m.start(1), m.end(1))
        key = m.group(1).decode()
        typed = frame.entities.pop(key, None)  # a type declaration of a function entry's result
        if typed is not None:
            frame.scope.symbols.remove(typed)
            self.model.symbols.remove(typed)
        self.add(frame.scope, name, key, ENTRY, span, name_span, definition=True,
                 bind_name=self.bind_name(m.end(), hi, key))
        frame.skip_keys.add(key)

    # -- execution part ------------------------------------------------------------------
    def assignment(self, lo: int, hi: int, a: tuple[int, int, bool, bool]) -> None:
        frame = self.frames[-1]
        t = self.text
        name_lo, name_hi, subscripted, pointer = a
        key = t[name_lo:name_hi].decode("ascii", "replace")
        if frame.kind == "file":
            start = self.piece_span(lo, hi)[0]
            frame = self.open("program", "", start, start, None)
        if (subscripted and not pointer and frame.spec_end is None and frame.kind not in ("interface", "type")
                and self.statement_function_args(name_hi, hi) and not self.is_array(key)):
            if key in frame.entities or not self.may_be_use_associated(key):
                span = self.piece_span(lo, hi)
                sym = frame.entities.get(key)
                if sym is None:
                    sym = self.entity(name_lo, name_hi, span)
                if sym is not None:
                    sym.kind = STATEMENT_FUNCTION
                    sym.specifiers = sym.specifiers | {"statement function"}
                    sym.span, sym.name_span = span, self.source_span(name_lo, name_hi)
                return
            frame.scope.complete = False  # an array from a module or a statement function: unknown
        elif self.whole and not subscripted and frame.kind not in _NO_ENTITIES and (lo, hi) == (0, len(t)):
            assert self.st is not None
            self.read_as[self.st.start] = _ASSIGNMENT   # (`read_again`)
        self.executable(lo, hi, known=True)

    def statement_function_args(self, name_hi: int, hi: int) -> bool:
        t = self.text
        j = _skip_ws(t, name_hi)
        if t[j:j + 1] != b"(":
            return False
        close = _close_paren(t, j)
        if not _skip_ws(t, close) < hi or t[_skip_ws(t, close)] != 0x3D:
            return False
        inner = t[j + 1:close - 1].strip()
        if not inner:
            return True
        return all(_NAME.fullmatch(p.strip()) for p in inner.split(b","))

    def is_array(self, key: str) -> bool:
        for frame in reversed(self.frames):
            if key in frame.arrays:
                return True
            sym = frame.entities.get(key)
            if sym is not None and ("dimension" in sym.specifiers or "allocatable" in sym.specifiers):
                return True
            if frame.kind in ("subroutine", "function") and frame.scope.interface_body:
                break
        return False

    def may_be_use_associated(self, key: str) -> bool:
        """True when a USE statement may bring `key` in: a module of another file is used, or
        a module of this file declares it."""
        for f in self.frames:
            for used in f.scope.uses:
                module = self.modules.get(used)
                if module is None or any(s.key == key for s in module.symbols):
                    return True
        return False

    def executable(self, lo: int, hi: int, known: bool | None) -> None:
        """An executable statement (`known`: it starts like one; None: see `_EXECUTABLE`)."""
        frame = self.frames[-1]
        if frame.kind in _NO_ENTITIES:
            return
        if frame.spec_end is None:
            frame.spec_end = self.piece_span(lo, hi)[0]
            if known is None:  # only needed here: most executable statements skip the pattern
                known = re.compile(_EXECUTABLE).match(self.text, lo, hi) is not None
            if not known:
                frame.scope.complete = False  # a statement we do not know may have been a declaration
        assert self.st is not None
        self.exec_pieces.append((self.st, lo, hi, frame.scope))

    def collect_references(self, text: bytes, where: _Map, lo: int, hi: int, scope: Scope) -> None:
        t = text[lo:hi]
        if b"." in t:
            t = _OPERATOR.sub(lambda m: b" " * len(m.group(0)), t)
        calls: set[int] = set()
        add = self.candidates.append
        for m in _CALL.finditer(t):
            calls.add(m.start(1))
            add((m.group(1).decode(), where, lo + m.start(1), lo + m.end(1), scope, True))
        for m in _IDENT.finditer(t):
            s = m.start()
            if s in calls:
                continue
            after = _skip_ws(t, m.end())
            if t[after:after + 1] == b"=" and t[after + 1:after + 2] not in (b"=", b">") and s > 0 \
                    and t.rfind(b"(", 0, s) > t.rfind(b")", 0, s):
                continue  # keyword argument name
            add((m.group(0).decode(), where, lo + s, lo + m.end(), scope, False))

    # -- finishing -----------------------------------------------------------------------
    def finish_entities(self, frame: _Frame) -> None:
        implicit_save = frame.kind in _IMPLICIT_SAVE_UNITS
        for sym in frame.entities.values():
            spec = sym.specifiers
            if sym.kind == STATEMENT_FUNCTION:
                continue
            if "procedure" in spec or "external" in spec:
                sym.kind = PROCEDURE_POINTER if "pointer" in spec else PROCEDURE
            if "parameter" in spec:
                sym.storage = ""  # a named constant has no storage
            elif "dummy" in spec:
                sym.storage = AUTOMATIC
            elif sym.common is not None or implicit_save or frame.save_all or "save" in spec or sym.initialized:
                sym.storage = STATIC
            else:
                sym.storage = AUTOMATIC
        if frame.common_bind:
            for sym in frame.scope.symbols:
                if sym.kind == COMMON and sym.key in frame.common_bind:
                    sym.bind_name = frame.common_bind[sym.key]
                    sym.specifiers = sym.specifiers | {"bind(c)"}

    def references(self, keep: Callable[[str], bool] | None = None) -> list[Reference]:
        """Calls, and names in executable statements that resolve to a variable or procedure
        (with `keep`: only the names it accepts, besides calls and names from other files)."""
        if not self.candidates_read:
            last: Statement | None = None
            text = b""
            where: _Map | None = None
            for st, lo, hi, scope in self.exec_pieces:
                if st is not last:
                    last, text, where = st, _blank_strings(st.text), _Map(_segments(self.src, st, self.fixed))
                assert where is not None
                self.collect_references(text, where, lo, hi, scope)
            self.candidates_read = True
        refs: list[Reference] = []
        self.model.unresolved = []
        self.resolve_references(refs, keep)
        if keep is None:
            self.candidates = []
        return refs

    def resolve_references(self, refs: list[Reference], keep: Callable[[str], bool] | None = None,
                           candidates: list[tuple[str, _Map, int, int, Scope, bool]] | None = None,
                           unresolved: list[Reference] | None = None) -> None:
        """Keep the names that resolve to a variable or procedure (calls always), in source order;
        of `candidates` (the builder's) and into `unresolved` (the model's) the others that other
        files may define."""
        tables: dict[int, dict[str, list[Symbol]]] = {}
        resolved: dict[tuple[str, int], bool] = {}
        wanted = PROCEDURE_KINDS | {VARIABLE}

        def table(scope: Scope) -> dict[str, list[Symbol]]:
            tab = tables.get(id(scope))
            if tab is None:
                tab = {}
                for s in scope.symbols:
                    tab.setdefault(s.key, []).append(s)
                tables[id(scope)] = tab
            return tab

        def known(key: str, scope: Scope) -> bool:
            hit = resolved.get((key, id(scope)))
            if hit is None:
                hit = any(h.kind in wanted for h in self.lookup(key, scope, table))
                resolved[(key, id(scope))] = hit
            return hit

        src = self.src
        # target regions: (start, end, directive index), read here (only references need them)
        directives = self.directives
        targets = sorted((ext[0], ext[1], i) for i, ext in self.extents.items()
                         if i < len(directives) and is_target_region(directives[i]))
        next_target = 0
        open_targets: list[tuple[int, int]] = []   # (end, directive index), innermost last
        external: dict[int, bool] = {}
        if unresolved is None:
            unresolved = self.model.unresolved
        for key, where, lo, hi, scope, call in self.candidates if candidates is None else candidates:
            if keep is not None and not call and not keep(key):
                if id(scope) not in external:
                    external[id(scope)] = any(u not in self.modules for s in scope.ancestors() for u in s.uses)
                if not external[id(scope)]:
                    continue   # a name the caller does not want, and no other file may define it
            unknown = not call and not known(key, scope)
            if unknown:
                # a name the file cannot resolve may be a variable of a module another file defines
                if id(scope) not in external:
                    external[id(scope)] = any(u not in self.modules for s in scope.ancestors() for u in s.uses)
                if not external[id(scope)]:
                    continue
            span = (where(lo), where(hi - 1) + 1)
            if not call and src[span[1]:span[1] + 1] in (b"(", b" ", b"\t") and \
                    src[span[1]:span[1] + 64].lstrip(b" \t")[:1] == b"(":
                # `f(x)` naming a function is a call as much as `call s(x)` is
                call = any(h.kind in PROCEDURE_KINDS for h in self.lookup(key, scope, table))
            # target regions nest (or follow each other): a sweep in source order finds the innermost
            while open_targets and open_targets[-1][0] <= span[0]:
                open_targets.pop()
            while next_target < len(targets) and targets[next_target][0] <= span[0]:
                start, end, index = targets[next_target]
                next_target += 1
                while open_targets and open_targets[-1][0] <= start:
                    open_targets.pop()
                if end > span[0]:
                    open_targets.append((end, index))
            while open_targets and open_targets[-1][0] <= span[0]:
                open_targets.pop()
            name = src[span[0]:span[1]].decode("utf-8", "replace")
            (unresolved if unknown else refs).append(Reference(
                name if name.lower() == key else key, key, span, scope, call,
                open_targets[-1][1] if open_targets else None))

    def lookup(self, key: str, scope: Scope, table: Callable[[Scope], dict[str, list[Symbol]]]) -> list[Symbol]:
        """Declarations of `key` seen from `scope`: host association, then modules of this file it uses."""
        for s in scope.ancestors():
            hits = table(s).get(key)
            if hits:
                return hits
        for s in scope.ancestors():
            for used in s.uses:
                module = self.modules.get(used)
                if module is not None:
                    hits = table(module).get(key)
                    if hits:
                        return hits
        return []


def build_fortran_model(document: Document, directives: list[Directive], structure: Structure) -> FileModel:
    """The program model of a Fortran file (free or fixed form). Never raises."""
    builder = _Builder(document, directives, structure)
    try:
        return builder.run()
    except Exception:
        builder.model.complete = False
        return builder.model


_INTRINSIC_TYPE = re.compile(r"(?:integer|real|complex|logical|character|doubleprecision|doublecomplex|byte)\b")
_DERIVED_TYPE = re.compile(r"(?:type|class)\(([a-z_]\w*)\)$")


def declared_c_ptr(symbol: Symbol, defined_here: Callable[[str], bool]) -> bool | None:
    """Whether a Fortran variable's type declaration makes it `type(c_ptr)`.

    False for an intrinsic type or a derived type defined in this file (`defined_here(name)`);
    None when the model cannot tell: implicit typing, or a type from elsewhere (which may be
    c_ptr renamed by a USE)."""
    text = symbol.type_text.replace(" ", "")
    if not text:
        return None
    if _INTRINSIC_TYPE.match(text):
        return False
    m = _DERIVED_TYPE.match(text)
    if m is None:
        return None
    if m.group(1) == "c_ptr":
        return True
    return False if defined_here(m.group(1)) else None



_PLAIN, _ASSIGNMENT = "plain", "assignment"


def _assigns_to_a_name(text: bytes) -> bool:
    """Whether a whole statement's text assigns to a name (not an array element: that may be a
    statement function), as `_Builder.piece` reads it."""
    text = _blank_strings(text)
    a = _assignment(text, 0, len(text)) if b";" not in text and b"=" in text else None
    return a is not None and not a[2]


def plain(text: bytes) -> bool:
    """Whether a statement of an execution part (its scanner text), not after CONTAINS, is one
    the builder keeps for references without reading it (`_Builder.run`'s fast path)."""
    return (not text or text[0] not in _NEEDS_READING_FIRST or _NEEDS_READING.match(text) is None) \
        and _NOT_PLAIN.search(text) is None


def _splice(refs: list[Reference], span: Span, fresh: list[Reference]) -> None:
    """Replace the references (in source order) that start inside `span` by `fresh`."""
    lo = bisect_left(refs, span[0], key=lambda r: r.span[0])
    hi = bisect_left(refs, span[1], lo, key=lambda r: r.span[0])
    refs[lo:hi] = fresh


# -- implicit typing and SAVE of a scoping unit (read from its statements on demand) ------------
_IMPLICIT_NONE = re.compile(rb"implicit\s*none\s*(?:\((.*)\))?\s*$")


def _own_specification(statements: list[Statement], model: FileModel, scope: Scope) -> list[Statement]:
    """The statements of the specification part of `scope` itself (not of an interface body,
    derived type or other scope nested in it)."""
    part = scope.spec_part
    if part is None:
        return []
    lo = bisect_left(statements, part[0], key=lambda s: s.start)
    hi = bisect_left(statements, part[1], lo, key=lambda s: s.start)
    return [st for st in statements[lo:hi] if model.scope_at(st.start, expand=False) is scope]


def implicit_none(statements: list[Statement], model: FileModel, scope: Scope) -> bool | None:
    """Whether an IMPLICIT NONE (with TYPE, or with no list) in `scope`'s own specification part
    turns implicit typing off there: True, False (no such statement, or IMPLICIT NONE (EXTERNAL)
    alone), None when an IMPLICIT NONE statement cannot be read."""
    found: bool | None = False
    for st in _own_specification(statements, model, scope):
        m = _IMPLICIT_NONE.match(st.text.strip())
        if m is None:
            if st.text.startswith(b"implicit") and b"none" in st.text:
                found = None   # a form this reader does not know: unsure
            continue
        specs = {w.strip() for w in m.group(1).split(b",")} if m.group(1) is not None else set()
        if not specs or specs == {b""} or b"type" in specs:
            return True
        if not specs <= {b"external"}:
            found = None
    return found


def saves_all(statements: list[Statement], model: FileModel, scope: Scope) -> bool:
    """Whether `scope`'s own specification part has a SAVE statement without a list (every local
    variable, implicitly typed ones too, is SAVE)."""
    return any(st.text.strip() == b"save" for st in _own_specification(statements, model, scope))
