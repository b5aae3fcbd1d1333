"""Long tables of numbers are hidden from tree-sitter (syntax/tables.py): the tree stays small, the
analysis finds what it found before, and edited trees equal fresh ones."""
from __future__ import annotations

import random

import pytest
from omp_lsp.analysis.check import Document, Language, TextEdit, analyze
from omp_lsp.analysis.syntax.tables import MIN_TABLE, hide_tables, same_tables, spans_after_edit, table_spans


def numbers(count: int, item: str = "{k}") -> str:
    return ", ".join(item.format(k=k) for k in range(count))


BIG = numbers(2000)          # about 9 KB
SMALL = numbers(50)


@pytest.mark.parametrize("text", [
    f"int t[] = {{{BIG}}};\n",
    f"double t[] = {{\n{numbers(600, '  1.5e-3, 0x1fUL, -2.0f, {k}')}\n}};\n",
    f"int t[2][2000] = {{{{1, 2}}, {BIG}, {{3}}}};\n",          # after a row, before the end
    f"const char t[] = {{{numbers(2000, '0x{k:02x}')}}};\n",
])
def test_a_long_table_of_numbers_between_braces_is_hidden(text: str) -> None:
    source = text.encode()
    spans = table_spans(source)
    assert len(spans) == 1 and spans[0][1] - spans[0][0] >= MIN_TABLE
    hidden = hide_tables(source, spans)
    assert len(hidden) == len(source) and hidden.count(b"\n") == source.count(b"\n")
    assert not any(c.isdigit() for c in hidden[spans[0][0]:spans[0][1]].decode())


@pytest.mark.parametrize("text", [
    f"int t[] = {{{SMALL}}};\n",                                    # short: parsed as it is
    f"void (*t[])(void) = {{{numbers(2000, 'f{k}')}}};\n",          # names, not numbers
    f"int t[] = {{{BIG}, a, {BIG}}};\n".replace(", a,", ", ab,"),   # a name in the middle
    f"int x = f({BIG});\n",                                          # arguments, not a table
    f"int x = ({BIG});\n",                                           # a comma expression
    f"/* {BIG} */\n",                                                # (a comment: no braces)
])
def test_what_is_not_a_table_between_braces_is_parsed(text: str) -> None:
    assert table_spans(text.encode()) == []


def test_a_row_between_rows_keeps_its_comma() -> None:
    source = f"int t[][3000] = {{{{1}}, {BIG}, {{2}}}};\n".encode()
    (start, end), = table_spans(source)
    assert source[end:end + 1] == b","
    tree = Document(source.decode(), Language.C).tree
    assert tree is not None and not tree.root_node.has_error


def test_the_tree_of_a_table_is_small_and_the_analysis_sees_the_code_around_it() -> None:
    text = (f"int table[] = {{{BIG}}};\n"
            "#pragma omp declare target\n"
            "int twice(int x) { return 2 * x; }\n"
            "#pragma omp end declare target\n"
            "int main(void) {\n"
            "  int s = 0;\n"
            "#pragma omp target map(tofrom: s)\n"
            "  s = twice(table[3]);\n"
            "  return s;\n"
            "}\n")
    doc = Document(text, Language.C)
    assert doc.tree is not None and not doc.tree.root_node.has_error
    assert doc.tree.root_node.descendant_count < 200   # (not a node per number)
    assert [f.code for f in analyze(doc).findings] == []
    # names declared after the table are found, names declared nowhere are not
    wrong = Document(text.replace("};\n", "};\n#pragma omp declare target to(table, nothere)\n", 1), Language.C)
    assert [(f.code, wrong.lines.line_of(f.span[0])) for f in analyze(wrong).findings] == [("OMP113", 1)]


def test_same_tables_only_when_the_edit_is_outside_every_table() -> None:
    spans = [(10, 5000), (6000, 12000)]
    assert same_tables(spans, spans, 5500, 5501, 5501)
    assert same_tables(spans, [(10, 5000), (6003, 12003)], 5500, 5500, 5503)
    assert not same_tables(spans, spans, 100, 101, 101)                 # inside a table
    assert not same_tables(spans, [(10, 5000)], 5500, 5500, 5503)       # one went away
    assert not same_tables(spans, spans, 5000, 5000, 5001)              # at a table's end


@pytest.mark.parametrize("edit", [((0, 10899), (0, 10903), ""), ((0, 10899), (0, 10899), ", ab")])
def test_an_edit_that_makes_or_unmakes_a_table_gives_the_tree_a_fresh_parse_gives(
        edit: tuple[tuple[int, int], tuple[int, int], str]) -> None:
    text = f"int a[] = {{{BIG}, ab, {BIG}}};\n" if edit[2] == "" else f"int a[] = {{{BIG}, {BIG}}};\n"
    doc = Document(text, Language.C)
    assert doc.tree is not None and doc.source[10899:10903] == (b", ab" if edit[2] == "" else b", 0,")
    doc.apply(TextEdit(*edit), "utf-8")
    fresh = Document(doc.source.decode(), Language.C)
    assert (table_spans(doc.source) == []) == bool(edit[2])
    assert doc.tree is not None and fresh.tree is not None
    assert str(doc.tree.root_node) == str(fresh.tree.root_node)


@pytest.mark.parametrize("seed", range(6))
def test_edits_around_and_inside_tables_give_the_tree_a_fresh_parse_gives(seed: int) -> None:
    rnd = random.Random(seed)
    text = (f"int a[] = {{{BIG}}};\nint f(int x) {{ return x; }}\n"
            f"int b[][2] = {{{{1, 2}}, {numbers(1500)}, {{3, 4}}}};\n")
    doc = Document(text, Language.C)
    assert doc.tree is not None
    for _ in range(25):
        lines = doc.source.decode().split("\n")
        line = rnd.randrange(len(lines))
        column = rnd.randrange(len(lines[line]) + 1)
        end = min(len(lines[line]), column + rnd.choice([0, 0, 1, 3]))
        doc.apply(TextEdit((line, column), (line, end), rnd.choice(["", "7", "x", ",", "}", "{", " 0x1f, "])),
                  "utf-8")
        fresh = Document(doc.source.decode(), Language.C)
        assert doc.tree is not None and fresh.tree is not None
        assert str(doc.tree.root_node) == str(fresh.tree.root_node)


@pytest.mark.parametrize("seed", range(8))
def test_the_spans_after_an_edit_are_those_of_the_whole_new_text(seed: int) -> None:
    # (spans_after_edit reads a window around the edit: near tables, at their edges, in code
    # between them, and where typing joins two short runs into a table)
    rnd = random.Random(seed)
    half = numbers(450)   # about 2 KB: two halves joined are a table
    text = (f"int a[] = {{{BIG}}};\nint f(int x) {{ return x; }}\n"
            f"int b[][2] = {{{{1, 2}}, {numbers(1500)}, {{3, 4}}}};\nint c[] = {{{half}, x, {half}}};\n").encode()
    spans = table_spans(text)
    at = text.index(b", x, ") + 2
    for typed, removed in ((b"5", 1), (b"x", 1)):   # two runs joined into a table, then apart again
        new = text[:at] + typed + text[at + removed:]
        after = spans_after_edit(spans, text, new, at, at + removed, at + len(typed))
        assert after == _uncached_spans(new) and len(after) == len(spans) + (typed == b"5") - (typed == b"x")
        text, spans = new, after
    for _ in range(60):
        start = rnd.randrange(len(text) + 1)
        end = min(len(text), start + rnd.choice([0, 0, 1, 3]))
        typed = rnd.choice([b"", b"7", b"x", b",", b"}", b"{", b" 0x1f, ", b"1"]).replace(b"x", b"5" if rnd.random() < .3 else b"x")
        new = text[:start] + typed + text[end:]
        after = spans_after_edit(spans, text, new, start, end, start + len(typed))
        assert after == _uncached_spans(new)
        text, spans = new, after


def _uncached_spans(text: bytes) -> list[tuple[int, int]]:
    return table_spans(bytes(bytearray(text)))   # (another object: not the one just remembered)


def test_the_spans_after_an_edit_that_brings_the_text_past_the_comma_test() -> None:
    # (a table of long numbers has few commas: in a text of fewer than MIN_TABLE // 16 commas,
    # table_spans looks for none; an edit elsewhere that adds commas makes it look)
    table = ", ".join("1.2345678901234567e+00" for _ in range(190))
    text = (f"double t[] = {{{table}}};\nint f(int x) {{ return g(x); }}\n").encode()
    assert text.count(b",") < MIN_TABLE // 16 and table_spans(text) == []
    at = text.index(b"g(x") + 3
    typed = b", 1" * (MIN_TABLE // 16 - text.count(b","))
    new = text[:at] + typed + text[at:]
    after = spans_after_edit([], text, new, at, at, at + len(typed))
    assert after == _uncached_spans(new) != []
    back = spans_after_edit(after, new, text, at, at + len(typed), at)   # (and typed away again)
    assert back == _uncached_spans(text) == []
