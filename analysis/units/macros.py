"""Macros: definitions, the tokens they are made of, and expansion as the C preprocessor does it.

Expansion follows the standard's algorithm (Prosser's hide sets): an object-like macro's
replacement is rescanned with the macro's name hidden; a function-like macro's arguments are
fully expanded before substitution, except next to `#` (stringified) and `##` (pasted as
written). Used for `#if` conditions and to know what a name in a directive stands for.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from ..syntax.records import dataclass

# pp-tokens, read from text decoded as Latin-1 (so offsets are bytes and any byte is a char).
_TOKEN = re.compile(r"""
 (?P<space>[ \t\r\n\f\v]+)
|(?P<char>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*'?)
|(?P<string>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*"?)
|(?P<ident>[A-Za-z_$\x80-\xff][A-Za-z0-9_$\x80-\xff]*)
|(?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.'])*)
|(?P<punct>\.\.\.|<<=|>>=|\#\#|<<|>>|<=|>=|==|!=|&&|\|\||->|\+\+|--|::|[-+*/%&|^~!<>=?:,;.()\[\]{}\#@\\])
|(?P<other>.)
""", re.X | re.S)

IDENT, NUMBER, CHAR, STRING, PUNCT, OTHER = "ident", "number", "char", "string", "punct", "other"
MAX_EXPANSION = 200_000   # tokens: beyond it an expansion is abandoned (a runaway definition)


class ExpansionError(Exception):
    """A macro use the preprocessor would reject, or an expansion too large to follow."""


class Token:
    """One pp-token. `hide`: the macros whose expansion made it (not expanded again)."""
    __slots__ = ("hide", "kind", "param", "space", "text")

    def __init__(self, kind: str, text: str, hide: frozenset[str] = frozenset(), space: bool = False,
                 param: int = -1) -> None:
        self.kind = kind
        self.text = text
        self.hide = hide
        self.space = space      # white space before it (for stringification)
        self.param = param      # in a replacement list: the parameter it names (-1: none)

    def __repr__(self) -> str:
        return f"Token({self.kind} {self.text!r})"

    def hidden(self, hide: frozenset[str]) -> Token:
        return Token(self.kind, self.text, self.hide | hide, self.space)


def tokenize(text: str | bytes) -> list[Token]:
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    out: list[Token] = []
    space = False
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "space":
            space = True
            continue
        out.append(Token(kind or OTHER, m.group(), frozenset(), space))
        space = False
    return out


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[str, ...] | None    # None: object-like
    variadic: bool
    body: str                          # the replacement list as written
    origin: str = ""                   # where it was defined: a path, "command line", "predefined"

    def replacement(self) -> list[Token]:
        """The replacement list's tokens, parameters marked (made once per macro)."""
        found: list[Token] | None = self.__dict__.get("_tokens")
        if found is None:
            found = tokenize(self.body)
            if self.params is not None:
                names = {p: i for i, p in enumerate(self.params)}
                for t in found:
                    if t.kind == IDENT and t.text in names:
                        t.param = names[t.text]
            self.__dict__["_tokens"] = found
        return found


_DEFINE_HEAD = re.compile(r"\s*([A-Za-z_$][A-Za-z0-9_$]*)(\()?")


def parse_define(text: str | bytes, origin: str = "") -> Macro | None:
    """The macro a `#define` line's text (after `define`) defines; None when it names none."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    m = _DEFINE_HEAD.match(text)
    if m is None:
        return None
    name = m.group(1)
    if m.group(2) is None:
        return Macro(name, None, False, text[m.end():].strip(), origin)
    close = text.find(")", m.end())
    if close < 0:
        return None
    params = [p.strip() for p in text[m.end():close].split(",")] if text[m.end():close].strip() else []
    variadic = False
    if params and params[-1].endswith("..."):
        variadic = True
        named = params[-1][:-3].strip()
        params[-1] = named or "__VA_ARGS__"
    return Macro(name, tuple(params), variadic, text[close + 1:].strip(), origin)


def parse_command_define(value: str, origin: str = "command line") -> Macro | None:
    """`NAME`, `NAME=VALUE` or `NAME(args)=VALUE`, as `-D` takes them (`-DNAME` means 1)."""
    name, eq, body = value.partition("=")
    if not name.strip():
        return None
    return parse_define(f"{name} {body if eq else '1'}", origin)


def expand(tokens: list[Token], macros: Mapping[str, Macro], keep_defined: bool = False) -> list[Token]:
    """`tokens` with every macro use replaced. `keep_defined`: the operand of `defined` stays
    as written (an `#if` condition's `defined X` that a macro's replacement produced)."""
    out: list[Token] = []
    stack = tokens[::-1]
    produced = 0
    while stack:
        t = stack.pop()
        if t.kind != IDENT:
            out.append(t)
            continue
        if keep_defined and t.text == "defined":
            out.append(t)
            _keep_defined_operand(stack, out)
            continue
        m = macros.get(t.text)
        if m is None or t.text in t.hide:
            out.append(t)
            continue
        if m.params is None:
            body = _substitute(m, [], t.hide | {t.text}, macros)
        else:
            if not stack or stack[-1].text != "(":
                out.append(t)   # a function-like macro's name without arguments is no call
                continue
            args, close = _arguments(stack, m)
            body = _substitute(m, args, (t.hide & close.hide) | {t.text}, macros)
        if body:
            body[0].space = t.space
        produced += len(body)
        if produced > MAX_EXPANSION:
            raise ExpansionError(f"the expansion of '{t.text}' is too large")
        stack.extend(reversed(body))
    return out


def _keep_defined_operand(stack: list[Token], out: list[Token]) -> None:
    if stack and stack[-1].text == "(":
        for _ in range(3):
            if stack:
                out.append(stack.pop())
    elif stack:
        out.append(stack.pop())


def _arguments(stack: list[Token], m: Macro) -> tuple[list[list[Token]], Token]:
    """Pop a call's arguments (the '(' is on top) and its ')'; raises when unbalanced."""
    stack.pop()
    args: list[list[Token]] = [[]]
    depth = 0
    nparams = len(m.params or ())
    while stack:
        t = stack.pop()
        if t.text == "(" and t.kind == PUNCT:
            depth += 1
        elif t.text == ")" and t.kind == PUNCT:
            if depth == 0:
                if nparams == 0 and args == [[]]:
                    args = []
                elif len(args) < nparams and not (m.variadic and len(args) == nparams - 1):
                    raise ExpansionError(f"'{m.name}' needs {nparams} arguments")
                if len(args) > nparams and not m.variadic:
                    raise ExpansionError(f"too many arguments for '{m.name}'")
                while len(args) < nparams:
                    args.append([])
                return args, t
            depth -= 1
        elif t.text == "," and depth == 0 and not (m.variadic and len(args) >= nparams):
            args.append([])
            continue
        args[-1].append(t)
    raise ExpansionError(f"unterminated call of '{m.name}'")


def _substitute(m: Macro, args: list[list[Token]], hide: frozenset[str],
                macros: Mapping[str, Macro]) -> list[Token]:
    body = m.replacement()
    if m.variadic and m.params and len(args) > len(m.params):
        # the variadic parameter takes the rest, commas included (the parse kept them apart)
        head, rest = args[:len(m.params) - 1], args[len(m.params) - 1:]
        joined: list[Token] = []
        for i, a in enumerate(rest):
            if i:
                joined.append(Token(PUNCT, ","))
            joined.extend(a)
        args = [*head, joined]
    out: list[Token | None] = []   # None: a placemarker (an empty argument next to ##)
    expanded: dict[int, list[Token]] = {}
    i = 0
    n = len(body)
    while i < n:
        t = body[i]
        if t.text == "#" and t.kind == PUNCT and m.params is not None and i + 1 < n and body[i + 1].param >= 0:
            out.append(Token(STRING, _stringify(args[body[i + 1].param]), space=t.space))
            i += 2
            continue
        if t.param >= 0 and t.param < len(args):
            pasted = (i + 1 < n and body[i + 1].text == "##") or (i > 0 and body[i - 1].text == "##")
            if pasted:
                arg = [Token(a.kind, a.text, a.hide, a.space) for a in args[t.param]]
                out.extend(arg if arg else [None])
            else:
                if t.param not in expanded:
                    expanded[t.param] = expand(args[t.param], macros)
                out.extend(Token(a.kind, a.text, a.hide, a.space) for a in expanded[t.param])
            i += 1
            continue
        out.append(Token(t.kind, t.text, frozenset(), t.space))
        i += 1
    return [tok.hidden(hide) for tok in _paste(out)]


def _paste(tokens: list[Token | None]) -> list[Token]:
    out: list[Token | None] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t is not None and t.text == "##" and t.kind == PUNCT and out and i + 1 < len(tokens):
            left, right = out.pop(), tokens[i + 1]
            if left is None:
                out.append(right)
            elif right is None:
                out.append(left)
            else:
                text = left.text + right.text
                joined = tokenize(text)
                if len(joined) == 1:
                    out.append(Token(joined[0].kind, text, left.hide, left.space))
                else:
                    out.extend(joined)
            i += 2
            continue
        out.append(t)
        i += 1
    return [t for t in out if t is not None]


def _stringify(arg: list[Token]) -> str:
    parts = []
    for i, t in enumerate(arg):
        text = t.text
        if t.kind in (STRING, CHAR):
            text = text.replace("\\", "\\\\").replace('"', '\\"')
        parts.append((" " if i and t.space else "") + text)
    return '"' + "".join(parts) + '"'


__all__ = ["CHAR", "IDENT", "NUMBER", "PUNCT", "STRING", "ExpansionError", "Macro", "Token", "expand",
           "parse_command_define", "parse_define", "tokenize"]
