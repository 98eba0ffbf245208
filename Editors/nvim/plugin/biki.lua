-- Commands; `require("biki").setup()` turns on pack diagnostics for JSON packs.

local function complete(lead, line)
  return require("biki").complete_args(lead, line)
end

-- Runs `start(topic, count)` with the command's arguments, or says what is wrong with them.
local function with_args(start)
  return function(args)
    local biki = require("biki")
    local parsed, problem = biki.parse_args(args.fargs)
    if not parsed then
      vim.notify("biki: " .. problem, vim.log.levels.ERROR)
      return
    end
    start(parsed.topic, parsed.count)
  end
end

vim.api.nvim_create_user_command("BikiTopics", function()
  require("biki").topics()
end, { desc = "List Biki's topics" })

vim.api.nvim_create_user_command("BikiQuiz", with_args(function(topic, count)
  require("biki").quiz(topic, count)
end), {
  nargs = "*",
  desc = "Drill a Biki topic: :BikiQuiz [topic] [questions]",
  complete = complete,
})

vim.api.nvim_create_user_command("BikiReview", with_args(function(topic, count)
  require("biki").review(topic, count)
end), {
  nargs = "*",
  desc = "Review the forms due, then weak, then new: :BikiReview [topic] [questions]",
  complete = complete,
})

vim.api.nvim_create_user_command("BikiMissed", function(opts)
  require("biki").missed(opts.fargs[1])
end, {
  nargs = "?",
  desc = "Ask again what the last quiz missed, in rounds until right: :BikiMissed [topic]",
  complete = complete,
})

vim.api.nvim_create_user_command("BikiReplay", function()
  require("biki").replay()
end, { desc = "Hear the listening question again, counting no answer" })

vim.api.nvim_create_user_command("BikiStats", function()
  require("biki").stats()
end, { desc = "Show accuracy and forms, weakest first" })
