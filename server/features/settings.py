"""The session: initialisation, settings (initializationOptions, workspace/configuration,
didChangeConfiguration, and the command `omp-lsp.showConfiguration` that tells the values in
force), shutdown."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, cast

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from ..config import settings_of
from .build_run import stop_builds
from .sync import watch_source_files

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer

log = logging.getLogger("omp_lsp.server")


def _pulls_configuration(ls: OmpLanguageServer) -> bool:
    workspace = ls.client_capabilities.workspace
    return bool(workspace is not None and workspace.configuration)


async def _pull_configuration(ls: OmpLanguageServer) -> None:
    """Ask the client for the `omp-lsp` section (workspace/configuration); `showConfiguration`
    waits for the answer (a client that asks for it right after a change gets the new values)."""
    pull = ls.configuration_pull = asyncio.ensure_future(_ask_configuration(ls))
    await pull


async def _ask_configuration(ls: OmpLanguageServer) -> None:
    try:
        found = await ls.workspace_configuration_async(
            lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="omp-lsp")]))
    except Exception:   # a client that fails the request keeps the settings it sent before
        log.exception("workspace/configuration failed")
        return
    if found and isinstance(found[0], dict):
        ls.configure(found[0])


SHOW_CONFIGURATION = "omp-lsp.showConfiguration"
PULL_WAIT = 5.0   # seconds showConfiguration waits for a pull of the client's settings


def register(server: OmpLanguageServer) -> None:
    @server.command(SHOW_CONFIGURATION)
    async def show_configuration(ls: LanguageServer) -> dict[str, Any]:
        """The settings in force, wherever each came from (defaults, compile_commands.json, the
        project file, the editor): what a status bar shows. A pull of the client's settings under
        way (a change notified before this request) is waited for."""
        ls = cast("OmpLanguageServer", ls)
        pull = ls.configuration_pull
        if pull is not None and not pull.done():
            # (shielded: this request cancelled, the pull goes on; a client that never answers
            # it gets the values in force after a few seconds)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(pull), PULL_WAIT)
        return {**settings_of(ls.config), "projectFile": ls.project_path}

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: OmpLanguageServer, params: lsp.InitializeParams) -> None:
        ls.configure(params.initialization_options)

    @server.feature(lsp.INITIALIZED)
    async def initialized(ls: OmpLanguageServer, params: lsp.InitializedParams) -> None:
        await watch_source_files(ls)
        if _pulls_configuration(ls):
            await _pull_configuration(ls)
        ls.start_indexing()   # in the background, before any document is opened

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: OmpLanguageServer, params: None) -> None:
        ls.shutdown_received = True
        stop_builds()   # (else `exit` would wait for their runs' timeouts)
        for state in ls.open.values():   # analyses under way are not wanted any more
            state.closed = True

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: OmpLanguageServer, params: lsp.DidChangeConfigurationParams) -> None:
        settings = params.settings
        ours = isinstance(settings, dict) and ("omp-lsp" in settings or "ompLsp" in settings)
        if not ours and _pulls_configuration(ls):
            await _pull_configuration(ls)   # VS Code sends null and expects the server to ask
        else:
            ls.configure(settings)
        ls.refresh_hints()   # the mode changes every hint's label
