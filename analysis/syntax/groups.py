"""Items joined into groups by pairs (a union-find): the files of a workspace by what includes
or links what."""
from __future__ import annotations

from collections.abc import Iterable


def joined(items: list[str], pairs: Iterable[tuple[str, str]]) -> list[list[str]]:
    """`items` in groups, the two of each pair in one: each group in `items`' order, the groups
    in the order of their first item."""
    parent = {p: p for p in items}

    def root(p: str) -> str:
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p
    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[rb] = ra
    out: dict[str, list[str]] = {}
    for item in items:
        out.setdefault(root(item), []).append(item)
    return list(out.values())


__all__ = ["joined"]
