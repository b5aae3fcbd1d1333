"""Completion inside OpenMP directives, from the directive, clause and context-selector tables.

After `#pragma omp` / `!$omp`: directive names (combined forms too), then the clauses the
directive allows in the configured version; inside a clause's parentheses its modifiers and
keywords (map types, `device_type` values, ...), and variable names for list clauses; inside
`match(...)` / `when(...)`: trait sets, their selectors, and the properties a selector takes.
Plain data; the server turns it into LSP items.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..directives.parser import allowed_in, version_text
from ..directives.tables import CLAUSES, DIRECTIVES
from ..directives.traits import selector_names, set_names, trait_set
from ..model.file_model import FUNCTION, VARIABLE
from ..syntax.records import dataclass

if TYPE_CHECKING:
    from ..directives.schema import Since
    from ..semantics.context import FileContext

DIRECTIVE = "directive"
CLAUSE = "clause"
KEYWORD = "keyword"          # a clause's keyword value or modifier (map types, device_type values)
TRAIT_SET = "trait set"
SELECTOR = "selector"
PROPERTY = "property"
NAME = "name"                # a variable or procedure of the program

# Clause shapes whose parentheses hold a list of names.
_LIST_SHAPES = frozenset({"list", "reduction", "depend", "linear", "aligned"})
_C_PRAGMA = re.compile(rb"^[ \t]*#[ \t]*pragma[ \t]+omp\b[ \t]*", re.IGNORECASE)
_F_SENTINEL = re.compile(rb"^[ \t]*[!cC*]\$omp&?[ \t]*", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Item:
    label: str
    kind: str
    detail: str = ""
    documentation: str = ""
    replace_from: int | None = None   # byte offset where the item's text starts (multi-word names)


@dataclass(frozen=True)
class Context:
    text: str            # the directive after `omp`, up to the cursor (continuations joined)
    start: int           # byte offset of text[0] on the cursor's line (for replace_from)
    prefix: str          # the word being typed


def directive_context(source: bytes, offset: int, fortran: bool) -> Context | None:
    """The directive text before the cursor, if the cursor is in an OpenMP directive."""
    offset = max(0, min(offset, len(source)))
    line_start = source.rfind(b"\n", 0, offset) + 1
    lines = [(line_start, source[line_start:offset])]
    # continuation lines before this one: C `\` at the end, Fortran `&`
    at = line_start
    while at > 0:
        prev_start = source.rfind(b"\n", 0, at - 1) + 1
        prev = source[prev_start:at - 1].rstrip(b"\r")
        if fortran:
            if not _F_SENTINEL.match(prev) or not prev.rstrip().endswith(b"&"):
                break
        elif not prev.rstrip().endswith(b"\\"):
            break
        lines.insert(0, (prev_start, prev))
        at = prev_start
    _, first = lines[0]
    head = (_F_SENTINEL if fortran else _C_PRAGMA).match(first)
    if head is None:
        return None
    parts: list[str] = []
    for i, (_, text) in enumerate(lines):
        if i == 0:
            text = text[head.end():]
        elif fortran:
            m = _F_SENTINEL.match(text)
            text = text[m.end():] if m else text
            text = text.lstrip()
            text = text[1:] if text.startswith(b"&") else text
        if i < len(lines) - 1:
            text = text.rstrip()
            text = text[:-1] if text.endswith((b"\\", b"&")) else text
        parts.append(text.decode("utf-8", "replace") + " ")
    joined = "".join(parts)[:-1]
    if fortran and "!" in joined.split("(")[0]:
        return None   # in a trailing comment
    word = re.search(r"[A-Za-z_]\w*$", joined)
    prefix = word.group(0) if word else ""
    last_start = lines[-1][0] + (head.end() if len(lines) == 1 else 0)
    return Context(joined, last_start, prefix)


def complete(ctx: FileContext, offset: int) -> list[Item]:
    """Completion items at `offset` (a UTF-8 byte offset); [] outside OpenMP directives."""
    fortran = ctx.document.language.is_fortran
    found = directive_context(ctx.document.source, offset, fortran)
    if found is None:
        return []
    text, prefix = found.text, found.prefix
    version = ctx.version
    opened = _open_parens(text)
    if opened:
        clause_at, clause = opened[0]
        inner = text[clause_at:]
        if clause in ("match", "when"):
            return _selector_items(inner, version, fortran)
        return _clause_argument_items(ctx, clause, inner, offset)
    words = _WORD.findall(text[:len(text) - len(prefix)])
    return _name_items(words, prefix, version, fortran, offset)


def _open_parens(text: str) -> list[tuple[int, str]]:
    """(offset after '(' , word before it) of the unclosed parentheses, outermost first."""
    stack: list[tuple[int, str]] = []
    for i, ch in enumerate(text):
        if ch == "(":
            m = re.search(r"([A-Za-z_]\w*)\s*$", text[:i])
            stack.append((i + 1, m.group(1).lower() if m else ""))
        elif ch == ")" and stack:
            stack.pop()
    return stack


def _directive_allowed(name: str, version: int, fortran: bool) -> bool:
    spec = DIRECTIVES[name]
    return spec.lang != ("c" if fortran else "fortran") and allowed_in(spec.since, version)


def _name_items(words: list[str], prefix: str, version: int, fortran: bool, offset: int) -> list[Item]:
    lowered = [w.lower() for w in words]
    # the longest run of leading words that names a directive
    name = ""
    for n in range(len(lowered), 0, -1):
        candidate = " ".join(lowered[:n])
        if candidate in DIRECTIVES and _directive_allowed(candidate, version, fortran):
            name = candidate
            break
    typed = " ".join([*lowered, prefix.lower()]).strip()
    out: list[Item] = []
    if len(name.split()) == len(lowered):
        # still in the directive name: longer names that continue what is typed
        start = offset - len(typed.encode())
        for other, spec in DIRECTIVES.items():
            if other.startswith(typed) and other != name and _directive_allowed(other, version, fortran):
                out.append(Item(other, DIRECTIVE, f"directive · OpenMP {version_text(_first(spec.since))}",
                                spec.doc, replace_from=start if " " in typed else None))
    if name:
        spec = DIRECTIVES[name]
        for clause, since in sorted(spec.clauses.items()):
            cspec = CLAUSES.get(clause)
            if cspec is None or not allowed_in(since, version) or cspec.lang == ("c" if fortran else "fortran"):
                continue
            if clause.startswith(prefix.lower()):
                out.append(Item(clause, CLAUSE, f"clause of {name} · OpenMP {version_text(_first(since))}",
                                cspec.doc))
    return out


def _first(since: Since) -> int:
    return since[0] if isinstance(since, tuple) else since


def _clause_argument_items(ctx: FileContext, clause: str, inner: str, offset: int) -> list[Item]:
    cspec = CLAUSES.get(clause)
    if cspec is None:
        return []
    out: list[Item] = []
    before_colon = ":" not in inner
    if before_colon:
        for word in (*cspec.keywords, *cspec.modifiers):
            if word == "<expr>":
                continue
            since = cspec.modifier_since.get(word, 0)
            if since and since > ctx.version:
                continue
            label = word.removesuffix("()")
            out.append(Item(label, KEYWORD, f"{clause} {'modifier' if word in cspec.modifiers else 'value'}"))
    if cspec.shape in _LIST_SHAPES or clause in ("to", "enter", "link", "local"):
        out.extend(_names(ctx, offset, procedures=clause in ("to", "enter", "local")))
    return out


def _names(ctx: FileContext, offset: int, procedures: bool) -> list[Item]:
    """Variables (and procedures, for declare target lists) visible at the directive."""
    model = ctx.model
    kinds = {VARIABLE, FUNCTION} if procedures else {VARIABLE}
    seen: set[str] = set()
    out: list[Item] = []
    fortran = ctx.document.language.is_fortran
    for scope in model.scope_at(offset).ancestors():
        for s in scope.symbols:
            if s.kind in kinds and s.key not in seen and (fortran or s.name_span[0] < offset):
                seen.add(s.key)
                out.append(Item(s.name, NAME, f"{s.kind}{' · ' + s.type_text if s.type_text else ''}"))
    return out


def _selector_items(inner: str, version: int, fortran: bool) -> list[Item]:
    """Inside match(...)/when(...): sets, then selectors of the open set, then properties."""
    depth = 0
    open_set = None
    for m in re.finditer(r"([A-Za-z_]\w*)\s*=\s*\{|\{|\}", inner):
        if m.group(0) == "}":
            depth -= 1
            open_set = None if depth <= 0 else open_set
        else:
            depth += 1
            open_set = m.group(1) or open_set
    if open_set is None or depth <= 0:
        if ":" in inner[inner.rfind("}") + 1:]:
            return []   # when(selector: directive-variant): the variant is not a selector
        return [Item(name, TRAIT_SET, "context selector set") for name in set_names(version)]
    spec = trait_set(open_set.lower(), version)
    if spec is None:
        return []
    set_text = inner[inner.rfind("{") + 1:]
    opened = _open_parens(set_text)
    if opened:
        selector = next((s for s in spec.selectors if s.name == opened[-1][1]), None)
        return [Item(v, PROPERTY, f"{open_set} {selector.name}") for v in sorted(selector.values)] if selector else []
    return [Item(name, SELECTOR, f"selector of {open_set}") for name in selector_names(spec, version, fortran)]


__all__ = ["CLAUSE", "DIRECTIVE", "KEYWORD", "NAME", "PROPERTY", "SELECTOR", "TRAIT_SET", "Context", "Item",
           "complete", "directive_context"]
