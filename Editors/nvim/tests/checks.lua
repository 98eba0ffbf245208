-- What the headless tests share: each check printed to stderr, and Neovim ended with the
-- verdict (exit 0 when every check passed, 1 otherwise).
local M = { failures = 0 }

function M.check(name, ok, detail)
  io.stderr:write((ok and "ok   " or "FAIL ") .. name .. (ok and "" or ("  " .. vim.inspect(detail))) .. "\n")
  if not ok then
    M.failures = M.failures + 1
  end
end

function M.finish(label)
  io.stderr:write(M.failures == 0 and (label .. ": all checks passed\n") or (label .. ": " .. M.failures .. " checks failed\n"))
  vim.cmd(M.failures == 0 and "qa!" or "cquit 1")
end

return M
