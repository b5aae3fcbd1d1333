"""Property tests: no pragma body, however broken, makes the analysis raise or report an
internal error, and every finding's range lies inside the source (C, C++, free and fixed
form Fortran, every OpenMP version)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.directives import tables
from omp_lsp.analysis.directives.schema import VERSIONS

_WORDS = sorted({w for name in tables.DIRECTIVES for w in name.split()} | set(tables.CLAUSES)
                | {m.rstrip("()") for c in tables.CLAUSES.values() for m in c.modifiers if m != "<expr>"}
                | {k for c in tables.CLAUSES.values() for k in c.keywords + c.categories}
                | {"construct", "device", "implementation", "user", "target_device", "kind", "arch", "isa",
                   "vendor", "score", "condition", "extension", "gpu", "nohost", "llvm", "interop",
                   "prefer_type", "end", "begin", "declare", "x", "a", "n", "i", "p", "s", "omp_in",
                   "omp_out", "omp_priv", "do", "for", "enddo", "paralleldo", "DO", "Target", "MAP"})
_PUNCT = ["(", ")", "[", "]", "{", "}", ",", ":", "::", "=", "+", "-", "*", "/", "%", "->", ".", "?",
          "&&", "||", "<", ">", "!", "&", "|", "^", ".and.", ".or.", '"sm_80"', "'c'", '"', "'", "0", "1",
          "42", "1.5", "\\", "\t", " ", "#", "@", "$", ";", "é", "\u00a0", "/*", "*/", "//"]
_TOKEN = st.one_of(st.sampled_from(_WORDS), st.sampled_from(_PUNCT))
_TOKENS = st.lists(_TOKEN, max_size=30).map(lambda toks: " ".join(toks))
_TIGHT = st.lists(_TOKEN, max_size=30).map("".join)
_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=60)
_BODY = st.one_of(_TOKENS, _TIGHT, _TEXT)
_LANGUAGE = st.sampled_from(list(Language))
_VERSION = st.sampled_from(VERSIONS)


def _source(body: str, language: Language) -> str:
    body = body.replace("\n", " ").replace("\r", " ")
    if language is Language.FORTRAN:
        return f"subroutine s(a, n)\n  integer :: n, a(n)\n  !$omp {body}\n  a(1) = n\nend subroutine\n"
    if language is Language.FORTRAN_FIXED:
        return f"      subroutine s(a, n)\n      integer n, a(n)\n!$omp {body}\n      a(1) = n\n      end\n"
    return f"void f(int *a, int n) {{\n#pragma omp {body}\n  a[0] = n;\n}}\n"


def _check(source: str | bytes, language: Language, version: int) -> None:
    result = analyze(Document(source, language), Options(openmp_version=version))
    assert not result.internal_errors, result.internal_errors
    size = len(source.encode("utf-8") if isinstance(source, str) else source)
    for f in result.findings:
        start, end = f.span
        assert 0 <= start <= end <= size, (f.code, f.message, f.span, size)
        for related in f.related:
            assert 0 <= related.span[0] <= related.span[1] <= size
        for fix in f.fixes:
            for (a, b), _ in fix.edits:
                assert 0 <= a <= b <= size
        f.effective_severity  # every code is in the catalogue


_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(_BODY, _LANGUAGE, _VERSION)
def test_pragma_body_never_crashes(body: str, language: Language, version: int) -> None:
    _check(_source(body, language), language, version)


@_SETTINGS
@given(st.sampled_from(sorted(tables.DIRECTIVES)), _TOKENS, _LANGUAGE, _VERSION)
def test_directive_name_then_noise(name: str, rest: str, language: Language, version: int) -> None:
    _check(_source(f"{name} {rest}", language), language, version)


@_SETTINGS
@given(st.sampled_from(sorted(tables.DIRECTIVES)), st.lists(st.sampled_from(sorted(tables.CLAUSES)), max_size=4),
       st.lists(_TOKEN, max_size=8), _LANGUAGE, _VERSION)
def test_clauses_with_noise_arguments(name: str, clauses: list[str], arg: list[str], language: Language,
                                      version: int) -> None:
    args = " ".join(arg)
    body = name + " " + " ".join(f"{c}({args})" for c in clauses)
    _check(_source(body, language), language, version)


@_SETTINGS
@given(st.lists(st.one_of(_BODY, st.sampled_from(["\\", "&", "!$omp&", "!$omp+", "c$omp", "\n", "\r\n"])),
                max_size=6), _LANGUAGE, _VERSION)
def test_continuations_and_raw_lines(pieces: list[str], language: Language, version: int) -> None:
    sentinel = {Language.C: "#pragma omp ", Language.CPP: "#pragma omp ", Language.FORTRAN: "!$omp ",
                Language.FORTRAN_FIXED: "!$omp "}[language]
    text = sentinel + "".join(pieces)
    _check(text, language, version)
    _check(text.encode("utf-8"), language, version)


@_SETTINGS
@given(st.binary(max_size=80), _LANGUAGE, _VERSION)
def test_arbitrary_bytes_after_sentinel(data: bytes, language: Language, version: int) -> None:
    sentinel = b"!$omp " if language.is_fortran else b"#pragma omp "
    _check(sentinel + data.replace(b"\x00", b" ") + b"\n", language, version)
