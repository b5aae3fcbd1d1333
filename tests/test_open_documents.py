"""The edits an open document holds for the analysis (server.open_documents): a run of keys that
changed nothing (a digit typed and deleted again before the analysis came to it) is not taken,
and the tree then still follows the text."""
from __future__ import annotations

from omp_lsp.analysis import Document, Language
from omp_lsp.analysis.syntax.document import TextEdit, refresh_tree
from omp_lsp.server.open_documents import OpenDocument

SOURCE = "void f(int n) {\n#pragma omp target map(to: n) device(0)\n  { n = 1; }\n}\nint g = 2;\n"


def _typed(state: OpenDocument, line: int, column: int, old: str, new: str) -> None:
    """A key as the server applies it: the text and lines now, the tree later (take_edits)."""
    before = state.doc.source
    state.doc.apply(TextEdit((line, column), (line, column + len(old)), new), "utf-16", parse=False)
    assert state.doc.last_change is not None
    state.applied(before, state.doc.last_change)


def _state() -> OpenDocument:
    state = OpenDocument("file:///t.c", "/t.c", Document(SOURCE, Language.C))
    assert state.doc.tree is not None   # (parsed: the keys leave it behind)
    return state


def _fresh_tree(state: OpenDocument) -> str:
    tree = Document(state.doc.source, Language.C).tree
    assert tree is not None
    return str(tree.root_node)


def test_a_digit_typed_and_deleted_again_is_not_taken() -> None:
    state = _state()
    _typed(state, 1, 35, "", "1")
    _typed(state, 1, 35, "1", "")
    assert state.take_pending() == []
    assert not state.doc.stale_tree and state.doc.source == SOURCE.encode()
    assert str(state.doc.tree.root_node) == _fresh_tree(state)   # type: ignore[union-attr]


def test_the_runs_around_one_that_changed_nothing_are_taken_and_the_tree_follows() -> None:
    state = _state()
    _typed(state, 2, 9, "", "2")       # in code
    _typed(state, 1, 35, "", "1")      # typed and deleted in the directive
    _typed(state, 1, 35, "1", "")
    _typed(state, 4, 8, "", "3")       # at file scope
    taken = state.take_pending()
    assert [edit.new_end - edit.start for _, edit, _ in taken] == [1, 1]
    for old, edit, new in taken:
        state.doc.tree_edit(old, new, edit)
    # (digits typed in code: the tree is left behind, and brought over both when one needs it)
    assert len(state.doc.behind) == 2
    refresh_tree(state.doc)
    assert not state.doc.stale_tree and not state.doc.behind
    assert state.doc.source == SOURCE.replace("n = 1", "n = 12").replace("g = 2", "g = 32").encode()
    assert str(state.doc.tree.root_node) == _fresh_tree(state)   # type: ignore[union-attr]


def test_a_run_that_changed_nothing_last_leaves_the_tree_of_the_text() -> None:
    state = _state()
    _typed(state, 2, 9, "", "2")
    _typed(state, 1, 35, "", "1")
    _typed(state, 1, 35, "1", "")
    [(old, edit, new)] = state.take_pending()
    state.doc.tree_edit(old, new, edit)
    refresh_tree(state.doc)
    assert not state.doc.stale_tree
    assert str(state.doc.tree.root_node) == _fresh_tree(state)   # type: ignore[union-attr]
