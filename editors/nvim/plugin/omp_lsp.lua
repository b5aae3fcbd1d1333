-- :OmpBuildAndRun, :OmpDeviceMap, :OmpOffloadEntries (omp-lsp's server commands, shown in a buffer).
vim.api.nvim_create_user_command("OmpBuildAndRun", function() require("omp_lsp").build_and_run() end,
  { desc = "omp-lsp: build and run the current file on host and device" })
vim.api.nvim_create_user_command("OmpDeviceMap", function() require("omp_lsp").device_map() end,
  { desc = "omp-lsp: which procedures and variables run on the device, and why" })
vim.api.nvim_create_user_command("OmpOffloadEntries", function() require("omp_lsp").offload_entries() end,
  { desc = "omp-lsp: what the last device build of the current file holds" })
