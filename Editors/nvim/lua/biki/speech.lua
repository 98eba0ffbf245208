-- Listening questions: `biki say` run with the learner's voice, rate and pitch, and the same
-- settings given to the session, so the server makes each question's audio ahead as it will be
-- heard and `biki say` finds it made. Each function takes biki's config.
local M = {}

-- The voice as biki takes it: a name as it is, a file name ("~/voices/x.htsvoice") made whole,
-- since no shell stands between Neovim and biki to expand the "~".
function M.voice(config)
  local name = config.voice
  if name and (name:find("/", 1, true) or name:sub(1, 1) == "~") then
    return vim.fn.fnamemodify(name, ":p")
  end
  return name
end

-- `biki say …`, by the same biki the server runs, with the voice, rate and pitch when set.
function M.say_command(config, arguments)
  local command = { config.cmd[1], "say" }
  vim.list_extend(command, arguments)
  if config.voice then
    vim.list_extend(command, { "--voice", M.voice(config) })
  end
  if config.rate then
    vim.list_extend(command, { "--rate", tostring(config.rate) })
  end
  if config.pitch then
    vim.list_extend(command, { "--pitch", tostring(config.pitch) })
  end
  return command
end

-- The session's `speech`, only the members set; nil when none is, so the server keeps its own.
function M.session_params(config)
  if not (config.voice or config.rate or config.pitch) then
    return nil
  end
  return { voice = M.voice(config), rate = config.rate, pitch = config.pitch }
end

-- Asked once: each ask runs a process, and a quiz asks at every listening question.
local engine
function M.engine(config, fresh)
  if engine == nil or fresh then
    local output = vim.fn.system(M.say_command(config, { "--engine" }))
    engine = { line = vim.trim(output), speaks = vim.v.shell_error == 0 }
  end
  return engine
end

-- Why a listening question cannot be heard, or nil when it can.
function M.silent_reason(config)
  if not config.speak then
    return "sound is off (speak = false in setup)"
  end
  if not M.engine(config).speaks then
    return M.engine(config).line
  end
end

return M
