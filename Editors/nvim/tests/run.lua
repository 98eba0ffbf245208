-- Headless Neovim test of the Biki extension against a real `biki serve`:
--   BIKI=.build/debug/biki nvim --headless -u NONE -i NONE -n -c "luafile Editors/nvim/tests/run.lua"
-- Exits 0 when every check passes, 1 otherwise, printing each check to stderr.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)tests/")
vim.opt.runtimepath:prepend(here)
vim.cmd("runtime plugin/biki.lua")
vim.cmd("filetype on")

local checks = dofile(here .. "tests/checks.lua")
local check = checks.check

local biki = require("biki")
local state = vim.fn.tempname()
vim.env.XDG_STATE_HOME = state
-- Packs the server watches; section 2 adds one while Neovim runs.
local user_packs = vim.fn.tempname()
vim.fn.mkdir(user_packs, "p")
vim.env.BIKI_PACK_PATH = user_packs
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

-- 2. Quizzes are typed at a real prompt: Editors/nvim/tests/quiz.sh drives Neovim in tmux.
local client = vim.lsp.get_client_by_id(biki.client())
local completions = vim.fn.getcompletion("BikiQuiz counters.h", "cmdline")
check(":BikiQuiz <Tab> completes topic ids", vim.tbl_contains(completions, "counters.hon"), completions)

-- A pack added while Neovim runs: once the server says the packs changed, <Tab> offers its topic.
vim.fn.writefile({
  '{"format": 1, "id": "added", "title": "Added", "version": "1.0.0", "topics": [{',
  '  "id": "hon", "title": "本", "description": "Long things.", "category": "counter",',
  '  "skills": ["reading"], "variables": {"n": {"range": {"min": 1, "max": 10}}},',
  '  "question": {"parts": [{"number": "n", "counter": "本"}], "answer": {"value": "n", "postfix": "本"}}}]}',
}, user_packs .. "/added.json")
local offered = vim.wait(15000, function()
  return vim.tbl_contains(vim.fn.getcompletion("BikiQuiz added.", "cmdline"), "added.hon")
end, 100)
check(":BikiQuiz <Tab> offers a topic from a pack added since", offered, vim.fn.getcompletion("BikiQuiz added.", "cmdline"))

-- 3. :BikiTopics lists the topics.
vim.cmd("BikiTopics")
local listed = vim.wait(10000, function() return vim.api.nvim_buf_get_name(0):find("biki://topics", 1, true) ~= nil end, 20)
local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
check(":BikiTopics lists counters.hon", listed and text:find("counters.hon", 1, true) ~= nil, text:sub(1, 200))
-- The list is filled in the server's answer, so an error there shows in v:errmsg, not here.
vim.v.errmsg = ""
local again = pcall(vim.cmd, "BikiTopics")
vim.wait(2000, function() return false end, 50)
check(":BikiTopics a second time refreshes the same list", again and vim.v.errmsg == "" and vim.fn.bufnr("biki://topics") ~= -1, vim.v.errmsg)

vim.lsp.stop_client(client.id)
vim.fn.delete(user_packs, "rf")
vim.fn.delete(state, "rf")
checks.finish("nvim")
