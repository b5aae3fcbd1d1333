"""The VS Code extension's manifest agrees with the server: a setting for every key of the server's
configuration schema (and only the editor's own besides), a handler for every contributed command,
and server commands that the server registers. (The extension's behaviour: test_vscode_e2e.)"""
from __future__ import annotations

import json
import re
from pathlib import Path

from omp_lsp.server.app import server
from omp_lsp.server.config import EDITOR_SETTINGS, SCHEMA

EXT = Path(__file__).resolve().parent.parent / "vscode-extension"
MANIFEST = json.loads((EXT / "package.json").read_text())
SOURCE = (EXT / "src" / "extension.ts").read_text()


def test_every_server_setting_is_contributed_with_a_description_and_a_null_default() -> None:
    properties = MANIFEST["contributes"]["configuration"]["properties"]
    server_keys = {k.removeprefix("omp-lsp.") for k in properties if k.split(".")[1] not in EDITOR_SETTINGS}
    assert server_keys == set(SCHEMA)
    for key in server_keys:
        spec = properties[f"omp-lsp.{key}"]
        assert spec.get("markdownDescription") or spec.get("description"), key
        # (unset: the project file's value stands; the server skips nulls)
        assert spec["default"] is None and spec["scope"] == "resource", key
    assert properties["omp-lsp.server.command"]["scope"] == "window"   # (machine scope is ignored remotely)


def test_every_contributed_command_has_a_handler_and_the_server_commands_exist() -> None:
    contributed = {c["command"] for c in MANIFEST["contributes"]["commands"]}
    registered = set(re.findall(r'registerCommand\("([\w.-]+)"', SOURCE))
    assert contributed == registered
    known = set(server.protocol.fm.commands)
    used = set(re.findall(r'^\s+\w+: "(omp-lsp\.[\w]+)",$', SOURCE[SOURCE.index("const SERVER"):], re.MULTILINE))
    assert used and used <= known, used - known


def test_the_document_selector_covers_c_cpp_and_every_fortran_id_and_extension() -> None:
    for language in ("c", "cpp", "fortran", "FortranFreeForm", "FortranFixedForm"):
        assert f'"{language}"' in SOURCE and f"onLanguage:{language}" in MANIFEST["activationEvents"]
    from omp_lsp.analysis.syntax.document import SOURCE_EXTENSIONS
    pattern = re.search(r'FORTRAN_FILES = "\*\*/\*\.\{([^}]*)\}"', SOURCE)
    assert pattern is not None
    fortran = {e for e in SOURCE_EXTENSIONS if e.lower().startswith(".f")}
    assert {f".{e}" for e in pattern.group(1).split(",")} >= fortran
    assert f"workspaceContains:**/*.{{{pattern.group(1)}}}" in MANIFEST["activationEvents"]


def test_the_server_gets_the_workspace_trust_as_the_build_and_run_setting() -> None:
    """Untrusted: `buildAndRun` false in what the server gets, with `initialize` and in answer to
    workspace/configuration, so that the server itself refuses (any client, the code action too);
    granting trust restarts the server with the settings as they are."""
    trust = re.search(r"function withTrust\(settings: unknown\)[^{]*\{(.*?)\n\}", SOURCE, re.DOTALL)
    assert trust is not None and "vscode.workspace.isTrusted ? plain : { ...plain, buildAndRun: false }" in trust.group(1)
    assert 'initializationOptions: { "omp-lsp": withTrust(vscode.workspace.getConfiguration("omp-lsp")) }' in SOURCE
    assert re.search(r'configuration: async \(params, token, next\) => \{.*?section === "omp-lsp" \? withTrust\(value\)',
                     SOURCE, re.DOTALL)
    assert "vscode.workspace.onDidGrantWorkspaceTrust(() => restart(context))" in SOURCE
