"""Tokens of a directive's logical line (bytes), with their logical offsets."""
from __future__ import annotations

import re
from typing import NamedTuple


class Token(NamedTuple):
    kind: str   # ident, number, string, dotop (Fortran .and.), punct, badstring, other
    text: str
    start: int  # logical byte offsets into RawDirective.body
    end: int


_TOKEN = re.compile(
    rb"""
     (?P<ws>[ \t\r\n\f\v]+)
    |(?P<ident>[A-Za-z_$\x80-\xff][A-Za-z0-9_$\x80-\xff]*)
    |(?P<number>(?:\d+(?:\.(?![A-Za-z]+\.)\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?[A-Za-z0-9_]*)  # 1.eq.n: 1 .eq. n
    |(?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
    |(?P<badstring>["'].*)
    |(?P<dotop>\.[A-Za-z]+\.)
    |(?P<punct>::|->|&&|\|\||<<|>>|<=|>=|==|!=|/=|\*\*|[-+*/%&|^~!<>=?,:;()\[\]{}.@\#])
    |(?P<other>.)
    """,
    re.X | re.S,
)


def tokenize(body: bytes) -> list[Token]:
    """Tokens without white space; never raises (unknown bytes become 'other')."""
    out: list[Token] = []
    append = out.append
    for m in _TOKEN.finditer(body):
        kind = m.lastgroup
        if kind == "ws":
            continue
        append(Token(kind or "other", m.group().decode("utf-8", "replace"), m.start(), m.end()))
    return out


OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")": "(", "]": "[", "}": "{"}
