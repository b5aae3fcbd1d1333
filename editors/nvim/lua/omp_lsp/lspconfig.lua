-- For nvim-lspconfig before 2.0 (Neovim 0.10): `require("omp_lsp.lspconfig").register()` then
-- `require("lspconfig").omp_lsp.setup({})`.
local M = {}

function M.register()
  local configs = require("lspconfig.configs")
  if configs.omp_lsp then return end
  local base = dofile(vim.api.nvim_get_runtime_file("lsp/omp_lsp.lua", false)[1])
  configs.omp_lsp = {
    default_config = {
      cmd = base.cmd,
      filetypes = base.filetypes,
      root_dir = require("lspconfig.util").root_pattern(unpack(base.root_markers)),
      settings = base.settings,
      before_init = base.before_init,   -- (the settings with `initialize`, and vim.g.omp_lsp_build_and_run)
    },
    docs = { description = "omp-lsp: OpenMP offloading checks for C, C++ and Fortran" },
  }
end

return M
