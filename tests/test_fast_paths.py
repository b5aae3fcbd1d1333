"""The fast paths of extraction, tokenizing, clause parsing and placement give what the slow ones give."""
from __future__ import annotations

import random

from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.directives import parser
from omp_lsp.analysis.directives.lexer import _tokenize_matches, tokenize
from omp_lsp.analysis.directives.source import extract
from omp_lsp.analysis.rules.directive_syntax import _scope, _TopLevel


def test_tokenizer_matches_the_general_one() -> None:
    alphabet = " \t\r\n\f\v" + "aZ_$09.eEdD+-*/%&|^~!<>=?,:;()[]{}@#\"'\\`" + "eq.and."
    rng = random.Random(7)
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert tokenize(text.encode()) == _tokenize_matches(text), text


def test_trailing_white_space_is_an_other_token() -> None:
    assert [(t.kind, t.text, t.start) for t in tokenize(b"a \f")] == [("ident", "a", 0), ("other", "\f", 2)]


def test_pragma_lines_found_only_at_line_start() -> None:
    src = (b"int x; #pragma omp barrier\n  #pragma omp target map(to: a[0:n / 2])\n"
           b"# #pragma omp barrier\n#pragma omp target // c\n")
    raws = extract(src, Language.C, Document(src, Language.C).tree)
    assert [(r.body, r.span, r.segments) for r in raws] == [
        (b" target map(to: a[0:n / 2])", (29, 67), [(0, 40)]),
        (b" target", (90, 113), [(0, 101)]),   # the span ends with its line
    ]


def test_clause_cache_gives_a_fresh_parse() -> None:
    src = ("void f(int n, double *a) {\n#pragma omp target map(tofrom: a[0:n]) device(1) nowait\n  {}\n"
           "#pragma omp target teams map(tofrom: a[0:n])  device(1)  privte(x)\n  {}\n}\n")
    cached = analyze(Document(src, Language.C), Options())
    parser._cache.clear()
    parser._clause_cache.clear()
    second = cached.directives[1]
    fresh, findings = parser.parse_directive(second.raw, Language.C, 51)
    assert fresh == second
    assert [(f.code, f.span) for f in findings] == [(f.code, f.span) for f in cached.findings if f.span[0] > 90]


def test_top_level_scopes_equal_the_walk() -> None:
    src = (b"#pragma omp declare target\nint g;\n#pragma omp end declare target\n"
           b"namespace n {\n#pragma omp barrier\n}\nvoid f() {\n#pragma omp barrier\n}\n"
           b"MACRO(x)\n#pragma omp requires unified_shared_memory\nvoid h() { int x = }\n#pragma omp barrier\n")
    tree = Document(src, Language.CPP).tree
    scopes = _TopLevel(tree)
    for offset in [i for i in range(len(src)) if src.startswith(b"#pragma", i)]:
        assert scopes.scope(offset) == _scope(tree, offset), offset


def test_top_level_scope_of_one_directive_equals_that_of_all() -> None:
    """The top-level node found by the tree for one directive (a rule checking it again) gives
    the scope the list of all top-level nodes gives, in every C/C++ fixture."""
    from pathlib import Path
    checked = 0
    for path in sorted(Path(__file__).parent.glob("fixtures/**/*.c*")):
        language = Language.CPP if path.suffix in (".cpp", ".cc", ".cxx") else Language.C
        src = path.read_bytes()
        tree = Document(src, language).tree
        assert tree is not None
        every = _TopLevel(tree)
        for offset in [i for i in range(len(src)) if src.startswith(b"#pragma", i)]:
            assert _TopLevel(tree, True).scope(offset) == every.scope(offset), (path, offset)
            checked += 1
    assert checked > 1000
