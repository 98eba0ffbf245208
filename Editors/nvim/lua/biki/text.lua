-- How a quiz's progress and an expected answer are written in the quiz window and summary.
local M = {}

-- "[2/10]", "[round 2: 1/3]", or "[4]" for a quiz with no set length: the question being asked.
function M.progress(progress)
  local done = progress.completed + 1
  if progress.round then
    return string.format("[round %d: %d/%d]", progress.round.number, progress.round.position, progress.round.questions)
  end
  if progress.questionLimit then
    return string.format("[%d/%d]", math.min(done, progress.questionLimit), progress.questionLimit)
  end
  return string.format("[%d]", done)
end

-- The answer and what else the learner should see of it, each once: the kanji, and the
-- readings the answer does not already spell (a kana answer is its readings, "じゅっぽん|じっぽん";
-- a counter answer names its reading, "9足 (きゅうそく)").
-- Why the thing takes its counter (which-counter): a line for each usual counter, none else.
function M.counter_uses(expected)
  local lines = {}
  for _, use in ipairs((expected or {}).counterUses or {}) do
    table.insert(lines, "  " .. use .. ".")
  end
  return lines
end

function M.expected(expected)
  local readings = expected.readings or {}
  local answer = expected.answer
  if answer:find("|", 1, true) then
    answer = table.concat(readings, " / ")
  end
  local extra = {}
  for _, text in ipairs(vim.list_extend({ expected.kanji }, readings)) do
    if text and not answer:find(text, 1, true) and not vim.tbl_contains(extra, text) then
      table.insert(extra, text)
    end
  end
  if #extra == 0 then
    return answer
  end
  return string.format("%s  (%s)", answer, table.concat(extra, ", "))
end

return M
