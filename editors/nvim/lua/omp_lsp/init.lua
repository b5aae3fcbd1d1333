-- omp-lsp's commands in Neovim: build and run on host and device, the device map and the offload
-- entries, each shown in a scratch buffer; and `setup()` for configurations written in Lua.
local M = {}

local function client_for(bufnr)
  return vim.lsp.get_clients({ bufnr = bufnr, name = "omp_lsp" })[1]
end

-- A scratch buffer in a split, reused by name, holding `lines`.
local function show(name, lines)
  local buf = vim.fn.bufnr(name)
  if buf == -1 then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].bufhidden = "hide"
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  if vim.fn.bufwinnr(buf) == -1 then
    vim.cmd("botright split")
    vim.api.nvim_win_set_buf(0, buf)
  end
  return buf
end

-- Runs a server command (workspace/executeCommand) and hands its result to `done`.
local function execute(bufnr, command, arguments, done)
  local client = client_for(bufnr)
  if client == nil then
    vim.notify("omp-lsp is not attached to this buffer", vim.log.levels.WARN)
    return
  end
  client:request("workspace/executeCommand", { command = command, arguments = arguments }, function(err, result)
    if err then
      vim.notify("omp-lsp: " .. command .. ": " .. err.message, vim.log.levels.ERROR)
    else
      done(result)
    end
  end, bufnr)
end

local function finding(d)
  return string.format("%s:%d:%d: %s: %s [%s]", d.file, d.line, d.column, d.severity, d.message, d.code)
end

function M.report_lines(report)
  local lines = { string.format("%s: toolchain %s", report.file, report.toolchain or "none") }
  for _, b in ipairs(report.builds) do
    -- (command_line: quoted to paste into a shell)
    local command = type(b.command_line) == "string" and b.command_line or table.concat(b.command, " ")
    table.insert(lines, string.format("%s build: %s in %.2f s: %s", b.kind, b.ok and "ok" or "failed", b.seconds,
      command))
    for _, d in ipairs(b.diagnostics) do table.insert(lines, "  " .. finding(d)) end
  end
  for _, r in ipairs(report.runs) do
    local where = r.offloaded == true and ", offloaded" or (r.offloaded == false and ", not offloaded" or "")
    local state = r.timed_out and "timed out" or ("exit " .. tostring(r.exit_code))
    table.insert(lines, string.format("%s run: %s in %.2f s%s", r.kind, state, r.seconds, where))
    for _, l in ipairs(vim.split(r.stdout, "\n", { trimempty = true })) do table.insert(lines, "  | " .. l) end
    for _, l in ipairs(vim.split(r.stderr, "\n", { trimempty = true })) do table.insert(lines, "  ! " .. l) end
  end
  for _, n in ipairs(report.notes) do table.insert(lines, "note: " .. n) end
  for _, d in ipairs(report.diagnostics) do table.insert(lines, finding(d)) end
  if report.same_output ~= vim.NIL and report.same_output ~= nil then
    table.insert(lines, report.same_output and "same output on host and device" or "the runs differ in output or exit status")
  end
  return lines
end

-- Build the current file for the host and for a device, run both, show the report.
function M.build_and_run(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  vim.notify("omp-lsp: building and running " .. vim.fs.basename(vim.api.nvim_buf_get_name(bufnr)))
  execute(bufnr, "omp-lsp.buildAndRun", { vim.uri_from_bufnr(bufnr) }, function(report)
    if report ~= nil and report ~= vim.NIL then
      show("omp-lsp://build-and-run", M.report_lines(report))
    end
  end)
end

-- Which procedures and static variables run on the device, and why.
function M.device_map(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  execute(bufnr, "omp-lsp.showDeviceMap", {}, function(map)
    local lines = { "Device map (propagation: " .. map.propagation .. ")" }
    for _, e in ipairs(map.entities) do
      local how = e.explicit and "explicit" or (e.device_type == "none" and "-" or "implicit")
      local chain = {}
      for _, s in ipairs(e.chain) do table.insert(chain, s.label) end
      table.insert(lines, string.format("%s:%d  %s  %s  %s  %s  %s", e.file, e.line, e.kind, e.name, e.device_type, how,
        table.concat(chain, " → ")))
    end
    show("omp-lsp://device-map", lines)
  end)
end

-- What the last device build of the current file holds.
function M.offload_entries(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  execute(bufnr, "omp-lsp.showOffloadEntries", { vim.uri_from_bufnr(bufnr) }, function(entries)
    if entries == nil or entries == vim.NIL then return end   -- (the server said why)
    local lines = {}
    for _, e in ipairs(entries) do
      table.insert(lines, e.kind .. ": " .. (e["function"] or e.name) .. (e.line and (" (line " .. e.line .. ")") or ""))
    end
    show("omp-lsp://offload-entries", lines)
  end)
end

-- For configurations in Lua: settings (and any other client option) merged into lsp/omp_lsp.lua's,
-- then enabled.
function M.setup(opts)
  opts = opts or {}
  if opts.settings then opts.settings = { ["omp-lsp"] = opts.settings } end
  vim.lsp.config("omp_lsp", opts)
  vim.lsp.enable("omp_lsp")
end

return M
