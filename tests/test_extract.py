"""Finding OpenMP directives in source text (analysis/directives/source.py).

Each case lists the directives found as (form, body with white space collapsed). Every
directive found is also checked for a consistent segment map: each non-blank byte of the
logical body maps back to the same byte in the source.
"""
from __future__ import annotations

import pytest
from omp_lsp.analysis.directives.source import RawDirective, extract
from omp_lsp.analysis.syntax.document import Document, Language

C, CPP, FREE, FIXED = Language.C, Language.CPP, Language.FORTRAN, Language.FORTRAN_FIXED


# ---------------------------------------------------------------- helpers

def to_bytes(src: str | bytes) -> bytes:
    return src.encode("utf-8") if isinstance(src, str) else src


def find(src: str | bytes, language: Language) -> list[RawDirective]:
    """extract() as the analysis calls it, plus the invariants every directive must keep."""
    data = to_bytes(src)
    tree = Document(data, language).tree if language in (C, CPP) else None
    found = extract(data, language, tree)
    for raw in found:
        check_invariants(data, raw)
    assert [raw.span[0] for raw in found] == sorted(raw.span[0] for raw in found)
    return found


def check_invariants(data: bytes, raw: RawDirective) -> None:
    assert 0 <= raw.span[0] <= raw.span[1] <= len(data)
    assert raw.span[0] <= raw.sentinel[0] <= raw.sentinel[1] <= raw.span[1]
    assert all(logical < max(len(raw.body), 1) for logical, _ in raw.segments)
    for i, byte in enumerate(raw.body):
        if byte in b" \t\r\n":
            continue  # comments and line breaks become synthetic blanks
        at = raw.source_offset(i)
        assert raw.span[0] <= at < raw.span[1], (i, at)
        assert data[at] == byte, (i, at, raw.body)


def collapse(body: bytes) -> str:
    return " ".join(body.decode("utf-8", "replace").split())


def summary(src: str | bytes, language: Language) -> list[tuple[str, str]]:
    return [(raw.form, collapse(raw.body)) for raw in find(src, language)]


def only(src: str | bytes, language: Language) -> RawDirective:
    found = find(src, language)
    assert len(found) == 1, found
    return found[0]


def assert_word_maps(src: str | bytes, raw: RawDirective, word: str, occurrence: int = 0) -> None:
    """The logical offsets of `word` in the body map to exactly the bytes of `word` in the source."""
    data, needle = to_bytes(src), word.encode("utf-8")
    start = -1
    for _ in range(occurrence + 1):
        start = raw.body.find(needle, start + 1)
        assert start >= 0, (word, raw.body)
    span = raw.source_span(start, start + len(needle))
    assert data[span[0]:span[1]] == needle, (word, span, data[span[0]:span[1]])


def messages(raw: RawDirective) -> str:
    return " | ".join(p.message for p in raw.problems)


# ---------------------------------------------------------------- C and C++: #pragma omp

C_CASES = [
    # (id, source, expected)
    ("simple", "#pragma omp parallel\n", [("pragma", "parallel")]),
    ("no_newline_at_eof", "#pragma omp barrier", [("pragma", "barrier")]),
    ("leading_spaces", "   #pragma omp parallel\n", [("pragma", "parallel")]),
    ("leading_tab", "\t#pragma omp for\n", [("pragma", "for")]),
    ("spaces_after_hash", "#  pragma   omp parallel\n", [("pragma", "parallel")]),
    ("tabs_between", "#\tpragma\tomp\tparallel\n", [("pragma", "parallel")]),
    ("sentinel_only", "#pragma omp\n", [("pragma", "")]),
    ("trailing_blanks", "#pragma omp parallel   \t\n", [("pragma", "parallel")]),
    ("ompx_is_not_omp", "#pragma ompx parallel\n", []),
    ("omp_underscore", "#pragma omp_x parallel\n", []),
    ("upper_case_is_not_omp", "#pragma OMP parallel\n", []),
    ("other_pragma", "#pragma once\n#pragma GCC ivdep\n#pragma acc parallel\n", []),
    ("not_at_line_start", "int x; #pragma omp parallel\n", []),
    ("parenthesis_right_after", "#pragma omp(x)\n", [("pragma", "(x)")]),
    ("in_function", "void f(void) {\n  #pragma omp parallel\n  { }\n}\n", [("pragma", "parallel")]),
    ("two_pragmas", "#pragma omp parallel\n#pragma omp for\nfor (;;) {}\n",
     [("pragma", "parallel"), ("pragma", "for")]),
    # comments and literals around the pragma
    ("in_block_comment", "/*\n#pragma omp parallel\n*/\nint x;\n", []),
    ("in_continued_line_comment", "// note \\\n#pragma omp parallel\nint x;\n", []),
    ("in_spliced_string", 'const char *s = "a\\\n#pragma omp parallel";\n', []),
    ("after_block_comment", "/* #pragma omp for */\n#pragma omp parallel\n", [("pragma", "parallel")]),
    ("trailing_line_comment", "#pragma omp parallel // a comment\n", [("pragma", "parallel")]),
    ("trailing_block_comment", "#pragma omp parallel /* a comment */\n", [("pragma", "parallel")]),
    ("block_comment_between", "#pragma omp parallel /* c */ private(x) /* d */ shared(y)\n",
     [("pragma", "parallel private(x) shared(y)")]),
    ("block_comment_in_token_gap", "#pragma omp parallel/**/private(x)\n", [("pragma", "parallel private(x)")]),
    ("comment_spanning_lines", "#pragma omp parallel /* one\n two */ private(x)\nint y;\n",
     [("pragma", "parallel private(x)")]),
    ("line_comment_continued", "#pragma omp parallel // c \\\n still comment\n#pragma omp for\n",
     [("pragma", "parallel"), ("pragma", "for")]),
    ("slashes_in_string", '#pragma omp parallel if(s == "//") private(x)\n',
     [("pragma", 'parallel if(s == "//") private(x)')]),
    ("comment_opener_in_string", '#pragma omp parallel if(s == "/*") private(x)\n',
     [("pragma", 'parallel if(s == "/*") private(x)')]),
    ("slash_in_char", "#pragma omp parallel if(c == '/') private(x) // c\n",
     [("pragma", "parallel if(c == '/') private(x)")]),
    ("quote_in_char", "#pragma omp parallel if(c == '\"') private(x)\n",
     [("pragma", "parallel if(c == '\"') private(x)")]),
    ("escaped_quote_in_string", '#pragma omp parallel if(s == "a\\"//") private(x)\n',
     [("pragma", 'parallel if(s == "a\\"//") private(x)')]),
    ("division", "#pragma omp parallel num_threads(n / 2)\n", [("pragma", "parallel num_threads(n / 2)")]),
    # continuation lines
    ("backslash", "#pragma omp parallel \\\n  private(x)\nint y;\n", [("pragma", "parallel private(x)")]),
    ("two_backslashes", "#pragma omp parallel \\\n  private(x) \\\n  shared(y)\n",
     [("pragma", "parallel private(x) shared(y)")]),
    ("backslash_splits_word", "#pragma omp paral\\\nlel\n", [("pragma", "parallel")]),
    ("backslash_before_name", "#pragma omp \\\nparallel\n", [("pragma", "parallel")]),
    ("backslash_then_comment", "#pragma omp parallel \\\n // just a comment\nint x;\n", [("pragma", "parallel")]),
    # A '#pragma' line that a backslash joins to the previous pragma is that pragma's text.
    ("backslash_then_pragma", "#pragma omp parallel \\\n#pragma omp for\n", [("pragma", "parallel #pragma omp for")]),
    ("backslash_in_string", '#pragma omp parallel if(s == "a\\\nb")\n', [("pragma", 'parallel if(s == "ab")')]),
    # line endings and non-ASCII
    ("crlf", "#pragma omp parallel\r\nint x;\r\n", [("pragma", "parallel")]),
    ("crlf_backslash", "#pragma omp parallel \\\r\n  private(x)\r\nint y;\r\n", [("pragma", "parallel private(x)")]),
    ("crlf_comment", "#pragma omp parallel /* a */ shared(y) // b\r\nint x;\r\n", [("pragma", "parallel shared(y)")]),
    ("non_ascii_line_comment", "#pragma omp parallel // é 日本 😀\n", [("pragma", "parallel")]),
    ("non_ascii_block_comment", "#pragma omp parallel /* é 😀 */ private(x)\n", [("pragma", "parallel private(x)")]),
    ("non_ascii_before", "/* 日本 😀 */ int é;\n#pragma omp parallel\n", [("pragma", "parallel")]),
]


@pytest.mark.parametrize("language", [C, CPP])
@pytest.mark.parametrize("src, expected", [case[1:] for case in C_CASES], ids=[case[0] for case in C_CASES])
def test_c_pragmas(src: str, expected, language: Language) -> None:
    assert summary(src, language) == expected


@pytest.mark.parametrize("src", [
    'auto s = R"(\n#pragma omp parallel\n)";\n',
    'auto s = R"x(\n  #pragma omp parallel for\n)x";\n',
    'auto s = u8R"(\n#pragma omp barrier\n)";\n',
])
def test_cpp_raw_string_hides_pragma(src: str) -> None:
    assert summary(src, CPP) == []


@pytest.mark.parametrize("src, word, occurrence", [
    ("#pragma omp parallel private(x)\n", "private", 0),
    ("#pragma omp parallel \\\n  private(x)\n", "private", 0),           # after backslash-newline
    ("#pragma omp parallel \\\n  private(x) \\\n  shared(y)\n", "shared", 0),
    ("#pragma omp parallel \\\r\n  private(x)\r\n", "private", 0),        # CRLF continuation
    ("#pragma omp parallel /* c */ private(x)\n", "private", 0),          # after /* */
    ("#pragma omp parallel /* one\n two */ private(x)\n", "private", 0),  # after a multi-line comment
    ("#pragma omp parallel /* é 😀 */ private(x)\n", "private", 0),       # after non-ASCII comment
    ("#pragma omp parallel /* a */ if(x) /* b */ shared(y)\n", "shared", 0),
    ('#pragma omp parallel if(s == "//") private(x)\n', "private", 0),
    ("  #  pragma  omp  parallel\n", "parallel", 0),
    ("#pragma omp parallel for private(i) private(j)\n", "private", 1),
])
def test_c_pragma_source_spans(src: str, word: str, occurrence: int) -> None:
    raw = only(src, C)
    assert_word_maps(src, raw, word, occurrence)


@pytest.mark.parametrize("src, span_text", [
    ("#pragma omp parallel\n", "#pragma omp parallel"),
    ("  #pragma omp parallel   \nint x;", "#pragma omp parallel   "),   # the blanks after it too
    ("#pragma omp parallel // c\n", "#pragma omp parallel // c"),   # to the end of its line
    ("#pragma omp parallel \\\n  private(x)  \nint x;", "#pragma omp parallel \\\n  private(x)  "),
    ("#pragma omp parallel \\\r\n  private(x)\r\n", "#pragma omp parallel \\\r\n  private(x)"),
    ("#pragma omp parallel /* a\nb */ shared(y)\n", "#pragma omp parallel /* a\nb */ shared(y)"),
])
def test_c_pragma_span_and_sentinel(src: str, span_text: str) -> None:
    raw = only(src, C)
    data = to_bytes(src)
    assert data[raw.span[0]:raw.span[1]] == span_text.encode()
    assert data[raw.sentinel[0]:raw.sentinel[1]].split() == [b"#pragma", b"omp"]
    body_end = raw.source_offset(len(raw.body))   # the span goes on over blanks and a comment only
    assert data[body_end:raw.span[1]].strip() in (b"", b"// c")
    assert raw.source_span(0, 0) == (raw.sentinel[1], raw.sentinel[1])


# ---------------------------------------------------------------- C and C++: problems

@pytest.mark.parametrize("src, body, problem", [
    ("#pragma omp parallel \\\n", "parallel", "file ends"),
    ("#pragma omp parallel \\\r\n", "parallel", "file ends"),
    ("int x;\n#pragma omp parallel \\\n  private(x) \\\n", "parallel private(x)", "file ends"),
    ("#pragma omp parallel /* never closed\nint x;\n", "parallel", "unterminated comment"),
    ('#pragma omp parallel if(s == "abc\nint x;\n', 'parallel if(s == "abc', "unterminated string"),
    ("#pragma omp parallel if(c == 'a\n", "parallel if(c == 'a", "unterminated string"),
])
def test_c_pragma_problems(src: str, body: str, problem: str) -> None:
    raw = only(src, C)
    assert collapse(raw.body) == body
    assert problem in messages(raw)
    for p in raw.problems:
        assert 0 <= p.span[0] <= p.span[1] <= len(to_bytes(src))


@pytest.mark.parametrize("src", [
    "#pragma omp parallel \\",          # a backslash as the very last byte
    "#pragma omp parallel /*",
    "#pragma omp parallel /",
    '#pragma omp parallel "',
    '#pragma omp parallel "\\',
    "#pragma omp parallel //",
    "#pragma omp parallel // \\",
    "#pragma omp \\\r",
])
def test_c_pragma_truncated_files_do_not_raise(src: str) -> None:
    found = find(src, C)
    assert len(found) == 1 and found[0].form == "pragma"


def test_problems_are_per_directive() -> None:
    found = find("#pragma omp parallel if(c == 'a\n#pragma omp for\n", C)
    assert [bool(raw.problems) for raw in found] == [True, False]


# ---------------------------------------------------------------- C and C++: _Pragma and macros

PRAGMA_OPERATOR_CASES = [
    ("simple", '_Pragma("omp parallel")\n', [("_Pragma", "parallel")]),
    ("spaces", '_Pragma ( "omp parallel for" )\n', [("_Pragma", "parallel for")]),
    ("space_before_omp", '_Pragma(" omp barrier")\n', [("_Pragma", "barrier")]),
    ("wide", '_Pragma(L"omp barrier")\n', [("_Pragma", "barrier")]),
    ("utf8", '_Pragma(u8"omp barrier")\n', [("_Pragma", "barrier")]),
    ("escaped_quotes", '_Pragma("omp critical(\\"x\\") hint(2)")\n', [("_Pragma", 'critical("x") hint(2)')]),
    ("escaped_backslash", '_Pragma("omp parallel if(c == \'\\\\\\\\\')")\n', [("_Pragma", "parallel if(c == '\\\\')")]),
    ("other_escape_kept", '_Pragma("omp parallel if(s == \'\\n\')")\n', [("_Pragma", "parallel if(s == '\\n')")]),
    ("splice_in_string", '_Pragma("omp paral\\\nlel for")\n', [("_Pragma", "parallel for")]),
    ("in_function", 'void f(void) {\n  _Pragma("omp parallel")\n  { }\n}\n', [("_Pragma", "parallel")]),
    ("not_omp", '_Pragma("GCC ivdep")\n_Pragma("ompx x")\n_Pragma("once")\n', []),
    ("in_block_comment", '/* _Pragma("omp parallel") */\n', []),
    ("in_line_comment", '// _Pragma("omp parallel")\n', []),
    ("in_string", 'const char *s = "_Pragma(\\"omp parallel\\")";\n', []),
    ("in_comment_in_macro", '#define X /* _Pragma("omp parallel") */\n', []),
    ("two_on_a_line", '_Pragma("omp parallel") _Pragma("omp for")\n', [("_Pragma", "parallel"), ("_Pragma", "for")]),
    ("in_pragma_line", '#pragma omp parallel if(_Pragma("omp x"))\n', [("pragma", 'parallel if(_Pragma("omp x"))')]),
    ("in_pragma_string", '_Pragma("omp critical(\\"_Pragma(\\"omp x\\")\\")")\n',
     [("_Pragma", 'critical("_Pragma("omp x")")')]),
    ("mixed_order", '_Pragma("omp parallel")\n#pragma omp for\n_Pragma("omp barrier")\n',
     [("_Pragma", "parallel"), ("pragma", "for"), ("_Pragma", "barrier")]),
]


@pytest.mark.parametrize("language", [C, CPP])
@pytest.mark.parametrize("src, expected", [case[1:] for case in PRAGMA_OPERATOR_CASES],
                         ids=[case[0] for case in PRAGMA_OPERATOR_CASES])
def test_pragma_operator(src: str, expected, language: Language) -> None:
    assert summary(src, language) == expected


@pytest.mark.parametrize("src, word", [
    ('_Pragma("omp critical(\\"x\\") hint(2)")\n', "hint"),   # after an escaped quote
    ('_Pragma("omp critical(\\"x\\") hint(2)")\n', "x"),
    ('_Pragma ( L"omp parallel for" )\n', "for"),
    ('_Pragma("omp paral\\\nlel for")\n', "for"),              # after a backslash-newline
    ('#define P _Pragma("omp parallel num_threads(2)")\n', "num_threads"),
])
def test_pragma_operator_source_spans(src: str, word: str) -> None:
    assert_word_maps(src, only(src, C), word)


def test_pragma_operator_span() -> None:
    src = 'x; _Pragma ( "omp parallel" ) y;\n'
    raw = only(src, C)
    assert src[raw.span[0]:raw.span[1]] == '_Pragma ( "omp parallel" )'
    assert src[raw.sentinel[0]:raw.sentinel[1]] == '_Pragma ( "omp'


@pytest.mark.parametrize("src, problem", [
    ('_Pragma("omp parallel"\n', "missing its closing ')'"),
    ('_Pragma("omp parallel\nint x;\n', "unterminated string"),
    ('_Pragma("omp parallel', "unterminated string"),
    ('_Pragma("omp parallel\\', "unterminated string"),
])
def test_pragma_operator_problems(src: str, problem: str) -> None:
    raw = only(src, C)
    assert collapse(raw.body).startswith("parallel")
    assert problem in messages(raw)


@pytest.mark.parametrize("src, expected", [
    ('#define PAR _Pragma("omp parallel")\n', [("_Pragma", "parallel", True)]),
    ('#define PAR(x) \\\n  _Pragma("omp parallel for") \\\n  x\n', [("_Pragma", "parallel for", True)]),
    ('#define A "s" _Pragma("omp barrier")\n', [("_Pragma", "barrier", True)]),
    ('#define PAR _Pragma("omp parallel")\nvoid f(void) {\n  _Pragma("omp barrier")\n}\n',
     [("_Pragma", "parallel", True), ("_Pragma", "barrier", False)]),
    # A '#pragma omp' line that continues a #define is part of the macro's text: it is
    # reported (for checking) but marked as being in a macro, so it gets no placement.
    ("#define X \\\n#pragma omp parallel\n", [("pragma", "parallel", True)]),
    ("#define N 4\n#pragma omp parallel num_threads(N)\n", [("pragma", "parallel num_threads(N)", False)]),
])
def test_in_macro(src: str, expected) -> None:
    assert [(raw.form, collapse(raw.body), raw.in_macro) for raw in find(src, C)] == expected


def test_without_a_tree_every_pragma_line_counts() -> None:
    # No tree: no context, so a pragma inside a comment is found too (the caller passes a tree).
    src = b"/*\n#pragma omp parallel\n*/\n"
    assert [collapse(raw.body) for raw in extract(src, C, None)] == ["parallel"]


@pytest.mark.parametrize("src", [b"", b"int main(void) { return 0; }\n", b"#pragma once\n"])
def test_c_without_directives(src: bytes) -> None:
    assert find(src, C) == []


# ---------------------------------------------------------------- Fortran free form

FREE_CASES = [
    ("simple", "!$omp parallel\n", [("free", "parallel")]),
    ("no_newline_at_eof", "!$omp barrier", [("free", "barrier")]),
    ("upper_case", "!$OMP PARALLEL\n", [("free", "PARALLEL")]),
    ("mixed_case", "!$Omp Parallel Do\n", [("free", "Parallel Do")]),
    ("indented", "   !$omp parallel\n", [("free", "parallel")]),
    ("tab_indented", "\t!$omp barrier\n", [("free", "barrier")]),
    ("sentinel_only", "!$omp\n", [("free", "")]),
    ("in_program", "program p\n  !$omp parallel\n  x = 1\n  !$omp end parallel\nend program\n",
     [("free", "parallel"), ("free", "end parallel")]),
    # continuation
    ("ampersand", "!$omp parallel &\n!$omp private(x)\n", [("free", "parallel private(x)")]),
    ("ampersand_after_sentinel", "!$omp parallel &\n!$omp& private(x)\n", [("free", "parallel private(x)")]),
    ("ampersand_spaced", "!$omp parallel &\n  !$omp   &   private(x)\n", [("free", "parallel private(x)")]),
    ("leading_ampersand_joins_tight", "!$omp parallel num_thr&\n!$omp&eads(4)\n", [("free", "parallel num_threads(4)")]),
    ("no_space_before_ampersand", "!$omp parallel&\n!$omp private(x)\n", [("free", "parallel private(x)")]),
    ("three_lines", "!$omp parallel &\n!$omp& private(x) &\n!$omp& shared(y)\n",
     [("free", "parallel private(x) shared(y)")]),
    ("upper_case_continuation", "!$OMP PARALLEL &\n!$OMP& PRIVATE(X)\n", [("free", "PARALLEL PRIVATE(X)")]),
    ("comment_lines_between", "!$omp parallel &\n! a comment\n\n   ! another\n!$omp private(x)\n",
     [("free", "parallel private(x)")]),
    ("comment_after_ampersand", "!$omp parallel & ! more below\n!$omp private(x)\n", [("free", "parallel private(x)")]),
    ("crlf", "!$omp parallel &\r\n!$omp& private(x)\r\nx = 1\r\n", [("free", "parallel private(x)")]),
    ("crlf_comment_line", "!$omp parallel &\r\n! c\r\n\r\n!$omp private(x)\r\n", [("free", "parallel private(x)")]),
    # comments
    ("trailing_comment", "!$omp parallel ! a comment\n", [("free", "parallel")]),
    ("comment_no_space", "!$omp parallel!comment\n", [("free", "parallel")]),
    ("non_ascii_comment", "!$omp parallel ! é 日本 😀\n", [("free", "parallel")]),
    ("bang_in_single_quotes", "!$omp error message('stop! now') ! real comment\n",
     [("free", "error message('stop! now')")]),
    ("bang_in_double_quotes", '!$omp error message("a ! b")\n', [("free", 'error message("a ! b")')]),
    ("ampersand_in_comment_is_no_continuation", "!$omp parallel ! see &\nx = 1\n", [("free", "parallel")]),
    # not directives
    ("conditional_compilation", "!$ x = 1\n!$   call omp_set_num_threads(4)\n", []),
    ("omp_underscore", "!$omp_x parallel\n", []),
    ("ompx", "!$ompx parallel\n", []),
    ("after_code", "x = 1 !$omp parallel\n", []),
    ("plain_comment", "! $omp parallel\n!omp parallel\n", []),
    ("openacc", "!$acc parallel\n", []),
]


@pytest.mark.parametrize("src, expected", [case[1:] for case in FREE_CASES], ids=[case[0] for case in FREE_CASES])
def test_fortran_free_form(src: str, expected) -> None:
    assert summary(src, FREE) == expected


@pytest.mark.parametrize("src, word", [
    ("!$omp parallel private(x)\n", "private"),
    ("!$omp parallel &\n!$omp private(x)\n", "private"),            # on a continuation line
    ("!$omp parallel &\n!$omp& private(x)\n", "private"),           # on a !$omp& line
    ("!$omp parallel &\n  !$omp   &   private(x)\n", "private"),
    ("!$omp parallel num_thr&\n!$omp&eads(4)\n", "eads"),           # after a leading '&'
    ("!$omp parallel &\n! c\n\n!$omp shared(y)\n", "shared"),       # after comment lines
    ("!$omp parallel &\r\n!$omp& private(x)\r\n", "private"),       # CRLF
    ("!$omp parallel & ! é 😀\n!$omp& private(x)\n", "private"),    # after a non-ASCII comment
    ("  !$OMP PARALLEL DO\n", "DO"),
])
def test_fortran_free_source_spans(src: str, word: str) -> None:
    assert_word_maps(src, only(src, FREE), word)


@pytest.mark.parametrize("src, span_text", [
    ("!$omp parallel ! c\n", "!$omp parallel ! c"),   # to the end of its last line
    ("  !$omp parallel &\n  !$omp& private(x)\nx = 1\n", "!$omp parallel &\n  !$omp& private(x)"),
])
def test_fortran_free_span(src: str, span_text: str) -> None:
    raw = only(src, FREE)
    assert src[raw.span[0]:raw.span[1]] == span_text
    assert src[raw.sentinel[0]:raw.sentinel[1]].lower() == "!$omp"


@pytest.mark.parametrize("src, expected", [
    ("!$omp parallel &\nx = 1\n!$omp private(x)\n", [("free", "parallel"), ("free", "private(x)")]),
    ("!$omp parallel &", [("free", "parallel")]),
    ("!$omp parallel &\n", [("free", "parallel")]),
    ("!$omp parallel &\n! only comments\n\n", [("free", "parallel")]),
    ("!$omp parallel &\n!$ x = 1\n", [("free", "parallel")]),
])
def test_fortran_free_dangling_ampersand(src: str, expected) -> None:
    found = find(src, FREE)
    assert [(raw.form, collapse(raw.body)) for raw in found] == expected
    assert "next line is not an !$omp line" in messages(found[0])
    amp = src.index("&")
    assert found[0].problems[0].span == (amp, amp + 1)
    assert all(not raw.problems for raw in found[1:])


def test_fortran_free_directives_after_a_continued_one() -> None:
    src = "!$omp parallel &\n!$omp& private(x)\n!$omp do\n!$omp end do\n"
    assert summary(src, FREE) == [("free", "parallel private(x)"), ("free", "do"), ("free", "end do")]


# ---------------------------------------------------------------- Fortran fixed form

FIXED_CASES = [
    ("c", "c$omp parallel\n", [("fixed", "parallel")]),
    ("upper_c", "C$OMP PARALLEL\n", [("fixed", "PARALLEL")]),
    ("star", "*$omp barrier\n", [("fixed", "barrier")]),
    ("bang", "!$omp barrier\n", [("fixed", "barrier")]),
    ("mixed_case", "c$OmP barrier\n", [("fixed", "barrier")]),
    ("sentinel_only", "c$omp\n", [("fixed", "")]),
    ("sentinel_only_at_eof", "*$omp", [("fixed", "")]),
    ("short_lines", "c$omp\nc$omp\r\n!$omp", [("fixed", ""), ("fixed", ""), ("fixed", "")]),
    ("no_newline_at_eof", "c$omp barrier", [("fixed", "barrier")]),
    ("in_program", "      program p\nc$omp parallel\n      x = 1\nc$omp end parallel\n      end\n",
     [("fixed", "parallel"), ("fixed", "end parallel")]),
    # continuation in column 6
    ("plus", "c$omp parallel\nc$omp+private(x)\n", [("fixed", "parallel private(x)")]),
    ("ampersand", "c$omp parallel\nc$omp&private(x)\n", [("fixed", "parallel private(x)")]),
    ("digit", "c$omp parallel\nc$omp1private(x)\n", [("fixed", "parallel private(x)")]),
    ("several", "c$omp parallel\nc$omp+private(x)\nc$omp&shared(y)\nc$omp1firstprivate(z)\n",
     [("fixed", "parallel private(x) shared(y) firstprivate(z)")]),
    ("continuation_other_sentinel", "c$omp parallel\n!$omp+ private(x)\n*$OMP& shared(y)\n",
     [("fixed", "parallel private(x) shared(y)")]),
    ("zero_is_initial", "c$omp parallel\nc$omp0do\n", [("fixed", "parallel"), ("fixed", "do")]),
    ("blank_is_initial", "c$omp parallel\nc$omp do\n", [("fixed", "parallel"), ("fixed", "do")]),
    # comment lines between continuation lines
    ("c_comment_between", "c$omp parallel\nc a comment\nc$omp+private(x)\n", [("fixed", "parallel private(x)")]),
    ("star_comment_between", "c$omp parallel\n* a comment\nc$omp+private(x)\n", [("fixed", "parallel private(x)")]),
    ("bang_comment_between", "c$omp parallel\n! a comment\nc$omp+private(x)\n", [("fixed", "parallel private(x)")]),
    ("indented_bang_comment_between", "c$omp parallel\n      ! a comment\nc$omp+private(x)\n",
     [("fixed", "parallel private(x)")]),
    ("blank_line_between", "c$omp parallel\n\n   \nc$omp+private(x)\n", [("fixed", "parallel private(x)")]),
    # comments and columns
    ("trailing_comment", "c$omp parallel ! a comment\n", [("fixed", "parallel")]),
    ("bang_in_quotes", "c$omp error message('stop! now') ! comment\n", [("fixed", "error message('stop! now')")]),
    ("beyond_column_72", "c$omp parallel" + " " * 52 + "private(x)\n", [("fixed", "parallel privat")]),
    ("sequence_numbers", "c$omp barrier" + " " * 59 + "00001000\n", [("fixed", "barrier")]),
    ("crlf", "c$omp parallel\r\nc$omp+private(x)\r\n      x = 1\r\n", [("fixed", "parallel private(x)")]),
    ("non_ascii_comment", "c$omp parallel ! é 日本 😀\n", [("fixed", "parallel")]),
    # not directives
    ("not_column_1", "      c$omp parallel\n c$omp parallel\n", []),
    ("conditional_compilation", "c$    x = 1\n!$    call f()\n", []),
    ("free_form_sentinel_in_code", "      x = 1 ! c$omp parallel\n", []),
    ("comment_line", "c     omp parallel\n", []),
]


@pytest.mark.parametrize("src, expected", [case[1:] for case in FIXED_CASES], ids=[case[0] for case in FIXED_CASES])
def test_fortran_fixed_form(src: str, expected) -> None:
    assert summary(src, FIXED) == expected


@pytest.mark.parametrize("src, word", [
    ("c$omp parallel private(x)\n", "private"),
    ("c$omp parallel\nc$omp+private(x)\n", "private"),                   # on a continuation line
    ("c$omp parallel\nc comment\n\nc$omp&shared(y)\n", "shared"),        # after comment lines
    ("c$omp parallel\r\nc$omp1 firstprivate(z)\r\n", "firstprivate"),
    ("C$OMP PARALLEL ! é 😀\nC$OMP+PRIVATE(X)\n", "PRIVATE"),
])
def test_fortran_fixed_source_spans(src: str, word: str) -> None:
    assert_word_maps(src, only(src, FIXED), word)


def test_fortran_fixed_span() -> None:
    src = "c$omp parallel\nc$omp+private(x) ! c\n      x = 1\n"
    raw = only(src, FIXED)
    assert src[raw.span[0]:raw.span[1]] == "c$omp parallel\nc$omp+private(x) ! c"
    assert src[raw.sentinel[0]:raw.sentinel[1]] == "c$omp"


@pytest.mark.parametrize("src, expected", [
    ("c$omp+private(x)\n", [("fixed", "private(x)", True)]),
    ("c comment\nc$omp+private(x)\n", [("fixed", "private(x)", True)]),
    # A statement ends the directive: the continuation that follows has nothing to continue.
    ("c$omp parallel\n      x = 1\nc$omp+private(x)\n", [("fixed", "parallel", False), ("fixed", "private(x)", True)]),
])
def test_fortran_fixed_orphan_continuation(src: str, expected) -> None:
    found = find(src, FIXED)
    assert [(raw.form, collapse(raw.body), bool(raw.problems)) for raw in found] == expected
    for raw in found:
        if raw.problems:
            assert "no directive line before it" in messages(raw)


# ---------------------------------------------------------------- languages

@pytest.mark.parametrize("language, src", [
    (FREE, "#pragma omp parallel\nc$omp parallel\n"),
    (FIXED, "#pragma omp parallel\n      x = 1 ! $omp\n"),
    (C, "!$omp parallel\nc$omp parallel\n"),
    (CPP, "!$omp parallel\n"),
])
def test_other_languages_sentinels_are_ignored(language: Language, src: str) -> None:
    assert find(src, language) == []


def test_free_form_sentinel_in_fixed_form_file_column_1() -> None:
    # '!$omp' in column 1 is a fixed-form sentinel too; indented it is not.
    assert summary("!$omp parallel\n  !$omp barrier\n", FIXED) == [("fixed", "parallel")]


def test_preprocessor_branches_between_continuation_lines_take_the_first_branch() -> None:
    src = ("subroutine s\n"
           "  !$omp metadirective &\n"
           "#if defined(OMP52)\n"
           "  !$omp & otherwise(nothing)\n"
           "#else\n"
           "  !$omp & default(nothing)\n"
           "#endif\n"
           "  !$omp parallel &\n"
           "#ifdef X\n"
           "#define Y 1\n"
           "#endif\n"
           "  !$omp & num_threads(2)\n"
           "  !$omp end parallel\n"
           "end subroutine s\n")
    found = find(src, Language.FORTRAN)
    assert [collapse(r.body) for r in found] == [
        "metadirective otherwise(nothing)", "parallel num_threads(2)", "end parallel"]
    assert all(not r.problems for r in found)
