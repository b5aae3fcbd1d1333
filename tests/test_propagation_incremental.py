"""Incremental propagation equals propagation from scratch, after any sequence of edits.

Random workspaces of two C files and one Fortran file are edited one file at a time; after each
edit the graph the server keeps (`DeviceGraph.update`) must give every entity the same device
type, the same chain length and the same reason to be device code as a graph built anew.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.semantics.propagation import FLANG, SPEC, DeviceGraph, build

C_PIECES = [
    "void f(void);\n", "void g(void);\n", "void h(void);\n", "int x;\n", "static int y = 1;\n",
    "void f(void) { g(); }\n", "void g(void) { h(); x = 1; }\n", "void h(void) { static int s; f(); }\n",
    "void k(void) { h(); }\n", "int main(void) {\n#pragma omp target\n{ f(); }\nreturn 0; }\n",
    "void r(void) {\n#pragma omp target\n k();\n}\n", "#pragma omp declare target\n", "#pragma omp end declare target\n",
    "#pragma omp begin declare target device_type(nohost)\n", "#pragma omp declare target to(g)\n",
    "#pragma omp declare target link(x)\n", "#pragma omp declare target to(h) device_type(host)\n",
    "int (*fp)(void) = 0;\n", "void q(void) { y = 2; }\n", "extern void z(void);\nvoid w(void) { z(); }\n",
    # declare variant: a base called in device code makes its device variants device code
    "void vg(void) { q(); }\n", "#pragma omp declare variant(vg) match(device={kind(gpu)})\n",
    "#pragma omp declare variant(k) match(device={kind(host)})\n",
    "#pragma omp declare variant(w) match(device={kind(nohost)})\n",
]
F_PIECES = [
    "subroutine z()\n  call s2()\nend subroutine z\n", "subroutine s2()\n  !$omp declare target\nend subroutine s2\n",
    "subroutine s3()\n  call z()\nend subroutine s3\n",
    "program p\n  !$omp target\n  call s3()\n  !$omp end target\nend program p\n",
    "module m\ncontains\n  subroutine ms()\n    call z()\n  end subroutine ms\nend module m\n",
    "module mv\ncontains\n  subroutine vb()\n    !$omp declare variant (vb:vv) match(device={kind(gpu)})\n"
    "  end subroutine vb\n  subroutine vv()\n    call z()\n  end subroutine vv\n"
    "  subroutine vs()\n    call vb()\n  end subroutine vs\nend module mv\n",
    "program q\n  use mv\n  !$omp target\n  call vb()\n  !$omp end target\nend program q\n",
]

_c = st.lists(st.sampled_from(C_PIECES), max_size=12).map("".join)
_f = st.lists(st.sampled_from(F_PIECES), max_size=5).map("".join)
_edit = st.tuples(st.sampled_from(["a.c", "b.c", "c.f90"]), st.one_of(_c, _f), st.booleans())


def _context(path: str, text: str):  # type: ignore[no-untyped-def]
    language = Language.FORTRAN if path.endswith(".f90") else Language.C
    result = analyze(Document(text, language), Options(), path)
    assert result.context is not None
    return result.context


def _state(graph: DeviceGraph) -> dict[str, tuple[str, int, bool]]:
    return {key: (graph.device_type(key), len(graph.chain(key)), graph.device_code(key)) for key in graph.entities}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.tuples(_c, _c, _f), edits=st.lists(_edit, min_size=1, max_size=8),
       mode=st.sampled_from([SPEC, FLANG]))
def test_incremental_updates_equal_a_fresh_build(start: tuple[str, str, str], edits: list, mode: str) -> None:
    texts = dict(zip(["a.c", "b.c", "c.f90"], start, strict=True))
    contexts = {p: _context(p, t) for p, t in texts.items()}
    graph = build(contexts, mode)
    for path, text, remove in edits:
        if path.endswith(".f90") != text.startswith(("subroutine", "program", "module")) and text:
            text = ""   # keep each file in its own language
        if remove:
            contexts.pop(path, None)
            graph.update(path, None)
        else:
            contexts[path] = _context(path, text)
            graph.update(path, contexts[path])
        fresh = build(dict(contexts), mode)
        assert _state(graph) == _state(fresh)
        assert [(r.key, r.device_type, r.explicit, len(r.chain)) for r in graph.rows()] == \
            [(r.key, r.device_type, r.explicit, len(r.chain)) for r in fresh.rows()]
