"""The directive parse cache: a repeated directive gives exactly what a fresh parse gives."""
from __future__ import annotations

import pytest
from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.directives import parser

C_PRAGMAS = [
    "#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n]) thread_limit(64)",
    "#pragma omp target map(toform: x) privte(a) nowait nowait",
    "#pragma omp declare variant(fast) match(construct={target}, device={kind(gpu), arch(\"sm_80\")})",
    "#pragma omp target \\\n    map(tofrom: /* c */ a[0:n]) \\\n    device(ancestor: 1)",
    "#pragma omp targte teams",
    "#pragma omp end declare target extra",
]
F_PRAGMAS = [
    "!$omp target teams distribute parallel do map(tofrom: a(1:n)) &\n!$omp& map(to: b(1:n)) reduction(+: s)",
    "!$omp parallel do privte(i) schedule(statc, 4)",
    "!$omp declare target(x) device_type(nohost) &\n!$omp   indirect",
]


def _parse_twice(pragma: str, language: Language) -> tuple:
    wrap = ("void f{k}(int n, double *a, double *b) {{\n{p}\n  {{ a[0] = 1; }}\n}}\n"
            if language is Language.C else "subroutine s{k}(n, a, b)\n{p}\n  a(1) = 1\nend subroutine\n")
    src = wrap.format(k=1, p=pragma) + "// padding é\n" * (language is Language.C) + wrap.format(k=22, p=pragma)
    return src, analyze(Document(src, language), Options())


@pytest.mark.parametrize("pragma, language",
                         [(p, Language.C) for p in C_PRAGMAS] + [(p, Language.FORTRAN) for p in F_PRAGMAS])
def test_cached_directive_equals_a_fresh_parse(pragma: str, language: Language) -> None:
    parser._cache.clear()
    src, cached = _parse_twice(pragma, language)
    assert len(cached.directives) >= 2
    hits = [d for d in cached.directives if d.raw.body == cached.directives[0].raw.body]
    assert len(hits) == 2
    first, second = hits
    parser._cache.clear()
    parser.parse_directive(first.raw, language, 51)
    hit_directive, hit_findings = parser.parse_directive(second.raw, language, 51)  # from the cache
    parser._cache.clear()
    fresh_directive, fresh_findings = parser.parse_directive(second.raw, language, 51)
    assert hit_directive == fresh_directive == second
    assert hit_findings == fresh_findings
    # Every span still points at the same text as in the first occurrence.
    raw = src.encode()
    delta = second.raw.span[0] - first.raw.span[0]
    for a, b in zip(first.clauses, second.clauses):
        assert raw[b.span[0]:b.span[1]] == raw[a.span[0]:a.span[1]]
        assert b.span == (a.span[0] + delta, a.span[1] + delta)


def test_cache_results_are_independent_copies() -> None:
    parser._cache.clear()
    src = "void f(void) {\n#pragma omp parallel privte(x)\n  {}\n#pragma omp parallel privte(x)\n  {}\n}\n"
    result = analyze(Document(src, Language.C), Options(severity={"OMP002": __import__(
        "omp_lsp.analysis.syntax.diagnostics", fromlist=["Severity"]).Severity.WARNING}))
    again = analyze(Document(src, Language.C))
    assert [f.effective_severity.label for f in result.findings] == ["warning", "warning"]
    assert [f.effective_severity.label for f in again.findings] == ["error", "error"]
