-- Commands; `require("biki").setup()` turns on pack diagnostics for JSON packs.

-- The first argument completes to topic ids; the count after it to nothing.
local function complete_topic(lead, line)
  if #vim.split(line, "%s+") > 2 then
    return {}
  end
  return require("biki").complete_topics(lead)
end

vim.api.nvim_create_user_command("BikiTopics", function()
  require("biki").topics()
end, { desc = "List Biki's topics" })

vim.api.nvim_create_user_command("BikiQuiz", function(args)
  require("biki").quiz(args.fargs[1], tonumber(args.fargs[2]))
end, {
  nargs = "*",
  desc = "Drill a Biki topic: :BikiQuiz [topic] [questions]",
  complete = complete_topic,
})

vim.api.nvim_create_user_command("BikiReview", function(args)
  local topic, count = args.fargs[1], tonumber(args.fargs[2])
  if tonumber(topic) then
    topic, count = nil, tonumber(topic)
  end
  require("biki").review(topic, count)
end, {
  nargs = "*",
  desc = "Review the forms due, then weak, then new: :BikiReview [topic] [questions]",
  complete = complete_topic,
})

vim.api.nvim_create_user_command("BikiStats", function()
  require("biki").stats()
end, { desc = "Show accuracy and forms, weakest first" })
