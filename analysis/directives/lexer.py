"""Tokens of a directive's logical line (bytes), with their logical offsets."""
from __future__ import annotations

import re
from typing import NamedTuple


class Token(NamedTuple):
    kind: str   # ident, number, string, dotop (Fortran .and.), punct, badstring, other
    text: str
    start: int  # logical byte offsets into RawDirective.body
    end: int


# The token kinds in the order they are tried. The patterns run on the body decoded as Latin-1,
# so string offsets are byte offsets.
_KINDS = (
    ("ident", r"[A-Za-z_$\x80-\xff][A-Za-z0-9_$\x80-\xff]*"),
    ("number", r"(?:\d+(?:\.(?![A-Za-z]+\.)\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?[A-Za-z0-9_]*"),  # 1.eq.n: 1 .eq. n
    ("string", r'"(?:[^"\\\n]|\\.)*"' + r"|'(?:[^'\\\n]|\\.)*'"),
    ("badstring", r"[\"'].*"),
    ("dotop", r"\.[A-Za-z]+\."),
    ("punct", r"::|->|&&|\|\||<<|>>|<=|>=|==|!=|/=|\*\*|[-+*/%&|^~!<>=?,:;()\[\]{}.@\#]"),
)
_SPACE = r"[ \t\r\n\f\v]"

# One match per token: leading white space is consumed by the same match.
_TOKEN = re.compile(
    f"{_SPACE}*(?:" + "|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _KINDS)
    + f"|(?P<other>.))|{_SPACE}+",
    re.DOTALL,
)
_new_token = tuple.__new__

# The same tokens, one unnamed group per kind: `findall` then returns plain strings and no match
# objects, which is most of the tokenizer's time. Offsets follow from the lengths.
_TOKEN_GROUPS = re.compile(
    f"({_SPACE}*)(?:" + "|".join(f"({pattern})" for _, pattern in _KINDS) + r"|([^ \t\r\n\f\v]))",
    re.DOTALL,
)


def tokenize(body: bytes) -> list[Token]:
    """Tokens without white space; never raises (unknown bytes become 'other')."""
    text = body.decode("latin-1")
    if not text.isascii():
        return _tokenize_matches(text)  # words may need UTF-8 decoding
    out: list[Token] = []
    append = out.append
    pos = 0
    for space, ident, number, string, badstring, dotop, punct, other in _TOKEN_GROUPS.findall(text):
        pos += len(space)
        # Exactly one group is non-empty; the common kinds are tested first.
        if ident:
            kind, word = "ident", ident
        elif punct:
            kind, word = "punct", punct
        elif number:
            kind, word = "number", number
        elif string:
            kind, word = "string", string
        elif dotop:
            kind, word = "dotop", dotop
        elif badstring:
            kind, word = "badstring", badstring
        else:
            kind, word = "other", other
        end = pos + len(word)
        append(_new_token(Token, (kind, word, pos, end)))
        pos = end
    if pos < len(text):
        # Trailing white space: _TOKEN backtracks and gives its last character to 'other'.
        append(_new_token(Token, ("other", text[-1], len(text) - 1, len(text))))
    return out


def tokenize_head(body: bytes, count: int) -> list[Token]:
    """The first `count` tokens of `tokenize(body)`, at a cost that does not grow with the body
    (directive names are read from the first few tokens of a directive of any length)."""
    return _tokenize_matches(body.decode("latin-1"), count)


def _tokenize_matches(text: str, count: int | None = None) -> list[Token]:
    """The general tokenizer (any text), `count` tokens at most."""
    out: list[Token] = []
    append = out.append
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind is None:
            continue  # trailing white space
        if count is not None and len(out) >= count:
            break
        start, end = m.span(kind)
        word = text[start:end]
        if not word.isascii():
            word = word.encode("latin-1").decode("utf-8", "replace")
        append(_new_token(Token, (kind, word, start, end)))
    return out


OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")": "(", "]": "[", "}": "{"}
