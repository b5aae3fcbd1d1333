"""Tokens of a directive body (analysis/directives/lexer.py)."""
from __future__ import annotations

import pytest
from omp_lsp.analysis.directives.lexer import tokenize


def kinds_and_texts(body: bytes) -> list[tuple[str, str]]:
    return [(token.kind, token.text) for token in tokenize(body)]


@pytest.mark.parametrize("body, expected", [
    (b" parallel for", [("ident", "parallel"), ("ident", "for")]),
    (b"num_threads(4)", [("ident", "num_threads"), ("punct", "("), ("number", "4"), ("punct", ")")]),
    (b"map(to: a[0:n])", [("ident", "map"), ("punct", "("), ("ident", "to"), ("punct", ":"), ("ident", "a"),
                          ("punct", "["), ("number", "0"), ("punct", ":"), ("ident", "n"), ("punct", "]"),
                          ("punct", ")")]),
    (b"reduction(+:s) if(a && b || !c)", [
        ("ident", "reduction"), ("punct", "("), ("punct", "+"), ("punct", ":"), ("ident", "s"), ("punct", ")"),
        ("ident", "if"), ("punct", "("), ("ident", "a"), ("punct", "&&"), ("ident", "b"), ("punct", "||"),
        ("punct", "!"), ("ident", "c"), ("punct", ")")]),
    (b"x->y a::b", [("ident", "x"), ("punct", "->"), ("ident", "y"), ("ident", "a"), ("punct", "::"), ("ident", "b")]),
    # numbers
    (b"1.5e-3 0x1F 1.0d0 1._8 .5 1. 10u", [("number", t) for t in ("1.5e-3", "0x1F", "1.0d0", "1._8", ".5", "1.", "10u")]),
    # Fortran operators after a number: 1 .eq. n, not the number "1.eq"
    (b"if(1.eq.n)", [("ident", "if"), ("punct", "("), ("number", "1"), ("dotop", ".eq."), ("ident", "n"), ("punct", ")")]),
    (b"2.and.3", [("number", "2"), ("dotop", ".and."), ("number", "3")]),
    (b"1.5.ne.2.", [("number", "1.5"), ("dotop", ".ne."), ("number", "2.")]),
    (b"a.and..not.b", [("ident", "a"), ("dotop", ".and."), ("dotop", ".not."), ("ident", "b")]),
    (b"x .TRUE.", [("ident", "x"), ("dotop", ".TRUE.")]),
    # strings
    (b'message("a ! b")', [("ident", "message"), ("punct", "("), ("string", '"a ! b"'), ("punct", ")")]),
    (b"hint('x') 'y\\'z'", [("ident", "hint"), ("punct", "("), ("string", "'x'"), ("punct", ")"), ("string", "'y\\'z'")]),
    (b'if(s == "abc', [("ident", "if"), ("punct", "("), ("ident", "s"), ("punct", "=="), ("badstring", '"abc')]),
    # anything else never raises
    (b"\\ `", [("other", "\\"), ("other", "`")]),
    ("é日".encode(), [("ident", "é日")]),
    (b"\xff", [("ident", "\ufffd")]),
    (b"", []),
])
def test_tokenize(body: bytes, expected) -> None:
    assert kinds_and_texts(body) == expected


def test_token_offsets_are_logical_byte_offsets() -> None:
    body = "  é parallel".encode()
    tokens = tokenize(body)
    assert [(t.start, t.end) for t in tokens] == [(2, 4), (5, 13)]
    assert all(body[t.start:t.end].decode() == t.text for t in tokens)
