#!/usr/bin/env python3
"""The import circles of the omp_lsp package: strongly connected components of its module graph,
counting every import (module level, inside functions, under TYPE_CHECKING), as grimp reads them.

    python tools/import_circles.py [VIEW]

VIEW is a folder that holds the package as `omp_lsp` with analysis/, server/ and codegen/ under
their import names (`make lint` builds one in build/typecheck, the default): the editable
install maps the folders with an import hook that graph tools do not follow.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def circles(graph: Any) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return sorted(found, key=len, reverse=True)


def main() -> int:
    view = Path(sys.argv[1] if len(sys.argv) > 1 else "build/typecheck").resolve()
    sys.path.insert(0, str(view))
    import grimp  # from the lint extra (import-linter's graph builder)

    graph = grimp.build_graph("omp_lsp", cache_dir=None)
    found = circles(graph)
    print(f"{len(graph.modules)} modules, {len(found)} import circles")
    for component in found:
        print(f"  {len(component)}: " + ", ".join(m.removeprefix("omp_lsp.") for m in component))
    return 0


if __name__ == "__main__":
    sys.exit(main())
