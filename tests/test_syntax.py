"""Languages, position conversions and incremental documents (analysis/syntax.py)."""
from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis.syntax.document import (
    ByteEdit,
    Document,
    Language,
    LineIndex,
    TextEdit,
    decode_source,
    language_for_id,
    language_for_path,
    parse_from,
    refresh_tree,
)

C, CPP, FREE, FIXED = Language.C, Language.CPP, Language.FORTRAN, Language.FORTRAN_FIXED
ENCODINGS = ("utf-8", "utf-16", "utf-32")


# ---------------------------------------------------------------- helpers

def units(text: str, encoding: str) -> int:
    """Length of `text` in `encoding` code units, computed without LineIndex."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def expected_position(text: str, index: int, encoding: str) -> tuple[int, int]:
    """(line, column) of code point `index` of `text`, lines split at '\\n' only."""
    line = text.count("\n", 0, index)
    line_start = text.rfind("\n", 0, index) + 1
    return line, units(text[line_start:index], encoding)


def byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8"))


def after_cr_terminator(text: str, i: int) -> bool:
    """Whether index `i` lies after the '\\r' of a line terminator: inside '\\r\\n', or after a
    final '\\r' (LineIndex treats both as terminators; a '\\r' elsewhere is line content)."""
    return i > 0 and text[i - 1] == "\r" and text[i:i + 1] in ("\n", "")


def content_boundaries(text: str) -> list[int]:
    """Code point indexes inside a line's content or at its end, not inside its terminator."""
    return [i for i in range(len(text) + 1) if not after_cr_terminator(text, i)]


def tree_shape(node) -> tuple:
    """Types, byte ranges and points of a whole tree: what must match after an incremental reparse."""
    return (node.type, node.start_byte, node.end_byte, tuple(node.start_point), tuple(node.end_point),
            node.has_error, tuple(tree_shape(child) for child in node.children))


def assert_same_as_fresh_parse(doc: Document) -> None:
    fresh = Document(doc.source, doc.language)
    if fresh.tree.root_node.has_error:
        # tree-sitter's error recovery may choose differently when it reuses an old tree
        # (seen with C++ templates); only the extent of the tree must agree then.
        assert doc.tree.root_node.end_byte == fresh.tree.root_node.end_byte == len(doc.source)
        return
    assert str(doc.tree.root_node) == str(fresh.tree.root_node)
    assert tree_shape(doc.tree.root_node) == tree_shape(fresh.tree.root_node)


# ---------------------------------------------------------------- languages by path

@pytest.mark.parametrize("path, language", [
    ("main.c", C), ("include/api.h", C), ("/abs/dir/x.c", C),
    ("a.cpp", CPP), ("a.cc", CPP), ("a.cxx", CPP), ("a.c++", CPP),
    ("a.hpp", CPP), ("a.hh", CPP), ("a.hxx", CPP), ("a.h++", CPP), ("a.C", CPP),
    ("a.CPP", CPP), ("a.Cc", CPP), ("A.HPP", CPP),
    ("m.f90", FREE), ("m.F90", FREE), ("m.f95", FREE), ("m.F95", FREE),
    ("m.f03", FREE), ("m.F03", FREE), ("m.f08", FREE), ("m.F08", FREE), ("m.f18", FREE),
    ("old.f", FIXED), ("old.F", FIXED), ("old.for", FIXED), ("old.FOR", FIXED),
    ("old.ftn", FIXED), ("old.FTN", FIXED), ("old.f77", FIXED), ("old.F77", FIXED),
    ("a.b.c", C), ("dir.f90/main.cpp", CPP), ("archive.tar.f", FIXED),
])
def test_language_for_path(path: str, language: Language) -> None:
    assert language_for_path(path) is language


@pytest.mark.parametrize("path", [
    "README", "Makefile", "notes.txt", "script.py", "kernel.cu", "a.rs", "a.c.bak",
    "dir.c/file", ".c", "a.", "a.f9", "a.fortran", "",
])
def test_language_for_path_unknown(path: str) -> None:
    assert language_for_path(path) is None


@pytest.mark.parametrize("path", [Path("src/x.f90"), PurePosixPath("src/x.f90")])
def test_language_for_path_accepts_path_objects(path) -> None:
    assert language_for_path(path) is FREE


@pytest.mark.parametrize("path, expected", [
    ("x.c", False), ("x.cpp", False), ("x.f90", True), ("x.f", True),
])
def test_is_fortran_and_comment_prefix(path: str, expected: bool) -> None:
    language = language_for_path(path)
    assert language.is_fortran is expected
    assert language.comment_prefix == ("!" if expected else "//")


# ---------------------------------------------------------------- languages by LSP id

@pytest.mark.parametrize("language_id, path, language", [
    ("c", None, C), ("c", "x.cpp", C), ("C", None, C),
    ("cpp", None, CPP), ("cpp", "x.h", CPP), ("c++", None, CPP), ("cuda-cpp", "k.cu", CPP),
    ("objective-cpp", None, CPP),
    # The generic "fortran" id takes the form from the extension.
    ("fortran", "x.f", FIXED), ("fortran", "x.F", FIXED), ("fortran", "x.for", FIXED),
    ("fortran", "x.f90", FREE), ("fortran", "x.F90", FREE), ("fortran", "x.f08", FREE),
    ("fortran", None, FREE), ("fortran", "x.c", FREE), ("fortran", "noext", FREE),
    ("Fortran", "x.f", FIXED),
    # Specific ids win over the extension.
    ("FortranFreeForm", None, FREE), ("FortranFreeForm", "x.f", FREE), ("fortranfreeform", "x.f90", FREE),
    ("fortran90", None, FREE), ("fortran_free", None, FREE),
    ("FortranFixedForm", None, FIXED), ("FortranFixedForm", "x.f90", FIXED),
    ("fortran_fixed-form", None, FIXED), ("fortran_fixed", None, FIXED),
    # Unknown ids fall back to the path.
    ("plaintext", "x.c", C), ("plaintext", "x.f", FIXED), ("plaintext", None, None), ("python", "x.py", None),
])
def test_language_for_id(language_id: str, path: str | None, language: Language | None) -> None:
    assert language_for_id(language_id, path) is language


# ---------------------------------------------------------------- LineIndex

SAMPLES = {
    "ascii": "int x;\nint y;\n",
    "accents": "é = 'café'\nnaïve\n",
    "cjk": "日本語 = 1\n  x 日本\n",
    "emoji": "😀x😀\n😀😀 y\nend",
    "mixed": "a é 日本 😀 b\n\n😀\nz",
    "crlf": "first é\r\nsecond 😀\r\n\r\nlast",
    "mixed_endings": "a\r\nb 😀\nc\r\n",
    "no_newline": "😀",
    "empty": "",
    "only_newlines": "\n\n\r\n",
    "lone_cr": "a\rb😀\nc",
}


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_position_and_offset_round_trip(name: str, encoding: str) -> None:
    text = SAMPLES[name]
    index = LineIndex(text.encode("utf-8"))
    for i in content_boundaries(text):
        offset = byte_offset(text, i)
        expected = expected_position(text, i, encoding)
        assert index.position(offset, encoding) == expected, (i, offset)
        assert index.offset(*expected, encoding) == offset, (i, expected)


@pytest.mark.parametrize("text, line, column, encoding, offset", [
    # 😀 is 4 UTF-8 bytes, 2 UTF-16 units, 1 UTF-32 unit.
    ("😀x", 0, 1, "utf-32", 4), ("😀x", 0, 2, "utf-16", 4), ("😀x", 0, 4, "utf-8", 4),
    ("😀x", 0, 2, "utf-32", 5), ("😀x", 0, 3, "utf-16", 5), ("😀x", 0, 5, "utf-8", 5),
    # é is 2 bytes and one unit in UTF-16 and UTF-32.
    ("éa", 0, 1, "utf-16", 2), ("éa", 0, 1, "utf-32", 2), ("éa", 0, 2, "utf-8", 2),
    # 日 and 本 are 3 bytes each.
    ("日本x", 0, 2, "utf-16", 6), ("日本x", 0, 2, "utf-32", 6), ("日本x", 0, 6, "utf-8", 6),
    ("ab\n😀c", 1, 2, "utf-16", 7), ("ab\n😀c", 1, 1, "utf-32", 7),
])
def test_offset_examples(text: str, line: int, column: int, encoding: str, offset: int) -> None:
    assert LineIndex(text.encode()).offset(line, column, encoding) == offset
    assert LineIndex(text.encode()).position(offset, encoding) == (line, column)


@pytest.mark.parametrize("text, line, column, encoding, offset", [
    # Past the end of a line: clamped to the end of the line's content (before '\r\n').
    ("abc\ndef", 0, 99, "utf-16", 3),
    ("abc\r\ndef", 0, 99, "utf-16", 3),
    ("abc\r\ndef", 0, 4, "utf-8", 3),
    ("é\r\nx", 0, 2, "utf-16", 2),
    ("😀\nx", 0, 7, "utf-32", 4),
    ("abc\ndef", 1, 50, "utf-8", 7),
    # Past the last line: the end of the text.
    ("abc\ndef", 2, 0, "utf-16", 7),
    ("abc\ndef", 99, 99, "utf-32", 7),
    ("abc\n", 1, 5, "utf-16", 4),
    ("", 0, 3, "utf-16", 0),
    ("", 5, 0, "utf-8", 0),
    # Negative values clamp to the start.
    ("abc\ndef", -1, 2, "utf-16", 0),
    ("abc\ndef", 1, -4, "utf-16", 4),
    ("é\ndef", 0, -1, "utf-16", 0),
    # Inside a character: rounded down to the character's first byte.
    ("😀x", 0, 1, "utf-16", 0),
    ("a😀x", 0, 2, "utf-16", 1),
    ("é", 0, 1, "utf-8", 0),
    ("a日b", 0, 2, "utf-8", 1),
    ("a日b", 0, 3, "utf-8", 1),
    ("😀", 0, 3, "utf-8", 0),
])
def test_offset_clamps(text: str, line: int, column: int, encoding: str, offset: int) -> None:
    assert LineIndex(text.encode()).offset(line, column, encoding) == offset


@pytest.mark.parametrize("text, offset, expected", [
    ("abc\ndef", -3, (0, 0)),
    ("abc\ndef", 100, (1, 3)),
    ("abc\n", 100, (1, 0)),
    ("", 5, (0, 0)),
    ("😀\n😀", 100, (1, 2)),
])
def test_position_clamps(text: str, offset: int, expected: tuple[int, int]) -> None:
    assert LineIndex(text.encode()).position(offset) == expected


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_offset_never_leaves_its_line_with_invalid_utf8(encoding: str) -> None:
    # A LineIndex over bytes that are not UTF-8 must still map every column into its own line.
    source = b"\xff\xfeab\xe6\x97\ncd\xed\xa0\x80e\n"
    index = LineIndex(source)
    for line in range(index.line_count):
        start, end = index.line_span(line)
        for column in range(-1, 12):
            assert start <= index.offset(line, column, encoding) <= end


@pytest.mark.parametrize("text, spans", [
    ("a\nbc\n", [(0, 1), (2, 4), (5, 5)]),
    ("a\r\nbc\r\n", [(0, 1), (3, 5), (7, 7)]),
    ("\r\n", [(0, 0), (2, 2)]),
    ("x", [(0, 1)]),
    ("", [(0, 0)]),
    ("a\rb\n", [(0, 3), (4, 4)]),
])
def test_line_span_and_count(text: str, spans: list[tuple[int, int]]) -> None:
    index = LineIndex(text.encode())
    assert index.line_count == len(spans)
    assert [index.line_span(line) for line in range(index.line_count)] == spans


@pytest.mark.parametrize("offset, point", [(0, (0, 0)), (3, (0, 3)), (4, (1, 0)), (9, (1, 5))])
def test_point_is_row_and_byte_column(offset: int, point: tuple[int, int]) -> None:
    # "é日" is 5 bytes: tree-sitter columns are bytes, not characters.
    assert LineIndex("abc\né日\n".encode()).point(offset) == point


@settings(max_examples=200)
@given(st.text(alphabet=st.sampled_from(list("ab é日😀\n\r\t")), max_size=40), st.sampled_from(ENCODINGS))
def test_round_trip_property(text: str, encoding: str) -> None:
    index = LineIndex(text.encode("utf-8"))
    for i in content_boundaries(text):
        offset = byte_offset(text, i)
        position = index.position(offset, encoding)
        assert position == expected_position(text, i, encoding)
        assert index.offset(*position, encoding) == offset


@settings(max_examples=200)
@given(st.text(max_size=30), st.integers(-5, 40), st.integers(-5, 60), st.sampled_from(ENCODINGS))
def test_offset_is_always_in_range(text: str, line: int, column: int, encoding: str) -> None:
    source = text.encode("utf-8", "surrogatepass")
    index = LineIndex(source)
    offset = index.offset(line, column, encoding)
    assert 0 <= offset <= len(source)
    if 0 <= line < index.line_count:
        start, end = index.line_span(line)
        assert start <= offset <= end
    index.position(offset, encoding)  # never raises


# ---------------------------------------------------------------- decode_source

@pytest.mark.parametrize("data", [b"", b"int x;\n", "é 日本 😀\n".encode(), b"\x00\x01\n"])
def test_decode_source_valid(data: bytes) -> None:
    assert decode_source(data) == (data, None)


@pytest.mark.parametrize("data, byte, line", [
    (b"abc\xff\n", "0xff", 1),
    (b"a\nb\nc\xfe", "0xfe", 3),
    (b"x\n\xe6\x97", "0xe6", 2),          # a truncated 3-byte sequence at the end
    (b"\xc0\xaf", "0xc0", 1),             # overlong encoding
    (b"ok\n\xed\xa0\x80\n", "0xed", 2),   # an encoded surrogate
    (b"\x80", "0x80", 1),                 # a lone continuation byte
])
def test_decode_source_invalid(data: bytes, byte: str, line: int) -> None:
    fixed, problem = decode_source(data)
    assert problem is not None
    assert byte in problem and f"line {line}" in problem
    text = fixed.decode("utf-8")  # now valid
    assert "\ufffd" in text
    assert text.count("\n") == data.count(b"\n")  # lines are kept


def test_decode_source_then_document() -> None:
    fixed, _ = decode_source(b"#pragma omp parallel \xff\nint x;\n")
    doc = Document(fixed, C)
    assert doc.tree is not None
    assert doc.text.startswith("#pragma omp parallel \ufffd")


# ---------------------------------------------------------------- Document

def test_document_encodes_text_and_parses_lazily() -> None:
    doc = Document("int x; // é\n", C, version=3)
    assert doc.source == "int x; // é\n".encode()
    assert doc.version == 3
    assert doc._tree is None
    assert doc.tree is not None and doc.tree.root_node.type == "translation_unit"
    assert doc.slice((0, 3)) == "int"


def test_fixed_form_document_has_no_tree() -> None:
    doc = Document("c$omp parallel\n      end\n", FIXED)
    assert doc.tree is None
    span = doc.apply(TextEdit((0, 6), (0, 14), "do"))
    assert doc.source == b"c$omp do\n      end\n"
    assert span == (6, 8)
    assert doc.tree is None


@pytest.mark.parametrize("language, text", [
    (C, "int main(void) {\n#pragma omp parallel\n  { x = 1; }\n}\n"),
    (CPP, "template <class T> void f() {\n#pragma omp parallel for\n for (;;) {}\n}\n"),
    (FREE, "program p\n!$omp parallel\nx = 1\n!$omp end parallel\nend program\n"),
])
def test_tree_matches_language(language: Language, text: str) -> None:
    root = Document(text, language).tree.root_node
    assert root.type == "translation_unit"
    assert root.end_byte == len(text.encode())


PRAGMA_DOC = "void f(void) {\n#pragma omp parallel\n  { g(); }\n}\n"


@pytest.mark.parametrize("start, end, new, expected", [
    ((1, 12), (1, 20), "parallel for", "#pragma omp parallel for"),   # replace the directive name
    ((1, 20), (1, 20), " num_threads(4)", "#pragma omp parallel num_threads(4)"),  # append a clause
    ((1, 11), (1, 20), "", "#pragma omp"),                           # delete the directive name
    ((1, 8), (1, 11), "acc", "#pragma acc parallel"),                # change the sentinel
])
def test_edit_inside_a_pragma(start, end, new: str, expected: str) -> None:
    doc = Document(PRAGMA_DOC, C)
    assert doc.tree is not None
    span = doc.apply(TextEdit(start, end, new), "utf-16", version=2)
    assert doc.version == 2
    assert doc.source.decode().splitlines()[1] == expected
    assert doc.source[span[0]:span[1]] == new.encode()
    assert_same_as_fresh_parse(doc)


@pytest.mark.parametrize("encoding, column", [("utf-8", 6), ("utf-16", 3), ("utf-32", 2)])
def test_edit_after_non_ascii_uses_the_encoding(encoding: str, column: int) -> None:
    # Line 1 is "é😀x": the 'x' is at byte 6, UTF-16 unit 3, code point 2.
    doc = Document("int a;\né😀x\n", C)
    doc.tree  # parse before the edit, so that the edit is incremental
    span = doc.apply(TextEdit((1, column), (1, column + 1), "yz"), encoding)
    assert doc.text == "int a;\né😀yz\n"
    assert span == (13, 15)
    assert_same_as_fresh_parse(doc)


def test_multi_line_edit_and_crlf() -> None:
    text = "int a;\r\n#pragma omp parallel\r\nint b;\r\n"
    doc = Document(text, C)
    doc.tree
    doc.apply(TextEdit((0, 4), (1, 11), "x;\r\n#pragma omp"))
    assert doc.text == "int x;\r\n#pragma omp parallel\r\nint b;\r\n"
    assert_same_as_fresh_parse(doc)


def test_edit_past_the_end_is_clamped() -> None:
    doc = Document("int a;\n", C)
    doc.tree
    doc.apply(TextEdit((5, 0), (9, 9), "int b;\n"))
    assert doc.text == "int a;\nint b;\n"
    doc.apply(TextEdit((0, 99), (0, 99), " // end"))
    assert doc.text == "int a; // end\nint b;\n"
    assert_same_as_fresh_parse(doc)


def test_reversed_range_deletes_nothing() -> None:
    doc = Document("abc def\n", C)
    doc.apply(TextEdit((0, 5), (0, 2), "X"))
    assert doc.text == "abc dXef\n"


@pytest.mark.parametrize("parse_first", [True, False])
def test_full_text_replacement(parse_first: bool) -> None:
    doc = Document("int a;\n", C, version=1)
    if parse_first:
        doc.tree
    new = "#pragma omp parallel\n{ é(); }\n"
    span = doc.apply(TextEdit(None, None, new), version=7)
    assert span == (0, len(new.encode()))
    assert doc.source == new.encode()
    assert doc.version == 7
    assert doc.lines.line_count == 3
    assert_same_as_fresh_parse(doc)
    doc.apply(TextEdit(None, None, ""))
    assert doc.source == b"" and doc.version == 7


def test_lone_surrogate_in_edit_text_does_not_raise() -> None:
    # JSON allows lone surrogates; the document keeps them (surrogatepass) rather than failing.
    doc = Document("int a;\n", C)
    doc.apply(TextEdit((0, 0), (0, 0), "\ud800"))
    assert doc.source.startswith(b"\xed\xa0\x80")
    assert doc.text.endswith("int a;\n")


# ---------------------------------------------------------------- random incremental edits

FRAGMENTS = {
    C: ["int x;", "#pragma omp parallel", "#pragma omp for\n", "{", "}", "\n", " ", "for (;;)",
        "/* c */", "// é\n", "\"s\"", "x = 1;", "\\\n", "😀", "void f(void)", "(", ")", "#define M 1\n"],
    CPP: ["template <class T>", "auto x = 1;", "#pragma omp target", "{", "}", "\n", "::", "R\"(", ")\"",
          "class A {};", "日本", "<", ">", "// c\n", "#pragma omp parallel for\n"],
    FREE: ["program p\n", "end program\n", "!$omp parallel", "!$omp end parallel\n", "x = 1\n", "&\n",
           "! é\n", "do i = 1, n\n", "end do\n", "'s'", "call f()\n", "😀", " ", "\n", "integer :: x\n"],
}


@st.composite
def edit_scripts(draw, language: Language):
    pieces = st.lists(st.sampled_from(FRAGMENTS[language]), max_size=12).map("".join)
    text = draw(pieces)
    edits = []
    for _ in range(draw(st.integers(1, 8))):
        edits.append((draw(st.floats(0, 1)), draw(st.floats(0, 1)), draw(pieces),
                      draw(st.sampled_from(ENCODINGS))))
    return text, edits


def run_script(language: Language, text: str, edits) -> None:
    doc = Document(text, language)
    assert doc.tree is not None
    for a, b, new, encoding in edits:
        # Pick a code point range, then express it in the chosen encoding without LineIndex.
        lo, hi = sorted((int(a * len(text)), int(b * len(text))))
        if after_cr_terminator(text, lo):
            lo -= 1
        if after_cr_terminator(text, hi):
            hi -= 1
        hi = max(lo, hi)
        start, end = expected_position(text, lo, encoding), expected_position(text, hi, encoding)
        span = doc.apply(TextEdit(start, end, new), encoding)
        text = text[:lo] + new + text[hi:]
        assert doc.source == text.encode("utf-8")
        assert span == (byte_offset(text, lo), byte_offset(text, lo + len(new)))
        assert doc.lines.starts == LineIndex(doc.source).starts
        assert_same_as_fresh_parse(doc)


@pytest.mark.parametrize("language", [C, CPP, FREE])
def test_random_incremental_edits_match_a_fresh_parse(language: Language) -> None:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_scripts(language))
    def check(script) -> None:
        run_script(language, *script)

    check()


def test_apply_records_the_byte_edit() -> None:
    doc = Document("int x;\n// é\n", Language.C)
    assert doc.tree is not None
    doc.apply(TextEdit((1, 4), (1, 4), "ü"))         # inside the comment, after "é" (one UTF-16 unit)
    assert doc.last_change == ByteEdit(7 + 5, 7 + 5, 7 + 7, inert=True)
    doc.apply(TextEdit((0, 4), (0, 5), "yy"))        # code: the tree changes around it
    assert doc.last_change == ByteEdit(4, 5, 6, inert=False)
    doc.apply(TextEdit(None, None, "int z;\n"))
    assert doc.last_change == ByteEdit(0, len("int yy;\n// éü\n".encode()), 7, inert=False)


@given(st.binary(max_size=40).map(lambda b: b.replace(b"\x00", b"\n")), st.data())
def test_line_index_after_an_edit_equals_one_built_afresh(source: bytes, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(source)))
    old_end = data.draw(st.integers(start, len(source)))
    new = data.draw(st.sampled_from([b"", b"x", b"\n", b"a\nb", b"\n\n", b"\xc3\xa9"]))
    edited = source[:start] + new + source[old_end:]
    index = LineIndex.edited(edited, LineIndex(source), start, old_end, start + len(new))
    assert index.starts == LineIndex(edited).starts


_FIXTURES = sorted(p for p in (Path(__file__).resolve().parent / "fixtures").rglob("*")   # those tree-sitter reads
                   if p.is_file() and language_for_path(str(p)) not in (None, FIXED))
_TYPED = [b"", b"x", b"1", b" ", b"\n", b"(", b")", b"{", b"}", b";", b"\"", b"/*", b"*/", b"!", b"&", b"\\\n",
          b"#pragma omp target\n", b"!$omp end target\n", b"int y;\n", b"end subroutine\n", b"\xc3\xa9"]


def _nodes(tree: object) -> list[tuple[str, int, int, bool]]:
    """Every node of a tree: type, byte span, and whether it is an error or a missing node."""
    out: list[tuple[str, int, int, bool]] = []
    stack = [tree.root_node]   # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        out.append((node.type, node.start_byte, node.end_byte, node.is_missing or node.type == "ERROR"))
        stack.extend(reversed(node.children))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_FIXTURES), st.data())
def test_a_tree_reparsed_from_the_last_text_equals_a_fresh_parse(path: Path, data: st.DataObject) -> None:
    language = language_for_path(str(path))
    assert language is not None
    text = path.read_bytes()
    previous = Document(text, language)
    assert previous.tree is not None
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 8)))
        text = text[:start] + data.draw(st.sampled_from(_TYPED)) + text[end:]
        document = Document(text, language)
        parse_from(document, previous)
        fresh = Document(text, language)
        assert _nodes(document.tree) == _nodes(fresh.tree)
        previous = document


# ---------------------------------------------------------------- typing in a pragma: the tree edited, not reparsed

_PRAGMA_TYPED = [b"", b"1", b" ", b"x", b",", b"(", b")", b":", b"map(to: a[0:n])", b"nowait", b"\xc3\xa9", b"\t",
                 b"/", b"*", b"//", b"/*", b"\\", b"\\\n", b"\n", b"\r\n", b"\"", b"'", b"#", b"omp"]
_C_FIXTURES = [p for p in _FIXTURES if language_for_path(str(p)) in (C, CPP) and b"#pragma" in p.read_bytes()]


def _typed_in_pragma(doc: Document, old: bytes, start: int, end: int, typed: bytes) -> ByteEdit:
    """As the server types: the text first (`apply(parse=False)`), then the tree (`tree_edit`)."""
    doc.apply(TextEdit(doc.lines.point(start), doc.lines.point(end), typed.decode("utf-8", "surrogatepass")),
              "utf-8", parse=False)
    assert doc.last_change is not None
    return doc.tree_edit(old, doc.source, doc.last_change)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_C_FIXTURES), st.data())
def test_edits_in_pragma_lines_leave_the_tree_of_a_fresh_parse(path: Path, data: st.DataObject) -> None:
    """Whether the tree is only edited (typing in a pragma's text) or reparsed, it is the new text's
    tree, and the edit is judged inert exactly when a reparse judges it so."""
    language = language_for_path(str(path))
    assert language is not None
    doc = Document(path.read_bytes(), language)
    assert doc.tree is not None
    for _ in range(data.draw(st.integers(1, 4))):
        text = doc.source
        pragmas = [i for i in range(len(text)) if text.startswith(b"#pragma", i)]
        if not pragmas:
            return
        line = data.draw(st.sampled_from(pragmas))
        line_end = text.find(b"\n", line)
        line_end = len(text) if line_end < 0 else line_end
        start = data.draw(st.integers(line, line_end))
        end = data.draw(st.integers(start, min(line_end, start + 4)))
        typed = data.draw(st.sampled_from(_PRAGMA_TYPED))
        tree = doc.tree
        assert tree is not None
        # the reference: the same tree reparsed over the edit (a reparse may give another tree
        # than a fresh parse, a tree-sitter matter: that is compared only when the tree before
        # the edit is a fresh parse's)
        fresh_before = _nodes(tree) == _nodes(Document(text, language).tree)
        reference = Document(text, language)
        reference._tree = tree.copy()
        reference.apply(TextEdit(reference.lines.point(start), reference.lines.point(end),
                                 typed.decode("utf-8", "surrogatepass")), "utf-8")
        edit = _typed_in_pragma(doc, text, start, end, typed)
        assert reference.last_change is not None
        assert edit.inert == reference.last_change.inert
        assert _nodes(doc.tree) == _nodes(reference.tree)
        if doc.tree is tree:   # only edited
            event("the tree only edited")
            assert edit.inert
            if fresh_before:
                assert _nodes(doc.tree) == _nodes(Document(doc.source, language).tree)


@pytest.mark.parametrize("language", [C, CPP])
@pytest.mark.parametrize(("line", "at", "typed", "only_edited"), [
    ("#pragma omp target map(to: a)", "end", b" ", True),           # a blank at the end of the line
    ("#pragma omp target map(to: a)", "end", b" nowait", True),     # a clause added at the end
    ("#pragma omp target map(to: a)", ")", b"[0:n]", True),        # inside the parentheses
    ("  #  pragma omp target device(1)", ")", b"0", True),         # blanks around the '#'
    ("#pragma omp target map(to: a)", ")", b"/", False),           # a comment may start
    ("#pragma omp target map(to: a) // x", ")", b"1", False),      # one is there already
    ("#pragma omp target map(to: a)", "end", b" \\", False),       # the line may continue
    ("#pragma omp target map(to: a)", "end", b"\n", False),        # a new line
    ("#pragma omp target map(to: a)", "pragma", b"x", False),      # in the directive's name
])
def test_typing_in_a_pragma_edits_the_tree_without_a_reparse(language: Language, line: str, at: str,
                                                           typed: bytes, only_edited: bool) -> None:
    text = f"int a[4];\n{line}\nvoid f(void);\n".encode()
    doc = Document(text, language)
    tree = doc.tree
    assert tree is not None
    offset = text.index(b"\n") + 1 + (len(line) if at == "end" else line.rindex(at) + (len(at) if at == "pragma" else 0))
    reference = Document(text, language)
    assert reference.tree is not None
    reference.apply(TextEdit(reference.lines.point(offset), reference.lines.point(offset), typed.decode()), "utf-8")
    edit = _typed_in_pragma(doc, text, offset, offset, typed)
    assert (doc.tree is tree) == only_edited   # a reparse makes a new tree
    assert reference.last_change is not None
    assert edit.inert == reference.last_change.inert
    assert _nodes(doc.tree) == _nodes(Document(doc.source, language).tree)


# ---------------------------------------------------------------- typing in code: the tree left behind

_CODE_TYPED = [b"1", b"x", b" ", b"+ 2", b"(", b")", b"", b"/", b"*/", b"\"", b"\n", b"#", b"!", b"&"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_FIXTURES), st.data())
def test_a_tree_left_behind_by_edits_in_code_comes_back_as_a_fresh_parse(path: Path, data: st.DataObject) -> None:
    """Edits in code leave the server's tree where it was (Document.tree_edit: no reparse per
    keystroke), only where no reparse could find them inert; brought over them at once when
    needed, it is the text's tree, rows and columns too."""
    language = language_for_path(str(path))
    assert language is not None
    doc = Document(path.read_bytes(), language)
    if doc.tree is None:
        return
    for _ in range(data.draw(st.integers(1, 6))):
        text = doc.source
        # anywhere, or near where comments, strings and preprocessor lines start
        marks = [i for word in (b"//", b"/*", b"*/", b"!", b"#", b"\"", b"\\") for i in _occurrences(text, word)]
        start = data.draw(st.integers(0, len(text)) if not marks or data.draw(st.booleans())
                          else st.sampled_from(marks).map(lambda i: min(len(text), i + data.draw(st.integers(-2, 6)))))
        start = max(0, start)
        end = data.draw(st.integers(start, min(len(text), start + 3)))
        typed = data.draw(st.sampled_from(_CODE_TYPED))
        try:
            (text[:start] + typed + text[end:]).decode("utf-8")
        except UnicodeDecodeError:
            continue   # (an edit splits a character: no editor sends one)
        behind = len(doc.behind)
        doc.apply(TextEdit(doc.lines.point(start), doc.lines.point(end), typed.decode("utf-8")), "utf-8", parse=False)
        assert doc.last_change is not None
        edit = doc.tree_edit(text, doc.source, doc.last_change)
        if len(doc.behind) > behind:
            event("left behind")
            assert not edit.inert
            reference = Document(text, language)
            assert reference.tree is not None   # (parsed: apply reparses it over the edit)
            reference.apply(TextEdit(reference.lines.point(start), reference.lines.point(end), typed.decode("utf-8")),
                            "utf-8")
            assert reference.last_change is not None and not reference.last_change.inert
    refresh_tree(doc)
    assert not doc.stale_tree and not doc.behind
    fresh = Document(doc.source, language).tree
    assert doc.tree is not None and fresh is not None
    if fresh.root_node.has_error:
        return   # (tree-sitter's error recovery may end otherwise when it reuses old nodes)
    assert _nodes(doc.tree) == _nodes(fresh)
    assert [n.start_point for n in doc.tree.root_node.children] == [n.start_point for n in fresh.root_node.children]


def _occurrences(text: bytes, word: bytes) -> list[int]:
    out, at = [], text.find(word)
    while at >= 0 and len(out) < 50:
        out.append(at)
        at = text.find(word, at + 1)
    return out


def test_a_tree_left_behind_still_finds_the_comments_after_the_edits_it_missed() -> None:
    text = b"int a = 1;    // note\nint b;\n"
    doc = Document(text, C)
    assert doc.tree is not None

    def typed(after: bytes, new: str) -> ByteEdit:
        old = doc.source
        at = old.index(after) + len(after)
        doc.apply(TextEdit(doc.lines.point(at), doc.lines.point(at), new), "utf-8", parse=False)
        assert doc.last_change is not None
        return doc.tree_edit(old, doc.source, doc.last_change)

    assert not typed(b"= 1", " + 2222").inert and len(doc.behind) == 1   # in code: no reparse
    # in the comment, which the tree (of the text before) holds 7 bytes earlier: brought over
    assert not typed(b"// no", "x").inert and not doc.behind and not doc.stale_tree
    assert typed(b"// nox", "y").inert   # (the tree of the text again: typing in a comment is inert)
    assert _nodes(doc.tree) == _nodes(Document(doc.source, C).tree)
