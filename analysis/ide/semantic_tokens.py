"""Semantic tokens for the inside of OpenMP directives, which editors' own C and Fortran
highlighting leaves flat: the directive name, clauses, modifiers and keyword arguments, list
item names, and context-selector sets, selectors and properties. Byte spans, one line each;
the server encodes them in the negotiated position encoding.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..directives.nodes import Clause, ContextSelector, Directive, TraitProperty
from ..syntax.document import Span

# Token types, in the legend's order (standard LSP names, so every theme colours them).
DIRECTIVE = "keyword"
CLAUSE = "property"
MODIFIER = "modifier"
VARIABLE = "variable"
TRAIT_SET = "namespace"
SELECTOR = "type"
VALUE = "enumMember"
LEGEND = (DIRECTIVE, CLAUSE, MODIFIER, VARIABLE, TRAIT_SET, SELECTOR, VALUE)


def tokens(directives: list[Directive], source: bytes, span: Span | None = None) -> list[tuple[Span, str]]:
    """(span, token type) in source order, without overlaps and without line breaks inside
    (a directive name continued on the next line gives one token per line)."""
    out: list[tuple[Span, str]] = []
    for d in directives:
        if span is not None and (d.span[1] <= span[0] or d.span[0] >= span[1]):
            continue
        out.extend(_directive(d))
    out.sort(key=lambda t: t[0])
    clean: list[tuple[Span, str]] = []
    last_end = -1
    for (lo, hi), kind in out:
        if lo < last_end or hi <= lo:
            continue   # a token inside another one (a selector inside a clause): the first wins
        for piece in _lines(source, lo, hi):
            clean.append((piece, kind))
        last_end = hi
    return clean


def _lines(source: bytes, lo: int, hi: int) -> Iterator[Span]:
    """The span split at line breaks, with continuation characters and sentinels left out."""
    start = lo
    while start < hi:
        end = source.find(b"\n", start, hi)
        if end < 0:
            yield (start, hi)
            return
        text = source[start:end].rstrip(b"\r\\& \t")
        if text:
            yield (start, start + len(text))
        start = end + 1
        # skip the next line's sentinel or indentation: only words are tokens
        while start < hi and source[start:start + 1] in (b" ", b"\t"):
            start += 1
        if source[start:start + 5].lower() in (b"!$omp", b"c$omp", b"*$omp"):
            start += 5
            if source[start:start + 1] == b"&":
                start += 1


def _directive(d: Directive) -> Iterator[tuple[Span, str]]:
    yield d.name_span, DIRECTIVE
    for item in d.argument or ():
        if item.name_span is not None:
            yield item.name_span, VARIABLE
    for c in d.clauses:
        yield from _clause(c)


def _clause(c: Clause) -> Iterator[tuple[Span, str]]:
    yield c.name_span, CLAUSE
    for m in c.modifiers:
        yield _word(m.span, m.name), MODIFIER
    for value in (c.keyword, c.category):
        if value is not None:
            yield value.span, VALUE
    for item in c.items:
        if item.name_span is not None:
            yield item.name_span, VARIABLE
    if c.selector is not None:
        yield from _selector(c.selector)


def _word(span: Span, name: str) -> Span:
    """A modifier's name only (`mapper(id)` -> `mapper`)."""
    return (span[0], min(span[1], span[0] + len(name.encode())))


def _selector(selector: ContextSelector) -> Iterator[tuple[Span, str]]:
    for s in selector.sets:
        yield s.name_span, TRAIT_SET
        for sel in s.selectors:
            yield sel.name_span, SELECTOR
            yield from _properties(sel.properties)


def _properties(properties: list[TraitProperty]) -> Iterator[tuple[Span, str]]:
    for p in properties:
        if p.name is not None and not p.is_string and not p.args:
            yield p.span, VALUE
        yield from _properties(p.args)


__all__ = ["LEGEND", "tokens"]
