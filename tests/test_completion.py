"""Completion inside OpenMP directives (analysis side), from the directive, clause and selector tables."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.ide.completion import complete


def items(text: str, language: Language = Language.C, version: int = 51) -> list[tuple[str, str]]:
    """Completion at the `|` in `text`."""
    at = text.index("|")
    text = text.replace("|", "", 1)
    result = analyze(Document(text, language), Options(openmp_version=version))
    assert result.context is not None
    return [(i.label, i.kind) for i in complete(result.context, len(text[:at].encode()))]


def labels(text: str, language: Language = Language.C, version: int = 51, kind: str | None = None) -> list[str]:
    return [label for label, k in items(text, language, version) if kind is None or k == kind]


def test_directive_names_including_combined_forms() -> None:
    found = labels("#pragma omp targ|\n")
    assert {"target", "target data", "target teams distribute parallel for"} <= set(found)
    assert "target teams distribute parallel do" not in found          # Fortran's spelling
    assert "target teams distribute parallel do" in labels("!$omp targ|\n", Language.FORTRAN)
    assert labels("#pragma omp target te|\n", kind="directive")[0] == "target teams"


def test_clauses_of_the_directive_in_the_version() -> None:
    clauses = labels("#pragma omp target |\n", kind="clause")
    assert {"map", "device", "has_device_addr", "thread_limit"} <= set(clauses)
    assert "num_threads" not in clauses
    assert "has_device_addr" not in labels("#pragma omp target |\n", version=50, kind="clause")
    assert "enter" in labels("#pragma omp declare target |\n", version=52, kind="clause")
    assert labels("#pragma omp target map(to: x) dev|\n", kind="clause") == ["device"]


def test_clause_arguments() -> None:
    assert labels("#pragma omp declare target device_type(|\n") == ["host", "nohost", "any"]
    in_map = labels("int a;\nvoid f(void) { double b;\n#pragma omp target map(|\n}\n")
    assert {"to", "from", "tofrom", "always", "close", "present", "mapper"} <= set(in_map)
    assert "self" not in in_map                           # a 6.0 modifier
    assert {"a", "b"} <= set(in_map)
    after_colon = labels("int a;\nvoid f(void) { double b;\n#pragma omp target map(tofrom: |\n}\n")
    assert set(after_colon) == {"a", "b"}                 # names only: no procedures in a map
    assert "f" in labels("void f(void);\n#pragma omp declare target to(|\n")


def test_context_selectors() -> None:
    base = "void g(void);\n#pragma omp declare variant(g) match({})\nvoid f(void);\n"
    assert labels(base.format("|")) == ["construct", "device", "target_device", "implementation", "user"]
    assert "target_device" not in labels(base.format("|"), version=50)
    assert labels(base.format("device={|")) == ["kind", "isa", "arch"]
    assert set(labels(base.format("device={kind(|"))) == {"host", "nohost", "any", "cpu", "gpu", "fpga"}
    assert "dispatch" in labels(base.format("construct={|"))


def test_fortran_continuations_and_names() -> None:
    text = "subroutine s(a)\n  real :: a(10)\n  !$omp target &\n  !$omp& map(tofrom: |\nend subroutine s\n"
    assert labels(text, Language.FORTRAN) == ["a"]
    assert "map" in labels("subroutine s\n  !$omp target &\n  !$omp& |\nend subroutine s\n", Language.FORTRAN)


def test_nothing_outside_directives() -> None:
    assert items("int x; // #pragma omp |\n") == []
    assert items("int x = |;\n") == []
    assert items("subroutine s\n  x = 1 ! !$omp |\nend\n", Language.FORTRAN) == []


PIECES = ["#pragma omp ", "target", " map(", "to:", " x", ")", "{", "}", "match(", "device=", "kind(", "\\\n",
          "\n", " ", "!$omp ", "&\n", "(", ",", "é", "declare variant(f) ", "when(", ":", "\0"]


@settings(max_examples=200, deadline=None)
@given(text=st.lists(st.sampled_from(PIECES), max_size=30).map("".join), fortran=st.booleans(),
       where=st.floats(min_value=0, max_value=1))
def test_never_raises(text: str, fortran: bool, where: float) -> None:
    result = analyze(Document(text, Language.FORTRAN if fortran else Language.C), Options())
    assert result.context is not None
    source = result.document.source
    complete(result.context, int(len(source) * where))
