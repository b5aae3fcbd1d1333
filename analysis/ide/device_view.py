"""What the editor shows of propagation: inlay hints, the entity under the cursor, and the
edit that writes an implied mark explicitly. Plain data; the server turns it into LSP.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..semantics.call_graph import PROGRAM_ENTITY, Declared
from ..semantics.propagation import FLANG, NONE, DeviceFact, DeviceGraph
from ..syntax.diagnostics import Fix
from ..syntax.document import Language, Span
from ..syntax.records import dataclass

if TYPE_CHECKING:
    from ..semantics.context import FileContext


@dataclass(frozen=True)
class Hint:
    offset: int                     # where the hint goes: after the declarator
    fact: DeviceFact
    declaration: Declared

    @property
    def label(self) -> str:
        return f"declare target · {self.fact.device_type} (implicit)"


def hints(graph: DeviceGraph, path: str, source: bytes, span: Span | None = None) -> list[Hint]:
    """A hint after each declaration in the file whose entity's device type is implied: on
    its definitions, or on its declarations when no file defines it."""
    out = []
    for entity, decl in graph.entities_in(path):
        if entity.marks or entity.kind == PROGRAM_ENTITY:
            continue
        # flang also marks what marked host procedures call: no device chain leads there
        if entity.key not in graph.dist and not (graph.mode == FLANG and graph.device_type(entity.key) != NONE):
            continue
        if entity.definitions and not decl.definition:
            continue
        if span is not None and not (span[0] <= decl.symbol.name_span[0] < span[1]):
            continue
        fact = graph.fact(entity.key)
        if fact is None or fact.device_type == NONE:
            continue
        out.append(Hint(_after_declarator(source, decl), fact, decl))
    out.sort(key=lambda h: h.offset)
    return out


def _after_declarator(source: bytes, decl: Declared) -> int:
    """After the parameter list that follows the name (`int f(int x)|`), else after the name."""
    end = decl.symbol.name_span[1]
    i = end
    while i < len(source) and source[i:i + 1] in (b" ", b"\t"):
        i += 1
    if source[i:i + 1] != b"(":
        return end
    depth = 0
    for j in range(i, min(len(source), i + 4000)):
        c = source[j:j + 1]
        if c == b"(":
            depth += 1
        elif c == b")":
            depth -= 1
            if depth == 0:
                return j + 1
    return end


def entity_at(graph: DeviceGraph, path: str, offset: int) -> str | None:
    """The key of the entity named at `offset`: a declaration's name or a reference."""
    fg = graph.files.get(path)
    if fg is None:
        return None
    for d in fg.declared:
        lo, hi = d.symbol.name_span
        if lo <= offset <= hi:
            return d.key
    for e in graph.edges(path):
        if e.span[0] <= offset <= e.span[1]:
            return e.target
    return None


# -- "mark explicitly" ----------------------------------------------------------------------------
_SPEC_STATEMENT = re.compile(rb"[ \t]*(use|import|implicit)\b", re.IGNORECASE)


def mark_fix(ctx: FileContext, graph: DeviceGraph, key: str) -> Fix | None:
    """Write the implied mark of a procedure defined in this file as a directive: a begin/end
    declare target around a C/C++ definition, `!$omp declare target` in a Fortran subprogram."""
    entity = graph.entities.get(key)
    fact = graph.fact(key)
    if entity is None or fact is None or entity.marks or fact.device_type == NONE:
        return None
    decl = next((d for p, d in entity.definitions if p == ctx.path), None)
    if decl is None:
        return None
    clause = "" if fact.device_type == "any" else f" device_type({fact.device_type})"
    if ctx.document.language.is_fortran:
        return _fortran_fix(ctx, decl, clause)
    return _c_fix(ctx, decl, clause)


def _line_start(source: bytes, offset: int) -> int:
    return source.rfind(b"\n", 0, offset) + 1


def _line_end(source: bytes, offset: int) -> int:
    end = source.find(b"\n", offset)
    return len(source) if end < 0 else end + 1


def _c_fix(ctx: FileContext, decl: Declared, clause: str) -> Fix | None:
    source = ctx.document.source
    symbol = decl.symbol
    if decl.kind != "procedure" or symbol.scope.kind not in ("file", "namespace"):
        return None
    start = _line_start(source, symbol.span[0])
    end = _line_end(source, max(symbol.span[1] - 1, symbol.span[0]))
    begin = "begin declare target" if ctx.version >= 51 else "declare target"
    if ctx.version < 51 and clause:
        return None  # before 5.1 the delimited form takes no clause
    tail = "" if end <= len(source) and source[end - 1:end] == b"\n" else "\n"
    return Fix(f"Mark '{decl.name}' declare target explicitly",
               (((start, start), f"#pragma omp {begin}{clause}\n"),
                ((end, end), f"{tail}#pragma omp end declare target\n")))


def _fortran_fix(ctx: FileContext, decl: Declared, clause: str) -> Fix | None:
    source = ctx.document.source
    model = ctx.model
    scope = next((s for s in model.root.walk() if s.symbol is decl.symbol and s.kind in ("subroutine", "function")),
                 None)
    if scope is None or scope.spec_part is None:
        return None
    # after the header, and after the USE, IMPORT and IMPLICIT statements that must come first
    at = _line_end(source, scope.spec_part[0] - 1 if scope.spec_part[0] > 0 else 0)
    pos = at
    while pos < scope.spec_part[1]:
        nxt = _line_end(source, pos)
        line = source[pos:nxt]
        if _SPEC_STATEMENT.match(line):
            while line.rstrip().endswith(b"&") and nxt < len(source):   # continued statement
                pos, nxt = nxt, _line_end(source, nxt)
                line = source[pos:nxt]
            at = nxt
        elif line.strip() and not line.lstrip().startswith((b"!", b"#")):
            break
        pos = nxt
    header_line = source[_line_start(source, decl.symbol.name_span[0]):]
    indent = re.match(rb"[ \t]*", header_line).group(0).decode()  # type: ignore[union-attr]
    if ctx.document.language is Language.FORTRAN_FIXED:
        indent = ""
    else:
        indent += "  "
    return Fix(f"Mark '{decl.name}' declare target explicitly",
               (((at, at), f"{indent}!$omp declare target{clause}\n"),))


__all__ = ["Hint", "entity_at", "hints", "mark_fix"]
