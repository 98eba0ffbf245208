-- Headless Neovim against a recording of `biki serve` (Tests/clients/exchange.json, replayed by
-- Tests/clients/replay_server.py): the quiz shows what the server's answers hold, field by
-- field, so a field the server renames fails here once the recording is made again.
--   nvim --headless -u NONE -i NONE -n -c "luafile Editors/nvim/tests/replay.lua"
-- Exits 0 when every check passes, 1 otherwise, printing each check to stderr.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)tests/")
local repo = here .. "../../"
vim.opt.runtimepath:prepend(here)
vim.cmd("runtime plugin/biki.lua")

local checks = dofile(here .. "tests/checks.lua")
local check = checks.check

local recording = vim.fn.json_decode(table.concat(vim.fn.readfile(repo .. "Tests/clients/exchange.json"), "\n"))
local function recorded(method, nth)
  local seen = 0
  for _, step in ipairs(recording.exchange) do
    if step.method == method then
      seen = seen + 1
      if seen == (nth or 1) then
        return step.result
      end
    end
  end
end

local biki = require("biki")
biki.setup({
  cmd = { "python3", repo .. "Tests/clients/replay_server.py", repo .. "Tests/clients/exchange.json" },
  speak = false,
})

-- The learner's answers, typed at the prompt in turn; each time, what the quiz window shows.
local typed = { "0", "skip", "1本" }
local screens = {}
local function window_text()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= "" then
      return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), "\n")
    end
  end
  return ""
end
vim.fn.input = function()
  table.insert(screens, window_text())
  return table.remove(typed, 1) or "quit"
end

-- A field the client reads that the recording lacks is an error in the client: caught here, so
-- the test fails instead of leaving Neovim waiting.
local ran, problem = pcall(function()
  biki.quiz("counters.hon", 2)
  local done = vim.wait(10000, function() return #typed == 0 and window_text():find("finished", 1, true) ~= nil end, 20)
  check("the quiz runs to its summary", done, screens)

  local start, wrong, skipped, right = recorded("biki/startSession"), recorded("biki/answer", 1), recorded("biki/skip"),
    recorded("biki/answer", 2)
  local function shows(screen, text)
    return (screen or ""):find(text, 1, true) ~= nil
  end
  check("the first question is the start's", shows(screens[1], start.question.prompt), screens[1])
  check(
    "the progress counts against the start's limit",
    shows(screens[1], string.format("[1/%d]", start.progress.questionLimit)),
    screens[1]
  )
  check("a wrong answer is told as the verdict says", wrong.verdict == "incorrect" and shows(screens[2], "✗ not 0"), screens[2])
  check("a skip reveals the expected answer", shows(screens[3], "→ " .. skipped.expected.answer), screens[3])
  check("the next question is the skip's", shows(screens[3], skipped.question.prompt), screens[3])
  local summary = window_text()
  check(
    "the summary counts as the server's does",
    shows(summary, string.format("Correct: %d of %d (%d on the first try)", right.summary.correct, right.summary.questions,
      right.summary.correctFirstTry)),
    summary
  )
  check("the summary lists the missed question", shows(summary, right.summary.missed[1].prompt .. " → "), summary)
end)
check("the client reads every field it needs", ran, problem)

checks.finish("nvim replay")
