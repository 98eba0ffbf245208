-- Headless Neovim test of the Biki extension against a real `biki serve`:
--   BIKI=.build/debug/biki nvim --headless -u NONE -i NONE -n -c "luafile Editors/nvim/tests/run.lua"
-- Exits 0 when every check passes, 1 otherwise, printing each check to stderr.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)tests/")
vim.opt.runtimepath:prepend(here)
vim.cmd("runtime plugin/biki.lua")
vim.cmd("filetype on")

local failures = 0
local function check(name, ok, detail)
  io.stderr:write((ok and "ok   " or "FAIL ") .. name .. (ok and "" or ("  " .. vim.inspect(detail))) .. "\n")
  if not ok then
    failures = failures + 1
  end
end

local biki = require("biki")
local state = vim.fn.tempname()
vim.env.XDG_STATE_HOME = state
biki.setup({ cmd = { vim.env.BIKI or (here .. "../../.build/debug/biki"), "serve" }, speak = false })

-- 1. A broken pack: the diagnostic lands on the right line and column. Neovim keeps columns
-- in bytes and converts from the server's UTF-16, so kanji and an emoji before the error
-- show whether the server counted right.
local pack = vim.fn.tempname() .. ".json"
local lines = {
  "{",
  '  "format": 1,',
  '  "id": "mine",',
  '  "title": "日本🎌", "version": "1.0.0", "topicz": [],',
  '  "topics": []',
  "}",
}
vim.fn.writefile(lines, pack)
vim.cmd("edit " .. pack)
local buf = vim.api.nvim_get_current_buf()
local got = vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
check("diagnostics arrive for a broken pack", got)
local found
for _, diagnostic in ipairs(vim.diagnostic.get(buf)) do
  if diagnostic.code == "unknown-key" then
    found = diagnostic
  end
end
local byte_col = lines[4]:find('"topicz"', 1, true) - 1
check("unknown-key is reported", found ~= nil, vim.diagnostic.get(buf))
if found then
  check("at line 4 (0-based 3)", found.lnum == 3, found)
  check("at byte column " .. byte_col, found.col == byte_col, found)
  check("from biki", found.source == "biki", found)
end

-- Fixing the text clears it after the debounce.
vim.api.nvim_buf_set_lines(buf, 3, 4, false, { '  "title": "日本🎌", "version": "1.0.0",' })
local cleared = vim.wait(15000, function()
  for _, diagnostic in ipairs(vim.diagnostic.get(buf)) do
    if diagnostic.code == "unknown-key" then
      return false
    end
  end
  return true
end, 20)
check("the diagnostic clears once fixed", cleared)

-- 2. A quiz, answers typed at the prompt: one wrong, one right, one skip.
local client = vim.lsp.get_client_by_id(biki.client())
local generated = client.request_sync("biki/generate", { topicId = "counters.hon", seed = 3, count = 2 }, 10000)
local answers = {}
for _, question in ipairs(generated.result.questions) do
  table.insert(answers, question.answer)
end
local typed = { "0", tostring(answers[1]), "skip" }
local prompts = {}
vim.ui.input = function(options, on_confirm)
  table.insert(prompts, options.prompt)
  local answer = table.remove(typed, 1)
  vim.schedule(function() on_confirm(answer) end)
end
biki.config.seed = 3
vim.cmd("BikiQuiz counters.hon 2")
local finished = vim.wait(15000, function()
  local shown = biki.window_lines()
  return shown[1] ~= nil and shown[1]:find("finished") ~= nil
end, 20)
check("the quiz finishes", finished, biki.window_lines())
local summary = table.concat(biki.window_lines(), "\n")
check("the summary counts one correct of two", summary:find("Correct: 1 of 2", 1, true) ~= nil, summary)
check("and one skipped", summary:find("Skipped: 1", 1, true) ~= nil, summary)
check("and lists what to practise", summary:find("To practise again", 1, true) ~= nil, summary)
check("the prompt names the counter", prompts[1] and prompts[1]:find("本", 1, true) ~= nil, prompts)
local history = vim.fn.readfile(state .. "/biki/history.jsonl")
check("three answers are in the history", #history == 3, history)

local function floats()
  local count = 0
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= "" then
      count = count + 1
    end
  end
  return count
end
check("the summary has the focus", vim.api.nvim_win_get_config(0).relative ~= "")
vim.cmd("normal q")
check("q closes the summary", floats() == 0, floats())

-- 3. :BikiTopics lists the topics.
vim.cmd("BikiTopics")
local listed = vim.wait(10000, function() return vim.api.nvim_buf_get_name(0):find("biki://topics", 1, true) ~= nil end, 20)
local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
check(":BikiTopics lists counters.hon", listed and text:find("counters.hon", 1, true) ~= nil, text:sub(1, 200))

io.stderr:write(failures == 0 and "nvim: all checks passed\n" or ("nvim: " .. failures .. " checks failed\n"))
vim.lsp.stop_client(client.id)
vim.cmd(failures == 0 and "qa!" or "cquit 1")
