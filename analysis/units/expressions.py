"""`#if` / `#elif` conditions: macro expansion, `defined`, the `__has_*` operators and C integer
arithmetic, as the compilers evaluate them. A name that is no macro after expansion is 0 (C++:
`true` is 1). A condition the compiler would reject raises `ConditionError`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from .macros import CHAR, IDENT, NUMBER, PUNCT, STRING, ExpansionError, Macro, Token, expand, tokenize
from .predefined import BUILTIN_OPERATORS


class ConditionError(Exception):
    """A condition that cannot be evaluated (the message says why)."""


# (header, angle brackets) -> whether the header exists
HasInclude = Callable[[str, bool], bool]

# __has_builtin / __has_feature and the like: what clang 22 answers for the few that code tests
# around OpenMP offloading; anything else is 0 (as for an unknown name).
_KNOWN_FEATURES = frozenset({"__builtin_expect", "__builtin_unreachable", "__builtin_assume_aligned",
                             "__builtin_popcount", "__builtin_clz", "__builtin_ctz", "__builtin_bswap32",
                             "__builtin_bswap64", "__builtin_memcpy", "__builtin_trap", "cxx_rvalue_references",
                             "cxx_lambdas", "cxx_constexpr", "cxx_static_assert", "cxx_variadic_templates",
                             "always_inline", "noinline", "unused", "aligned", "deprecated", "nodiscard",
                             "maybe_unused", "fallthrough", "likely", "unlikely", "noreturn", "visibility",
                             "c_static_assert", "c_alignas"})


def evaluate(text: str | bytes, macros: Mapping[str, Macro], cpp: bool = False,
             has_include: HasInclude | None = None) -> int:
    """The value of an `#if` condition's text in this macro environment."""
    tokens = _operators(tokenize(text), macros, has_include)
    try:
        tokens = expand(tokens, macros, keep_defined=True)
    except ExpansionError as err:
        raise ConditionError(str(err)) from None
    tokens = _operators(tokens, macros, has_include)   # `defined` that a replacement produced
    if not tokens:
        raise ConditionError("the condition is empty")
    parser = _Parser(tokens, cpp)
    value = parser.conditional(True)
    if parser.i < len(tokens):
        raise ConditionError(f"unexpected '{tokens[parser.i].text}' in the condition")
    return value


def _operators(tokens: list[Token], macros: Mapping[str, Macro], has_include: HasInclude | None) -> list[Token]:
    """`defined X`, `defined(X)` and the `__has_*(...)` operators replaced by their values."""
    if not any(t.kind == IDENT and (t.text == "defined" or t.text in BUILTIN_OPERATORS) for t in tokens):
        return tokens
    out: list[Token] = []
    i = 0
    n = len(tokens)
    while i < n:
        t = tokens[i]
        if t.kind == IDENT and t.text == "defined":
            if i + 1 < n and tokens[i + 1].text == "(":
                if i + 3 >= n or tokens[i + 3].text != ")" or tokens[i + 2].kind != IDENT:
                    raise ConditionError("'defined' needs a macro name")
                name, i = tokens[i + 2].text, i + 4
            elif i + 1 < n and tokens[i + 1].kind == IDENT:
                name, i = tokens[i + 1].text, i + 2
            else:
                raise ConditionError("'defined' needs a macro name")
            out.append(Token(NUMBER, "1" if name in macros or name in BUILTIN_OPERATORS else "0"))
            continue
        if t.kind == IDENT and t.text in BUILTIN_OPERATORS and i + 1 < n and tokens[i + 1].text == "(":
            depth, j = 0, i + 1
            while j < n:
                if tokens[j].text == "(":
                    depth += 1
                elif tokens[j].text == ")":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= n:
                raise ConditionError(f"unterminated '{t.text}('")
            out.append(Token(NUMBER, str(_builtin(t.text, tokens[i + 2:j], has_include))))
            i = j + 1
            continue
        out.append(t)
        i += 1
    return out


def _builtin(name: str, argument: list[Token], has_include: HasInclude | None) -> int:
    if name in ("__has_include", "__has_include_next"):
        if len(argument) == 1 and argument[0].kind == STRING:
            header, angle = argument[0].text.strip('"'), False
        elif argument and argument[0].text == "<" and argument[-1].text == ">":
            header, angle = "".join(t.text for t in argument[1:-1]), True
        else:
            raise ConditionError(f"'{name}' needs a header name")
        # without a way to look, a system header is taken to exist (the program compiles)
        return int(has_include(header, angle)) if has_include is not None else int(angle)
    if name == "__is_identifier":
        return 1
    word = "".join(t.text for t in argument).split("::")[-1].strip("_") if argument else ""
    text = "".join(t.text for t in argument)
    return int(text in _KNOWN_FEATURES or word in _KNOWN_FEATURES)


class _Parser:
    """Precedence climbing over the expanded tokens; `live`: the value is used (a division by
    zero in an operand that `&&`, `||` or `?:` skips is no error)."""

    def __init__(self, tokens: list[Token], cpp: bool) -> None:
        self.tokens = tokens
        self.i = 0
        self.cpp = cpp

    def peek(self) -> str:
        return self.tokens[self.i].text if self.i < len(self.tokens) else ""

    def take(self, text: str) -> bool:
        if self.peek() == text and self.tokens[self.i].kind == PUNCT:
            self.i += 1
            return True
        return False

    def conditional(self, live: bool) -> int:
        cond = self.binary(0, live)
        if not self.take("?"):
            return cond
        a = self.comma(live and cond != 0)
        if not self.take(":"):
            raise ConditionError("'?' without ':'")
        b = self.conditional(live and cond == 0)
        return a if cond else b

    def comma(self, live: bool) -> int:
        value = self.conditional(live)
        while self.take(","):
            value = self.conditional(live)
        return value

    _LEVELS = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("<<", ">>"),
               ("+", "-"), ("*", "/", "%"))

    def binary(self, level: int, live: bool) -> int:
        if level == len(self._LEVELS):
            return self.unary(live)
        ops = self._LEVELS[level]
        left = self.binary(level + 1, live)
        while self.i < len(self.tokens) and self.tokens[self.i].kind == PUNCT and self.peek() in ops:
            op = self.peek()
            self.i += 1
            if op == "||":
                right = self.binary(level + 1, live and left == 0)
                left = int(left != 0 or right != 0)
            elif op == "&&":
                right = self.binary(level + 1, live and left != 0)
                left = int(left != 0 and right != 0)
            else:
                left = _apply(op, left, self.binary(level + 1, live), live)
        return left

    def unary(self, live: bool) -> int:
        if self.i >= len(self.tokens):
            raise ConditionError("the condition ends early")
        t = self.tokens[self.i]
        if t.kind == PUNCT and t.text in ("+", "-", "!", "~"):
            self.i += 1
            v = self.unary(live)
            return {"+": v, "-": -v, "!": int(v == 0), "~": ~v}[t.text]
        if t.kind == PUNCT and t.text == "(":
            self.i += 1
            v = self.comma(live)
            if not self.take(")"):
                raise ConditionError("missing ')'")
            return v
        self.i += 1
        if t.kind == NUMBER:
            return integer(t.text)
        if t.kind == CHAR:
            return character(t.text)
        if t.kind == IDENT:
            return 1 if self.cpp and t.text == "true" else 0
        raise ConditionError(f"'{t.text}' cannot be in a condition")


def _apply(op: str, a: int, b: int, live: bool) -> int:
    if op in ("/", "%"):
        if b == 0:
            if live:
                raise ConditionError("division by zero in the condition")
            return 0
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)   # C truncates toward zero
        return q if op == "/" else a - q * b
    if op in ("<<", ">>"):
        if b < 0 or b > 63:
            return 0
        return _wrap(a << b) if op == "<<" else a >> b
    return {"+": lambda: _wrap(a + b), "-": lambda: _wrap(a - b), "*": lambda: _wrap(a * b),
            "==": lambda: int(a == b), "!=": lambda: int(a != b), "<": lambda: int(a < b), ">": lambda: int(a > b),
            "<=": lambda: int(a <= b), ">=": lambda: int(a >= b), "&": lambda: a & b, "|": lambda: a | b,
            "^": lambda: a ^ b}[op]()


def _wrap(v: int) -> int:
    """intmax_t arithmetic wraps (the compilers warn, and go on)."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def integer(text: str) -> int:
    """An integer literal's value (digit separators and suffixes allowed); raises for others."""
    raw = text.replace("'", "")
    digits = raw.rstrip("uUlLzZ")
    try:
        if digits[:2] in ("0x", "0X"):
            return int(digits[2:], 16)
        if digits[:2] in ("0b", "0B"):
            return int(digits[2:], 2)
        if len(digits) > 1 and digits[0] == "0":
            return int(digits, 8)
        return int(digits, 10)
    except ValueError:
        raise ConditionError(f"'{text}' is not an integer") from None


_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39, '"': 34, "?": 63}


def character(text: str) -> int:
    """A character literal's value (the last character of a multi-character one counts as gcc and
    clang do, shifted in by 8 bits)."""
    body = text[text.index("'") + 1:]
    body = body[:-1] if body.endswith("'") else body
    values: list[int] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            e = body[i + 1]
            if e == "x":
                j = i + 2
                while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                    j += 1
                values.append(int(body[i + 2:j] or "0", 16))
                i = j
                continue
            if e in "01234567":
                j = i + 1
                while j < len(body) and j < i + 4 and body[j] in "01234567":
                    j += 1
                values.append(int(body[i + 1:j], 8))
                i = j
                continue
            values.append(_ESCAPES.get(e, ord(e)))
            i += 2
            continue
        values.append(ord(c))
        i += 1
    if not values:
        raise ConditionError("empty character literal")
    v = 0
    for x in values:
        v = (v << 8) | (x & 0xFF) if len(values) > 1 else x
    if len(values) == 1 and values[0] > 127 and text[0] == "'":
        v = values[0] - 256   # a plain char is signed on x86_64
    return v


__all__ = ["ConditionError", "HasInclude", "character", "evaluate", "integer"]
