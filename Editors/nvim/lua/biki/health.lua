-- :checkhealth biki: what the extension needs, and what to do about each thing missing.
local M = {}

-- Neovim 0.10 calls these vim.health.start/ok/…, 0.8 and 0.9 vim.health.report_start/…, and
-- 0.7 has them only in the `health` module.
local health = vim.health or require("health")
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local info = health.info or health.report_info
local warn = health.warn or health.report_warn
local fail = health.error or health.report_error

local install_advice = {
  "Install Biki: swift build -c release && .build/release/biki install --prefix ~/.local, and put ~/.local/bin on your PATH",
  "or give its full path: require('biki').setup({ cmd = { '/path/to/biki', 'serve' } })",
}

-- The topics the configured server serves, counted by where they come from.
local function check_topics(biki)
  local id = biki.client()
  local client = id and vim.lsp.get_client_by_id(id)
  if not client then
    fail("`" .. table.concat(biki.config.cmd, " ") .. "` did not start", install_advice)
    return
  end
  local response = client.request_sync("biki/topics", vim.empty_dict(), 20000)
  if not response or response.err or not response.result then
    local why = response and response.err and response.err.message or "no answer in 20 s"
    fail("`" .. table.concat(biki.config.cmd, " ") .. "` did not list its topics: " .. why)
    return
  end
  local packs, plugins = {}, {}
  for _, topic in ipairs(response.result.topics) do
    if topic.source:match("%.json$") then
      packs[topic.source] = true
    else
      plugins[topic.source] = true
    end
  end
  local topics = #response.result.topics
  local summary = string.format("%d topics from %d packs and %d plugins", topics,
    vim.tbl_count(packs), vim.tbl_count(plugins))
  if topics == 0 then
    warn(summary, { "Biki's own packs are missing: install Biki with `biki install` rather than copying the binary" })
  else
    ok(summary .. " (:BikiTopics lists them)")
  end
end

function M.check()
  local biki = require("biki")
  start("biki")
  if vim.fn.has("nvim-0.7") == 1 then
    ok("Neovim " .. tostring(vim.version().major) .. "." .. tostring(vim.version().minor))
  else
    fail("Neovim 0.7 or later is needed")
  end

  local name = biki.config.cmd[1]
  local path = vim.fn.exepath(name)
  if path == "" then
    fail("`" .. name .. "` is not on your PATH, so no quiz or pack diagnostics", install_advice)
  else
    ok("`" .. name .. "` is " .. path)
    local version = vim.trim(vim.fn.system({ path, "--version" }))
    if vim.v.shell_error == 0 then
      ok("version " .. version)
    else
      fail("`" .. path .. " --version` failed: " .. version, install_advice)
    end
    check_topics(biki)
  end

  if biki.did_setup then
    ok("setup() was called: JSON packs get diagnostics")
  else
    warn("setup() has not been called, so pack files get no diagnostics",
      { "add require('biki').setup() to your init.lua" })
  end

  -- `biki say --engine`: which engine reads listening questions aloud, or what to install.
  local engine = biki.speech_engine(true)
  if not engine.speaks then
    warn(engine.line .. " (the quiz shows a listening question's reading instead)")
  elseif engine.line:find("^Speaking with Open JTalk") then
    ok(engine.line)
  else
    warn(engine.line)
  end
  if not biki.config.speak then
    info("speak = false: questions are not read aloud")
  end
end

return M
