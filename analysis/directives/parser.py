"""The one table-driven directive parser: names, arguments and clauses by shape.

It reads `tables.py` and never hard-codes a directive or clause; each clause shape
(schema.Shape) has one reader below. Syntax problems become OMP001-OMP005, OMP007
and OMP009 findings with the narrowest span that shows them.
"""
from __future__ import annotations

import copy
from collections.abc import Iterable
from functools import lru_cache

from ..syntax.diagnostics import Finding, Fix, Related, Severity
from ..syntax.document import Language, Span
from ..syntax.records import dataclass, field
from . import tables
from .lexer import CLOSE, OPEN, Token, tokenize, tokenize_head
from .nodes import (
    Clause,
    ContextSelector,
    Directive,
    Expr,
    InteropSpec,
    ListItem,
    Modifier,
    Subscript,
    TraitProperty,
    TraitSelector,
    TraitSet,
)
from .relocate import moved_directive, shifted
from .schema import ClauseSpec, DirectiveSpec, Since, Version
from .source import Form, RawDirective

DEFAULT_VERSION: Version = 51

# A directive longer than this is read by name only (OMP013): a list item costs about a kilobyte
# of parse tree, so a 10 MB `map` list took 5 GB. The longest directive of the OpenMP Examples,
# OpenMP_VV, HeCBench and the applications this project is tested on is 2.5 KB.
MAX_DIRECTIVE_BYTES = 64 * 1024
# Tokens enough for any directive name (6 words at most) and the words read after it.
NAME_TOKENS = 16


def version_text(version: Version) -> str:
    return f"{version // 10}.{version % 10}"


def allowed_in(since: Since, version: Version) -> bool:
    if isinstance(since, tuple):
        return since[0] <= version <= since[1]
    return since <= version


def _since_text(since: Since) -> str:
    if isinstance(since, tuple):
        return f"OpenMP {version_text(since[0])} to {version_text(since[1])}"
    return f"OpenMP {version_text(since)}"


# ---------------------------------------------------------------- name index

@dataclass
class NameIndex:
    """Directive names of one language family, keyed so tokens can be matched greedily.
    Fortran keys drop the spaces: blanks between directive keywords are optional there."""
    fortran: bool
    names: dict[str, DirectiveSpec] = field(default_factory=dict)
    prefixes: set[str] = field(default_factory=set)
    own: list[str] = field(default_factory=list)  # canonical names valid in this language

    def key(self, words: list[str]) -> str:
        return "".join(words) if self.fortran else " ".join(words)

    def add(self, spec: DirectiveSpec) -> None:
        words = spec.name.split()
        key = self.key(words)
        if key in self.names and self._fits(self.names[key]):
            return
        self.names[key] = spec
        for i in range(1, len(words) + 1):
            self.prefixes.add(self.key(words[:i]))
        if self._fits(spec):
            self.own.append(spec.name)

    def _fits(self, spec: DirectiveSpec) -> bool:
        return spec.lang == "all" or (spec.lang == "fortran") == self.fortran


def _end_spec(spec: DirectiveSpec) -> DirectiveSpec:
    return DirectiveSpec(name="end " + spec.name, kind="subsidiary", association="end", lang="fortran",
                         since=spec.since, doc=f"Ends the {spec.name} construct.")


@lru_cache(maxsize=2)
def name_index(fortran: bool) -> NameIndex:
    index = NameIndex(fortran)
    explicit = tables.DIRECTIVES
    for spec in explicit.values():
        if spec.lang != ("c" if fortran else "fortran"):
            index.add(spec)
    if fortran:
        for spec in explicit.values():
            end_name = "end " + spec.name
            if spec.lang != "c" and spec.association in ("block", "loop", "statement") and end_name not in explicit:
                index.add(_end_spec(spec))
    # The other language's spellings, so that "parallel do" in C gets a helpful message.
    for spec in explicit.values():
        if spec.lang == ("c" if fortran else "fortran"):
            index.add(spec)
    return index


@lru_cache(maxsize=2)
def clause_first_versions(fortran: bool) -> dict[str, Version]:
    """The first OpenMP version in which each clause exists on some directive of the language."""
    out: dict[str, Version] = {}
    wrong = "c" if fortran else "fortran"
    for spec in tables.DIRECTIVES.values():
        if spec.lang == wrong:
            continue
        for name, since in spec.clauses.items():
            first = since[0] if isinstance(since, tuple) else since
            out[name] = min(out.get(name, first), first)
    return out


_MODIFIER_WORDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {}


def _modifier_words(cspec: ClauseSpec) -> tuple[frozenset[str], frozenset[str]]:
    """A clause's plain modifier words and its call-like modifiers (mapper(...)), without '()'."""
    cached = _MODIFIER_WORDS.get(cspec.name)
    if cached is not None:
        return cached
    plain = frozenset(m for m in cspec.modifiers if not m.endswith("()") and m != "<expr>")
    calls = frozenset(m[:-2] for m in cspec.modifiers if m.endswith("()"))
    _MODIFIER_WORDS[cspec.name] = (plain, calls)
    return plain, calls


def _similarity(a: str, b: str) -> float:
    import difflib
    return difflib.SequenceMatcher(None, a, b).ratio()


def suggest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The closest candidate to a misspelt word ("did you mean"), or None."""
    import difflib  # only on the error path: start-up stays lean
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return found[0] if found else None


# ---------------------------------------------------------------- parser

_LOWERED: dict[frozenset[str], frozenset[str]] = {}


def _lowered(macros: frozenset[str]) -> frozenset[str]:
    """The macro names in lower case (Fortran words are read in any case), made once per set."""
    found = _LOWERED.get(macros)
    if found is None:
        if len(_LOWERED) > 64:
            _LOWERED.clear()
        found = _LOWERED[macros] = frozenset(m.lower() for m in macros)
    return found


def name_in_lower_case(raw: RawDirective, language: Language) -> tuple[Span, str] | None:
    """A directive whose name is written in capitals (`TARGET`, `declare TARGET`, `DECLARE_TARGET`):
    the span of its name words and the directive they spell in lower case; None when they spell
    none. C and C++ names are case-sensitive, so the parser takes such a word for a macro."""
    toks = tokenize_head(raw.body, NAME_TOKENS)
    index = name_index(language.is_fortran)
    words: list[str] = []
    best: tuple[int, str] | None = None
    for i, tok in enumerate(toks):
        if tok.kind != "ident":
            break
        word = tok.text.lower()
        parts = word.split("_")
        # OpenMP 6.0 also spells multi-word names with underscores (DECLARE_TARGET)
        if len(parts) > 1 and all(parts) and (i > 0 or index.key([word]) not in index.prefixes):
            words.extend(parts)
        else:
            words.append(word)
        key = index.key(words)
        if key in index.names and index._fits(index.names[key]):
            best = (i + 1, index.names[key].name)
        if key not in index.prefixes:
            break
    if best is None:
        return None
    n, name = best
    return raw.source_span(toks[0].start, toks[n - 1].end), name


def looks_like_macro(word: str, macros: frozenset[str]) -> bool:
    """A C/C++ word that may be a macro: #defined in the file, or written in capitals as macros are."""
    return bool(word) and (word in macros or (word.isupper() and word.replace("_", "").isalnum()))


class _Parse:
    """State for parsing one directive."""

    def __init__(self, raw: RawDirective, language: Language, version: Version,
                 macros: frozenset[str] = frozenset(), name_only: bool = False) -> None:
        self.raw = raw
        # Read the directive name alone (a directive too large to read, see `parse_directive`).
        self.name_only = name_only
        self.macros = macros
        self.saw_macro = False
        self.fortran = language.is_fortran
        self.language = language
        self.lang_key = language._value_  # a str hashes without the Python-level Enum.__hash__
        self.version = version
        self.toks: list[Token] = tokenize_head(raw.body, NAME_TOKENS) if name_only else tokenize(raw.body)
        self.closing = _bracket_pairs(self.toks)
        # One contiguous piece (no continuation or comment): spans are a constant shift away.
        segments = raw.segments
        self.shift = segments[0][1] - segments[0][0] if len(segments) == 1 else None
        self.findings: list[Finding] = []
        # The directive itself needs a newer version: its clauses are not reported again.
        self.directive_not_in_version = False
        # The clause being read: where "empty" arguments are reported.
        self.clause_span: Span | None = None

    # -- helpers
    def is_macro(self, word: str) -> bool:
        """C/C++ pragmas are macro-expanded: a word #defined in the file, or written in capitals
        as macros are, may stand for anything, so it is never reported as unknown. Preprocessed
        Fortran expands the macros the build defines in `!$omp` lines too (not every capitalised
        word: Fortran is written in capitals)."""
        if self.fortran:
            if not self.macros or word.lower() not in _lowered(self.macros):
                return False
        elif not looks_like_macro(word, self.macros):
            return False
        self.saw_macro = True
        return True

    def span(self, a: int, b: int) -> Span:
        """Source span of tokens [a, b)."""
        toks = self.toks
        b = min(b, len(toks))
        shift = self.shift
        if a >= b:
            at = toks[a].start if a < len(toks) else len(self.raw.body)
            return (shift + at, shift + at) if shift is not None else self.raw.source_span(at, at)
        if shift is not None:
            return shift + toks[a].start, shift + toks[b - 1].end
        return self.raw.source_span(toks[a].start, toks[b - 1].end)

    def text(self, a: int, b: int) -> str:
        b = min(b, len(self.toks))
        if a >= b:
            return ""
        return self.raw.body[self.toks[a].start:self.toks[b - 1].end].decode("utf-8", "replace")

    def expr(self, a: int, b: int) -> Expr:
        return Expr(self.text(a, b), self.span(a, b))

    def word(self, tok: Token) -> str:
        return tok.text.lower() if self.fortran else tok.text

    def report(self, code: str, message: str, span: Span, severity: Severity | None = None,
               related: list[Related] | None = None, fixes: list[Fix] | None = None, **data: object) -> None:
        self.findings.append(Finding(code, message, span, severity, related or [], fixes or [], dict(data)))

    def close_of(self, i: int, limit: int) -> int:
        """Index of the bracket closing toks[i], or -1 when it is not closed before `limit`."""
        j = self.closing.get(i, -1)
        return j if j < limit else -1

    def split(self, a: int, b: int, sep: str) -> list[tuple[int, int]]:
        """Split tokens [a, b) on a separator at bracket depth 0 (':' of a ?: is not a separator)."""
        parts = []
        depth = 0
        start = a
        pending_ternary = 0
        toks = self.toks
        for j in range(a, b):
            t = toks[j]
            if t.kind != "punct":
                continue
            text = t.text
            if text in OPEN:
                depth += 1
            elif text in CLOSE:
                depth -= 1
            elif depth == 0:
                if text == "?":
                    pending_ternary += 1
                elif text == sep:
                    if sep == ":" and pending_ternary:
                        pending_ternary -= 1
                        continue
                    parts.append((start, j))
                    start = j + 1
        parts.append((start, b))
        return parts

    def colon_split(self, a: int, b: int) -> tuple[tuple[int, int] | None, tuple[int, int]]:
        """(before, after) the first top-level ':'; before is None when there is none."""
        parts = self.split(a, b, ":")
        if len(parts) == 1:
            return None, (a, b)
        first = parts[0]
        return first, (first[1] + 1, b)

    # -- directive
    def run(self) -> Directive:
        raw = self.raw
        toks = self.toks
        index = name_index(self.fortran)
        if not toks or toks[0].kind != "ident":
            span = self.span(0, 1) if toks else raw.sentinel
            self.report("OMP001", "expected an OpenMP directive name after the sentinel", span)
            return Directive(raw, "", span, None)
        # Greedy longest match of the name words.
        key_words: list[str] = []
        best: tuple[int, DirectiveSpec] | None = None
        i = 0
        underscores = False
        while i < len(toks) and toks[i].kind == "ident":
            word = self.word(toks[i])
            parts = word.split("_")
            # OpenMP 6.0 also spells multi-word directive names with underscores (declare_target).
            if i == 0 or len(parts) == 1 or not all(parts):
                parts = [word]
            key_words.extend(parts)
            key = index.key(key_words)
            if key in index.names:
                best = (i + 1, index.names[key])
                underscores = underscores or len(parts) > 1
            if key not in index.prefixes:
                break
            i += 1
        if best is None and 0 < i < len(toks) and toks[i].kind == "ident" and self.is_macro(toks[i].text):
            # `declare TGT`: a macro may complete the name (`#define TGT target`)
            return self._macro_name(self.span(0, i + 1))
        if best is None and "_" in toks[0].text:
            parts = self.word(toks[0]).split("_")
            key = index.key(parts)
            if all(parts) and key in index.names:
                best, underscores = (1, index.names[key]), True
        if best is None:
            return self._unknown_directive(index)
        n_name, spec = best
        name_span = self.span(0, n_name)
        directive = Directive(raw, spec.name, name_span, spec)
        if spec.name.startswith("end ") and spec.lang == "fortran" and spec.association == "end":
            directive.end_of = spec.name[4:]
        if not index._fits(spec):
            self._wrong_language(directive)
            return directive
        longer = self._misspelt_longer_name(index, n_name, spec)
        if longer is not None:
            return longer
        if underscores and self.version < 60:
            # a warning: compilers accept the 6.0 spelling in older modes (clang: -Wopenmp-future)
            self.report("OMP007", f"directive names spelled with underscores need OpenMP 6.0; "
                        f"the selected version is {version_text(self.version)}: write '{spec.name}'", name_span,
                        Severity.WARNING, fixes=[Fix(f"Change to '{spec.name}'", ((name_span, spec.name),))])
        if not allowed_in(spec.since, self.version) and directive.end_of is None:
            # (an end directive: its construct's directive says it); a warning: clang and flang accept newer directives in older modes (their clauses
            # they reject, OMP007 errors below); a compiler of the selected version does not
            self.directive_not_in_version = True
            self.report("OMP007", f"'{spec.name}' is an {_since_text(spec.since)} directive; "
                        f"the selected version is {version_text(self.version)} (clang and flang accept it "
                        "there, a compiler of that version need not)", name_span, Severity.WARNING)
        if self.name_only:
            return directive
        i = self._directive_argument(directive, n_name)
        self._clauses(directive, i)
        self._unique(directive)
        self._exactly_one(directive)
        self._exclusive(directive)
        return directive

    def _exclusive(self, directive: Directive) -> None:
        """Clauses of one of the directive's exclusive sets (tables: DirectiveSpec.exclusive) given
        together: the later one is reported (OMP011); a repeat of the same clause is OMP005's."""
        spec = directive.spec
        assert spec is not None
        for group in spec.exclusive:
            # a clause not allowed here (in this version) is OMP003's or OMP007's
            given = [c for c in directive.clauses if c.name in group and c.name in spec.clauses
                     and allowed_in(spec.clauses[c.name], self.version)]
            first = given[0] if given else None
            for clause in given[1:]:
                if first is None or clause.name == first.name:
                    continue
                self.report("OMP011", f"'{clause.name}' and '{first.name}' exclude each other on '{spec.name}'; "
                            "keep one of them", clause.span, related=[Related(first.span, f"'{first.name}' here")],
                            fixes=[Fix(f"Remove the '{clause.name}' clause", ((clause.span, ""),))])

    def _exactly_one(self, directive: Directive) -> None:
        """Directives that need exactly one clause of a set (cancel's construct type)."""
        spec = directive.spec
        assert spec is not None
        language = "fortran" if self.fortran else "c"
        choices = [t for t in spec.exactly_one_of if tables.CLAUSES[t].lang in ("all", language)]
        if not choices:
            return
        given = [c for c in directive.clauses if c.name in spec.exactly_one_of]
        if not given:
            # A misspelt choice is reported already; a macro may expand to one.
            if all(c.spec is not None for c in directive.clauses) and not self.saw_macro:
                listed = ", ".join(choices[:-1]) + " or " + choices[-1]
                self.report("OMP004", f"'{spec.name}' needs one of {listed}", directive.name_span)
        elif len(given) > 1:
            self.report("OMP005", f"'{spec.name}' takes one of {', '.join(choices)}; '{given[0].name}' is "
                        "already given", given[1].span, related=[Related(given[0].span, "given here first")])

    def _misspelt_longer_name(self, index: NameIndex, n_name: int, spec: DirectiveSpec) -> Directive | None:
        """`target teamz`, `target exit dta`, `target teams distribute parallel fro`: the words after a
        matched name are a misspelling of a longer directive name rather than clauses."""
        toks = self.toks
        extra: list[str] = []
        j = n_name
        while j < len(toks) and toks[j].kind == "ident" and len(extra) < 4 and not self.is_macro(toks[j].text):
            extra.append(self.word(toks[j]))
            j += 1
        if not extra or extra[0] in spec.clauses:
            return None
        known_clause = extra[0] in tables.CLAUSES
        prefix = spec.name + " "
        best: tuple[float, str, int] | None = None
        for name in index.own:
            if not name.startswith(prefix):
                continue
            rest = name[len(prefix):].split()
            m = len(rest)
            if len(extra) < m or extra[:m] == rest:
                continue
            if known_clause and extra[0] != rest[0]:
                continue  # a real clause that is only misplaced (OMP003), e.g. 'target simdlen(4)'
            after = n_name + m
            if after < len(toks) and toks[after].text == "(" and index.names[index.key(name.split())].argument is None:
                continue  # 'word(...)' is a clause, not part of a name
            ratio = _similarity(" ".join(extra[:m]), " ".join(rest))
            if ratio >= 0.8 and (best is None or ratio > best[0]):
                best = (ratio, name, m)
        if best is None:
            return None
        _, name, m = best
        span = self.span(0, n_name + m)
        written = " ".join([spec.name] + extra[:m])
        self.report("OMP001", f"unknown OpenMP directive '{written}'; did you mean '{name}'?", span,
                    fixes=[Fix(f"Change to '{name}'", ((span, name),))], suggestion=name)
        return Directive(self.raw, "", span, None, suggestion=name)

    def _macro_name(self, span: Span) -> Directive:
        """A name (partly) written with a word that may be a macro: nothing is reported here (the
        rules decide with the build's macros); what it spells in lower case is the suggestion, so
        that `BEGIN DECLARE TARGET` still pairs with its end directive."""
        found = name_in_lower_case(self.raw, self.language)
        return Directive(self.raw, "", span, None, suggestion=found[1] if found else None, macro_name=True)

    def _unknown_directive(self, index: NameIndex) -> Directive:
        toks = self.toks
        if self.is_macro(toks[0].text):
            return self._macro_name(self.span(0, 1))
        words = [self.word(t) for t in toks[:8] if t.kind == "ident"]
        n_idents = 0
        while n_idents < len(toks) and n_idents < 8 and toks[n_idents].kind == "ident":
            n_idents += 1
        best_name, best_ratio, best_len = None, 0.0, 1
        for k in range(1, n_idents + 1):
            phrase = " ".join(words[:k])
            for name in index.own:
                ratio = _similarity(phrase, name)
                if ratio > best_ratio or (ratio == best_ratio and best_name and len(name) < len(best_name)):
                    best_name, best_ratio, best_len = name, ratio, k
        span = self.span(0, 1)
        ended = next((k for k in range(n_idents, 1, -1) if words[0] == "end"
                      and " ".join(words[1:k]) in tables.DIRECTIVES), None)
        if ended is not None and not self.fortran:
            span = self.span(0, ended)
            self.report("OMP001", f"'{' '.join(words[:ended])}' is a Fortran end directive; in C/C++ a construct "
                        "ends with its structured block", span)
        elif words[0] in tables.CLAUSES and not (best_name and best_ratio >= 0.7 and words[0] in best_name.split()):
            self.report("OMP001", f"unknown OpenMP directive '{words[0]}': '{words[0]}' is a clause; "
                        "a directive name must come first", span)
        elif best_name and best_ratio >= 0.7:
            wrong_span = self.span(0, best_len)
            self.report("OMP001", f"unknown OpenMP directive '{' '.join(words[:best_len])}'; did you mean '{best_name}'?",
                        wrong_span, fixes=[Fix(f"Change to '{best_name}'", ((wrong_span, best_name),))],
                        suggestion=best_name)
            return Directive(self.raw, "", wrong_span, None, suggestion=best_name)
        else:
            self.report("OMP001", f"unknown OpenMP directive '{words[0]}'", span)
        return Directive(self.raw, "", span, None)

    def _wrong_language(self, directive: Directive) -> None:
        spec = directive.spec
        assert spec is not None
        if self.fortran:
            other = " ".join("do" if w == "for" else w for w in spec.name.split())
            if spec.name in ("begin declare target", "end declare target"):
                hint = ("; Fortran has no delimited form: put '!$omp declare target' (with the list, or alone "
                        "for the enclosing procedure) in the specification part")
            elif spec.name.startswith(("begin ", "end ")):
                hint = "; Fortran has no delimited form of it"
            elif other != spec.name and other in tables.DIRECTIVES:
                hint = f"; in Fortran write '{other}'"
            else:
                hint = ""
            self.report("OMP001", f"'{spec.name}' is a C/C++ directive{hint}", directive.name_span)
        elif spec.name.startswith("end ") and spec.association == "end":
            self.report("OMP001", f"'{spec.name}' is a Fortran end directive; in C/C++ a construct ends "
                        "with its structured block", directive.name_span)
        else:
            words = ["for" if w == "do" else w for w in spec.name.split()]
            other = " ".join(words)
            hint = f"; in C/C++ write '{other}'" if other != spec.name and other in tables.DIRECTIVES else ""
            self.report("OMP001", f"'{spec.name}' is a Fortran directive{hint}", directive.name_span)

    def _directive_argument(self, directive: Directive, i: int) -> int:
        spec = directive.spec
        assert spec is not None
        toks = self.toks
        has_paren = i < len(toks) and toks[i].text == "("
        if spec.argument is None or not has_paren:
            if spec.argument is not None and spec.argument_required:
                self.report("OMP004", f"'{spec.name}' needs an argument in parentheses", directive.name_span)
            return i
        close = self.close_of(i, len(toks))
        if close < 0:
            self.report("OMP004", "missing ')'", self.span(i, i + 1))
            close = len(toks)
        directive.argument_span = self.span(i + 1, close) if close > i + 1 else self.span(i, min(close + 1, len(toks)))
        if spec.argument == "list":
            directive.argument = self._items(i + 1, close, f"'{spec.name}'")
        elif spec.argument == "name":
            parts = self.split(i + 1, close, ":")
            directive.argument = [self._item(a, b) for a, b in parts]
            if any(a == b for a, b in parts):
                self.report("OMP004", f"'{spec.name}' needs a name in its parentheses", self.span(i, close + 1))
        else:
            directive.argument = [ListItem(self.text(i + 1, close), self.span(i + 1, close))] if close > i + 1 else []
        return close + 1

    # -- clauses
    def _clauses(self, directive: Directive, i: int) -> None:
        spec = directive.spec
        assert spec is not None
        toks = self.toks
        n = len(toks)
        takes_nothing = not spec.clauses and spec.argument is None
        # A real clause name after a directive that takes none is a misplaced clause (OMP003, as the
        # compilers report it); anything else is extra text that the compilers ignore (OMP009).
        if takes_nothing and i < n and not (toks[i].kind == "ident" and self.word(toks[i]) in tables.CLAUSES):
            self.report("OMP009", f"'{spec.name}' takes no clauses; the rest of the line is ignored",
                        self.span(i, n), fixes=[Fix("Remove the extra tokens", ((self._trim_span(i, n), ""),))])
            return
        while i < n:
            tok = toks[i]
            if (tok.kind == "punct" and tok.text == "," and directive.clauses and i + 1 < n
                    and toks[i + 1].kind == "ident"):
                i += 1
                continue
            if tok.kind == "punct" and tok.text == "," and directive.clauses and i + 1 == n:
                i += 1  # a trailing comma: the compilers accept it
                continue
            if tok.kind != "ident":
                j = i + 1
                while j < n and toks[j].kind != "ident":
                    j += 1
                self.report("OMP004", f"expected a clause name, found '{tok.text}'", self.span(i, j))
                i = j
                continue
            i = self._clause(directive, i)

    def _trim_span(self, a: int, b: int) -> Span:
        """The span of tokens [a, b) widened to the white space before it."""
        start = self.toks[a - 1].end if a > 0 else 0
        return self.raw.source_span(start, self.toks[b - 1].end)

    def _clause(self, directive: Directive, i: int) -> int:
        """One clause, from the clause cache when the same clause text was read before on a directive
        of the same name: `map(to: b[0:n])` repeats in directives that differ elsewhere."""
        toks = self.toks
        n = len(toks)
        j = i + 1
        if self.shift is None:  # spans through a segment map: not a constant shift away
            return self._read_clause(directive, i)
        if j < n and toks[j].text == "(":
            end = self.closing.get(j, -1) + 1
            if end <= 0:
                return self._read_clause(directive, i)  # unclosed: its findings reach past the clause
        else:
            end = j
        # The clause's reading depends only on its own tokens (a closed '(' pairs all brackets inside
        # it), the directive and the settings; equal text from a token start gives equal tokens.
        start = toks[i].start
        key = (self.raw.body[start:toks[end - 1].end], directive.name, self.lang_key, self.version, self.macros,
               self.directive_not_in_version)
        base = self.shift + start
        hit = _clause_cache.get(key)
        if hit is not None:
            old_base, clause, findings, saw_macro = hit
            delta = base - old_base
            if delta:
                clause = shifted(clause, delta)
                findings = shifted(findings, delta) if findings else findings
            directive.clauses.append(clause)
            self.clause_span = clause.span
            self.findings.extend(findings)
            self.saw_macro = self.saw_macro or saw_macro
            return end
        n_findings = len(self.findings)
        saw_before = self.saw_macro
        self.saw_macro = False
        got = self._read_clause(directive, i)
        if len(_clause_cache) >= _CLAUSE_CACHE_LIMIT:
            _clause_cache.pop(next(iter(_clause_cache)))
        _clause_cache[key] = (base, directive.clauses[-1], self.findings[n_findings:], self.saw_macro)
        self.saw_macro = saw_before or self.saw_macro
        return got

    def _read_clause(self, directive: Directive, i: int) -> int:
        spec = directive.spec
        assert spec is not None
        toks = self.toks
        n = len(toks)
        name = self.word(toks[i])
        cspec = tables.CLAUSES.get(name)
        name_span = self.span(i, i + 1)
        j = i + 1
        close = -1
        if j < n and toks[j].text == "(":
            close = self.close_of(j, n)
            if close < 0:
                self.report("OMP004", "missing ')'", self.span(j, j + 1))
                close = n
        end = min(close + 1, n) if close >= 0 else j
        clause = Clause(name, self.span(i, end), name_span, cspec)
        if close >= 0:
            clause.args_span = self.span(j + 1, close)
        directive.clauses.append(clause)
        self.clause_span = clause.span
        if cspec is None and self.is_macro(name):
            return end
        if cspec is None:
            allowed = [c for c in spec.clauses]
            guess = suggest(name, allowed) or suggest(name, tables.CLAUSES.keys(), 0.75)
            message = f"unknown clause '{name}'" + (f"; did you mean '{guess}'?" if guess else "")
            fixes = [Fix(f"Change to '{guess}'", ((name_span, guess),))] if guess else []
            self.report("OMP002", message, name_span, fixes=fixes, suggestion=guess)
            return end
        since = spec.clauses.get(name)
        if cspec.lang != "all" and (cspec.lang == "fortran") != self.fortran:
            self.report("OMP003", f"clause '{name}' does not exist in "
                        f"{'Fortran' if self.fortran else 'C/C++'}", name_span)
        elif since is None:
            self.report("OMP003", f"clause '{name}' is not allowed on '{spec.name}'", clause.span)
        elif not allowed_in(since, self.version) and not self.directive_not_in_version:
            first = clause_first_versions(self.fortran).get(name, self.version)
            selected = version_text(self.version)
            if isinstance(since, tuple) and self.version > since[1]:
                # Removed from the specification, but the compilers still accept it with a warning.
                self.report("OMP007", f"clause '{name}' on '{spec.name}' is allowed only in {_since_text(since)} "
                            f"(deprecated); the selected version is {selected}", name_span, Severity.WARNING)
            elif first > self.version:
                # The spelling itself is newer than the selected version (has_device_addr in 5.0).
                self.report("OMP007", f"clause '{name}' needs {_since_text(since)}; the selected version is "
                            f"{selected}", name_span)
            else:
                self.report("OMP003", f"clause '{name}' is not allowed on '{spec.name}' in OpenMP {selected} "
                            f"(allowed from {_since_text(since)} on)", clause.span)
        shape = spec.shape_overrides.get(name, cspec.shape)
        if shape == "none":
            if close >= 0:
                self.report("OMP004", f"clause '{name}' takes no argument", self.span(j, end))
        elif close < 0:
            if shape != "opt_expr":
                self.report("OMP004", f"clause '{name}' needs an argument in parentheses", name_span)
        else:
            _READERS[shape](self, clause, cspec, j + 1, close, directive)
        return end

    def _unique(self, directive: Directive) -> None:
        spec = directive.spec
        assert spec is not None
        seen: dict[tuple[str, str], Clause] = {}
        for clause in directive.clauses:
            cspec = clause.spec
            if cspec is None:
                continue
            if cspec.unique_key == "modifier":
                mod = " ".join(m.name for m in clause.modifiers) or "*"
                keys = [(clause.name, mod)]
                conflicts = [k for k in seen if k[0] == clause.name and (k[1] == mod or "*" in (k[1], mod))]
            elif cspec.unique_key == "category":
                cat = clause.category.name if clause.category else "*"
                keys = [(clause.name, cat)]
                conflicts = [k for k in seen if k[0] == clause.name and (k[1] == cat or "*" in (k[1], cat))]
            elif cspec.unique or clause.name in spec.unique:
                keys = [(clause.name, "")]
                conflicts = [k for k in keys if k in seen]
            else:
                continue
            if conflicts:
                first = seen[conflicts[0]]
                what = f"'{clause.name}'" + (f" with '{conflicts[0][1]}'" if conflicts[0][1] not in ("", "*") else "")
                self.report("OMP005", f"{what} may appear only once on '{spec.name}'", clause.span,
                            related=[Related(first.span, "first appears here")],
                            fixes=[Fix(f"Remove the repeated '{clause.name}' clause", ((clause.span, ""),))])
            for k in keys:
                seen.setdefault(k, clause)

    # -- shape readers
    def _modifiers(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        allowed = cspec.modifiers
        plain, calls = _modifier_words(cspec)
        for x, y in self.split(a, b, ","):
            if x == y:
                self.report("OMP004", f"empty modifier in '{clause.name}'", self._gap(x))
                continue
            toks = self.toks[x:y]
            # Modifiers may also be separated by white space only (map(always close tofrom: x), 5.0/5.1).
            words = self._segment_modifiers(x, y, plain, calls)
            if words is not None and all(w[0] is not None for w in words):
                for name, s, e in words:
                    assert name is not None  # all words are known (checked just above)
                    self._add_modifier(clause, cspec, directive, name, s, e)
                continue
            if "<expr>" in allowed:
                clause.modifiers.append(Modifier("<expr>", self.span(x, y), self.expr(x, y)))
                continue
            names = sorted(plain | calls)
            if not names:
                self.report("OMP004", f"clause '{clause.name}' takes no modifiers", self.span(x, y))
                continue
            if words is not None:  # words side by side, some unknown: report each unknown one
                for name, s, e in words:
                    if name is not None:
                        self._add_modifier(clause, cspec, directive, name, s, e)
                    else:
                        self._unknown_modifier(clause, self.word(self.toks[s]), self.span(s, e), names)
                continue
            word = " ".join(self.word(t) for t in toks) if all(t.kind == "ident" for t in toks) else self.text(x, y)
            self._unknown_modifier(clause, word, self.span(x, y), names)

    def _segment_modifiers(self, x: int, y: int, plain: frozenset[str], calls: frozenset[str]
                           ) -> list[tuple[str | None, int, int]] | None:
        """Split tokens [x, y) into modifiers: (name, start, end), name None for an unknown word.
        None when the tokens are not a sequence of words and word(...) calls."""
        toks = self.toks
        out: list[tuple[str | None, int, int]] = []
        j = x
        while j < y:
            if toks[j].kind != "ident":
                return None
            if j + 1 < y and toks[j + 1].text == "(":
                close = self.close_of(j + 1, y)
                if close < 0:
                    return None
                out.append((self.word(toks[j]) + "()" if self.word(toks[j]) in calls else None, j, close + 1))
                j = close + 1
                continue
            for k in range(min(4, y - j), 0, -1):  # longest multi-word modifier first (target enter data)
                seg = toks[j:j + k]
                if all(t.kind == "ident" for t in seg) and " ".join(self.word(t) for t in seg) in plain:
                    out.append((" ".join(self.word(t) for t in seg), j, j + k))
                    j += k
                    break
            else:
                out.append((None, j, j + 1))
                j += 1
        return out

    def _add_modifier(self, clause: Clause, cspec: ClauseSpec, directive: Directive, name: str, s: int,
                      e: int) -> None:
        span = self.span(s, e)
        if name.endswith("()"):
            clause.modifiers.append(Modifier(name[:-2], span, self.expr(s + 2, e - 1)))
            self._modifier_version(clause, cspec, name, self.span(s, s + 1))
            return
        clause.modifiers.append(Modifier(name, span))
        self._modifier_version(clause, cspec, name, span)
        if cspec.unique_key == "modifier":
            self._if_modifier(clause, directive, name, span)

    def _unknown_modifier(self, clause: Clause, word: str, span: Span, names: list[str]) -> None:
        if self.is_macro(word):
            return
        guess = suggest(word, names)
        message = f"unknown modifier '{word}' in '{clause.name}'" + (
            f"; did you mean '{guess}'?" if guess else f"; expected one of {', '.join(names)}")
        fixes = [Fix(f"Change to '{guess}'", ((span, guess),))] if guess else []
        self.report("OMP004", message, span, fixes=fixes, suggestion=guess)

    def _gap(self, x: int) -> Span:
        """A visible span for an empty part at token x: the separator around it."""
        toks = self.toks
        if x < len(toks) and toks[x].text in (",", ":", ";"):
            return self.span(x, x + 1)
        if 0 < x <= len(toks) and toks[x - 1].text in (",", ":", ";"):
            return self.span(x - 1, x)
        if self.clause_span is not None:
            return self.clause_span
        return self.span(max(x - 1, 0), x + 1)

    def _empty(self, a: int) -> Span:
        """Where an empty argument list is reported: the clause, or the parentheses."""
        if self.clause_span is not None:
            return self.clause_span
        return self.span(max(a - 1, 0), a + 1)

    def _modifier_version(self, clause: Clause, cspec: ClauseSpec, name: str, span: Span) -> None:
        since = cspec.modifier_since.get(name) or cspec.modifier_since.get(name.rstrip("()"))
        if since is not None and self.version < since:
            self.report("OMP007", f"modifier '{name.rstrip('()')}' of '{clause.name}' needs OpenMP "
                        f"{version_text(since)}; the selected version is {version_text(self.version)}", span)

    def _if_modifier(self, clause: Clause, directive: Directive, name: str, span: Span) -> None:
        """`if(target: ...)` must name a constituent construct of the directive."""
        words = directive.name.split()
        mod = name.split()
        if not any(words[k:k + len(mod)] == mod for k in range(len(words))):
            self.report("OMP004", f"directive-name modifier '{name}' does not name a part of '{directive.name}'", span)

    def _keyword(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, what: str = "argument") -> Modifier | None:
        if a >= b:
            self.report("OMP004", f"clause '{clause.name}' needs an {what}", self._gap(a) if what == "category" else clause.span)
            return None
        word = self.text(a, b)
        word_cmp = word.lower() if self.fortran else word
        options = cspec.keywords if what == "argument" else cspec.categories
        mod = Modifier(word_cmp, self.span(a, b))
        toks = self.toks
        if b - a >= 2 and toks[a].kind == "ident" and self.word(toks[a]) in options:
            # schedule(static 4), defaultmap(tofrom scalar): the separator is missing.
            sep = "':'" if cspec.shape == "defaultmap" and what == "argument" else "','"
            self.report("OMP004", f"expected {sep} between '{toks[a].text}' and '{toks[a + 1].text}'",
                        self.span(a, a + 2))
            return Modifier(self.word(toks[a]), self.span(a, a + 1))
        if word_cmp not in options and not self.is_macro(word):
            guess = suggest(word_cmp, options)
            message = f"'{word}' is not a valid {what} of '{clause.name}'" + (
                f"; did you mean '{guess}'?" if guess else f"; expected one of {', '.join(options)}")
            fixes = [Fix(f"Change to '{guess}'", ((mod.span, guess),))] if guess else []
            self.report("OMP004", message, mod.span, fixes=fixes, suggestion=guess)
        return mod

    def _need_args(self, clause: Clause, a: int, b: int, what: str = "an argument") -> bool:
        if a >= b:
            self.report("OMP004", f"clause '{clause.name}' needs {what}", clause.span)
            return False
        return True

    def read_expr(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, (x, y) = self.colon_split(a, b)
        if before is not None:
            self._modifiers(clause, cspec, before[0], before[1], directive)
        if self._need_args(clause, x, y, "an expression"):
            clause.exprs.append(self.expr(x, y))

    def read_exprs(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        if not self._need_args(clause, a, b):
            return
        for x, y in self.split(a, b, ","):
            if x == y:
                self.report("OMP004", f"empty argument in '{clause.name}'", self._gap(x))
            else:
                clause.exprs.append(self.expr(x, y))

    def read_list(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, (x, y) = self.colon_split(a, b)
        if before is not None:
            if cspec.modifiers:
                self._modifiers(clause, cspec, before[0], before[1], directive)
            else:
                where = self.span(*before) if before[0] < before[1] else self._gap(before[1])
                self.report("OMP004", f"clause '{clause.name}' takes no modifiers", where)
        clause.items = self._items(x, y, f"'{clause.name}'", cspec)

    def read_keyword(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, (x, y) = self.colon_split(a, b)
        if before is not None:
            self._modifiers(clause, cspec, before[0], before[1], directive)
        clause.keyword = self._keyword(clause, cspec, x, y)

    def read_keyword_expr(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, (x, y) = self.colon_split(a, b)
        if before is not None:
            self._modifiers(clause, cspec, before[0], before[1], directive)
        parts = self.split(x, y, ",")
        clause.keyword = self._keyword(clause, cspec, *parts[0])
        for p, q in parts[1:]:
            if p == q:
                self.report("OMP004", f"empty argument in '{clause.name}'", self._gap(p))
            else:
                clause.exprs.append(self.expr(p, q))

    def read_defaultmap(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, after = self.colon_split(a, b)
        if before is None:
            clause.keyword = self._keyword(clause, cspec, *after)
        else:
            clause.keyword = self._keyword(clause, cspec, *before)
            clause.category = self._keyword(clause, cspec, *after, what="category")

    def read_reduction(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, (x, y) = self.colon_split(a, b)
        if before is None:
            self.report("OMP004", f"clause '{clause.name}' needs a reduction identifier and ':' before its list",
                        clause.span)
            clause.items = self._items(x, y, f"'{clause.name}'", adjacent=False)
            return
        parts = self.split(*before, ",")
        *mods, ident = parts
        if mods:
            self._modifiers(clause, cspec, mods[0][0], mods[-1][1], directive)
        if ident[0] == ident[1]:
            self.report("OMP004", f"clause '{clause.name}' needs a reduction identifier", clause.span)
        else:
            clause.exprs.append(self.expr(*ident))
        clause.items = self._items(x, y, f"'{clause.name}'")

    def read_depend(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, (x, y) = self.colon_split(a, b)
        if before is None:
            # depend(source) / doacross(source) need no list.
            if y - x == 1 and self.word(self.toks[x]) in cspec.modifiers:
                clause.modifiers.append(Modifier(self.word(self.toks[x]), self.span(x, y)))
                return
            self.report("OMP004", f"clause '{clause.name}' needs a dependence type and ':' before its list",
                        clause.span)
            return
        self._modifiers(clause, cspec, before[0], before[1], directive)
        kinds = {m.name for m in clause.modifiers}
        if kinds & {"sink"}:
            self.read_exprs(clause, cspec, x, y, directive)
        elif x < y or not kinds & {"source", "omp_cur_iteration"}:
            clause.items = self._items(x, y, f"'{clause.name}'")

    def read_linear(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, after = self.colon_split(a, b)
        x, y = before if before is not None else after
        toks = self.toks
        plain = {m for m in cspec.modifiers if not m.endswith("()")}
        # Old form: val(list) / ref(list) / uval(list)
        old_form = (y - x >= 3 and toks[x].kind == "ident" and toks[x + 1].text == "("
                    and self.close_of(x + 1, y) == y - 1)
        if old_form and self.word(toks[x]) in plain:
            clause.modifiers.append(Modifier(self.word(toks[x]), self.span(x, x + 1)))
            clause.items = self._items(x + 2, y - 1, f"'{clause.name}'")
        elif old_form and self.word(toks[x]) + "()" not in cspec.modifiers:
            # linear(reff(x)): a list item is a variable, so word(...) can only be a modifier.
            self._unknown_modifier(clause, self.word(toks[x]), self.span(x, x + 1), sorted(plain))
            clause.items = self._items(x + 2, y - 1, f"'{clause.name}'")
        else:
            clause.items = self._items(x, y, f"'{clause.name}'")
        if before is None:
            return
        p, q = after
        parts = self.split(p, q, ",")
        is_mods = all(
            (s < t and toks[s].kind == "ident" and
             ((t - s == 1 and self.word(toks[s]) in plain) or
              (self.word(toks[s]) + "()" in cspec.modifiers and t - s >= 3 and toks[s + 1].text == "(")))
            for s, t in parts)
        # Before 5.2 a lone word after ':' is the step (a variable that may be called val).
        step_word = self.version < 52 and all(t - s == 1 for s, t in parts)
        if is_mods and not step_word and not (len(parts) == 1 and q - p == 1 and self.word(toks[p]) not in plain):
            self._modifiers(clause, cspec, p, q, directive)
        elif self._need_args(clause, p, q, "a step after ':'"):
            clause.exprs.append(self.expr(p, q))

    def read_aligned(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, after = self.colon_split(a, b)
        if before is None:
            clause.items = self._items(*after, f"'{clause.name}'")
            return
        clause.items = self._items(*before, f"'{clause.name}'")
        if self._need_args(clause, *after, "an alignment after ':'"):
            parts = self.split(*after, ",")
            if len(parts) > 1:
                self.report("OMP004", f"clause '{clause.name}' takes one alignment after ':'; list items go "
                            "before it", self.span(parts[1][0] - 1, after[1]))
            clause.exprs.append(self.expr(*parts[0]))

    def read_opt_expr(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        self.read_expr(clause, cspec, a, b, directive)

    def read_opaque(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        if a < b:
            clause.exprs.append(self.expr(a, b))

    def read_when(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, (x, y) = self.colon_split(a, b)
        if before is None:
            self.report("OMP004", "clause 'when' needs a context selector and ':' before its directive variant",
                        clause.span)
            return
        clause.selector = self._selector(before[0], before[1])
        if x < y:
            clause.exprs.append(self.expr(x, y))  # the directive variant (may be empty: nothing)

    def read_adjust_args(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, (x, y) = self.colon_split(a, b)
        if before is None:
            self.report("OMP004", f"clause '{clause.name}' needs an adjustment ({', '.join(cspec.modifiers)}) "
                        "and ':' before its list", clause.span)
        else:
            self._modifiers(clause, cspec, before[0], before[1], directive)
        clause.items = self._items(x, y, f"'{clause.name}'")

    def read_append_args(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        if not self._need_args(clause, a, b):
            return
        toks = self.toks
        for x, y in self.split(a, b, ","):
            if (y - x >= 3 and self.word(toks[x]) == "interop" and toks[x + 1].text == "("
                    and self.close_of(x + 1, y) == y - 1):
                spec = InteropSpec(self.span(x, y))
                spec.properties = [self.expr(p, q) for p, q in self.split(x + 2, y - 1, ",") if p < q]
                clause.interops.append(spec)
            else:
                self.report("OMP004", f"'{clause.name}' takes a list of interop(...) operations", self.span(x, y))

    def read_uses_allocators(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        if not self._need_args(clause, a, b):
            return
        # 5.2 separates allocator specifications with ';' (traits(t): a; b, c; memspace(m): d).
        for s, e in self.split(a, b, ";"):
            if s == e:
                self.report("OMP004", f"empty allocator specification in '{clause.name}'", self._gap(s))
                continue
            self._allocator_spec(clause, cspec, s, e, directive)

    def _allocator_spec(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        before, (x, y) = self.colon_split(a, b)
        if before is not None:
            self._modifiers(clause, cspec, before[0], before[1], directive)
            clause.items.extend(self._items(x, y, f"'{clause.name}'"))
            return
        toks = self.toks
        for p, q in self.split(x, y, ","):
            if p == q:
                self.report("OMP004", f"empty allocator in '{clause.name}'", self._gap(p))
                continue
            if toks[p].kind == "ident" and q - p >= 3 and toks[p + 1].text == "(" and self.close_of(p + 1, q) == q - 1:
                clause.items.append(ListItem(self.text(p, p + 1), self.span(p, p + 1), self.text(p, p + 1),
                                             self.span(p, p + 1)))
                clause.modifiers.append(Modifier("traits", self.span(p + 1, q), self.expr(p + 2, q - 1)))
            else:
                clause.items.append(self._item(p, q))

    def read_selector(self, clause: Clause, cspec: ClauseSpec, a: int, b: int, directive: Directive) -> None:
        clause.selector = self._selector(a, b)

    # -- list items
    def _items(self, a: int, b: int, where: str, cspec: ClauseSpec | None = None,
               adjacent: bool = True) -> list[ListItem]:
        if a >= b:
            self.report("OMP004", f"empty list in {where}", self._empty(a))
            return []
        items = []
        for x, y in self.split(a, b, ","):
            if x == y:
                self.report("OMP004", f"empty list item in {where}", self._gap(x))
                continue
            items.append(self._item(x, y, cspec, adjacent))
        return items

    def _item(self, a: int, b: int, cspec: ClauseSpec | None = None, adjacent: bool = True) -> ListItem:
        toks = self.toks
        item = ListItem(self.text(a, b), self.span(a, b))
        if a >= b:
            return item
        if b - a == 1 and toks[a].kind in ("number", "string"):
            self.report("OMP004", f"expected a variable name, found '{toks[a].text}'", item.span)
            return item
        if adjacent:
            self._adjacent_check(a, b, cspec)
        j = a
        if self.fortran and toks[j].text == "/" and b - a == 3 and toks[a + 1].kind == "ident" and toks[b - 1].text == "/":
            item.name = self.word(toks[a + 1])
            item.name_span = self.span(a + 1, a + 2)
            item.common_block = True
            return item
        if toks[j].kind != "ident" and not (toks[j].text == "::" and j + 1 < b and toks[j + 1].kind == "ident"):
            return item
        name_start = j
        if toks[j].text == "::":
            j += 1
        j += 1
        while not self.fortran and j + 1 < b and toks[j].text == "::" and toks[j + 1].kind == "ident":
            j += 2
        name = self.text(name_start, j)
        name_span = self.span(name_start, j)
        subscripts: list[list[Subscript]] = []
        members: list[str] = []
        opener = "(" if self.fortran else "["
        while j < b:
            t = toks[j]
            if t.text == opener:
                close = self.close_of(j, b)
                if close < 0:
                    return item
                subscripts.append(self._subscripts(j + 1, close))
                j = close + 1
            elif t.kind == "punct" and t.text in ((".", "->") if not self.fortran else ("%",)) and j + 1 < b \
                    and toks[j + 1].kind == "ident":
                members.append(self.word(toks[j + 1]))
                j += 2
            else:
                return item  # a general expression (*p, f(x), a + 1): kept as text
        item.name = name.lower() if self.fortran else name
        item.name_span = name_span
        item.subscripts = subscripts
        item.members = members
        return item

    def _adjacent_check(self, a: int, b: int, cspec: ClauseSpec | None) -> None:
        """Two operands side by side at the top level: a missing ',' (or ':')."""
        toks = self.toks
        if all(t.kind == "ident" for t in toks[a:b]) and " ".join(self.word(t) for t in toks[a:b]) in tables.DIRECTIVES:
            return  # a directive name (absent(target data), contains(target teams distribute))
        # In C/C++ a ')' may end a cast, (int *)p; in Fortran nothing follows a ')' without an operator.
        closers = ("]", ")") if self.fortran else ("]",)
        depth = 0
        prev_operand = False
        for j in range(a, b):
            t = toks[j]
            operand = t.kind in ("ident", "number", "string")
            if t.kind == "punct" and t.text in OPEN:
                depth += 1
            elif t.kind == "punct" and t.text in CLOSE:
                depth -= 1
            if depth == 0 and operand and prev_operand and not self._keyword_pair(j):
                first = self.word(toks[j - 1])
                hint = "':'" if cspec is not None and first in cspec.modifiers else "','"
                self.report("OMP004", f"expected {hint} between '{toks[j - 1].text}' and '{t.text}'",
                            self.span(j - 1, j + 1))
                return
            prev_operand = (operand and depth == 0) or (t.kind == "punct" and t.text in closers and depth == 0)

    def _keyword_pair(self, j: int) -> bool:
        """C/C++ keywords that legitimately precede an operand (sizeof x, struct s)."""
        return not self.fortran and self.toks[j - 1].text in ("sizeof", "struct", "union", "enum", "const",
                                                               "unsigned", "signed", "long", "short", "new",
                                                               "delete", "typename", "alignof")

    def _subscripts(self, a: int, b: int) -> list[Subscript]:
        dims = self.split(a, b, ",") if self.fortran else [(a, b)]
        out = []
        for x, y in dims:
            parts = self._section_parts(x, y)
            sub = Subscript(self.span(x, y), is_section=len(parts) > 1)
            exprs = [self.expr(p, q) if p < q else None for p, q in parts]
            sub.lower = exprs[0]
            if len(exprs) > 1:
                sub.length = exprs[1]
            if len(exprs) > 2:
                sub.stride = exprs[2]
            out.append(sub)
        return out

    def _section_parts(self, a: int, b: int) -> list[tuple[int, int]]:
        """Split a subscript on its top-level ':'s; '::' is two of them (a(::2), a[1::2]) except
        for a C++ scope operator before a name (a[ns::n : 4], a[::n])."""
        toks = self.toks
        parts: list[tuple[int, int]] = []
        depth = 0
        ternary = 0
        start = a
        for j in range(a, b):
            t = toks[j]
            if t.kind != "punct":
                continue
            if t.text in OPEN:
                depth += 1
            elif t.text in CLOSE:
                depth -= 1
            elif depth == 0 and t.text == "?":
                ternary += 1
            elif depth == 0 and t.text == ":":
                if ternary:
                    ternary -= 1
                    continue
                parts.append((start, j))
                start = j + 1
            elif depth == 0 and t.text == "::":
                scope = (self.language is Language.CPP and j + 1 < b and toks[j + 1].kind == "ident")
                if scope:
                    continue
                parts.append((start, j))
                parts.append((j, j))
                start = j + 1
        parts.append((start, b))
        return parts

    # -- context selectors
    def _selector(self, a: int, b: int) -> ContextSelector:
        toks = self.toks
        selector = ContextSelector(self.span(a, b))
        if a >= b:
            self.report("OMP004", "empty context selector", self._empty(a))
            return selector
        for x, y in self.split(a, b, ","):
            if x == y:
                self.report("OMP004", "empty trait set in the context selector", self._gap(x))
                continue
            ok = (y - x >= 4 and toks[x].kind == "ident" and toks[x + 1].text == "=" and toks[x + 2].text == "{"
                  and self.close_of(x + 2, y) == y - 1)
            if not ok:
                if y - x == 1 and toks[x].kind == "ident" and self.is_macro(toks[x].text):
                    continue  # a macro that expands to trait sets
                self.report("OMP004", "expected a trait set such as 'device={kind(gpu)}'", self.span(x, y))
                continue
            trait_set = TraitSet(self.word(toks[x]), self.span(x, y), self.span(x, x + 1))
            for p, q in self.split(x + 3, y - 1, ","):
                if p == q:
                    if x + 3 != y - 1:
                        self.report("OMP004", "empty trait selector", self._gap(p))
                    continue
                sel = self._trait_selector(p, q)
                if sel is not None:
                    trait_set.selectors.append(sel)
            selector.sets.append(trait_set)
        return selector

    def _trait_selector(self, a: int, b: int) -> TraitSelector | None:
        toks = self.toks
        if toks[a].kind != "ident":
            self.report("OMP004", f"expected a trait selector name, found '{toks[a].text}'", self.span(a, b))
            return None
        if self.word(toks[a]) == "score" and b - a >= 6 and toks[a + 1].text == "(":
            misplaced = self._score_before_selector(a, b)
            if misplaced is not None:
                return misplaced
        sel = TraitSelector(self.word(toks[a]), self.span(a, b), self.span(a, a + 1))
        if b - a == 1:
            return sel
        if all(t.kind == "ident" for t in toks[a:b]):  # `construct={target parallel}`
            words = [self.word(t) for t in toks[a:b]]
            ends = [self.span(j, j + 1)[1] for j in range(a, b - 1)]
            self.report("OMP004", f"trait selectors are separated by commas: write '{', '.join(words)}'",
                        self.span(a, b), fixes=[Fix("Separate the selectors with commas",
                                                    tuple(((e, e), ",") for e in ends))])
            return sel
        if toks[a + 1].text != "(" or self.close_of(a + 1, b) != b - 1:
            self.report("OMP004", f"expected '(' properties ')' after '{toks[a].text}'", self.span(a + 1, b))
            return sel
        sel.has_parens = True
        x, y = a + 2, b - 1
        # score(expr): properties
        if (y - x >= 4 and self.word(toks[x]) == "score" and toks[x + 1].text == "("):
            close = self.close_of(x + 1, y)
            if close > 0 and close + 1 < y and toks[close + 1].text == ":":
                sel.score = self.expr(x + 2, close)
                x = close + 2
        if x >= y:
            self.report("OMP004", f"trait selector '{sel.name}' has empty properties", self.span(a, b))
            return sel
        sel.properties = self._properties(x, y)
        return sel

    def _score_before_selector(self, a: int, b: int) -> TraitSelector | None:
        """`score(e): condition(...)`: a score written before its selector, where the grammar
        (and clang, which ignores the selector) wants it inside: `condition(score(e): ...)`."""
        toks = self.toks
        close = self.close_of(a + 1, b)
        if close < 0 or close + 2 >= b or toks[close + 1].text != ":":
            return None
        sel = self._trait_selector(close + 2, b)
        if sel is None or not sel.has_parens or sel.score is not None:
            return sel
        score = self.text(a + 2, close)
        after_open = self.span(close + 3, close + 4)[1]  # the selector's '('
        self.report("OMP004", f"a score goes inside the parentheses of '{sel.name}': write "
                    f"'{sel.name}(score({score}): ...)'", self.span(a, close + 2),
                    fixes=[Fix(f"Move the score into '{sel.name}(...)'",
                               ((self.span(a, close + 2), ""), ((after_open, after_open), f"score({score}): ")))])
        sel.score = self.expr(a + 2, close)
        sel.span = self.span(a, b)
        return sel

    def _properties(self, a: int, b: int) -> list[TraitProperty]:
        toks = self.toks
        props = []
        for x, y in self.split(a, b, ","):
            if x == y:
                self.report("OMP004", "empty trait property", self._gap(x))
                continue
            prop = TraitProperty(self.text(x, y), self.span(x, y))
            if y - x == 1 and toks[x].kind == "ident":
                prop.name = self.word(toks[x])
            elif y - x == 1 and toks[x].kind == "string":
                prop.is_string = True
                prop.name = toks[x].text[1:-1]
            elif toks[x].kind == "ident" and y - x >= 3 and toks[x + 1].text == "(" and self.close_of(x + 1, y) == y - 1:
                prop.name = self.word(toks[x])
                if y - 1 > x + 2:
                    prop.args = self._properties(x + 2, y - 1)
            props.append(prop)
        return props


def _bracket_pairs(toks: list[Token]) -> dict[int, int]:
    """Opening bracket index -> closing index, -1 when unclosed or closed by the wrong bracket
    (a wrong closing bracket leaves every bracket open at that point unclosed)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for j, t in enumerate(toks):
        if t.kind != "punct":
            continue
        text = t.text
        if text in OPEN:
            stack.append(j)
            pairs[j] = -1
        elif text in CLOSE and stack:
            if OPEN[toks[stack[-1]].text] == text:
                pairs[stack.pop()] = j
            else:
                stack.clear()
    return pairs


_READERS = {
    "opt_expr": _Parse.read_opt_expr,
    "expr": _Parse.read_expr,
    "exprs": _Parse.read_exprs,
    "list": _Parse.read_list,
    "keyword": _Parse.read_keyword,
    "keyword_expr": _Parse.read_keyword_expr,
    "defaultmap": _Parse.read_defaultmap,
    "reduction": _Parse.read_reduction,
    "depend": _Parse.read_depend,
    "linear": _Parse.read_linear,
    "aligned": _Parse.read_aligned,
    "selector": _Parse.read_selector,
    "adjust_args": _Parse.read_adjust_args,
    "append_args": _Parse.read_append_args,
    "uses_allocators": _Parse.read_uses_allocators,
    "when": _Parse.read_when,
    "opaque": _Parse.read_opaque,
}


_CACHE_LIMIT = 4096
_CLAUSE_CACHE_LIMIT = 8192
# (clause text, directive name, language, version, macros, directive too new) ->
# (source offset of the clause, the clause, its findings, whether it read a macro)
_clause_cache: dict[tuple[bytes, str, str, Version, frozenset[str], bool], tuple[int, Clause, list[Finding], bool]] = {}
# (body, line geometry, form, sentinel end, language, version, macros) ->
# (source offset of the directive, the directive, its findings)
_cache: dict[tuple[bytes, tuple[tuple[int, int], ...], Form, int, str, Version, frozenset[str]],
             tuple[int, Directive, list[Finding]]] = {}


def _too_large(raw: RawDirective, language: Language, version: Version,
               macros: frozenset[str]) -> tuple[Directive, list[Finding]]:
    """A directive longer than MAX_DIRECTIVE_BYTES: its name is read (the block structure and the
    name's own findings need it), its arguments and clauses are not. It stands as a directive whose
    contents are unknown, as when a macro stands for them: the rules stay silent about it."""
    state = _Parse(raw, language, version, macros, name_only=True)
    directive = state.run()
    directive.unread = True
    directive.uses_macros = True
    directive.malformed = True   # e.g. a `declare target` read without its clauses opens no region
    findings = [*state.findings, Finding(
        "OMP013", f"this directive is {len(raw.body) / 1024:,.0f} KiB long, more than the "
        f"{MAX_DIRECTIVE_BYTES // 1024} KiB omp-lsp reads of one directive: its clauses are not checked, and "
        "no rule reports anything that depends on them", directive.name_span)]
    return directive, findings


def parse_directive(raw: RawDirective, language: Language, version: Version = DEFAULT_VERSION,
                    macros: frozenset[str] = frozenset()) -> tuple[Directive, list[Finding]]:
    """Parse one raw directive; never raises on any input. `macros`: names #defined in the file.

    Results are cached by the directive's text and line geometry (relative to its start):
    a repeated directive is copied from the cache with its spans moved."""
    if len(raw.body) > MAX_DIRECTIVE_BYTES:
        directive, findings = _too_large(raw, language, version, macros)  # (not cached: the text is large)
        return directive, [*findings, *_line_problems(raw)]
    base = raw.span[0]
    segments = raw.segments
    geometry = (((segments[0][0], segments[0][1] - base),) if len(segments) == 1
                else tuple((logical, source - base) for logical, source in segments))
    # language._value_: a str hashes in C, an Enum member through the Python-level Enum.__hash__.
    key = (raw.body, geometry, raw.form, raw.sentinel[1] - base, language._value_, version, macros)
    hit = _cache.get(key)
    if hit is not None:
        delta = base - hit[0]
        if delta == 0:  # the same directive at the same place (the server re-analysing): share it
            directive = copy.copy(hit[1])
            findings = list(hit[2])
        else:
            directive = moved_directive(hit[1], delta, raw)
            findings = shifted(hit[2], delta) if hit[2] else []
        directive.raw = raw
    else:
        state = _Parse(raw, language, version, macros)
        directive = state.run()
        directive.uses_macros = state.saw_macro
        directive.malformed = any(f.code in ("OMP002", "OMP004") for f in state.findings)
        if len(_cache) >= _CACHE_LIMIT:
            _cache.pop(next(iter(_cache)))
        _cache[key] = (base, directive, state.findings)
        findings = list(state.findings)
    findings.extend(_line_problems(raw))
    return directive, findings


def _line_problems(raw: RawDirective) -> list[Finding]:
    """What is wrong with the directive's lines themselves (source.Problem)."""
    return [Finding("OMP004", problem.message, problem.span) for problem in raw.problems]
