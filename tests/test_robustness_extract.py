"""extract() and tokenize() on arbitrary input: never raise, and every span stays inside the source."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis.directives.lexer import tokenize
from omp_lsp.analysis.directives.source import RawDirective, extract
from omp_lsp.analysis.syntax.document import Document, Language, decode_source

LANGUAGES = list(Language)

# Pieces that steer random input towards the scanners' interesting paths.
FRAGMENTS = [
    b"#pragma omp ", b"#  pragma omp", b"_Pragma(\"omp ", b"_Pragma(", b"\")", b"!$omp ", b"!$OMP&", b"!$ ",
    b"c$omp ", b"C$OMP+", b"*$omp", b"c$omp0", b"#define M ", b"parallel", b"private(x)",
    b"&", b"\\", b"\\\n", b"\\\r\n", b"\n", b"\r\n", b"\r", b"/*", b"*/", b"//", b"\"", b"'", b"!",
    b"\\\"", b"R\"(", b")\"", b"\x00", b"\xff", b"\xed\xa0\x80", b"\xe6\x97", b"\xc3\xa9", "😀".encode(),
    b" ", b"\t", b"     ", b"(", b")", b"0", b"1", b"x = 1", b" " * 66,
]

sources = st.one_of(
    st.binary(max_size=300),
    st.lists(st.sampled_from(FRAGMENTS), max_size=40).map(b"".join),
    st.text(max_size=200).map(lambda s: s.encode("utf-8", "surrogatepass")),
)


def check_directive(data: bytes, raw: RawDirective) -> None:
    n = len(data)
    assert 0 <= raw.span[0] <= raw.span[1] <= n
    assert 0 <= raw.sentinel[0] <= raw.sentinel[1] <= n
    assert raw.span[0] <= raw.sentinel[0]
    for problem in raw.problems:
        assert 0 <= problem.span[0] <= problem.span[1] <= n
    for logical, source in raw.segments:
        assert 0 <= logical < max(len(raw.body), 1) and 0 <= source <= n
    for i in range(len(raw.body) + 1):
        assert 0 <= raw.source_offset(i) <= n
    for i, byte in enumerate(raw.body):
        if byte not in b" \t\r\n":
            assert data[raw.source_offset(i)] == byte
    for a in range(0, len(raw.body) + 1, 3):
        for b in range(a, len(raw.body) + 1, 5):
            start, end = raw.source_span(a, b)
            assert 0 <= start <= end <= n
    tokens = tokenize(raw.body)
    previous_end = 0
    for token in tokens:
        assert previous_end <= token.start < token.end <= len(raw.body)
        assert token.text == raw.body[token.start:token.end].decode("utf-8", "replace")
        previous_end = token.end


def check_source(data: bytes) -> None:
    for language in LANGUAGES:
        trees = [None]
        if language in (Language.C, Language.CPP):
            trees.append(Document(data, language).tree)
        for tree in trees:
            found = extract(data, language, tree)
            assert [raw.span[0] for raw in found] == sorted(raw.span[0] for raw in found)
            for raw in found:
                check_directive(data, raw)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sources)
@example(b"")
@example(b"#pragma omp parallel \\")
@example(b"#pragma omp \\\r")
@example(b"_Pragma(\"omp \\")
@example(b"!$omp &")
@example(b"c$omp+")
@example(b"#pragma omp /* \x00 \xff")
def test_extract_never_raises(data: bytes) -> None:
    check_source(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map(b"".join))
def test_extract_after_decode_source(data: bytes) -> None:
    # What the CLI does with a file that is not UTF-8: replace, then analyse.
    fixed, _ = decode_source(data)
    fixed.decode("utf-8")
    check_source(fixed)


@pytest.mark.parametrize("data", [
    b"\x00" * 10,
    b"#pragma omp\x00parallel\n",
    b"!$omp\x00\n",
    b"\\" * 50,
    b"/*" * 20,
    b'"' * 31,
    b"'" * 31,
    b"#pragma omp " + b"\\\n" * 20,
    b"!$omp &\n" * 20,
    b"c$omp+\n" * 20,
    b'_Pragma("omp ' + b'\\"' * 10,
    b"#pragma omp parallel /* \n" * 5,
    b"#define X \\\n" * 5 + b"_Pragma(\"omp parallel\")",
    b"\r" * 10 + b"#pragma omp x",
    b"\xff\xfe#pragma omp parallel\n!$omp x\nc$omp y\n",
])
def test_extract_pathological_inputs(data: bytes) -> None:
    check_source(data)
