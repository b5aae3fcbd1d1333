"""C/C++ `#if` conditions on `_OPENMP`: directives in a branch the selected version rules out.

Portable code writes `#if _OPENMP >= 202111` around the 5.2 spelling and `#else` around the 5.1
one; a compiler sees only one branch, so omp-lsp must not report the other. Only conditions
built from `_OPENMP`, `defined(_OPENMP)`, integers, comparisons and `&& || !` are evaluated; any
other macro makes the condition unknown and both branches are analysed, as before.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

# The `_OPENMP` value (yyyymm) of each OpenMP version the options accept.
OPENMP_MACRO = {45: 201511, 50: 201811, 51: 202011, 52: 202111, 60: 202411}
_BRANCHING = frozenset({"preproc_if", "preproc_elif", "preproc_ifdef", "preproc_elifdef"})


def inactive(tree: tree_sitter.Tree, offsets: list[int], version: int) -> set[int]:
    """The offsets (directive starts) that lie in a branch ruled out for this version."""
    value = OPENMP_MACRO.get(version)
    out: set[int] = set()
    if value is None:
        return out
    root = tree.root_node
    for offset in offsets:
        node: tree_sitter.Node | None = root.descendant_for_byte_range(offset, offset + 1)
        child = node
        node = node.parent if node is not None else None
        while node is not None:
            if node.type in _BRANCHING:
                known = _condition(node, value)
                in_alternative = node.child_by_field_name("alternative") == child
                if known is not None and known == in_alternative:
                    out.add(offset)
                    break
            child, node = node, node.parent
    return out


def _condition(node: tree_sitter.Node, openmp: int) -> bool | None:
    if node.type in ("preproc_ifdef", "preproc_elifdef"):
        name = node.child_by_field_name("name")
        if name is None or name.text != b"_OPENMP":
            return None
        first = node.children[0].text if node.children else b""
        return not (first or b"").endswith(b"ndef")  # #ifdef/#elifdef: defined; #ifndef: not
    cond = node.child_by_field_name("condition")
    result = _value(cond, openmp) if cond is not None else None
    return None if result is None else result != 0


def _value(node: tree_sitter.Node, openmp: int) -> int | None:
    t = node.type
    text = node.text or b""
    if t == "number_literal":
        digits = text.rstrip(b"uUlL")
        try:
            return int(digits, 8 if digits[:1] == b"0" and digits.isdigit() and len(digits) > 1 else 0)
        except ValueError:  # 1'000, 08, floats: not worth evaluating
            return None
    if t == "identifier":
        return openmp if text == b"_OPENMP" else None
    if t == "preproc_defined":
        return 1 if b"_OPENMP" in text else None
    if t == "parenthesized_expression":
        inner = node.named_children
        return _value(inner[0], openmp) if len(inner) == 1 else None
    if t == "unary_expression":
        arg = node.child_by_field_name("argument")
        op = node.child_by_field_name("operator")
        v = _value(arg, openmp) if arg is not None else None
        if v is None or op is None:
            return None
        return {b"!": int(not v), b"-": -v, b"+": v}.get(op.text or b"")
    if t == "binary_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        op = (node.child_by_field_name("operator").text or b"") if node.child_by_field_name("operator") else b""
        a = _value(left, openmp) if left is not None else None
        b = _value(right, openmp) if right is not None else None
        if op == b"&&":
            return 0 if a == 0 or b == 0 else (1 if a is not None and b is not None else None)
        if op == b"||":
            return 1 if (a not in (None, 0)) or (b not in (None, 0)) else (0 if a == 0 and b == 0 else None)
        if a is None or b is None:
            return None
        compare = {b"==": a == b, b"!=": a != b, b"<": a < b, b"<=": a <= b, b">": a > b, b">=": a >= b}
        return int(compare[op]) if op in compare else None
    return None
