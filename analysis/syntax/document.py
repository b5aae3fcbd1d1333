"""Source languages, documents and the one place where positions are converted.

Internally every range is a pair of UTF-8 byte offsets into the document's source,
because that is what tree-sitter works in. LSP speaks (line, character) where the
character unit is negotiated (UTF-16 by default); the CLI prints code points.
`LineIndex` converts between all of them, and nothing else in the project does.
"""
from __future__ import annotations

import enum
import os
import re
import sys
from bisect import bisect_right
from typing import TYPE_CHECKING, Any, Literal

from . import reads
from .records import dataclass
from .tables import hide_tables, same_tables, spans_after_edit, table_spans

if TYPE_CHECKING:  # tree-sitter is imported lazily: fixed-form Fortran never needs it
    import tree_sitter

Encoding = Literal["utf-8", "utf-16", "utf-32"]
Span = tuple[int, int]  # [start, end) in UTF-8 bytes


class Language(enum.Enum):
    C = "c"
    CPP = "cpp"
    FORTRAN = "fortran"              # free form
    FORTRAN_FIXED = "fortran-fixed"  # fixed form: line scanner, no tree

    @property
    def is_fortran(self) -> bool:
        return self in (Language.FORTRAN, Language.FORTRAN_FIXED)

    @property
    def comment_prefix(self) -> str:
        return "!" if self.is_fortran else "//"


# Case matters for ".C" (C++) and ".F"/".F90" (preprocessed Fortran, same form as lower case).
_EXTENSIONS: dict[str, Language] = {
    ".c": Language.C, ".h": Language.C,
    ".C": Language.CPP, ".cpp": Language.CPP, ".cc": Language.CPP, ".cxx": Language.CPP,
    ".c++": Language.CPP, ".hpp": Language.CPP, ".hh": Language.CPP, ".hxx": Language.CPP,
    ".h++": Language.CPP,
}
for _ext in ("f90", "f95", "f03", "f08", "f18"):
    _EXTENSIONS["." + _ext] = _EXTENSIONS["." + _ext.upper()] = Language.FORTRAN
for _ext in ("f", "for", "ftn", "f77"):
    _EXTENSIONS["." + _ext] = _EXTENSIONS["." + _ext.upper()] = Language.FORTRAN_FIXED

_LANGUAGE_IDS: dict[str, Language] = {
    "c": Language.C,
    "cpp": Language.CPP, "c++": Language.CPP, "cuda-cpp": Language.CPP, "objective-cpp": Language.CPP,
    "fortranfreeform": Language.FORTRAN, "fortran90": Language.FORTRAN, "fortran_free": Language.FORTRAN,
    "fortranfixedform": Language.FORTRAN_FIXED, "fortran_fixed-form": Language.FORTRAN_FIXED,
    "fortran_fixed": Language.FORTRAN_FIXED,
}

SOURCE_EXTENSIONS: frozenset[str] = frozenset(_EXTENSIONS)


def language_for_path(path: str | os.PathLike[str]) -> Language | None:
    """The language of a file by its extension, or None when it is not a source file."""
    suffix = os.path.splitext(os.fspath(path))[1]
    if suffix in _EXTENSIONS:
        return _EXTENSIONS[suffix]
    return _EXTENSIONS.get(suffix.lower())


def language_for_id(language_id: str, path: str | os.PathLike[str] | None = None) -> Language | None:
    """The language for an LSP language id; the generic "fortran" id decides the form by extension."""
    lang = _LANGUAGE_IDS.get(language_id.lower())
    if lang is not None:
        return lang
    by_path = language_for_path(path) if path is not None else None
    if language_id.lower() == "fortran":
        return by_path if by_path is not None and by_path.is_fortran else Language.FORTRAN
    return by_path


TREE = "tree"   # the structure name of a read of a document's syntax tree
_parsers: dict[Language, tree_sitter.Parser] = {}


def parser_for(language: Language) -> tree_sitter.Parser | None:
    """A cached tree-sitter parser, or None for fixed-form Fortran (the grammar is free-form only)."""
    if language is Language.FORTRAN_FIXED:
        return None
    parser = _parsers.get(language)
    if parser is None:
        import tree_sitter
        package = {Language.C: "tree_sitter_c", Language.CPP: "tree_sitter_cpp"}.get(language, "tree_sitter_fortran")
        parser = _parsers[language] = tree_sitter.Parser(tree_sitter.Language(_grammar(package).language()))
    return parser


_queries: dict[tuple[Language, str], tree_sitter.Query] = {}


def query(language: Language, pattern: str) -> tree_sitter.Query:
    """A cached compiled tree-sitter query of the language's grammar (not fixed-form Fortran)."""
    q = _queries.get((language, pattern))
    if q is None:
        import tree_sitter
        parser = parser_for(language)
        assert parser is not None and parser.language is not None
        q = _queries[(language, pattern)] = tree_sitter.Query(parser.language, pattern)
    return q


def parse_text(parser: tree_sitter.Parser, language: Language, source: bytes,
               edited: tree_sitter.Tree | None = None, old: bytes = b"",
               edit: tuple[int, int, int] = (0, 0, 0)) -> tree_sitter.Tree:
    """The tree of `source`, with C/C++ tables of numbers hidden (`tables`). `edited`: a tree of
    the text `old`, edited by `edit` (start, old end, new end) to be reused where it can; it is
    not when the edit changed which spans are hidden (the tree would be of another text)."""
    if not language.is_fortran:
        if edited is not None:
            before = table_spans(old)
            spans = spans_after_edit(before, old, source, *edit)
            if not same_tables(before, spans, *edit):
                edited = None
        else:
            spans = table_spans(source)
        source = hide_tables(source, spans)
    return parser.parse(source, edited) if edited is not None else parser.parse(source)


def _grammar(package: str) -> Any:
    """The grammar wheel's compiled binding, loaded without the package's `__init__`.

    That `__init__` imports `importlib.resources` (for query files omp-lsp does not use), which
    costs more start-up time than the whole binding; fall back to the import if the file is not
    where wheels put it.
    """
    import importlib.machinery
    for entry in sys.path:
        folder = os.path.join(entry or ".", package)
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if name.startswith("_binding.") and name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                fullname = f"{package}._binding"
                path = os.path.join(folder, name)
                loader = importlib.machinery.ExtensionFileLoader(fullname, path)
                module = loader.create_module(importlib.machinery.ModuleSpec(fullname, loader, origin=path))
                loader.exec_module(module)
                return module
        break
    import importlib
    return importlib.import_module(package)


_NEWLINE = re.compile(b"\n")


class LineIndex:
    """Line starts of a UTF-8 source and conversions between bytes and (line, column)."""

    __slots__ = ("source", "starts")

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.starts = [0]
        self.starts.extend(m.end() for m in _NEWLINE.finditer(source))

    @classmethod
    def edited(cls, source: bytes, other: LineIndex, start: int, old_end: int, new_end: int) -> LineIndex:
        """The index of `source`: `other`'s source with [start, old_end) replaced by the bytes
        [start, new_end) of `source`. Only the new text is searched for line ends; the lines
        after it keep theirs, moved (typing in a large file: no search of the whole text)."""
        index = cls.__new__(cls)
        index.source = source
        starts = other.starts
        first, last = other.line_of(start), other.line_of(old_end)
        delta = new_end - old_end
        middle = [m.end() for m in _NEWLINE.finditer(source, start, new_end)]
        if delta == 0 and first == last and not middle:
            index.starts = starts
        else:
            index.starts = moved = starts[:first + 1]
            moved.extend(middle)
            # (map: a keystroke pays it for every line after the edit)
            moved.extend(map(delta.__add__, starts[last + 1:]) if delta else starts[last + 1:])
        return index

    @classmethod
    def same_lines(cls, source: bytes, other: LineIndex) -> LineIndex:
        """The index of a source whose lines start where `other`'s do (an edit that kept every
        line's length): the line starts are shared, not searched for again."""
        index = cls.__new__(cls)
        index.source = source
        index.starts = other.starts
        return index

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def line_span(self, line: int) -> Span:
        """The bytes of a line without its line terminator."""
        start = self.starts[line]
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.source)
        if end > start and self.source[end - 1:end] == b"\r":
            end -= 1
        return start, end

    def position(self, offset: int, encoding: Encoding = "utf-16") -> tuple[int, int]:
        """(line, column) of a byte offset, 0-based, column in `encoding` units."""
        offset = max(0, min(offset, len(self.source)))
        line = self.line_of(offset)
        start = self.starts[line]
        return line, _units(self.source[start:offset], encoding)

    def offset(self, line: int, column: int, encoding: Encoding = "utf-16") -> int:
        """Byte offset of a (line, column); positions past the end of a line or file are clamped."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.source)
        start, end = self.line_span(line)
        raw = self.source[start:end]
        if raw.isascii():
            return start + max(0, min(column, len(raw)))
        if encoding == "utf-8":
            at = max(0, min(column, len(raw)))
            while 0 < at < len(raw) and 0x80 <= raw[at] < 0xC0:  # inside a character: its first byte
                at -= 1
            return start + at
        # surrogateescape: every byte that is not UTF-8 is one unit of one byte, so the
        # offset stays on its line (U+FFFD from "replace" would count 3 bytes for 1).
        text = raw.decode("utf-8", "surrogateescape")
        units = 0
        consumed = 0
        for ch in text:
            width = _char_units(ch, encoding)
            if units + width > column:
                break
            units += width
            consumed += len(ch.encode("utf-8", "surrogateescape"))
        return start + consumed

    def point(self, offset: int) -> tuple[int, int]:
        """tree-sitter point (row, byte column) of a byte offset."""
        line = self.line_of(offset)
        return line, offset - self.starts[line]


def _char_units(ch: str, encoding: Encoding) -> int:
    if encoding == "utf-16":
        return 2 if ord(ch) > 0xFFFF else 1
    if encoding == "utf-32":
        return 1
    return len(ch.encode("utf-8", "surrogateescape"))


def _units(raw: bytes, encoding: Encoding) -> int:
    if encoding == "utf-8" or raw.isascii():
        return len(raw)
    text = raw.decode("utf-8", "surrogateescape")  # as in LineIndex.offset
    if encoding == "utf-32":
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


@dataclass(frozen=True)
class ByteEdit:
    """One applied change in bytes: [start, old_end) of the old source became [start, new_end).
    `inert`: the syntax tree's structure did not change and the new text lies inside a comment or
    a `#pragma` line's text (C/C++; Fortran comment lines are judged from the text, see incremental)."""
    start: int
    old_end: int
    new_end: int
    inert: bool = False

    @property
    def delta(self) -> int:
        return self.new_end - self.old_end


@dataclass(frozen=True)
class TextEdit:
    """One LSP-style change: replace [start, end) given as (line, column) in `encoding` units.
    A None range replaces the whole text."""
    start: tuple[int, int] | None
    end: tuple[int, int] | None
    text: str


def decode_source(data: bytes) -> tuple[bytes, str | None]:
    """UTF-8 bytes to analyse, and a problem description when the input was not valid UTF-8."""
    try:
        data.decode("utf-8")
        return data, None
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        fixed = data.decode("utf-8", "replace").encode("utf-8")
        return fixed, f"not valid UTF-8 (byte 0x{data[err.start]:02x} on line {line}); invalid bytes read as U+FFFD"


class Document:
    """A source text with its tree-sitter tree (parsed on first use) and line index.

    `apply` performs an LSP range edit with `tree.edit` and an incremental reparse and
    returns the byte range the new text occupies, which the analysis uses to decide
    what to recompute (an edit inside a pragma or comment changes no tree structure).
    """

    def __init__(self, source: str | bytes, language: Language, version: int | None = None,
                 lines: LineIndex | None = None) -> None:
        self.language = language
        self.version = version
        self.source = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
        self.lines = lines if lines is not None else LineIndex(self.source)
        self._tree: tree_sitter.Tree | None = None
        self.last_change: ByteEdit | None = None   # what the last `apply` did
        # `_tree` was parsed from another text of the same structure, `tree_source` (directive_edit
        # hands it on: the program model's nodes are its nodes); see `refresh_tree`
        self.stale_tree = False
        self.tree_source: bytes | None = None
        # Edits in code the tree was left behind by (`tree_edit`): their texts are `tree_source`
        # then `behind_text`; empty when the tree is of `tree_source` with nothing after it.
        self.behind: list[ByteEdit] = []
        self.behind_text: bytes | None = None

    def snapshot(self) -> Document:
        """A copy that later edits of this document leave alone (an analysis keeps the text it read)."""
        refresh_tree(self)   # (edits applied without their tree: `apply(parse=False)`)
        copy = Document(self.source, self.language, self.version)
        copy.lines = self.lines
        tree = self.tree   # parsed here first: later edits of this document then reparse incrementally
        copy._tree = tree.copy() if tree is not None else None
        return copy

    @property
    def text(self) -> str:
        return self.source.decode("utf-8", "replace")

    def forget_tree(self) -> None:
        """Drop the tree (parsed again when next asked for): a document no one edits or reads
        keeps its text, not the tree's memory."""
        self._tree = None
        self.stale_tree = False
        self.behind, self.behind_text = [], None

    @property
    def tree(self) -> tree_sitter.Tree | None:
        reads.structure(TREE, self)   # (a rule that reads it may read the code inside constructs)
        if self._tree is None:
            parser = parser_for(self.language)
            if parser is not None:
                self._tree = parse_text(parser, self.language, self.source)
        return self._tree

    def apply(self, edit: TextEdit, encoding: Encoding = "utf-16", version: int | None = None,
              parse: bool = True) -> Span:
        """`parse=False`: the text and lines only; the tree stays that of an earlier text
        (`stale_tree`), to be brought over several edits at once (`tree_edit`, `refresh_tree`)."""
        new = edit.text.encode("utf-8", "surrogatepass")
        if edit.start is None or edit.end is None:
            self.last_change = ByteEdit(0, len(self.source), len(new))
            self.source = new
            self.lines = LineIndex(new)
            self._tree = None
            self.stale_tree, self.behind, self.behind_text = False, [], None
            self.version = version if version is not None else self.version
            return 0, len(new)
        start = self.lines.offset(*edit.start, encoding)
        old_end = max(start, self.lines.offset(*edit.end, encoding))
        start_point = self.lines.point(start)
        old_end_point = self.lines.point(old_end)
        if parse:
            refresh_tree(self)
        elif self._tree is not None and not self.stale_tree:
            self.stale_tree, self.tree_source = True, self.source
        before = self.source
        self.source = before[:start] + new + before[old_end:]
        new_end = start + len(new)
        self.lines = LineIndex.edited(self.source, self.lines, start, old_end, new_end)
        if self._tree is not None and not self.stale_tree:
            self._tree.edit(
                start_byte=start, old_end_byte=old_end, new_end_byte=new_end,
                start_point=start_point, old_end_point=old_end_point,
                new_end_point=self.lines.point(new_end),
            )
            parser = parser_for(self.language)
            assert parser is not None
            old_tree = self._tree
            self._tree = parse_text(parser, self.language, self.source, old_tree, before, (start, old_end, new_end))
            inert = not old_tree.changed_ranges(self._tree) and inside_comment_or_pragma(self._tree, start, new_end)
        else:
            inert = False
        self.last_change = ByteEdit(start, old_end, new_end, inert)
        if version is not None:
            self.version = version
        return start, new_end

    def slice(self, span: Span) -> str:
        return self.source[span[0]:span[1]].decode("utf-8", "replace")

    def tree_edit(self, old: bytes, new: bytes, edit: ByteEdit) -> ByteEdit:
        """Bring a tree left behind by `apply(parse=False)` over one edit (or several in a row as
        one) from its text `old` to `new` (an earlier text than `source`, or `source`): `edit`
        with `inert` judged as `apply` judges it. A tree not of `old` is refreshed instead (the
        edit is then not inert)."""
        parser = parser_for(self.language)
        if self._tree is not None and self._left_behind(old, new, edit):
            return ByteEdit(edit.start, edit.old_end, edit.new_end)
        if not self.stale_tree or self._tree is None or self.tree_source is not old or self.behind or parser is None:
            refresh_tree(self)
            return ByteEdit(edit.start, edit.old_end, edit.new_end)
        old_tree = self._tree
        if new is self.source:   # (the points from the line index: counting lines costs per keystroke)
            start_point, new_end_point = self.lines.point(edit.start), self.lines.point(edit.new_end)
        else:
            start_point, new_end_point = _point(new, edit.start), _point(new, edit.new_end)
        old_end_point = _point_after(old, edit.start, start_point, edit.old_end)
        in_pragma = _in_pragma_text(old_tree, old, new, edit)   # (read before the tree is edited)
        old_tree.edit(start_byte=edit.start, old_end_byte=edit.old_end, new_end_byte=edit.new_end,
                      start_point=start_point, old_end_point=old_end_point, new_end_point=new_end_point)
        if in_pragma:
            # The edited tree is the new text's tree as it is: no reparse (a reparse of a large
            # file costs several ms, most of a keystroke's time in a directive).
            if new is self.source:
                self.stale_tree, self.tree_source = False, None
            else:
                self.tree_source = new
            return ByteEdit(edit.start, edit.old_end, edit.new_end, True)
        self._tree = parse_text(parser, self.language, new, old_tree, old, (edit.start, edit.old_end, edit.new_end))
        if new is self.source:
            self.stale_tree, self.tree_source = False, None
        else:
            self.tree_source = new
        return ByteEdit(edit.start, edit.old_end, edit.new_end, not old_tree.changed_ranges(self._tree)
                        and inside_comment_or_pragma(self._tree, edit.start, edit.new_end))

    def _left_behind(self, old: bytes, new: bytes, edit: ByteEdit) -> bool:
        """Leave the tree where it is over an edit in code that cannot be inert (`ByteEdit.inert`):
        it types and removes no character that starts or ends a comment, string, preprocessor
        line or continuation, at a place the tree (at its text, moved over the edits it was left
        behind by before) has in no comment nor preprocessor line. Nothing the server reads needs
        the tree then (a reparse of a large file costs several ms a keystroke, and the analysis
        parses its own text); it is brought over every edit at once when one needs it."""
        tree = self._tree
        if tree is None or tree.root_node.has_error:
            return False
        if self.behind:
            if self.behind_text is not old:
                return False
        elif self.stale_tree and self.tree_source is not old:
            return False
        if not _plain_code(new[edit.start:edit.new_end]) or not _plain_code(old[edit.start:edit.old_end]):
            return False
        start, end = _before_edits(self.behind, edit.start), _before_edits(self.behind, edit.old_end)
        if start is None or end is None or _in_comment_or_preprocessor(tree, start, end):
            return False
        if not self.behind:
            self.stale_tree, self.tree_source = True, old
        self.behind.append(edit)
        self.behind_text = new
        return True

    def tree_unchanged(self, old: bytes, new: bytes) -> None:
        """Like `tree_edit` for edits that took the text `old` to an equal one, `new`: a tree left
        behind at `old` is one of `new` as it is (no reparse)."""
        if self.behind:
            if self.behind_text is old:
                self.behind_text = new
            return
        if self.stale_tree and self.tree_source is old:
            if new is self.source:
                self.stale_tree, self.tree_source = False, None
            else:
                self.tree_source = new


# What an edit left behind by the tree may type or remove (tree_edit): no character that starts
# or ends a comment, string, preprocessor line or continuation, in C, C++ or free-form Fortran.
_PLAIN_CODE = re.compile(rb"[A-Za-z0-9_ \t.+\-=<>()\[\]{},:%^~|?]*")


def _plain_code(text: bytes) -> bool:
    return _PLAIN_CODE.fullmatch(text) is not None


def _before_edits(edits: list[ByteEdit], offset: int) -> int | None:
    """`offset` of the text after `edits` in the text before them (None: inside a replaced span)."""
    for e in reversed(edits):
        if offset >= e.new_end:
            offset -= e.delta
        elif offset > e.start:
            return None
    return offset


def _in_comment_or_preprocessor(tree: tree_sitter.Tree, start: int, end: int) -> bool:
    """Whether a node holding [start, end] is a comment or a preprocessor line (at the edges of
    one too: typing next to it may join it)."""
    for at in {start, end, max(0, start - 1)}:
        node: tree_sitter.Node | None = tree.root_node.descendant_for_byte_range(at, min(at + 1, end + 1))
        while node is not None:
            if node.type == "comment" or node.type.startswith("preproc"):
                return True
            node = node.parent
    return False


_PRAGMA_DIRECTIVE = re.compile(rb"#[ \t]*pragma[ \t]")
_NOT_IN_ARGUMENT = re.compile(rb"[/\\\r\n]")


def _in_pragma_text(tree: tree_sitter.Tree, old: bytes, new: bytes, edit: ByteEdit) -> bool:
    """The edit lies in the text of a one-line `#pragma` (C/C++) after its first byte, and that
    text, before and after, holds nothing that could end it or start a comment there (no `/`,
    backslash or line end): the grammar reads such a text as one token to the end of the line, so
    the tree only edited (`Tree.edit`) is that of the new text, structure and extents alike."""
    if tree.root_node.has_error:
        return False   # (a reparse anywhere may recover from an error otherwise, and take in the pragma)
    node = tree.root_node.descendant_for_byte_range(edit.start, edit.old_end)
    if node is not None and node.type == "preproc_call":   # (at the text's end: the line's node)
        node = node.child_by_field_name("argument")
    if node is None or node.type != "preproc_arg" or not node.start_byte < edit.start <= edit.old_end <= node.end_byte:
        return False
    line = old.rfind(b"\n", 0, node.start_byte) + 1
    call = node.parent
    if call is None or call.type != "preproc_call" or old[line:call.start_byte].strip(b" \t") \
            or _PRAGMA_DIRECTIVE.match(old, call.start_byte, node.start_byte) is None:
        return False
    old_end = node.end_byte
    if old[old_end:old_end + 1] not in (b"\n", b"") or old[max(0, line - 3):line].rstrip(b"\r\n").endswith(b"\\"):
        return False   # (the token runs to the line end; a line continuing another is the other's)
    new_end = old_end + edit.new_end - edit.old_end
    return _NOT_IN_ARGUMENT.search(old, node.start_byte, old_end) is None \
        and _NOT_IN_ARGUMENT.search(new, node.start_byte, new_end) is None \
        and new[new_end:new_end + 1] in (b"\n", b"")


def _point(source: bytes, offset: int) -> tuple[int, int]:
    """(row, byte column) of an offset, counted in the text (for a text with no line index)."""
    return source.count(b"\n", 0, offset), offset - (source.rfind(b"\n", 0, offset) + 1)


def _point_after(source: bytes, start: int, start_point: tuple[int, int], offset: int) -> tuple[int, int]:
    """The point of `offset`, counted on from the point of an offset `start` before it."""
    rows = source.count(b"\n", start, offset)
    if not rows:
        return start_point[0], start_point[1] + offset - start
    return start_point[0] + rows, offset - (source.rfind(b"\n", start, offset) + 1)


def refresh_tree(document: Document) -> None:
    """Give a document whose tree is stale the tree of its own text: the stale one edited where
    the texts differ (inside directive lines) and reparsed, or (with syntax errors, see
    parse_from) a fresh parse. The old tree stays with whoever holds its nodes."""
    if not document.stale_tree or document._tree is None or document.tree_source is None:
        return
    parser = parser_for(document.language)
    if parser is None:
        return
    old = document.tree_source
    # (the texts have the same lines unless their lengths differ, or edits in code came between)
    reparsed = _reparsed(parser, document._tree, old, LineIndex(old) if len(old) != len(document.source)
                         or document.behind else document.lines, document)
    document.behind, document.behind_text = [], None
    document._tree = reparsed if not reparsed.root_node.has_error \
        else parse_text(parser, document.language, document.source)
    document.stale_tree, document.tree_source = False, None


def parse_from(document: Document, previous: Document, span: tuple[int, int, int] | None = None) -> None:
    """Give `document` (not parsed yet) its tree by reparsing `previous`'s incrementally: the two
    texts differ in one span, found from their common start and end. A whole-file analysis after
    an edit then costs a few ms of parsing, not a full parse. Nothing happens when `previous` has
    no tree of its own text, and a tree with syntax errors is not kept (the document is then parsed
    afresh when read): tree-sitter's error recovery can end differently when it reuses old nodes,
    and the analysis must read what a fresh parse reads. `span`: (start, old end, new end) of a
    span holding every difference, when the caller knows one (else it is found by comparing)."""
    refresh_tree(previous)
    if document._tree is not None or previous._tree is None or previous.stale_tree \
            or previous.language is not document.language:
        return
    parser = parser_for(document.language)
    if parser is None:
        return
    reparsed = _reparsed(parser, previous._tree, previous.source, previous.lines, document, span)
    if not reparsed.root_node.has_error:
        document._tree = reparsed


def _reparsed(parser: tree_sitter.Parser, tree: tree_sitter.Tree, old: bytes, old_lines: LineIndex,
              document: Document, span: tuple[int, int, int] | None = None) -> tree_sitter.Tree:
    """`tree` (of the text `old`) edited where `document`'s text differs from it (within `span`,
    when given), and reparsed."""
    start, old_end, new_end = changed_span(old, document.source) if span is None else span
    edited = tree.copy()
    edited.edit(start_byte=start, old_end_byte=old_end, new_end_byte=new_end, start_point=old_lines.point(start),
                old_end_point=old_lines.point(old_end), new_end_point=document.lines.point(new_end))
    return parse_text(parser, document.language, document.source, edited, old, (start, old_end, new_end))


def changed_span(old: bytes, new: bytes) -> tuple[int, int, int]:
    """(start, old end, new end) of the one span that `new` replaces in `old`: all before `start`
    and all after the ends is the same in both."""
    start = _common_length(memoryview(old), memoryview(new))
    room = min(len(old), len(new)) - start
    tail = _common_length(memoryview(old)[len(old) - room:][::-1], memoryview(new)[len(new) - room:][::-1])
    return start, len(old) - tail, len(new) - tail


def _common_length(a: memoryview, b: memoryview) -> int:
    """The length of the common start of two byte strings (compared in halves: C speed)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def inside_comment_or_pragma(tree: tree_sitter.Tree, start: int, end: int) -> bool:
    """The smallest node holding [start, end) is a comment or the text of a `#pragma` line."""
    node = tree.root_node.descendant_for_byte_range(start, end)
    if node is None:
        return False
    if node.type == "comment":
        return True
    if node.type == "preproc_arg":
        node = node.parent
    if node is None or node.type != "preproc_call":
        return False
    directive = node.child_by_field_name("directive")
    return directive is not None and directive.text is not None and \
        directive.text.lstrip(b"#").strip() == b"pragma" and node.start_byte < start
