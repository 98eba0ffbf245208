-- :BikiStats and :BikiTopics: what the server lists, in scratch buffers. Each function takes
-- the biki module, for its requests and for starting a quiz from the topic list.
local M = {}

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
  return buf
end

-- :BikiStats: accuracy per topic and forms, weakest first, as `biki stats` prints them.
function M.stats(biki)
  biki.request("biki/stats", vim.empty_dict(), function(result)
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
function M.topics(biki)
  biki.request("biki/topics", vim.empty_dict(), function(result)
    local lines = {}
    for _, topic in ipairs(result.topics) do
      table.insert(lines, string.format("%-28s %s  (%s)", topic.id, topic.title, table.concat(topic.skills, ", ")))
    end
    local buf = scratch("biki://topics", lines)
    vim.keymap.set("n", "<CR>", function()
      local id = vim.api.nvim_get_current_line():match("^%S+")
      if id then
        biki.quiz(id)
      end
    end, { buffer = buf, desc = "Drill the Biki topic on this line" })
  end)
end

return M
