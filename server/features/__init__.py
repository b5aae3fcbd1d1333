"""The server's LSP features, one module each; `register_all` attaches their handlers."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer


def register_all(server: OmpLanguageServer) -> None:
    from . import (
        actions,
        build_run,
        device,
        diagnostics,
        directive_help,
        hover,
        navigation,
        settings,
        sync,
    )
    for feature in (sync, settings, diagnostics, device, hover, directive_help, navigation, actions, build_run):
        feature.register(server)
