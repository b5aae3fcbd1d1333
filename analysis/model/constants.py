"""Integer constant expressions, evaluated where the source alone decides their value.

Rules such as `device(ancestor: 2)`, `thread_limit(0)` or `score(-1)` need the value of
an expression. It is known when the expression is built from integer literals, the usual
arithmetic, bit and unary operators, parentheses, C/C++ enumerators and Fortran named
constants (`parameter`). Anything else (a variable, a call, a macro, a name declared
twice with different values) gives None, and the rule asking stays silent.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..directives.nodes import Expr
    from .facts import ModelFacts

    FileFacts = ModelFacts   # what every pass reads is all this one reads

_TOKEN = re.compile(r"""
    \s*(?:
      (?P<num>0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9][0-9']*)(?P<suffix>[uUlLzZ]*|_\w+)
    | (?P<name>[A-Za-z_]\w*)
    | (?P<op><<|>>|[-+*/%~!&|^()])
    )""", re.VERBOSE)

# Binary operators by precedence, loosest first (C's order; Fortran uses + - * / only).
_LEVELS: tuple[tuple[str, ...], ...] = (("|",), ("^",), ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "%"))
_MAX_TOKENS = 200  # longer "constants" are not worth evaluating


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[tuple[str, str], ...] | None:
    """The expression's tokens (cached: the same few device and thread_limit texts recur)."""
    out: list[tuple[str, str]] = []
    pos, end = 0, len(text.rstrip())
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            return None
        pos = m.end()
        if m.group("num") is not None:
            out.append(("num", m.group("num").replace("'", "")))
        elif m.group("name") is not None:
            out.append(("name", m.group("name")))
        else:
            out.append(("op", m.group("op")))
        if len(out) > _MAX_TOKENS:
            return None
    return tuple(out)


def _literal(text: str) -> int:
    if text[:2] in ("0x", "0X", "0b", "0B"):
        return int(text, 0)
    if len(text) > 1 and text[0] == "0":
        return int(text, 8)
    return int(text)


def evaluate(text: str, lookup: Callable[[str], int | None], *, fortran: bool = False) -> int | None:
    """The value of an integer constant expression, or None. `lookup` gives named constants."""
    toks = _tokens(text)
    if not toks:
        return None
    if not any(kind == "name" for kind, _ in toks):
        return _literal_value(text, fortran)
    return _evaluate(toks, lookup, fortran)


@lru_cache(maxsize=4096)
def _literal_value(text: str, fortran: bool) -> int | None:
    toks = _tokens(text)
    return _evaluate(toks, lambda name: None, fortran) if toks else None


def _evaluate(toks: tuple[tuple[str, str], ...], lookup: Callable[[str], int | None], fortran: bool) -> int | None:
    pos = 0

    def peek() -> str | None:
        return toks[pos][1] if pos < len(toks) and toks[pos][0] == "op" else None

    def binary(level: int) -> int | None:
        nonlocal pos
        if level == len(_LEVELS):
            return unary()
        left = binary(level + 1)
        while left is not None and peek() in _LEVELS[level]:
            op = toks[pos][1]
            pos += 1
            right = binary(level + 1)
            if right is None:
                return None
            left = _apply(op, left, right)
        return left

    def unary() -> int | None:
        nonlocal pos
        if pos >= len(toks):
            return None
        kind, text = toks[pos]
        pos += 1
        if kind == "num":
            try:
                return _literal(text) if not fortran or text.isdigit() else None
            except ValueError:
                return None
        if kind == "name":
            return lookup(text)
        if text in ("+", "-", "~", "!"):
            value = unary()
            if value is None:
                return None
            return {"+": value, "-": -value, "~": ~value, "!": int(not value)}[text]
        if text == "(":
            value = binary(0)
            if peek() != ")":
                return None
            pos += 1
            return value
        return None

    if fortran and any(kind == "op" and t in ("%", "~", "!", "&", "|", "^", "<<", ">>") for kind, t in toks):
        return None
    value = binary(0)
    return value if pos == len(toks) else None


def _apply(op: str, a: int, b: int) -> int | None:
    if op in ("/", "%"):
        if b == 0:
            return None
        quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # truncates toward zero
        return quotient if op == "/" else a - b * quotient
    if op in ("<<", ">>"):
        if not 0 <= b < 64:
            return None
        return a << b if op == "<<" else a >> b
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a & b if op == "&" else a | b if op == "|" else a ^ b


def constant_value(ctx: FileFacts, expr: Expr) -> int | None:
    """The value of `expr` (a clause argument, a score) in `ctx`'s file, or None when unknown."""
    fortran = ctx.document.language.is_fortran
    offset = expr.span[0]
    seen: set[str] = set()

    def lookup(name: str) -> int | None:
        key = name.lower() if fortran else name
        if key in seen or key in ctx.macros:  # a cycle, or a macro that may mean anything
            return None
        seen.add(key)
        try:
            return _fortran_parameter(ctx, key, offset, lookup) if fortran else _enumerators(ctx).get(key)
        finally:
            seen.discard(key)

    return evaluate(expr.text, lookup, fortran=fortran)


# -- C/C++ enumerators ------------------------------------------------------------------------

_AMBIGUOUS = object()


def _enumerators(ctx: FileFacts) -> dict[str, int]:
    """Every enumerator of the file with a known value; names declared with two values are left out."""
    cached: dict[str, int] | None = ctx.__dict__.get("_enumerators")
    if cached is not None:
        return cached
    values: dict[str, object] = {}
    tree = ctx.document.tree
    ctx.depends_on_words(b"enum")   # the enumerators of function bodies count too
    if tree is not None:
        source = ctx.document.source
        todo = [tree.root_node]
        while todo:
            node = todo.pop()
            if node.type == "enumerator_list":
                _read_enum(node, source, values)
                continue
            if node.type in ("function_definition", "compound_statement") and b"enum" not in \
                    source[node.start_byte:node.end_byte]:
                continue  # no enum inside: do not descend
            todo.extend(node.named_children)
    known = {k: v for k, v in values.items() if isinstance(v, int)}
    ctx.__dict__["_enumerators"] = known
    return known


def _read_enum(node: object, source: bytes, values: dict[str, object]) -> None:
    nxt: int | None = 0
    for child in node.named_children:  # type: ignore[attr-defined]
        if child.type != "enumerator":
            continue
        name_node = child.child_by_field_name("name")
        value_node = child.child_by_field_name("value")
        if name_node is None:
            continue
        name = source[name_node.start_byte:name_node.end_byte].decode("utf-8", "replace")
        if value_node is not None:
            text = source[value_node.start_byte:value_node.end_byte].decode("utf-8", "replace")
            nxt = evaluate(text, lambda n: values.get(n) if isinstance(values.get(n), int) else None)  # type: ignore[arg-type,return-value]
        value: object = nxt if nxt is not None else _AMBIGUOUS
        previous = values.get(name)
        values[name] = value if previous is None or previous == value else _AMBIGUOUS
        nxt = nxt + 1 if nxt is not None else None


# -- Fortran named constants --------------------------------------------------------------------

def _fortran_parameter(ctx: FileFacts, key: str, offset: int,
                       lookup: Callable[[str], int | None]) -> int | None:
    symbols = ctx.model.visible(key, offset, before=False)
    if len(symbols) != 1 or "parameter" not in symbols[0].specifiers:
        return None
    sym = symbols[0]
    statement = ctx.document.source[sym.span[0]:sym.span[1]].decode("utf-8", "replace")
    start = sym.name_span[0] - sym.span[0]
    m = re.compile(r"\s*(?:\([^)]*\))?\s*=\s*").match(statement, start + len(sym.name))
    if m is None:
        return None
    text = _until_top_level_comma(statement[m.end():])
    return evaluate(text, lookup, fortran=True)


def _until_top_level_comma(text: str) -> str:
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return text[:i]
            depth -= 1
        elif ch in ",;!\n" and depth == 0:
            return text[:i]
    return text
