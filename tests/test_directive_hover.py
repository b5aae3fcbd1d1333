"""Hover on the parts of a directive: the directive, clauses, modifiers, selector sets and selectors."""
from __future__ import annotations

from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.ide.directive_hover import describe

C = """\
int x;
void g(void);
#pragma omp declare variant(g) match(device={kind(gpu)})
void f(void);
void run(void) {
#pragma omp target teams map(always, tofrom: x) thread_limit(64)
  x = 1;
}
"""


def _hover(word: str, nth: int = 0, version: int = 51, source: str = C) -> str | None:
    result = analyze(Document(source, Language.C), Options(openmp_version=version))
    assert result.context is not None
    at = -1
    for _ in range(nth + 1):
        at = source.index(word, at + 1)
    found = describe(result.context, at + 1)
    if found is None:
        return None
    span, text = found
    assert source.encode()[span[0]:span[1]].decode() == word
    return text


def test_directive_name() -> None:
    text = _hover("target teams")
    assert text is not None and text.startswith("**target teams** — executable directive, OpenMP 4.5")
    assert "Clauses in OpenMP 5.1:" in text and "thread_limit" in text


def test_clause_and_modifier() -> None:
    text = _hover("thread_limit")
    assert text is not None and "clause, on target teams since OpenMP 4.5" in text
    assert "at most once" in text
    assert _hover("always") == "**always** — modifier of the map clause"
    tofrom = _hover("tofrom")
    assert tofrom is not None and "map clause" in tofrom


def test_context_selector_parts() -> None:
    device = _hover("device", 0)
    assert device is not None and device.startswith("**device** — context selector set") and "kind" in device
    kind = _hover("kind")
    assert kind is not None and "selector of the device set" in kind and "gpu" in kind


def test_outside_directives_nothing() -> None:
    assert _hover("run") is None


PROPERTIES = """\
void g(void);
#pragma omp declare variant(g) match(device={kind(gpu), arch(nvptx64), isa(warp9)}, \\
    implementation={vendor(acme)}, user={condition(1 > 0)})
void f(void);
"""


def _property(word: str) -> str | None:
    return _hover(word, source=PROPERTIES)


def test_trait_properties_say_whose_they_are_and_whether_they_are_known() -> None:
    assert _property("gpu") == ("**gpu** — property of the kind selector (device set)\n\n"
                                "One of the values the OpenMP Additional Definitions document lists.")
    assert "A name the clang or gcc toolchains match." in (_property("nvptx64") or "")
    assert "(OMP362)" in (_property("warp9") or "")
    vendor = _property("acme") or ""
    assert vendor.startswith("**acme** — property of the vendor selector (implementation set)")
    assert "Not one of the listed values:" in vendor and "llvm" in vendor
    assert "An expression" in (_property("1 > 0") or "")
