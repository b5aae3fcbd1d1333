"""End-to-end: inlay hints, hover and "mark explicitly" for implied device types (pytest-lsp)."""
from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import (
    answer_requests,
    mark,
    record_notifications,
    wait_diagnostics,
    wait_notification,
)
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

CASE = Path(__file__).resolve().parent / "fixtures" / "lsp_propagation"
LANGUAGE = {".c": "c", ".f90": "fortran"}


async def _start(client: LanguageClient, folder: Path, profile: str, options: dict | None = None) -> None:
    record_notifications(client)
    answer_requests(client)
    client.capabilities = client_capabilities(profile)  # type: ignore[attr-defined]

    await client.initialize_session(lsp.InitializeParams(
        capabilities=client.capabilities, root_uri=from_fs_path(str(folder)),  # type: ignore[attr-defined]
        initialization_options=options,
        workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(folder)) or "", name="ws")]))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=["visual-studio-code", "neovim"])
async def client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    lsp_client.folder = folder  # type: ignore[attr-defined]
    await _start(lsp_client, folder, request.param)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=["visual-studio-code", "neovim"])
async def flang_client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    lsp_client.folder = folder  # type: ignore[attr-defined]
    await _start(lsp_client, folder, request.param, {"propagation": "flang"})
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, name: str) -> tuple[str, list[str]]:
    path = client.folder / name  # type: ignore[attr-defined]
    uri = from_fs_path(str(path)) or ""
    text = path.read_text()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id=LANGUAGE[path.suffix], version=1, text=text)))
    await wait_diagnostics(client, uri, 1)
    return uri, text.splitlines()


async def _hints(client: LanguageClient, uri: str, lines: list[str]) -> list[lsp.InlayHint]:
    return await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=lsp.TextDocumentIdentifier(uri),
        range=lsp.Range(lsp.Position(0, 0), lsp.Position(len(lines), 0)))) or []


async def _replace(client: LanguageClient, uri: str, lines: list[str], old: str, new: str) -> list[str]:
    """The document's first `old` replaced by `new` (version 2, the whole text sent); its new lines."""
    text = ("\n".join(lines) + "\n").replace(old, new, 1)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2), [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    await wait_diagnostics(client, uri, 2)
    return text.splitlines()


def _tooltip(hint: lsp.InlayHint) -> str:
    assert isinstance(hint.tooltip, lsp.MarkupContent)
    return hint.tooltip.value


async def test_inlay_hints_follow_implied_procedures_with_their_chain(client: LanguageClient) -> None:
    uri, lines = await _open(client, "app.c")
    hints = await _hints(client, uri, lines)
    by_line = {h.position.line: h for h in hints}
    # square and scale are implied; marked_norm is explicit, host_report and main are host code
    assert sorted(by_line) == [2, 4]
    square, scale = by_line[2], by_line[4]
    assert square.label == scale.label == "declare target · any (implicit)"
    # after the parameter list: `double scale(double x, double factor)|`
    assert scale.position.character == lines[4].index(")") + 1
    assert "target region in main" in _tooltip(square) and "scale" in _tooltip(square)
    assert "app.c:16" in _tooltip(scale)


async def test_fortran_hints_and_hover(client: LanguageClient) -> None:
    uri, lines = await _open(client, "solver.f90")
    hints = await _hints(client, uri, lines)
    assert sorted(h.position.line for h in hints) == [3, 8]
    damp = next(h for h in hints if h.position.line == 8)
    assert "relax" in _tooltip(damp) and "target region in main" in _tooltip(damp)
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(5, lines[5].index("damp") + 1)))
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert "declare target · any (implicit)" in hover.contents.value
    assert "target region in main" in hover.contents.value and "relax" in hover.contents.value


VARIANTS = """\
double dot_gpu(double x) { return x; }
double dot_host(double x) { return x; }
#pragma omp declare variant(dot_gpu) match(device = {kind(gpu)})
#pragma omp declare variant(dot_host) match(device = {kind(host)})
double dot(double x) { return x; }
int main(void) {
  double r = 1.0;
#pragma omp target map(tofrom: r)
  r = dot(r);
  return 0;
}
"""


async def test_a_variant_called_through_its_base_gets_a_hint_and_a_hover_chain(client: LanguageClient) -> None:
    (client.folder / "variants.c").write_text(VARIANTS)  # type: ignore[attr-defined]
    uri, lines = await _open(client, "variants.c")
    by_line = {h.position.line: h for h in await _hints(client, uri, lines)}
    # the base and its gpu variant are implied; the kind(host) variant stays host code
    assert sorted(by_line) == [0, 4]
    assert by_line[0].label == "declare target · any (implicit)"
    assert "dot_gpu (called through the base function dot, declare variant match(device={kind(gpu)}))" \
        in _tooltip(by_line[0])
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(0, lines[0].index("dot_gpu") + 1)))
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert "declare target · any (implicit)" in hover.contents.value
    assert "called through the base function dot" in hover.contents.value


async def test_hover_tells_explicit_implicit_and_host(client: LanguageClient) -> None:
    uri, lines = await _open(client, "app.c")

    async def hover_on(line: int, word: str) -> str:
        h = await client.text_document_hover_async(lsp.HoverParams(
            lsp.TextDocumentIdentifier(uri), lsp.Position(line, lines[line].index(word) + 1)))
        assert h is not None and isinstance(h.contents, lsp.MarkupContent)
        return h.contents.value

    implied = await hover_on(15, "scale")
    assert "declare target · any (implicit)" in implied
    assert "target region in main" in implied and "(file://" in implied  # linked steps
    explicit = await hover_on(15, "marked_norm")
    assert "(explicit" in explicit
    host = await hover_on(16, "host_report")
    assert "host only" in host
    assert await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(13, 2))) is None   # `double` names no entity


async def test_mark_explicitly_writes_the_directive_and_the_hint_goes(client: LanguageClient) -> None:
    uri, lines = await _open(client, "app.c")
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Range(lsp.Position(4, 8), lsp.Position(4, 8)),
        lsp.CodeActionContext(diagnostics=[])))
    assert actions is not None
    action = next(a for a in actions if isinstance(a, lsp.CodeAction) and "scale" in a.title)
    assert action.edit is not None and action.edit.changes is not None
    edits = sorted(action.edit.changes[uri], key=lambda e: (e.range.start.line, e.range.start.character),
                   reverse=True)
    new = list(lines)
    for e in edits:   # line-wise inserts at column 0
        assert e.range.start == e.range.end and e.range.start.character == 0
        new[e.range.start.line:e.range.start.line] = e.new_text.rstrip("\n").split("\n")
    text = "\n".join(new) + "\n"
    assert "#pragma omp begin declare target\ndouble scale(" in text
    assert "square(x) * factor; }\n#pragma omp end declare target\n" in text
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    diagnostics = await wait_diagnostics(client, uri, 2)
    assert diagnostics == []
    hints = await _hints(client, uri, text.splitlines())
    # scale is explicit now; square is still implied, now through scale's mark
    assert [h.position.line for h in hints] == [2]
    assert _tooltip(hints[0]).startswith("Implied by: declare target scale")


async def test_flang_mode_setting_shows_nohost(flang_client: LanguageClient) -> None:
    uri, lines = await _open(flang_client, "app.c")
    hints = await _hints(flang_client, uri, lines)
    assert {h.label for h in hints} == {"declare target · nohost (implicit)"}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]))
async def bad_settings_client(lsp_client: LanguageClient, tmp_path: Path):
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    lsp_client.folder = folder  # type: ignore[attr-defined]
    await _start(lsp_client, folder, "neovim", {"propagation": "sideways", "deviceToolchains": "gcc-nvptx"})
    yield
    await lsp_client.shutdown_session()


async def test_invalid_settings_get_a_message_and_defaults(bad_settings_client: LanguageClient) -> None:
    client = bad_settings_client
    message = await wait_notification(client, "window/showMessage")
    assert "invalid setting" in message.message
    uri, lines = await _open(client, "app.c")
    assert {h.label for h in await _hints(client, uri, lines)} == {"declare target · any (implicit)"}


async def test_configuration_change_switches_the_mode(client: LanguageClient) -> None:
    uri, lines = await _open(client, "app.c")
    assert {h.label for h in await _hints(client, uri, lines)} == {"declare target · any (implicit)"}
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
        settings={"omp-lsp": {"propagation": "flang"}}))
    for _ in range(100):   # a notification: the next request sees it once it is handled
        labels = {h.label for h in await _hints(client, uri, lines)}
        if labels == {"declare target · nohost (implicit)"}:
            break
    assert labels == {"declare target · nohost (implicit)"}
    # clients that can refresh hints are asked to (VS Code's profile can, Neovim's cannot)
    refresh = client.capabilities.workspace.inlay_hint  # type: ignore[attr-defined]
    assert (client.refreshes > 0) == bool(refresh and refresh.refresh_support)  # type: ignore[attr-defined]


async def test_requests_for_unopened_documents_and_positions_past_the_end(client: LanguageClient) -> None:
    uri, lines = await _open(client, "app.c")
    other = from_fs_path(str(client.folder / "solver.f90")) or ""  # type: ignore[attr-defined]
    assert await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(other), lsp.Position(3, 14))) is None
    assert await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        lsp.TextDocumentIdentifier(other), lsp.Range(lsp.Position(0, 0), lsp.Position(5, 0)))) is None
    past = lsp.Position(len(lines) + 50, 400)
    assert await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), past)) is None
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        lsp.TextDocumentIdentifier(uri), lsp.Range(lsp.Position(0, 0), past)))
    assert hints is not None and len(hints) == 2
    before = mark(client)
    # the server is still alive and answering
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Range(past, past), lsp.CodeActionContext(diagnostics=[])))
    assert [a.title for a in actions or []] == ["Build and run on host and device"]   # (a file with main)
    assert mark(client) >= before


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]))
async def database_client(lsp_client: LanguageClient, tmp_path: Path):
    """A workspace folder whose build/compile_commands.json names a file outside it and -fopenmp-version=52."""
    folder = tmp_path / "ws"
    (folder / "build").mkdir(parents=True)
    (tmp_path / "lib").mkdir()
    (folder / "main.c").write_text(
        "double damp(double x);\nint x;\n#pragma omp declare target to(x)\nint main(void) {\n  double r = 1.0;\n"
        "#pragma omp target map(tofrom: r)\n  r = damp(r) + x;\n  return 0;\n}\n")
    (tmp_path / "lib" / "damp.c").write_text("double damp(double x) { return 0.5 * x; }\n")
    entries = [{"directory": str(folder), "file": str(p), "arguments": ["clang", "-fopenmp", "-fopenmp-version=52",
                                                                         "-c", str(p)]}
               for p in (folder / "main.c", tmp_path / "lib" / "damp.c")]
    (folder / "build" / "compile_commands.json").write_text(json.dumps(entries))
    lsp_client.folder = folder  # type: ignore[attr-defined]
    await _start(lsp_client, folder, "neovim")
    yield
    await lsp_client.shutdown_session()


async def test_compile_commands_gives_the_version_and_the_program(database_client: LanguageClient) -> None:
    uri, _ = await _open(database_client, "main.c")
    diagnostics = await wait_diagnostics(database_client, uri, 1)
    codes = {(d.code, d.range.start.line) for d in diagnostics}
    # 5.2 from the database: `to` is deprecated there
    assert ("OMP007", 2) in codes
    # damp.c lies outside the folder but is part of the program: the call needs its mark there
    omp403 = next(d for d in diagnostics if d.code == "OMP403")
    assert omp403.range.start.line == 6
    assert any(r.location.uri.endswith("/lib/damp.c") for r in omp403.related_information or [])


async def test_an_edit_that_changes_propagation_asks_for_fresh_hints(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    uri, lines = await _open(client, "app.c")
    other, other_lines = await _open(client, "solver.f90")
    before = client.refreshes  # type: ignore[attr-defined]
    # an edit that moves nothing but text: no refresh
    text = (folder / "app.c").read_text()
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text="/* moved */\n" + text)]))
    await wait_diagnostics(client, uri, 2)
    assert client.refreshes == before  # type: ignore[attr-defined]
    # the target region no longer calls scale: square and scale are host code now
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=3),
        [lsp.TextDocumentContentChangeWholeDocument(text=text.replace("r = scale(2.0, 3.0) +", "r ="))]))
    await wait_diagnostics(client, uri, 3)
    hints = await _hints(client, uri, lines)
    assert hints == []
    refresh = client.capabilities.workspace.inlay_hint  # type: ignore[attr-defined]
    for _ in range(100):   # the refresh request may still be on its way
        if (client.refreshes > before) == bool(refresh and refresh.refresh_support):  # type: ignore[attr-defined]
            break
        await _hints(client, other, other_lines)
    assert (client.refreshes > before) == bool(refresh and refresh.refresh_support)  # type: ignore[attr-defined]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "omp_lsp", "--stdio"]),
                    params=["visual-studio-code", "neovim"])
async def project_client(lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest):
    """A folder with a project file; the client answers workspace/configuration with flang mode."""
    folder = tmp_path / "ws"
    shutil.copytree(CASE, folder)
    (folder / "marked.c").write_text("int x;\n#pragma omp declare target to(x)\n")
    (folder / ".omp-lsp.toml").write_text('openmp-version = "5.2"\nseverity = { OMP007 = "error" }\n')
    lsp_client.folder = folder  # type: ignore[attr-defined]
    lsp_client.set_configuration({"propagation": "flang"}, section="omp-lsp")
    await _start(lsp_client, folder, request.param)
    yield
    await lsp_client.shutdown_session()


async def test_project_file_and_pulled_configuration(project_client: LanguageClient) -> None:
    client = project_client
    uri, _ = await _open(client, "marked.c")
    [diagnostic] = await wait_diagnostics(client, uri, 1)
    # 5.2 and the severity come from .omp-lsp.toml
    assert diagnostic.code == "OMP007" and diagnostic.severity == lsp.DiagnosticSeverity.Error
    app, lines = await _open(client, "app.c")
    for _ in range(100):   # the pulled settings (flang mode) arrive after initialized
        labels = {h.label for h in await _hints(client, app, lines)}
        if labels == {"declare target · nohost (implicit)"}:
            break
    assert labels == {"declare target · nohost (implicit)"}


async def test_completion_in_directives(client: LanguageClient) -> None:
    uri, lines = await _open(client, "app.c")
    new_lines = await _replace(client, uri, lines, "  double r = 0.0;\n",
                               "  double r = 0.0;\n#pragma omp target te\n#pragma omp target map(\n")
    line = new_lines.index("#pragma omp target te")
    result = await client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(line, len(new_lines[line]))))
    assert isinstance(result, lsp.CompletionList)
    teams = next(i for i in result.items if i.label == "target teams distribute parallel for")
    assert teams.kind == lsp.CompletionItemKind.Keyword and teams.documentation is not None
    # the multi-word name replaces what is typed of it: `target te`
    assert isinstance(teams.text_edit, lsp.TextEdit)
    assert teams.text_edit.range.start.character == len("#pragma omp ")
    result = await client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(line + 1, len(new_lines[line + 1]))))
    assert isinstance(result, lsp.CompletionList)
    got = {(i.label, i.kind) for i in result.items}
    assert {("tofrom", lsp.CompletionItemKind.EnumMember), ("r", lsp.CompletionItemKind.Variable)} <= got
    # outside a directive: nothing
    result = await client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(0, 3)))
    assert result is None or not result.items


async def test_semantic_tokens_inside_directives(client: LanguageClient) -> None:
    uri, lines = await _open(client, "app.c")
    result = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(lsp.TextDocumentIdentifier(uri)))
    assert result is not None
    legend = ["keyword", "property", "modifier", "variable", "namespace", "type", "enumMember"]
    decoded = []
    line = char = 0
    data = result.data
    for i in range(0, len(data), 5):
        line += data[i]
        char = data[i + 1] if data[i] else char + data[i + 1]
        decoded.append((line, lines[line][char:char + data[i + 2]], legend[data[i + 3]]))
    target = lines.index("#pragma omp target map(tofrom: r)")
    assert decoded == [(8, "declare target", "keyword"), (10, "end declare target", "keyword"),
                       (target, "target", "keyword"), (target, "map", "property"), (target, "tofrom", "modifier"),
                       (target, "r", "variable")]


async def test_definition_references_and_outline(client: LanguageClient) -> None:
    uri, lines = await _open(client, "app.c")
    new_lines = await _replace(client, uri, lines, "#pragma omp declare target\n",
                               "#pragma omp declare target to(scale)\n#pragma omp declare target\n")
    line = new_lines.index("#pragma omp declare target to(scale)")
    position = lsp.Position(line, new_lines[line].index("scale") + 1)
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri), position=position))
    assert isinstance(found, list) and len(found) == 1
    assert found[0].uri == uri and found[0].range.start.line == new_lines.index(
        "double scale(double x, double factor) { return square(x) * factor; }")
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(uri), position=position,
        context=lsp.ReferenceContext(include_declaration=True)))
    assert refs is not None
    assert {r.range.start.line for r in refs} >= {line, new_lines.index("  r = scale(2.0, 3.0) + marked_norm(-1.0);")}
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri)))
    assert symbols is not None
    names = [s.name for s in symbols]  # type: ignore[union-attr]
    assert names[0] == "declare target scale" and any(n.startswith("target (line") for n in names)


async def test_hover_on_directive_parts_and_list_items(client: LanguageClient) -> None:
    uri, lines = await _open(client, "app.c")
    line = lines.index("#pragma omp target map(tofrom: r)")

    async def hover_at(column: int) -> str | None:
        h = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                   lsp.Position(line, column)))
        return h.contents.value if h is not None and isinstance(h.contents, lsp.MarkupContent) else None

    directive = await hover_at(lines[line].index("target") + 1)
    assert directive is not None and directive.startswith("**target** — executable directive")
    clause = await hover_at(lines[line].index("map") + 1)
    assert clause is not None and clause.startswith("**map** — clause, on target since OpenMP 4.5")
    modifier = await hover_at(lines[line].index("tofrom") + 1)
    assert modifier is not None and "of the map clause" in modifier


async def test_source_files_are_watched_where_the_client_can(client: LanguageClient) -> None:
    await _open(client, "app.c")
    watched = client.capabilities.workspace.did_change_watched_files  # type: ignore[attr-defined]
    registrations = [r for r in client.registrations  # type: ignore[attr-defined]
                     if r.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    if watched is not None and watched.dynamic_registration:
        [registration] = registrations
        sources, settings = (w["globPattern"] for w in registration.register_options["watchers"])
        assert sources.startswith("**/*.{") and all(f",{ext}," in f",{sources[6:-1]}," for ext in ("c", "f90", "cpp"))
        assert settings == "**/{.omp-lsp.toml,pyproject.toml,compile_commands.json}"
    else:
        assert registrations == []


async def test_indexing_reports_progress_where_the_client_shows_it(client: LanguageClient) -> None:
    """The workspace is indexed in the background from `initialized`, before any document is open."""
    window = client.capabilities.window  # type: ignore[attr-defined]

    def reports() -> list:
        return [p for values in client.progress_reports.values() for p in values]
    for _ in range(500):
        if reports() and getattr(reports()[-1], "kind", None) == "end":
            break
        await asyncio.sleep(0.01)
    await _open(client, "app.c")
    reports = reports()
    if window is not None and window.work_done_progress:
        kinds = [getattr(r, "kind", None) for r in reports]
        assert kinds[0] == "begin" and kinds[-1] == "end" and "report" in kinds
        assert reports[-1].message == "2 files indexed"   # app.c and solver.f90
    else:
        assert reports == []


async def test_show_device_map_returns_the_workspace_map_and_logs_its_table(client: LanguageClient) -> None:
    uri, _ = await _open(client, "app.c")
    start = mark(client)
    whole = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("omp-lsp.showDeviceMap"))
    got = {(e["name"], e["device_type"], e["explicit"], Path(e["file"]).name) for e in whole["entities"]}
    # the same map as `omp-lsp --device-map`: both files, the closed Fortran one from the index
    assert {("scale", "any", False, "app.c"), ("marked_norm", "any", True, "app.c"), ("main", "none", False, "app.c"),
            ("relax", "any", False, "solver.f90")} <= got and whole["propagation"] == "spec"
    logged = await wait_notification(client, lsp.WINDOW_LOG_MESSAGE, lambda p: "device type" in p.message, start)
    assert "scale" in logged.message and "on the device" in logged.message
    one = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("omp-lsp.showDeviceMap", [uri]))
    assert {Path(e["file"]).name for e in one["entities"]} == {"app.c"}


async def test_show_configuration_tells_the_settings_in_force(client: LanguageClient) -> None:
    await _open(client, "app.c")
    before = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("omp-lsp.showConfiguration"))
    assert (before["openmpVersion"], before["propagation"]) == ("5.1", "spec")
    # an editor's unset settings (null) and its own keys change nothing; a set one does
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings={"omp-lsp": {
        "openmpVersion": "5.2", "propagation": None, "server": {"command": ["omp-lsp"]}}}))
    for _ in range(100):   # (a notification: a later request sees it once it is handled)
        after = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("omp-lsp.showConfiguration"))
        if after["openmpVersion"] == "5.2":
            break
    assert (after["openmpVersion"], after["propagation"]) == ("5.2", "spec")
