"""A client that asks for the settings in force right after it notified a change (VS Code's
status bar: didChangeConfiguration with null settings, then omp-lsp.showConfiguration) gets the
new values: the server's pull of the client's settings (workspace/configuration) is waited for,
however slowly the client answers it. A real server over stdio (pytest-lsp)."""
from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient, client_capabilities
from test_server_trust import _execute, client   # noqa: F401 - the fixture: a client not yet initialised


async def test_show_configuration_waits_for_the_pull_a_change_started(client: LanguageClient) -> None:  # noqa: F811
    version = {"value": "5.1"}

    async def slow_settings(params: lsp.ConfigurationParams) -> list[Any]:
        await asyncio.sleep(1.0)   # (a busy editor)
        return [{"openmpVersion": version["value"]} for _ in params.items]

    client.protocol.fm.features[lsp.WORKSPACE_CONFIGURATION] = slow_settings
    await client.initialize_session(lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code")))
    assert (await _execute(client, "omp-lsp.showConfiguration"))["openmpVersion"] == "5.1"
    version["value"] = "5.2"
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    assert (await _execute(client, "omp-lsp.showConfiguration"))["openmpVersion"] == "5.2"
