-- Biki for Neovim (0.7+): pack diagnostics while you type, and quizzes in a floating window,
-- through `biki serve` (JSON-RPC over stdio, see docs/protocol.md).
local M = {}

M.config = {
  -- How to start the server.
  cmd = { "biki", "serve" },
  -- Read questions aloud with espeak-ng's Japanese voice when it is installed.
  speak = true,
  -- A quiz's length when :BikiQuiz is given no count.
  questions = 10,
  -- Which skill to drill: "reading", "listening", "kana" or "counter"; nil for the topic's default.
  skill = nil,
}

local client_id = nil
local quiz = nil
-- Topic ids and titles, fetched once, for titles and :BikiQuiz <Tab>.
local topic_list = nil
local told_no_speech = false

local function notify(message, level)
  vim.notify("biki: " .. message, level or vim.log.levels.INFO)
end

-- A JSON file is a pack when it says so at the top: a "format" key and a "topics" key.
function M.is_pack(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, 200, false)
  local text = table.concat(lines, "\n")
  return text:find('"format"') ~= nil and text:find('"topics"') ~= nil
end

-- The running client's id, starting the server on first use.
function M.client()
  if client_id and vim.lsp.get_client_by_id(client_id) then
    return client_id
  end
  client_id = vim.lsp.start_client({
    name = "biki",
    cmd = M.config.cmd,
    root_dir = vim.fn.getcwd(),
    handlers = {
      ["biki/packsChanged"] = function(_, params)
        -- The kept list is stale now: ask again on the next completion.
        topic_list = nil
        notify(string.format("packs reloaded: %d topics, %d problems", params.topicCount, #params.problems))
      end,
      ["biki/sessionFinished"] = function(_, params)
        if quiz and quiz.session == params.sessionId then
          M._finish(params.summary)
        end
      end,
    },
  })
  if not client_id then
    notify("could not start " .. table.concat(M.config.cmd, " ") .. "; is biki on your PATH?", vim.log.levels.ERROR)
  end
  return client_id
end

function M.attach(bufnr)
  local id = M.client()
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

-- What a learner reads when a request fails: the server's message in this editor's words
-- (its commands, not the protocol's method names).
local function explain(err)
  local message = err.message or vim.inspect(err)
  message = message:gsub('^"topicId": ', ""):gsub('^"sessionId": ', "")
  if message:find("no topic", 1, true) then
    message = message .. " :BikiTopics lists them."
  end
  return message
end

-- Sends a request; calls `on_result(result)` on success and reports errors.
function M.request(method, params, on_result, on_error)
  local id = M.client()
  if not id then
    return
  end
  local client = vim.lsp.get_client_by_id(id)
  client.request(method, params, function(err, result)
    if err then
      notify(explain(err), vim.log.levels.ERROR)
      if on_error then
        on_error(err)
      end
      return
    end
    on_result(result)
  end)
end

-- Every topic ({id, title, ...}), asked of the server once and kept.
function M.topic_list()
  if topic_list then
    return topic_list
  end
  local id = M.client()
  if not id then
    return {}
  end
  local response = vim.lsp.get_client_by_id(id).request_sync("biki/topics", vim.empty_dict(), 10000)
  if response and response.result then
    topic_list = response.result.topics
  end
  return topic_list or {}
end

-- :BikiQuiz <Tab>: the topic ids starting with what was typed.
function M.complete_topics(lead)
  local matches = {}
  for _, topic in ipairs(M.topic_list()) do
    if topic.id:sub(1, #lead) == lead then
      table.insert(matches, topic.id)
    end
  end
  return matches
end

local function title_of(id)
  for _, topic in ipairs(M.topic_list()) do
    if topic.id == id then
      return topic.title
    end
  end
  return id
end

-- The quiz window: one floating window, rewritten as the quiz goes on.
local function show(lines)
  if not quiz then
    return
  end
  if not (quiz.buf and vim.api.nvim_buf_is_valid(quiz.buf)) then
    quiz.buf = vim.api.nvim_create_buf(false, true)
  end
  vim.api.nvim_buf_set_lines(quiz.buf, 0, -1, false, lines)
  local width = 20
  for _, line in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(line) + 2)
  end
  local options = {
    relative = "editor", style = "minimal", border = "rounded",
    width = math.min(width, vim.o.columns - 4), height = #lines,
    row = math.floor((vim.o.lines - #lines) / 3), col = math.floor((vim.o.columns - width) / 2),
  }
  if quiz.win and vim.api.nvim_win_is_valid(quiz.win) then
    vim.api.nvim_win_set_config(quiz.win, options)
  else
    quiz.win = vim.api.nvim_open_win(quiz.buf, false, options)
  end
end

-- The text of the quiz window, for tests and for anyone scripting Neovim.
function M.window_lines()
  if quiz and quiz.buf and vim.api.nvim_buf_is_valid(quiz.buf) then
    return vim.api.nvim_buf_get_lines(quiz.buf, 0, -1, false)
  end
  return M._last_lines or {}
end

local function speak(text)
  if not M.config.speak then
    return
  end
  if vim.fn.executable("espeak-ng") == 1 then
    vim.fn.jobstart({ "espeak-ng", "-v", "ja", text })
  elseif not told_no_speech then
    told_no_speech = true
    notify("espeak-ng is not installed, so questions cannot be read aloud (sudo apt-get install espeak-ng); the reading skill needs no sound", vim.log.levels.WARN)
  end
end

local function progress_text(progress)
  local done = progress.completed + 1
  if progress.questionLimit then
    return string.format("[%d/%d]", math.min(done, progress.questionLimit), progress.questionLimit)
  end
  return string.format("[%d]", done)
end

local function ask()
  local question = quiz.question
  local lines = { progress_text(quiz.progress) .. " " .. quiz.title, "" }
  if question.skill == "listening" then
    table.insert(lines, "  🔊 listen (empty answer: hear it again)")
  else
    table.insert(lines, "  " .. (question.prefix or "") .. question.prompt)
  end
  if quiz.feedback then
    table.insert(lines, "")
    table.insert(lines, "  " .. quiz.feedback)
  end
  table.insert(lines, "")
  table.insert(lines, "  skip: show the answer · quit: end")
  show(lines)
  if question.speech then
    speak(question.speech)
  end
  local label = question.skill == "kana" and "Reading (kana): "
    or question.skill == "counter" and "Count with its counter (5本 or ごほん): "
    or "Answer" .. ((question.postfix or "") ~= "" and (" (" .. question.postfix .. ")") or "") .. ": "
  -- The window must be on screen before the prompt blocks, or the learner answers the
  -- question before this one.
  vim.cmd("redraw")
  -- input() itself, not vim.ui.input: on Neovim 0.7 vim.ui.input reports an empty answer as
  -- nil, the same as a cancel. Here empty repeats the question and <Esc> or <C-c> ends the quiz.
  local ok, input = pcall(vim.fn.input, { prompt = label, cancelreturn = "\27" })
  if not quiz then
    return
  end
  if not ok or input == "\27" then
    input = nil
  end
  M._respond(input)
end

local function expected_text(expected)
  local readings = table.concat(expected.readings or {}, " / ")
  return string.format("%s  (%s, %s)", expected.answer, expected.kanji, readings)
end

local function after(result)
  if result.question then
    quiz.question = result.question
  end
  quiz.progress = result.progress
  if result.finished then
    M._finish(result.summary)
  else
    ask()
  end
end

function M._respond(input)
  if input == nil or input == "quit" then
    M.request("biki/endSession", { sessionId = quiz.session }, function(result)
      M._finish(result.summary)
    end)
    return
  end
  input = vim.trim(input)
  if input == "" then
    quiz.feedback = nil
    ask()
  elseif input == "skip" then
    M.request("biki/skip", { sessionId = quiz.session }, function(result)
      quiz.feedback = "→ " .. expected_text(result.expected)
      after(result)
    end)
  else
    M.request("biki/answer", { sessionId = quiz.session, answer = input }, function(result)
      if result.verdict == "correct" then
        quiz.feedback = "✓ " .. expected_text(result.expected)
      elseif result.verdict == "incorrect" then
        quiz.feedback = "✗ not " .. input .. "; try again, or skip"
      else
        quiz.feedback = "time is up"
      end
      after(result)
    end)
  end
end

function M._finish(summary)
  if not quiz or quiz.done then
    return
  end
  quiz.done = true
  local lines = {
    quiz.title .. " — finished",
    "",
    string.format("  Correct: %d of %d (%d on the first try)", summary.correct, summary.questions, summary.correctFirstTry),
    string.format("  Wrong attempts: %d   Skipped: %d", summary.incorrectAttempts, summary.skipped),
    string.format("  Average: %.1fs per question", summary.averageSeconds),
  }
  if #summary.missed > 0 then
    table.insert(lines, "")
    table.insert(lines, "  To practise again:")
    for _, missed in ipairs(summary.missed) do
      table.insert(lines, "    " .. missed.prompt .. " → " .. expected_text(missed.expected))
    end
  end
  show(lines)
  M._last_lines = lines
  local win, buf = quiz.win, quiz.buf
  quiz = nil
  -- Focus the summary so it can be read and scrolled; q or <Esc> closes it.
  if win and vim.api.nvim_win_is_valid(win) then
    vim.api.nvim_set_current_win(win)
    for _, key in ipairs({ "q", "<Esc>" }) do
      vim.keymap.set("n", key, function()
        if vim.api.nvim_win_is_valid(win) then
          vim.api.nvim_win_close(win, true)
        end
      end, { buffer = buf, nowait = true, desc = "Close the Biki summary" })
    end
  end
end

-- :BikiQuiz [topic] [questions]: drill a topic; without one, choose from the list.
function M.quiz(topic, count)
  local function start(id)
    local params = { topicId = id, mode = { kind = "questionLimit", limit = count or M.config.questions } }
    if M.config.skill then
      params.skill = M.config.skill
    end
    if M.config.seed then
      params.seed = M.config.seed
    end
    M.request("biki/startSession", params, function(result)
      quiz = { session = result.sessionId, title = title_of(id), question = result.question, progress = result.progress }
      ask()
    end)
  end
  if topic and topic ~= "" then
    start(topic)
    return
  end
  M.request("biki/topics", vim.empty_dict(), function(result)
    vim.ui.select(result.topics, {
      prompt = "Biki topic",
      format_item = function(item) return item.title .. "  [" .. item.id .. "]" end,
    }, function(choice)
      if choice then
        start(choice.id)
      end
    end)
  end)
end

-- :BikiReview [topic] [questions]: the forms due for review first, then weak, then new, from
-- one topic or every topic, in the kana skill unless config.skill says otherwise.
function M.review(topic, count)
  local params = { mode = { kind = "review", limit = count or 20 }, skill = M.config.skill or "kana" }
  if topic and topic ~= "" then
    params.topicId = topic
  end
  if M.config.seed then
    params.seed = M.config.seed
  end
  M.request("biki/startSession", params, function(result)
    local title = topic and topic ~= "" and ("Review of " .. title_of(topic)) or "Review"
    quiz = { session = result.sessionId, title = title, question = result.question, progress = result.progress }
    ask()
  end)
end

-- A scratch buffer of `lines` named `name`, reused when shown again.
local function scratch(name, lines)
  -- A floating window (a quiz summary) cannot be split; open from the window behind it.
  if vim.api.nvim_win_get_config(0).relative ~= "" then
    vim.cmd("wincmd p")
  end
  local buf = vim.fn.bufnr(name)
  if buf ~= -1 and vim.api.nvim_buf_is_valid(buf) then
    local win = vim.fn.bufwinid(buf)
    if win ~= -1 then
      vim.api.nvim_set_current_win(win)
    else
      vim.cmd("botright sbuffer " .. buf)
    end
  else
    vim.cmd("botright new")
    buf = vim.api.nvim_get_current_buf()
    vim.bo[buf].buftype = "nofile"
    vim.bo[buf].bufhidden = "wipe"
    vim.api.nvim_buf_set_name(buf, name)
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
end

-- :BikiStats: accuracy per topic and forms, weakest first, as `biki stats` prints them.
function M.stats()
  M.request("biki/stats", vim.empty_dict(), function(result)
    local function percent(value)
      return value == vim.NIL and "-" or string.format("%d%%", math.floor(value * 100 + 0.5))
    end
    local lines = { string.format("%-28s %7s %7s %7s %8s", "topic", "answers", "correct", "skipped", "accuracy") }
    for _, topic in ipairs(result.topics) do
      table.insert(lines, string.format("%-28s %7d %7d %7d %8s", topic.topicId, topic.answers, topic.correct, topic.skipped, percent(topic.accuracy)))
    end
    if #result.forms > 0 then
      table.insert(lines, "")
      table.insert(lines, "Forms, weakest first (FSRS: recall a week from now):")
      for index, form in ipairs(result.forms) do
        if index > 15 then
          table.insert(lines, string.format("  … and %d more", #result.forms - 15))
          break
        end
        table.insert(lines, string.format("  %-6s %4s  %-16s %-9s %d reviews, %d missed", form.state or "", percent(form.recallInAWeek or form.recall), form.form, form.skill, form.reviews, form.lapses))
      end
    end
    if #result.topics == 0 then
      lines = { "No answers recorded yet." }
    end
    scratch("biki://stats", lines)
  end)
end

-- :BikiTopics: every loaded topic, in a scratch buffer.
function M.topics()
  M.request("biki/topics", vim.empty_dict(), function(result)
    local lines = {}
    for _, topic in ipairs(result.topics) do
      table.insert(lines, string.format("%-28s %s  (%s)", topic.id, topic.title, table.concat(topic.skills, ", ")))
    end
    scratch("biki://topics", lines)
  end)
end

function M.setup(options)
  M.config = vim.tbl_extend("force", M.config, options or {})
  local group = vim.api.nvim_create_augroup("biki", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = "json",
    callback = function(args)
      if M.is_pack(args.buf) then
        M.attach(args.buf)
      end
    end,
  })
end

return M
