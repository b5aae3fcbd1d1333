"""Context selectors of declare variant and begin declare variant (OMP351–OMP362), every language.

The parser reads `match(...)` into sets, selectors and properties and reports malformed syntax
(OMP004; a rule here adds what it reads as a property or an expression but no compiler can: a
score without parentheses, a score or condition that is no expression); the other rules check
them against the trait tables (`directives/traits.py`) of the selected OpenMP version. They stay
silent on what a C/C++ macro may stand for and on expressions whose value the source does not
decide.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from ..directives import tables, traits
from ..directives.nodes import (
    ContextSelector,
    Expr,
    TraitProperty,
    TraitSelector,
    TraitSet,
)
from ..directives.parser import looks_like_macro, suggest, version_text
from ..model.constants import constant_value
from ..semantics.context import FileContext
from ..syntax.diagnostics import Finding, Fix, Related, Severity
from ..syntax.document import Language, Span
from .registry import rule

SELECTOR_DIRECTIVES = frozenset({"declare variant", "begin declare variant", "metadirective", "begin metadirective"})

_GAP = re.compile(rb"[ \t]*,[ \t]*")
_SCORE_COLON = re.compile(rb"[ \t]*:[ \t]*")
# Score expressions that are constants but not integers: a real literal, a string, a logical.
_NOT_INTEGER = re.compile(r"""\s*(?:[+-]?\s*(?:\d+\.\d*|\.\d+|\d+[eEdD][+-]?\d+)(?:[eEdD][+-]?\d+)?\w*
                              |"[^"]*"|'[^']*'|\.(?:true|false)\.(?:_\w+)?)\s*""", re.VERBOSE | re.IGNORECASE)


def _selectors(ctx: FileContext) -> Iterator[ContextSelector]:
    # one directive's selector at a time: every rule here is per-directive
    for _, d in ctx.each_directive(ctx.directives_named(*SELECTOR_DIRECTIVES)):
        for clause in d.clauses:
            if clause.selector is not None:
                yield clause.selector


def _version(ctx: FileContext) -> int:
    return max(ctx.version, 50)  # declare variant is 5.0: an older setting is reported elsewhere


def _hidden(ctx: FileContext, word: str | None) -> bool:
    """A C/C++ word that may be a macro standing for something else."""
    return bool(word) and not ctx.document.language.is_fortran and looks_like_macro(word or "", ctx.macros)


def _known_sets(ctx: FileContext, selector: ContextSelector) -> Iterator[tuple[TraitSet, traits.SetSpec]]:
    version = _version(ctx)
    for tset in selector.sets:
        spec = traits.trait_set(tset.name, version)
        if spec is not None and not _hidden(ctx, tset.name):
            yield tset, spec


# ---------------------------------------------------------------- edits

def _text(source: bytes, span: Span) -> str:
    return source[span[0]:span[1]].decode("utf-8", "replace")


def _removal(source: bytes, spans: list[Span], i: int) -> Span | None:
    """The span that removes element i of a comma-separated list with one separator, or None
    when the list has no other element or the text around is not a plain `a, b` on one line."""
    if len(spans) < 2:
        return None
    if i > 0:
        a, b, gap = spans[i - 1][1], spans[i][1], (spans[i - 1][1], spans[i][0])
    else:
        a, b, gap = spans[0][0], spans[1][0], (spans[0][1], spans[1][0])
    if _GAP.fullmatch(source[gap[0]:gap[1]]) is None or b"\n" in source[a:b]:
        return None
    return a, b


def _move_fix(source: bytes, selector: ContextSelector, tset: TraitSet, sel: TraitSelector, target: str
              ) -> Fix | None:
    """Move `sel` out of `tset` into the set `target`: appended to that set when the selector has
    it, else a new set (which replaces `tset` when `sel` was all it held)."""
    text = _text(source, sel.span)
    if "\n" in text:
        return None
    title = f"Move '{text}' to the {target} set"
    existing = next((t for t in selector.sets if t.name == target), None)
    if existing is not None and (not existing.selectors or any(s.name == sel.name for s in existing.selectors)):
        return None  # an empty set cannot be appended to safely; a second selector of the name is no fix
    if len(tset.selectors) == 1:
        if existing is None:
            return Fix(title, ((tset.span, f"{target}={{{text}}}"),))
        removal = _removal(source, [t.span for t in selector.sets], selector.sets.index(tset))
    else:
        removal = _removal(source, [s.span for s in tset.selectors], tset.selectors.index(sel))
    if removal is None:
        return None
    if existing is not None:
        at = existing.selectors[-1].span[1]
        insert = ((at, at), f", {text}")
    else:
        at = selector.span[1]
        insert = ((at, at), f", {target}={{{text}}}")
    return Fix(title, ((removal, ""), insert))


def _fitted(ctx: FileContext, findings: Iterator[Finding]) -> Iterator[Finding]:
    """The findings, without fixes that would push fixed-form source past column 72."""
    fixed_form = ctx.document.language is Language.FORTRAN_FIXED
    for finding in findings:
        if fixed_form and finding.fixes:
            finding.fixes = [fix for fix in finding.fixes if _fits(ctx.document.source, fix)]
        yield finding


def _fits(source: bytes, fix: Fix) -> bool:
    """Whether the fixed-form line the fix writes to stays within column 72 (the rest is cut off)."""
    grows = [span for span, text in fix.edits if text]
    if not grows:
        return True
    out = source
    for (a, b), text in sorted(fix.edits, key=lambda e: e[0][0], reverse=True):
        out = out[:a] + text.encode() + out[b:]
    shift = sum(len(text.encode()) - (b - a) for (a, b), text in fix.edits if a < grows[0][0])
    at = grows[0][0] + shift
    start = out.rfind(b"\n", 0, at) + 1
    end = out.find(b"\n", at)
    line = out[start:end if end >= 0 else len(out)]
    statement = line[:6] + line[6:].split(b"!", 1)[0].rstrip()  # without an inline comment
    return len(statement) <= 72


def _remove_fix(source: bytes, spans: list[Span], i: int, title: str) -> list[Fix]:
    removal = _removal(source, spans, i)
    return [Fix(title, ((removal, ""),))] if removal is not None else []


# ---------------------------------------------------------------- OMP351, OMP352: trait sets

@rule("OMP351", "OMP352", per_directive=True)
def trait_sets(ctx: FileContext) -> Iterator[Finding]:
    yield from _fitted(ctx, _trait_sets(ctx))


def _trait_sets(ctx: FileContext) -> Iterator[Finding]:
    version = _version(ctx)
    for selector in _selectors(ctx):
        first: dict[str, TraitSet] = {}
        for tset in selector.sets:
            if _hidden(ctx, tset.name):
                continue
            if traits.trait_set(tset.name, version) is None:
                yield _unknown_set(tset, version)
                continue
            earlier = first.setdefault(tset.name, tset)
            if earlier is not tset:
                fix = _merge_fix(ctx.document.source, selector, earlier, tset)
                yield Finding("OMP352", f"the trait set '{tset.name}' appears twice in this context selector; "
                              f"put its selectors into the first '{tset.name}' set", tset.name_span,
                              related=[Related(earlier.name_span, f"the first '{tset.name}' set")],
                              fixes=[fix] if fix else [])


def _unknown_set(tset: TraitSet, version: int) -> Finding:
    later = traits.SETS_BY_NAME.get(tset.name)
    if later is not None:
        return Finding("OMP351", f"the trait set '{tset.name}' needs OpenMP {version_text(later.since)}; "
                       f"the selected version is {version_text(version)}", tset.name_span)
    names = traits.set_names(version)
    guess = suggest(tset.name, names)
    message = f"unknown trait set '{tset.name}'" + (
        f"; did you mean '{guess}'?" if guess else f"; the trait sets are {', '.join(names)}")
    fixes = [Fix(f"Change to '{guess}'", ((tset.name_span, guess),))] if guess else []
    return Finding("OMP351", message, tset.name_span, fixes=fixes)


def _merge_fix(source: bytes, selector: ContextSelector, first: TraitSet, again: TraitSet) -> Fix | None:
    """Move the selectors of a repeated set into the first one and remove the repetition."""
    if not first.selectors or not again.selectors:
        return None
    text = _text(source, (again.selectors[0].span[0], again.selectors[-1].span[1]))
    removal = _removal(source, [t.span for t in selector.sets], selector.sets.index(again))
    if removal is None or "\n" in text:
        return None
    at = first.selectors[-1].span[1]
    return Fix(f"Merge into the first '{first.name}' set", (((at, at), f", {text}"), (removal, "")))


# ---------------------------------------------------------------- OMP353, OMP354, OMP361: selectors

@rule("OMP353", "OMP354", "OMP361", per_directive=True)
def trait_selectors(ctx: FileContext) -> Iterator[Finding]:
    yield from _fitted(ctx, _trait_selectors(ctx))


def _trait_selectors(ctx: FileContext) -> Iterator[Finding]:
    source = ctx.document.source
    for selector in _selectors(ctx):
        for tset, set_spec in _known_sets(ctx, selector):
            seen: dict[str, TraitSelector] = {}
            spans = [s.span for s in tset.selectors]
            for i, sel in enumerate(tset.selectors):
                if _hidden(ctx, sel.name):
                    continue
                earlier = seen.setdefault(sel.name, sel)
                if earlier is not sel:
                    yield Finding("OMP354", f"the selector '{sel.name}' appears twice in the {tset.name} set; "
                                  "give it once, with all its properties", sel.name_span,
                                  related=[Related(earlier.name_span, f"the first '{sel.name}'")],
                                  fixes=_remove_fix(source, spans, i, f"Remove the second '{sel.name}'"))
                if sel.name == "device_num":
                    yield from _device_num(ctx, selector, tset, sel)
                elif traits.selector_of(set_spec, sel.name, _version(ctx), ctx.document.language.is_fortran) is None:
                    yield _misplaced(ctx, selector, tset, set_spec, sel)


def _device_num(ctx: FileContext, selector: ContextSelector, tset: TraitSet, sel: TraitSelector
                ) -> Iterator[Finding]:
    version = _version(ctx)
    if tset.name != "target_device":
        if version >= 51:
            fix = _move_fix(ctx.document.source, selector, tset, sel, "target_device")
            yield Finding("OMP361", f"'device_num' is a selector of the target_device set, not of the {tset.name} "
                          "set; move it to 'target_device={...}'", sel.name_span, fixes=[fix] if fix else [])
        else:
            yield Finding("OMP361", "'device_num' is a selector of the target_device set, which needs OpenMP 5.1; "
                          f"the selected version is {version_text(version)}", sel.name_span)
    if len(sel.properties) != 1:
        return
    prop = sel.properties[0]
    value = constant_value(ctx, Expr(prop.text, prop.span))
    if value is not None and value < 0:
        yield Finding("OMP361", f"device_num({prop.text}) names no device: a device number is a non-negative "
                      "integer", prop.span)


def _misplaced(ctx: FileContext, selector: ContextSelector, tset: TraitSet, set_spec: traits.SetSpec,
               sel: TraitSelector) -> Finding:
    version = _version(ctx)
    fortran = ctx.document.language.is_fortran
    source = ctx.document.source
    found = traits.homes(sel.name, version, fortran)
    if found:
        home = found[0][0].name
        fix = _move_fix(source, selector, tset, sel, home)
        return Finding("OMP353", f"'{sel.name}' is a selector of the {home} set, not of the {tset.name} set; "
                       f"move it to '{home}={{...}}'", sel.name_span, fixes=[fix] if fix else [])
    if traits.homes(sel.name, version, not fortran):  # the loop construct of the other language
        right = "do" if fortran else "for"
        lang = "Fortran" if fortran else "C and C++"
        fixes = [Fix(f"Change to '{right}'", ((sel.name_span, right),))] if tset.name == "construct" else []
        return Finding("OMP353", f"the loop construct selector is '{right}' in {lang}, not '{sel.name}'",
                       sel.name_span, fixes=fixes)
    # Implementation-defined selectors are allowed in sets that take extensions: there an
    # unknown name is a warning (the toolchains ignore it), elsewhere an error.
    severity = Severity.WARNING if set_spec.extensions else None
    later = traits.first_version(sel.name, fortran)
    if later is not None:
        since, home = later
        where = "" if home == tset.name else f" (a selector of the {home} set)"
        return Finding("OMP353", f"the selector '{sel.name}'{where} needs OpenMP {version_text(since)}; the "
                       f"selected version is {version_text(version)}", sel.name_span, severity)
    names = traits.selector_names(set_spec, version, fortran)
    guess = suggest(sel.name, names)
    if set_spec.name == "construct" and sel.name in tables.DIRECTIVES:
        what = f"'{sel.name}' is not a context-matching construct"
        guess = None  # a real directive name is no misspelling
    else:
        what = f"unknown selector '{sel.name}' in the {tset.name} set"
        if set_spec.extensions:
            what += " (no configured toolchain defines it; they ignore it)"
    message = what + (f"; did you mean '{guess}'?" if guess else f"; the {tset.name} set holds {', '.join(names)}")
    fixes = [Fix(f"Change to '{guess}'", ((sel.name_span, guess),))] if guess else []
    return Finding("OMP353", message, sel.name_span, severity, fixes=fixes)


# ---------------------------------------------------------------- OMP355, OMP356: scores

@rule("OMP355", "OMP356", per_directive=True)
def scores(ctx: FileContext) -> Iterator[Finding]:
    yield from _fitted(ctx, _scores(ctx))


def _scores(ctx: FileContext) -> Iterator[Finding]:
    source = ctx.document.source
    for selector in _selectors(ctx):
        for tset, set_spec in _known_sets(ctx, selector):
            for sel in tset.selectors:
                if sel.score is None:
                    continue
                if not set_spec.score:
                    span, removal = _score_span(source, sel)
                    fixes = [Fix("Remove the score", ((removal, ""),))] if removal else []
                    yield Finding("OMP355", f"a score is not allowed in the {tset.name} set (only in the "
                                  "implementation and user sets); remove it", span, fixes=fixes)
                    continue
                problem = _score_problem(ctx, sel.score)
                if problem:
                    yield Finding("OMP356", f"the score must be a non-negative constant integer; '{sel.score.text}' "
                                  f"{problem}", sel.score.span)


def _score_span(source: bytes, sel: TraitSelector) -> tuple[Span, Span | None]:
    """The span of `score(expr)`, and the span that removes it with its ':' (None when not plain)."""
    assert sel.score is not None
    a, b = sel.name_span[1], sel.score.span[0]
    k = source[a:b].lower().rfind(b"score")
    close = source.find(b")", sel.score.span[1])
    if k < 0 or close < 0:
        return sel.score.span, None
    start, end = a + k, close + 1
    if not sel.properties:
        return (start, end), None
    after = sel.properties[0].span[0]
    plain = _SCORE_COLON.fullmatch(source[end:after]) is not None and b"\n" not in source[start:after]
    return (start, end), ((start, after) if plain else None)


def _score_problem(ctx: FileContext, score: Expr) -> str | None:
    value = constant_value(ctx, score)
    if value is not None:
        return "is negative" if value < 0 else None
    if _NOT_INTEGER.fullmatch(score.text):
        return "is not an integer"
    return None  # not a constant the source decides: the compiler checks it


# ---------------------------------------------------------------- OMP004: malformed scores and expressions

# `score` followed by a word or number instead of `(`: `vendor(score ibm)`.
_BARE_SCORE = re.compile(r"score\s+[\w'\"]")
# Tokens no expression starts with (C, C++ and Fortran alike); `<:` and `<%` are C digraphs.
_NO_EXPRESSION_START = re.compile(r"\s*(?:<(?![:%])|>|=|/|%|\||\^|\?|:|\)|\]|\})")


@rule("OMP004", per_directive=True)
def malformed_selector_parts(ctx: FileContext) -> Iterator[Finding]:
    """What the parser reads as a property or an expression but no compiler can: a score without
    its parentheses, and a score, condition or device_num that is not an expression at all."""
    fortran = ctx.document.language.is_fortran
    for selector in _selectors(ctx):
        for tset, _ in _known_sets(ctx, selector):
            for sel in tset.selectors:
                if _hidden(ctx, sel.name) or not sel.properties:
                    continue
                first = sel.properties[0]
                if _BARE_SCORE.match(first.text.lower() if fortran else first.text) and not _hidden(ctx, "score"):
                    yield Finding("OMP004", f"'score' needs its value in parentheses and a ':' before the "
                                  f"properties: write '{sel.name}(score(N): ...)'", first.span)
                    continue
                yield from _not_expressions(sel)


def _not_expressions(sel: TraitSelector) -> Iterator[Finding]:
    """The score, condition or device_num of `sel` that begins with a token no expression begins with."""
    found = [(sel.score, "a score takes a non-negative constant integer, as in score(10): ...")] \
        if sel.score is not None else []
    if sel.name in ("condition", "device_num"):
        found += [(Expr(p.text, p.span), f"'{sel.name}' takes an expression") for p in sel.properties]
    for expr, hint in found:
        if _NO_EXPRESSION_START.match(expr.text):
            yield Finding("OMP004", f"'{expr.text.strip()}' is not an expression: {hint}", expr.span)


# ---------------------------------------------------------------- OMP357-OMP360, OMP362: properties

@rule("OMP357", "OMP358", "OMP359", "OMP360", "OMP362", per_directive=True)
def trait_properties(ctx: FileContext) -> Iterator[Finding]:
    yield from _fitted(ctx, _trait_properties(ctx))


def _trait_properties(ctx: FileContext) -> Iterator[Finding]:
    version = _version(ctx)
    fortran = ctx.document.language.is_fortran
    for selector in _selectors(ctx):
        for tset, set_spec in _known_sets(ctx, selector):
            for sel in tset.selectors:
                if _hidden(ctx, sel.name):
                    continue
                own = traits.selector_of(set_spec, sel.name, version, fortran)
                home = (set_spec, own) if own is not None else next(iter(traits.homes(sel.name, version, fortran)),
                                                                   None)
                if home is not None:
                    yield from _properties(ctx, home[0], home[1], sel)
            yield from _any_kind_with_others(ctx, tset)


def _properties(ctx: FileContext, set_spec: traits.SetSpec, spec: traits.SelectorSpec, sel: TraitSelector
                ) -> Iterator[Finding]:
    source = ctx.document.source
    props = sel.properties
    if not props:
        return
    if set_spec.name == "construct" and spec.properties == traits.NONE:
        span = (props[0].span[0], props[-1].span[1])
        removal = (sel.name_span[1], sel.span[1])
        fixes = [] if b"\n" in source[removal[0]:removal[1]] else [
            Fix(f"Remove the properties of '{sel.name}'", ((removal, ""),))]
        yield Finding("OMP360", f"the construct selector '{sel.name}' takes no properties (only 'simd' does, with "
                      "declare simd clauses)", span, fixes=fixes)
        return
    if spec.name == "simd":
        yield from _simd_properties(ctx, sel)
    yield from _repeated(ctx, spec, sel)
    if spec.name == "kind":
        yield from _kinds(ctx, sel)
    elif spec.name == "vendor":
        yield from _vendors(ctx, sel)
    elif spec.name in ("isa", "arch"):
        yield from _isa_arch(ctx, sel)


def _simd_properties(ctx: FileContext, sel: TraitSelector) -> Iterator[Finding]:
    for prop in sel.properties:
        if prop.name in traits.SIMD_CLAUSES or (prop.name is None and _hidden_text(ctx, prop.text)):
            continue
        if prop.name is not None and _hidden(ctx, prop.name):
            continue
        shown = prop.name or prop.text
        guess = suggest(shown, traits.SIMD_CLAUSES) if prop.name else None
        fixes = [Fix(f"Change to '{guess}'", (((prop.span[0], prop.span[0] + len(prop.name.encode())), guess),))
                 ] if guess and prop.name and not prop.is_string else []
        yield Finding("OMP360", f"'{shown}' is not a property of the simd selector; its properties are the "
                      f"declare simd clauses ({', '.join(sorted(traits.SIMD_CLAUSES))})"
                      + (f"; did you mean '{guess}'?" if guess else ""), prop.span, fixes=fixes)


def _hidden_text(ctx: FileContext, text: str) -> bool:
    return _hidden(ctx, text.strip())


def _key(ctx: FileContext, spec: traits.SelectorSpec, prop: TraitProperty) -> str | None:
    """What makes two properties of the selector the same (None: cannot tell)."""
    if prop.name is not None and not prop.args and spec.properties == traits.NAMES:
        return prop.name  # an identifier and the string that spells it are the same value
    if spec.properties == traits.CLAUSES and prop.name in spec.unique:
        return prop.name
    text = re.sub(r"\s+", "", prop.text)
    return text.lower() if ctx.document.language.is_fortran and spec.properties == traits.EXPR else text


def _repeated(ctx: FileContext, spec: traits.SelectorSpec, sel: TraitSelector) -> Iterator[Finding]:
    source = ctx.document.source
    seen: dict[str, TraitProperty] = {}
    spans = [p.span for p in sel.properties]
    for i, prop in enumerate(sel.properties):
        key = _key(ctx, spec, prop)
        if key is None or _hidden(ctx, prop.name if not prop.is_string else None):
            continue
        earlier = seen.setdefault(key, prop)
        if earlier is not prop:
            what = f"'{prop.name}'" if prop.name and spec.properties == traits.CLAUSES else f"'{prop.text}'"
            yield Finding("OMP357", f"{what} is given twice in '{sel.name}'; give each property once", prop.span,
                          related=[Related(earlier.span, "given here first")],
                          fixes=_remove_fix(source, spans, i, f"Remove the second {what}"))


def _name(ctx: FileContext, prop: TraitProperty) -> str | None:
    """The value of a name-list property (identifier or string), None for expressions and macros."""
    if prop.name is None or prop.args:
        return None
    if not prop.is_string and _hidden(ctx, prop.name):
        return None
    # Fortran is case-insensitive: a character literal spelling a value in capitals names the same value.
    return prop.name.lower() if ctx.document.language.is_fortran else prop.name


def _kinds(ctx: FileContext, sel: TraitSelector) -> Iterator[Finding]:
    names = [(prop, _name(ctx, prop)) for prop in sel.properties]
    anys = [prop for prop, name in names if name == "any"]
    others = [prop for prop, name in names if name is not None and name != "any"]
    if anys and others:
        yield Finding("OMP357", "kind(any) matches every device and takes no other kind; remove 'any' or the "
                      "other kinds", anys[0].span, related=[Related(p.span, "another kind") for p in others])
    for prop, name in names:
        if name is not None and name not in traits.KIND_VALUES:
            yield _unknown("OMP358", f"unknown device kind '{prop.name}'", "kinds", prop, name, traits.KIND_VALUES)


def _vendors(ctx: FileContext, sel: TraitSelector) -> Iterator[Finding]:
    for prop in sel.properties:
        name = _name(ctx, prop)
        if name is not None and name not in traits.VENDORS:
            yield _unknown("OMP359", f"unknown vendor '{prop.name}': no implementation matches it", "vendors",
                           prop, name, traits.VENDORS)


def _unknown(code: str, what: str, plural: str, prop: TraitProperty, name: str, known: frozenset[str]) -> Finding:
    """An unknown property value, with the nearest known one as a fix, or the list of them."""
    guess = suggest(name, known)
    return Finding(code, what + (f"; did you mean '{guess}'?" if guess else
                                 f"; the {plural} are {', '.join(sorted(known))}"), prop.span,
                   fixes=[Fix(f"Change to '{guess}'", ((prop.span, guess),))] if guess else [])


def _isa_arch(ctx: FileContext, sel: TraitSelector) -> Iterator[Finding]:
    known = traits.known_isa if sel.name == "isa" else traits.known_arch
    for prop in sel.properties:
        name = _name(ctx, prop)
        if name is None or known(name):
            continue
        candidates = traits.KNOWN_ARCHS if sel.name == "arch" else traits.KNOWN_ISAS
        guess = suggest(name, candidates)
        yield Finding("OMP362", f"no configured toolchain knows the {sel.name} '{prop.name}', so the selector never "
                      "matches with them" + (f"; did you mean '{guess}'?" if guess else ""), prop.span,
                      fixes=[Fix(f"Change to '{guess}'", ((prop.span, guess),))] if guess else [])


def _any_kind_with_others(ctx: FileContext, tset: TraitSet) -> Iterator[Finding]:
    """kind(any) excludes every other property of its device or target_device set (5.1: "no other
    trait-property may be specified in the same selector set"); device_num is no property of the
    device, so it stays allowed beside kind(any), as clang and the 5.1 examples have it."""
    if tset.name not in ("device", "target_device"):
        return
    kinds = [s for s in tset.selectors if s.name == "kind"]
    if len(kinds) != 1:
        return
    names = [(p, _name(ctx, p)) for p in kinds[0].properties]
    anys = [p for p, n in names if n == "any"]
    if not anys or any(n is not None and n != "any" for _, n in names):
        return  # reported with the kind selector itself
    others = [s for s in tset.selectors if s.name in ("isa", "arch", "uid") and s.properties]
    if others:
        yield Finding("OMP357", f"kind(any) matches every device and takes no other property in the {tset.name} "
                      f"set; remove 'kind(any)' or the '{others[0].name}' selector", anys[0].span,
                      related=[Related(s.name_span, f"'{s.name}' in the same set") for s in others])
