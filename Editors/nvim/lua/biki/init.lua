-- Biki for Neovim (0.7+): pack diagnostics while you type, and quizzes in a floating window,
-- through `biki serve` (JSON-RPC over stdio, see docs/protocol.md).
local M = {}

M.config = {
  -- How to start the server.
  cmd = { "biki", "serve" },
  -- Read listening questions aloud, as `biki say` does: with Open JTalk when it and a voice are
  -- installed, else espeak-ng.
  speak = true,
  -- The voice to speak with: a name `biki say --voices` lists (mei_normal, jm_kumo …) or an
  -- .htsvoice file; nil for BIKI_VOICE or pyopenjtalk's mei.
  voice = nil,
  -- How fast to speak, 0.5 (twice as slow) to 2; nil for the voice's own speed.
  rate = nil,
  -- How much higher (or, below 0, lower) to speak, in semitones from -12 to 12; nil for none.
  pitch = nil,
  -- A quiz's length when :BikiQuiz is given no count.
  questions = 10,
  -- Which skill to drill: "reading", "listening", "kana" or "counter"; nil for the topic's default.
  skill = nil,
  -- A fixed seed asks the same questions in every quiz (to go over one set again, or to test).
  seed = nil,
  -- Refuse readings Biki accepts but marks uncommon (じっぷん, where the usual reading is
  -- じゅっぷん); by default they count as right, with the usual reading named.
  strict = false,
  -- As lspconfig users pass them: called as on_attach(client, bufnr) when a pack buffer is
  -- attached (for mappings such as K for hover), and what the client announces to the server,
  -- over Neovim's defaults (such as nvim-cmp's completion capabilities).
  on_attach = nil,
  capabilities = nil,
  -- The server's settings (docs/protocol.md, "Settings"): packDirectories, pluginDirectories,
  -- diagnosticsDelay, inlayHints. Neovim answers the server's workspace/configuration with them.
  settings = nil,
}

local client_id = nil
local quiz = nil
-- Topic ids and titles, fetched once, for titles and :BikiQuiz <Tab>.
local topic_list = nil

local function notify(message, level)
  vim.notify("biki: " .. message, level or vim.log.levels.INFO)
end

local schema_name = "biki-pack.schema.json"

-- Whether the buffer's text holds `word` (a plain, case-sensitive search): cheap enough to run
-- on every change of a large JSON file, where decoding it would not be.
local function mentions(bufnr, word)
  return vim.api.nvim_buf_call(bufnr, function()
    return vim.fn.search([[\V\C]] .. word, "nw") > 0
  end)
end

-- A buffer is a pack as the server decides it (PackDocument.isPack): its top-level object names
-- Biki's schema in "$schema", or has both "format" and "topics"; text that is not valid JSON yet
-- counts when it mentions the schema or both keys. The whole text counts, not its start: a pack's
-- "topics" often comes after hundreds of lines of counters.
function M.is_pack(bufnr)
  if not mentions(bufnr, schema_name) and not (mentions(bufnr, '"topics"') and mentions(bufnr, '"format"')) then
    return false
  end
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n")
  local ok, root = pcall(vim.json.decode, text)
  if not ok then
    return true
  end
  if type(root) ~= "table" then
    return false
  end
  local schema = root["$schema"]
  if type(schema) == "string" and schema:sub(-#schema_name) == schema_name then
    return true
  end
  return root.format ~= nil and root.topics ~= nil
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
    on_attach = M.config.on_attach,
    settings = M.config.settings and { biki = M.config.settings } or nil,
    -- Neovim 0.7 sends what it is given in place of its defaults, so a partial table (a
    -- completion plugin's) is laid over them, as lspconfig does.
    capabilities = vim.tbl_deep_extend("force", vim.lsp.protocol.make_client_capabilities(), M.config.capabilities or {}),
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

-- Attaches the buffer when it is a pack; true once it is attached. A buffer with no name is
-- left until it has one: the server only diagnoses a file whose name ends in .json.
local function attach_if_pack(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.api.nvim_buf_get_name(bufnr) == "" or not M.is_pack(bufnr) then
    return false
  end
  M.attach(bufnr)
  return client_id ~= nil and vim.lsp.buf_is_attached(bufnr, client_id)
end

-- A JSON buffer that is no pack yet may become one (a pack pasted into a new file, or saved
-- under a name), so it is tested again after each change and write until it is attached. Not
-- at every key typed: TextChanged covers changes in Normal mode, and InsertLeave those typed or
-- pasted in Insert mode, after which TextChanged does not come.
local function watch(bufnr, group)
  vim.api.nvim_clear_autocmds({ group = group, buffer = bufnr })
  if attach_if_pack(bufnr) then
    return
  end
  vim.api.nvim_create_autocmd({ "TextChanged", "InsertLeave", "BufWritePost" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      if attach_if_pack(bufnr) then
        vim.api.nvim_clear_autocmds({ group = group, buffer = bufnr })
      end
    end,
  })
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

-- :BikiQuiz and :BikiReview read their arguments alike, in either order: a whole number is how
-- many questions to ask, any other word a topic id. Returns {topic, count}, or nil and what is
-- wrong.
function M.parse_args(args)
  local parsed = {}
  for _, arg in ipairs(args) do
    if arg:match("^%d+$") then
      if parsed.count then
        return nil, string.format("give one question count, not %d and %s", parsed.count, arg)
      end
      parsed.count = tonumber(arg)
    elseif parsed.topic then
      return nil, string.format("give one topic, not %s and %s", parsed.topic, arg)
    else
      parsed.topic = arg
    end
  end
  return parsed
end

local suggested_counts = { "5", "10", "20", "50" }

-- <Tab> after :BikiQuiz or :BikiReview: topic ids until a topic is given, question counts until
-- a count is, each starting with what was typed.
function M.complete_args(lead, line)
  local words = vim.split(line, "%s+", { trimempty = true })
  local typed = M.parse_args(vim.list_slice(words, 2, #words - (lead == "" and 0 or 1))) or {}
  local matches = {}
  if not typed.topic and not lead:match("^%d") then
    for _, topic in ipairs(M.topic_list()) do
      if topic.id:sub(1, #lead) == lead then
        table.insert(matches, topic.id)
      end
    end
  end
  if not typed.count then
    for _, count in ipairs(suggested_counts) do
      if count:sub(1, #lead) == lead then
        table.insert(matches, count)
      end
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
    vim.bo[quiz.buf].bufhidden = "wipe"
  end
  vim.api.nvim_buf_set_lines(quiz.buf, 0, -1, false, lines)
  local width = 20
  for _, line in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(line) + 2)
  end
  width = math.min(width, vim.o.columns - 4)
  -- A line wider than the window wraps onto more rows, each of which the window must show.
  local height = 0
  for _, line in ipairs(lines) do
    height = height + math.max(1, math.ceil(vim.fn.strdisplaywidth(line) / width))
  end
  height = math.min(height, vim.o.lines - 4)
  local options = {
    relative = "editor", style = "minimal", border = "rounded", width = width, height = height,
    row = math.floor((vim.o.lines - height) / 3), col = math.floor((vim.o.columns - width) / 2),
  }
  if quiz.win and vim.api.nvim_win_is_valid(quiz.win) then
    vim.api.nvim_win_set_config(quiz.win, options)
  else
    quiz.win = vim.api.nvim_open_win(quiz.buf, false, options)
  end
end

local speech = require("biki.speech")
local text = require("biki.text")

-- What `biki say --engine` says (which engine speaks, or what to install), asked once, or again
-- when `fresh` (:checkhealth asks again, so installing Open JTalk shows there at once).
function M.speech_engine(fresh)
  return speech.engine(M.config, fresh)
end

-- The quiz window: the question, the verdict on the last answer, and `quiz.note`, what the
-- last :BikiReplay had to say while the prompt covers any message.
local function render()
  local question = quiz.question
  local lines = { text.progress(quiz.progress) .. " " .. quiz.title, "" }
  local silent = question.skill == "listening" and speech.silent_reason(M.config)
  if silent then
    -- In the window, not a notification: the prompt below would cover a message at once.
    -- The reading is shown instead, so the question can still be answered.
    table.insert(lines, "  🔇 No audio: " .. silent .. ".")
    table.insert(lines, "  Read it instead: " .. question.prompt)
  elseif question.skill == "listening" then
    table.insert(lines, "  🔊 listen (empty answer or :BikiReplay: hear it again)")
  else
    table.insert(lines, "  " .. (question.prefix or "") .. question.prompt)
  end
  if quiz.feedback then
    table.insert(lines, "")
    for _, line in ipairs(quiz.feedback) do
      table.insert(lines, "  " .. line)
    end
  end
  if quiz.note then
    table.insert(lines, "")
    table.insert(lines, "  " .. quiz.note)
  end
  table.insert(lines, "")
  table.insert(lines, "  skip: show the answer · quit: end")
  show(lines)
end

-- :BikiReplay: says the question being asked again, counting no answer. While the answer is
-- typed it works from a mapping (cnoremap <F5> <Cmd>BikiReplay<CR>).
function M.replay()
  local question = quiz and quiz.question
  local why
  if not question or question.skill ~= "listening" or not question.speech then
    why = "no question is being spoken; :BikiQuiz with skill = \"listening\" asks one"
  elseif speech.silent_reason(M.config) then
    why = "no audio: " .. speech.silent_reason(M.config)
  end
  if not why then
    -- Open JTalk is given the text too, which it accents as it is said.
    vim.fn.jobstart(speech.say_command(M.config, { question.speech, question.speechText or question.speech }))
    return
  end
  notify(why, vim.log.levels.WARN)
  if quiz and not quiz.done then
    quiz.note = why
    render()
    vim.cmd("redraw")
  end
end

local function ask()
  local question = quiz.question
  quiz.note = nil
  render()
  if question.skill == "listening" and not speech.silent_reason(M.config) then
    M.replay()
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
      quiz.feedback = { "→ " .. text.expected(result.expected) }
      vim.list_extend(quiz.feedback, text.counter_uses(result.expected))
      after(result)
    end)
  else
    M.request("biki/answer", { sessionId = quiz.session, answer = input }, function(result)
      if result.verdict == "correct" then
        quiz.feedback = { "✓ " .. text.expected(result.expected) }
        if result.standard and result.uncommon then
          table.insert(quiz.feedback, "  accepted, though uncommon: the usual reading is " .. result.standard)
        elseif result.standard then
          table.insert(quiz.feedback, "  " .. input .. " is right; usually said " .. result.standard)
        end
        vim.list_extend(quiz.feedback, text.counter_uses(result.expected))
      elseif result.verdict == "incorrect" then
        quiz.feedback = { "✗ not " .. input .. "; try again, or skip" }
        if result.hint then
          table.insert(quiz.feedback, "  " .. result.hint)
        end
      else
        quiz.feedback = { "time is up" }
      end
      after(result)
    end)
  end
end

-- The summary takes the focus so it can be read and scrolled, but it is no place to work in:
-- q or <Esc> closes it, and so does leaving it or starting an Ex command in it, which then runs
-- in the window the learner came from (`:e file` must not open inside the float).
local function hold_summary(win, buf)
  local function close()
    if vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_win_close(win, true)
    end
  end
  vim.api.nvim_set_current_win(win)
  for _, key in ipairs({ "q", "<Esc>" }) do
    vim.keymap.set("n", key, close, { buffer = buf, nowait = true, desc = "Close the Biki summary" })
  end
  vim.api.nvim_create_autocmd("CmdlineEnter", {
    buffer = buf,
    callback = function()
      if vim.fn.getcmdtype() == ":" then
        close()
      end
    end,
  })
  -- Scheduled: a window cannot be closed while Neovim is still leaving it.
  vim.api.nvim_create_autocmd("WinLeave", { buffer = buf, callback = function() vim.schedule(close) end })
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
  if summary.rounds then
    local all_right = summary.endReason == "allRight" and ": each right at the first try" or ""
    table.insert(lines, string.format("  Rounds: %d%s", summary.rounds, all_right))
  end
  if #summary.missed > 0 then
    table.insert(lines, "")
    table.insert(lines, "  To practise again:")
    for _, missed in ipairs(summary.missed) do
      table.insert(lines, "    " .. missed.prompt .. " → " .. text.expected(missed.expected))
    end
  end
  table.insert(lines, "")
  table.insert(lines, "  q: close")
  show(lines)
  local win, buf = quiz.win, quiz.buf
  quiz = nil
  if win and vim.api.nvim_win_is_valid(win) then
    hold_summary(win, buf)
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
    if M.config.strict then
      params.strict = true
    end
    params.speech = speech.session_params(M.config)
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

-- Starts a session of `params` on `topic` (or every topic) and asks its first question, the
-- window titled `titled(topic title)` or `untitled`.
local function start_across_topics(params, topic, titled, untitled)
  if topic and topic ~= "" then
    params.topicId = topic
  end
  if M.config.seed then
    params.seed = M.config.seed
  end
  if M.config.strict then
    params.strict = true
  end
  params.speech = speech.session_params(M.config)
  M.request("biki/startSession", params, function(result)
    local title = topic and topic ~= "" and titled(title_of(topic)) or untitled
    quiz = { session = result.sessionId, title = title, question = result.question, progress = result.progress }
    ask()
  end)
end

-- :BikiReview [topic] [questions]: the forms due for review first, then weak, then new, from
-- one topic or every topic, in the kana skill unless config.skill says otherwise.
function M.review(topic, count)
  local params = { mode = { kind = "review", limit = count or 20 }, skill = M.config.skill or "kana" }
  start_across_topics(params, topic, function(title) return "Review of " .. title end, "Review")
end

-- :BikiMissed [topic]: the questions missed in the last session, from one topic or every
-- topic, asked again in rounds until each is right at the first try.
function M.missed(topic)
  local params = { mode = { kind = "missed" }, skill = M.config.skill }
  start_across_topics(params, topic, function(title) return "Missed in " .. title end, "Missed questions")
end

-- :BikiStats and :BikiTopics, in scratch buffers.
function M.stats()
  require("biki.lists").stats(M)
end

function M.topics()
  require("biki.lists").topics(M)
end

function M.setup(options)
  M.config = vim.tbl_extend("force", M.config, options or {})
  M.did_setup = true
  local group = vim.api.nvim_create_augroup("biki", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = "json",
    callback = function(args)
      watch(args.buf, group)
    end,
  })
  -- JSON buffers opened before setup(), as when a plugin manager loads Biki on its first command.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == "json" then
      watch(bufnr, group)
    end
  end
end

return M
