"""The whole analysis never raises and never reports an internal error, whatever the input."""
from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.syntax.document import TextEdit

PIECES = [
    "#pragma omp ", "!$omp ", "c$omp ", "_Pragma(\"omp ", "\\\n", "&\n", "!$omp& ", "\n", " ", "(", ")", "{", "}",
    "[", "]", ":", ",", "target", "teams", "end", "begin", "declare", "parallel", "do", "for", "map", "tofrom",
    "a[0:n]", "a(1:n)", "device(ancestor: 1)", "match(device={kind(gpu)})", "/*", "*/", "//", "\"", "'",
    "int x;", "void f() {", "subroutine s", "end subroutine", "do i = 1, n", "end do", "block", "#ifdef X",
    "#else", "#endif", "é", "😀", "\x00", "\t", "     ", "      x = 1\n",
    # what the target and declare variant rules read
    "declare variant(", "begin declare variant match(", "end declare variant", "metadirective when(",
    "construct={dispatch}", "score(2):", "implementation={vendor(llvm)}", "adjust_args(need_device_ptr: p)",
    "append_args(interop(target))", "is_device_ptr(p)", "has_device_addr(s.a)", "thread_limit(0)",
    "uses_allocators(omp_default_mem_alloc)", "allocate(a: x)", "firstprivate(x)", "map(s%a)",
    "requires reverse_offload", "threadprivate(x)", "omp_get_num_devices()", "omp_alloc(8, a)", "contains",
    "interface", "end interface", "call s(x)", "typedef int T;", "struct S { int a; } s;", "enum { K = -1 };",
    "integer, parameter :: k = -2",
]

source_text = st.one_of(
    st.text(max_size=400),
    st.lists(st.sampled_from(PIECES), max_size=80).map("".join),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=source_text, language=st.sampled_from(list(Language)), version=st.sampled_from([45, 50, 51, 52, 60]))
def test_analysis_never_raises(text: str, language: Language, version: int) -> None:
    doc = Document(text, language)
    result = analyze(doc, Options(openmp_version=version))
    assert result.internal_errors == []
    size = len(doc.source)
    for f in result.findings:
        assert 0 <= f.span[0] <= f.span[1] <= size
        assert f.message


edits = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 200), st.integers(0, 30), st.integers(0, 200),
                           st.sampled_from(PIECES)), max_size=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=source_text, changes=edits, language=st.sampled_from([Language.C, Language.CPP, Language.FORTRAN]))
# (conditional lines: the text analysed blanks them, the user's text keeps them)
@example(text="", changes=[(0, 0, 0, 0, "#ifdef X")], language=Language.C)
@example(text="int a;\n", changes=[(0, 0, 0, 0, "#ifdef X\n"), (2, 0, 2, 0, "#endif\n")], language=Language.C)
def test_incremental_edits_match_a_fresh_analysis(text: str, changes: list, language: Language) -> None:
    """Any sequence of edits, positions past the end included, leaves the same result as a fresh parse."""
    doc = Document(text, language)
    analyze(doc)
    for l1, c1, l2, c2, new in changes:
        start, end = sorted([(l1, c1), (l2, c2)])
        doc.apply(TextEdit(start, end, new))
        incremental = analyze(doc)
        fresh = analyze(Document(doc.source, language))
        assert incremental.internal_errors == []
        # Error recovery may differ after an incremental reparse (a tree-sitter property), and with
        # it what the tree says is a comment or a string: then spans need only be sane. The user's
        # text and the text analysed (the build's configuration: conditional lines and inactive
        # code blanked) are compared each with its own fresh parse.
        reparsed = Document(doc.source, language).tree
        if not reparsed.root_node.has_error:
            assert str(doc.tree.root_node) == str(reparsed.root_node)
        if fresh.document.tree.root_node.has_error:
            assert all(0 <= f.span[0] <= f.span[1] <= len(doc.source) for f in incremental.findings)
            continue
        assert str(incremental.document.tree.root_node) == str(fresh.document.tree.root_node)
        assert [(f.code, f.span) for f in incremental.findings] == [(f.code, f.span) for f in fresh.findings]
