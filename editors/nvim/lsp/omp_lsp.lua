-- omp-lsp for Neovim 0.11+: `vim.lsp.enable("omp_lsp")` with this folder on 'runtimepath' (nvim-lspconfig
-- 2.x users get it the same way: this file is merged with any `vim.lsp.config("omp_lsp", {...})`).
local cmd = { "omp-lsp" }
if vim.fn.executable("omp-lsp") == 0 then
  cmd = { "python3", "-m", "omp_lsp" }   -- installed for Python but not on the PATH
end

return {
  cmd = cmd,
  filetypes = { "c", "cpp", "fortran" },
  root_markers = { ".omp-lsp.toml", "compile_commands.json", "pyproject.toml", ".git" },
  -- the server's settings (the same names as in .omp-lsp.toml): openmpVersion, disable, severity,
  -- propagation, deviceToolchains, exclude, toolchain, defines, undefines, includePaths, buildAndRun.
  -- Unset ones come from the project file.
  settings = { ["omp-lsp"] = vim.empty_dict() },
  before_init = function(params, config)
    -- Neovim has no workspace trust: `vim.g.omp_lsp_build_and_run = false` (in init.lua, and `true`
    -- in the `.nvim.lua` of the projects you trust, which 'exrc' runs only once you have trusted
    -- it, see :help exrc) makes the server refuse to build and run. (config is this client's copy;
    -- its settings are what the server pulls with workspace/configuration.)
    if vim.g.omp_lsp_build_and_run == false then
      local section = vim.deepcopy(config.settings["omp-lsp"] or {})
      section.buildAndRun = false
      config.settings["omp-lsp"] = section
    end
    -- the settings go with `initialize` too, so that the first analysis already uses them (the
    -- server asks for them again once initialized)
    params.initializationOptions = config.settings
  end,
}
