"""End-to-end: the real server over stdio, driven by pytest-lsp with the VS Code and the Neovim
client capability profiles (VS Code's is pushed diagnostics, Neovim 0.11's pulls them)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import (
    answer_requests,
    mark,
    pulls,
    record_notifications,
    wait_diagnostics,
    wait_notification,
)
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

URI = "file:///work/demo.c"
F_URI = "file:///work/demo.f90"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=["visual-studio-code", "neovim"])
async def client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    record_notifications(lsp_client)
    answer_requests(lsp_client)
    # an empty workspace folder: the documents below exist only in the editor
    result = await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities(request.param), root_uri=from_fs_path(str(tmp_path))))
    lsp_client.encoding = result.capabilities.position_encoding or "utf-16"  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _wait(client: LanguageClient, uri: str, version: int) -> list[lsp.Diagnostic]:
    """The diagnostics published for `uri` at `version` (other documents and versions are skipped)."""
    return await wait_diagnostics(client, uri, version)


def _units(client: LanguageClient, text: str) -> int:
    """The length of `text` in the position encoding the server chose (Neovim 0.11 offers UTF-8)."""
    encoding = client.encoding  # type: ignore[attr-defined]
    if encoding == "utf-8":
        return len(text.encode())
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def _open(client: LanguageClient, uri: str, text: str, language: str = "c") -> None:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))


def _change(client: LanguageClient, uri: str, version: int, start: tuple[int, int], end: tuple[int, int],
            text: str) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [lsp.TextDocumentContentChangePartial(
            range=lsp.Range(lsp.Position(*start), lsp.Position(*end)), text=text)]))


SOURCE = """\
void f(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) privte(n)
  for (int i = 0; i < n; i++) a[i] *= 2.0;
}
"""


async def test_publishes_on_open_and_on_each_incremental_change(client: LanguageClient) -> None:
    _open(client, URI, SOURCE)
    diags = await _wait(client, URI, 1)
    assert [(d.code, d.range.start.line) for d in diags] == [("OMP002", 1)]
    d = diags[0]
    line = SOURCE.splitlines()[1]
    assert line[d.range.start.character:d.range.end.character] == "privte"
    assert d.source == "omp-lsp" and d.severity == lsp.DiagnosticSeverity.Error
    assert "did you mean 'private'" in d.message

    # Fix the typo with an edit inside the pragma (no tree structure changes).
    col = line.index("privte")
    _change(client, URI, 2, (1, col + 4), (1, col + 4), "a")
    assert await _wait(client, URI, 2) == []

    # Break the directive name on another edit.
    _change(client, URI, 3, (1, 12), (1, 18), "targte")
    diags = await _wait(client, URI, 3)
    assert [d.code for d in diags] == ["OMP001"]
    assert diags[0].range.start == lsp.Position(1, 12)


async def test_utf16_columns_after_non_ascii(client: LanguageClient) -> None:
    text = "void g(int n) {\n#pragma omp parallel /* 😀 é */ privte(n)\n  {}\n}\n"
    _open(client, URI, text)
    diags = await _wait(client, URI, 1)
    assert len(diags) == 1
    line = text.splitlines()[1]
    column = _units(client, line[:line.index("privte")])
    assert diags[0].range.start.character == column
    assert diags[0].range.end.character == column + len("privte")


async def test_fortran_document(client: LanguageClient) -> None:
    text = "program p\n  !$omp target\n  x = 1\n  !$omp end parallel\nend program\n"
    _open(client, F_URI, text, "FortranFreeForm")
    diags = await _wait(client, F_URI, 1)
    assert sorted((d.code, d.range.start.line) for d in diags) == [("OMP006", 1), ("OMP006", 3)]


async def test_server_survives_bad_requests(client: LanguageClient) -> None:
    # A change for a document that was never opened, then an edit past the end of a line.
    _change(client, "file:///work/never-opened.c", 2, (0, 0), (0, 0), "x")
    _open(client, URI, "int x;\n")
    await _wait(client, URI, 1)
    _change(client, URI, 2, (0, 500), (7, 900), "\n#pragma omp barier\n")
    diags = await _wait(client, URI, 2)
    assert [d.code for d in diags] == ["OMP001"]
    # Still serving other documents afterwards.
    _open(client, F_URI, "program p\n!$omp paralel\nend program\n", "fortran")
    assert [d.code for d in await _wait(client, F_URI, 1)] == ["OMP001"]


async def test_a_fifty_megabyte_document_is_skipped_with_a_notice(client: LanguageClient) -> None:
    text = "#pragma omp targte\n" + "int x; /* é */\n" * 3_200_000
    assert len(text.encode()) > 50_000_000
    _open(client, URI, text)
    message = await wait_notification(client, lsp.WINDOW_SHOW_MESSAGE)
    assert "larger than" in message.message and "diagnostics are off" in message.message
    assert await _wait(client, URI, 1) == []
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(URI), lsp.Position(0, 9)))
    assert hover is None
    # the server goes on with other documents
    _open(client, F_URI, "program p\n!$omp paralel\nend program\n", "fortran")
    assert [d.code for d in await _wait(client, F_URI, 1)] == ["OMP001"]


async def test_typing_in_a_comment_moves_the_diagnostics(client: LanguageClient) -> None:
    """An inert edit (text typed into a comment, blanks in a directive) publishes the same
    findings at their new places for the new version, UTF-16 columns after non-ASCII text included."""
    text = "/* ü */ void g(int n) { /* 𝒳 */\n#pragma omp parallel /* 😀 */ privte(n)\n{}\n}\n"
    _open(client, URI, text)
    [before] = await _wait(client, URI, 1)
    inside = _units(client, "#pragma omp parallel /* ")
    _change(client, URI, 2, (1, inside), (1, inside), "é𝒳 ")   # inside the comment on the pragma line
    [after] = await _wait(client, URI, 2)
    assert (after.range.start.line, after.range.start.character) == \
        (1, before.range.start.character + _units(client, "é𝒳 "))
    _change(client, URI, 3, (0, 3), (0, 3), "\n")             # a new line inside the first comment
    [moved] = await _wait(client, URI, 3)
    assert (moved.range.start.line, moved.range.start.character) == (2, after.range.start.character)
    assert (moved.code, moved.message) == (before.code, before.message)
    _change(client, URI, 4, (2, 12), (2, 12), " ")            # a blank between directive name and clause
    [spaced] = await _wait(client, URI, 4)
    assert spaced.range.start.character == moved.range.start.character + 1


DIRECTIVES = """\
/* é 😀 */ int table[8];
#pragma omp declare target to(table)
void f(int n, double *a) {
#pragma omp target teams map(tofrom: a[0:n]) thread_limit(8)
  for (int i = 0; i < n; i++) a[i] *= 2.0;
#pragma omp target map(to: a[0:n]) privte(n)
  { a[0] = table[0]; }
}
"""


async def test_typing_inside_directives_reports_what_a_fresh_analysis_would(client: LanguageClient) -> None:
    """Edits inside one directive (the server re-analyses that directive and what read it:
    analysis/directive_edit.py) give the diagnostics of the new text, the later directive's
    staying in place; typing past the spare blanks of a line falls back to the whole file."""
    _open(client, URI, DIRECTIVES)
    [typo] = await _wait(client, URI, 1)
    assert (typo.code, typo.range.start.line) == ("OMP002", 5)
    limit = DIRECTIVES.splitlines()[3].index("8)")
    _change(client, URI, 2, (3, limit), (3, limit), "-")             # thread_limit(-8)
    diags = await _wait(client, URI, 2)
    assert [(d.code, d.range.start.line) for d in diags] == [("OMP210", 3), ("OMP002", 5)]
    assert (diags[0].range.start.character, diags[0].range.end.character) == (limit, limit + 2)
    assert diags[1].range == typo.range
    _change(client, URI, 3, (3, limit), (3, limit + 1), "")          # thread_limit(8) again
    assert await _wait(client, URI, 3) == [typo]
    item = DIRECTIVES.splitlines()[1].index("table)") + len("table")
    _change(client, URI, 4, (1, item), (1, item), "s")                # to(tables): nothing of that name
    diags = await _wait(client, URI, 4)
    assert [(d.code, d.range.start.line) for d in diags] == [("OMP113", 1), ("OMP002", 5)]
    _change(client, URI, 5, (1, item), (1, item + 1), "")
    assert await _wait(client, URI, 5) == [typo]
    end = len(DIRECTIVES.splitlines()[3])
    _change(client, URI, 6, (3, end), (3, end), " nowait" * 6)        # more than the line's spare blanks
    diags = await _wait(client, URI, 6)
    assert [(d.code, d.range.start.line) for d in diags] == [("OMP005", 3)] * 5 + [("OMP002", 5)]
    assert diags[-1].range == typo.range


VARIANTS = """\
/* é 😀 */ double blend_gpu(double x);
#pragma omp declare variant(blend_gpu) match(device={kind(gpu)})
double blend(double x);
#pragma omp begin declare target device_type(any)
int bump(int x) { return x + 1; }
#pragma omp end declare target
void f(double *a) {
#pragma omp target map(tofrom: a[0:1]) privte(a)
  { a[0] = blend(a[0]) + bump(1); }
}
"""


def _fresh(text: str, fortran: bool = False) -> list[tuple[str, int]]:
    """(code, line) of what a fresh analysis of the whole text reports."""
    from omp_lsp.analysis import Document, Language
    from omp_lsp.analysis.workspace import analyze_workspace
    language, path = (Language.FORTRAN, "/work/demo.f90") if fortran else (Language.C, "/work/demo.c")
    found = analyze_workspace({path: Document(text, language)})[path].findings
    return [(f.code, Document(text, language).lines.line_of(f.span[0])) for f in found]


async def test_typing_in_declare_variant_and_begin_declare_target_reports_what_a_fresh_analysis_would(
        client: LanguageClient) -> None:
    """A declare variant directive (resolved again) and a begin declare target's device type (its
    region bound again) edited in place: the diagnostics of the new text each time."""
    _open(client, URI, VARIANTS)
    [typo] = await _wait(client, URI, 1)
    assert (typo.code, typo.range.start.line) == ("OMP002", 7)
    lines = VARIANTS.splitlines()
    name = lines[1].index("blend_gpu") + len("blend_gpu")
    text = VARIANTS.replace("(blend_gpu)", "(blend_gpux)")
    _change(client, URI, 2, (1, name), (1, name), "x")                # a variant name nothing declares
    diags = await _wait(client, URI, 2)
    assert [(d.code, d.range.start.line) for d in diags] == _fresh(text)
    assert ("OMP302", 1) in _fresh(text)
    _change(client, URI, 3, (1, name), (1, name + 1), "")
    assert await _wait(client, URI, 3) == [typo]
    kind = lines[3].index("any")
    text = VARIANTS.replace("device_type(any)", "device_type(nohost)")
    _change(client, URI, 4, (3, kind), (3, kind + 3), "nohost")      # bump: a device-only function
    diags = await _wait(client, URI, 4)
    assert [(d.code, d.range.start.line) for d in diags] == _fresh(text)
    text = VARIANTS.replace("device_type(any)", "device_type(host)")
    _change(client, URI, 5, (3, kind), (3, kind + 6), "host")         # host only, called in a target region
    diags = await _wait(client, URI, 5)
    assert [(d.code, d.range.start.line) for d in diags] == _fresh(text)
    assert ("OMP401", 8) in _fresh(text)


PROCEDURES = """\
/* é 😀 */ int host_only(int x) { return x; }
#pragma omp declare target to(host_only) device_type(host)
int helper(int x) { return x + 1; }
int smooth(int x) {
  int y = x + 1;
  return y;
}
void f(int n, double *a) {
#pragma omp target map(tofrom: a[0:n]) privte(n)
  { a[0] = helper(n) + smooth(n); }
  a[1] = 1;
}
"""


async def _type_on_line(client: LanguageClient, uri: str, text: str, row: int,
                        edits: list[tuple[int, int, str]], fortran: bool = False) -> tuple[str, list[lsp.Diagnostic]]:
    """Apply one-line edits (first column, last column, typed) to line `row` of the open `text`,
    version after version, checking each version's diagnostics against a fresh analysis; the
    last version's text and diagnostics."""
    line = text.splitlines()[row]
    diags: list[lsp.Diagnostic] = []
    for version, (first, last, typed) in enumerate(edits, start=2):
        _change(client, uri, version, (row, first), (row, last), typed)
        text = text.replace(line, line[:first] + typed + line[last:])
        line = line[:first] + typed + line[last:]
        diags = await _wait(client, uri, version)
        assert [(d.code, d.range.start.line) for d in diags] == _fresh(text, fortran)
    return text, diags


@pytest.mark.parametrize("row", [2, 4, 10], ids=["one-line function", "function of several lines", "kernel"])
async def test_typing_in_a_function_body_reports_what_a_fresh_analysis_would(client: LanguageClient, row: int) -> None:
    """Edits inside the body of a function that no rule read (analysis/procedure_edit.py keeps
    the file's findings, and on a line of a longer body its structures too; the call graph reads
    that body again and the cross-file rules run again), and in a kernel outside its construct:
    the diagnostics of the new text, a call typed there included, which makes device code call a
    host-only function (host code, in the kernel)."""
    _open(client, URI, PROCEDURES)
    [typo] = await _wait(client, URI, 1)
    assert (typo.code, typo.range.start.line) == ("OMP002", 8)
    at = PROCEDURES.splitlines()[row].index("1;")
    text, diags = await _type_on_line(client, URI, PROCEDURES, row,
                                      [(at, at, "2"), (at, at + 1, ""), (at, at, "host_only(x) + ")])
    assert typo.range in [d.range for d in diags]
    assert (("OMP401", row) in _fresh(text)) == (row != 10)   # host_only called from device code


async def test_typing_inside_a_target_region_reports_what_a_fresh_analysis_would(client: LanguageClient) -> None:
    """Edits inside a kernel's target region: the rules that read it run again
    (analysis/construct_edit.py), a call of a host-only function typed there included."""
    _open(client, URI, PROCEDURES)
    await _wait(client, URI, 1)
    row = 9
    at = PROCEDURES.splitlines()[row].index("smooth")
    text, _ = await _type_on_line(client, URI, PROCEDURES, row,
                                  [(at, at, "1 + "), (at, at + 4, ""), (at, at, "host_only(n) + ")])
    assert ("OMP401", row) in _fresh(text)   # host_only called in the target region


async def test_enter_in_a_function_body_moves_the_diagnostics_after_it(client: LanguageClient) -> None:
    """Enter at the end of a line in a body, then a statement typed on the new line
    (procedure_edit keeps the analysis; the lines after it move)."""
    _open(client, URI, PROCEDURES)
    [typo] = await _wait(client, URI, 1)
    row = 4
    lines = PROCEDURES.splitlines(keepends=True)
    end = len(lines[row].rstrip("\n"))
    text = PROCEDURES
    for version, (at, typed) in enumerate([((row, end), "\n"), ((row + 1, 0), "  y = y * 2;")], start=2):
        _change(client, URI, version, at, at, typed)
        lines = text.splitlines(keepends=True)
        lines[at[0]] = lines[at[0]][:at[1]] + typed + lines[at[0]][at[1]:]
        text = "".join(lines)
        diags = await _wait(client, URI, version)
        assert [(d.code, d.range.start.line) for d in diags] == _fresh(text)
    assert diags[-1].range.start.line == typo.range.start.line + 1 and "  y = y * 2;\n  return y;" in text


F_PROCEDURES = """\
! é 😀
module procs
  implicit none
  !$omp declare target to(host_only) device_type(host)
contains
  integer function host_only(x)
    integer :: x
    host_only = x + 1
  end function host_only
  integer function helper(x)
    !$omp declare target
    integer :: x
    helper = x + 1
    helper = helper * 2
  end function helper
  subroutine kernel(n, a)
    integer :: n
    integer :: a(n)
    !$omp target map(tofrom: a) privte(n)
    a(1) = helper(n)
    !$omp end target
  end subroutine kernel
end module procs
"""


async def test_typing_in_a_fortran_statement_reports_what_a_fresh_analysis_would(client: LanguageClient) -> None:
    """Edits inside an execution-part statement that no rule read (analysis/statement_edit.py
    keeps the file's findings and structures, the model and the call graph read that statement
    again, the cross-file rules run again): the diagnostics of the new text, a call typed there
    included, which makes a declare target function call a host-only one."""
    _open(client, F_URI, F_PROCEDURES, "FortranFreeForm")
    [typo] = await _wait(client, F_URI, 1)
    lines = F_PROCEDURES.splitlines()
    assert (typo.code, typo.range.start.line) == ("OMP002", next(k for k, x in enumerate(lines) if "privte" in x))
    row = lines.index("    helper = helper * 2")
    at = lines[row].index("2")
    text, diags = await _type_on_line(client, F_URI, F_PROCEDURES, row, [
        (at, at, "3"), (at, at + 1, ""), (at, at + 1, "helper(x)"), (at, at, "host_only(x) + ")], fortran=True)
    assert typo.range in [d.range for d in diags]
    assert ("OMP401", row) in _fresh(text, fortran=True)   # host_only called from device code


async def test_a_burst_of_edits_is_analysed_once_for_its_last_version(client: LanguageClient) -> None:
    """Analyses of superseded versions are dropped: diagnostics never go back to an older version,
    and the last version's are what the client ends with."""
    body = "".join(f"void f{k}(int n, double *a) {{\n#pragma omp target teams map(tofrom: a[0:n])\n"
                   f"  for (int i = 0; i < n; i++) a[i] += {k};\n}}\n" for k in range(1500))
    _open(client, URI, body)
    await _wait(client, URI, 1)
    start = mark(client)
    for version in range(2, 8):   # a clause name typed letter by letter: every edit changes the directive
        _change(client, URI, version, (1, 44 + version - 2), (1, 44 + version - 2), "privte("[version - 2])
    diags = await _wait(client, URI, 7)
    assert [d.code for d in diags] == ["OMP002"]
    if not pulls(client):
        published = [p.version for name, p in client.seen[start:]  # type: ignore[attr-defined]
                     if name == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS and p.uri == URI]
        assert published == sorted(published) and published[-1] == 7 and len(published) < 6


async def test_pulled_diagnostics_report_unchanged_until_they_change(client: LanguageClient) -> None:
    """Neovim 0.11 pulls; a client that takes pushed diagnostics may pull as well."""
    _open(client, URI, SOURCE)
    request = lsp.DocumentDiagnosticParams(text_document=lsp.TextDocumentIdentifier(URI))
    first = await client.text_document_diagnostic_async(request)
    assert isinstance(first, lsp.RelatedFullDocumentDiagnosticReport) and [d.code for d in first.items] == ["OMP002"]
    request.previous_result_id = first.result_id
    again = await client.text_document_diagnostic_async(request)
    assert isinstance(again, lsp.RelatedUnchangedDocumentDiagnosticReport) and again.result_id == first.result_id
    col = SOURCE.splitlines()[1].index("privte")
    _change(client, URI, 2, (1, col + 4), (1, col + 4), "a")
    fixed = await client.text_document_diagnostic_async(request)
    assert isinstance(fixed, lsp.RelatedFullDocumentDiagnosticReport) and list(fixed.items) == []
    pushed = [name for name, _ in client.seen if name == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]  # type: ignore
    assert (pushed == []) == pulls(client)   # pushed or pulled, never both


async def test_quick_fix_from_the_diagnostic(client: LanguageClient) -> None:
    _open(client, URI, SOURCE)
    [diagnostic] = await _wait(client, URI, 1)
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(URI), diagnostic.range, lsp.CodeActionContext(diagnostics=[diagnostic])))
    [fix] = [a for a in actions or [] if isinstance(a, lsp.CodeAction) and a.kind == lsp.CodeActionKind.QuickFix]
    assert fix.edit is not None and fix.edit.changes is not None
    [edit] = fix.edit.changes[URI]
    assert edit.new_text == "private"
    _change(client, URI, 2, (edit.range.start.line, edit.range.start.character),
            (edit.range.end.line, edit.range.end.character), edit.new_text)
    assert await _wait(client, URI, 2) == []


async def test_binary_text_and_unterminated_continuations_get_answers(client: LanguageClient) -> None:
    _open(client, URI, "\x00\x01\x02 binary \udcff\ufffe #pragma omp target \\")
    assert await _wait(client, URI, 1) == []
    _open(client, F_URI, "program p\n!$omp target teams &\n!$omp& map(to: x) &\n", "fortran")
    diags = await _wait(client, F_URI, 1)
    assert "OMP004" in {d.code for d in diags}   # the continuation that never ends, said plainly
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(F_URI),
                                                                   lsp.Position(99, 99)))
    assert hover is None
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(URI)))
    assert symbols is None or symbols == []


BROKEN = [sys.executable, str(Path(__file__).resolve().parent / "servers" / "broken_rule.py")]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=BROKEN), params=["visual-studio-code", "neovim"])
async def broken_client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    record_notifications(lsp_client)
    answer_requests(lsp_client)
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities(request.param), root_uri=from_fs_path(str(tmp_path))))
    yield
    await lsp_client.shutdown_session()


async def test_an_edit_the_server_fails_on_is_logged_and_applied_to_the_whole_text(
        broken_client: LanguageClient) -> None:
    _open(broken_client, URI, SOURCE)
    assert [(d.code, d.range.start.line) for d in await _wait(broken_client, URI, 1)] == [("OMP002", 1)]
    _change(broken_client, URI, 2, (0, 0), (0, 0), "/* an edit Document.apply fails on */\n")
    assert [(d.code, d.range.start.line) for d in await _wait(broken_client, URI, 2)] == [("OMP002", 2)]
    logged = await wait_notification(broken_client, lsp.WINDOW_LOG_MESSAGE,
                                     lambda p: "could not apply the change" in p.message)
    assert logged.type == lsp.MessageType.Error
    end = len(SOURCE.splitlines()[1])
    _change(broken_client, URI, 3, (2, end), (2, end), " ")   # and the server's own editing goes on
    assert [(d.code, d.range.start.line) for d in await _wait(broken_client, URI, 3)] == [("OMP002", 2)]


async def test_a_rule_that_raises_is_logged_and_the_others_report(broken_client: LanguageClient) -> None:
    _open(broken_client, URI, SOURCE)
    assert [d.code for d in await _wait(broken_client, URI, 1)] == ["OMP002"]
    logged = await wait_notification(broken_client, lsp.WINDOW_LOG_MESSAGE,
                                     lambda p: "deliberately broken rule" in p.message)
    assert logged.type == lsp.MessageType.Error and "deliberately_broken" in logged.message
