#!/usr/bin/env bash
# Neovim set up as docs/editors.md says, in a real terminal: its shell and init.lua blocks are run
# as they are, with a fresh HOME and a PATH of nvim and biki alone (so no espeak-ng, and Open
# JTalk named where it is not), and tmux types the keys and reads the screen.
#   BIKI=.build/debug/biki Editors/nvim/tests/editor.sh
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
biki="${BIKI:-$root/.build/debug/biki}"
session="biki-nvim-editor-$$"
state="$(mktemp -d)"
trap 'end_screen; rm -rf "$state"' EXIT
. "$here/../../Tests/clients/screen.sh"

# The fenced block of a language in docs/editors.md's Neovim section.
recipe() {
  awk -v lang="$1" '
    /^## / { inside = ($0 ~ /^## Neovim/) }
    inside && $0 == "```" lang { block = 1; next }
    block && $0 == "```" { exit }
    block { print }
  ' "$root/docs/editors.md"
}

home="$state/home"
bin="$state/bin"
mkdir -p "$home/.config/nvim" "$bin" "$state/drafts"
ln -s "$(command -v nvim)" "$bin/nvim"
ln -s "$(cd "$(dirname "$biki")" && pwd)/$(basename "$biki")" "$bin/biki"
recipe sh > "$state/install.sh"
recipe lua > "$home/.config/nvim/init.lua"
check "docs/editors.md has a shell recipe" test -s "$state/install.sh"
check "and an init.lua" test -s "$home/.config/nvim/init.lua"
(cd "$root" && HOME="$home" PATH="$bin:/usr/bin:/bin" sh -e "$state/install.sh") > "$state/install.log" 2>&1
check "the shell recipe runs" test $? -eq 0
check "espeak-ng is not on the test's PATH" test -z "$(PATH="$bin" command -v espeak-ng)"

start() {
  tmux new-session -d -s "$session" -x 110 -y 40 -c "$state/drafts" \
    "env -i HOME='$home' PATH='$bin' BIKI_OPEN_JTALK=/nonexistent/open_jtalk BIKI_ESPEAK_NG=/nonexistent/espeak-ng TERM=tmux-256color LANG=C.UTF-8 $*"
  sleep 0.5
}
start nvim

# 1. A copy of a pack whose "topics" comes after 300 lines of counters, known by its "$schema".
cp "$root/TopicPacks/counters.json" "$state/drafts/counters.json"
# The recipe's on_attach maps K; waiting for the mapping waits for the attachment.
attached="vim.wait(15000, function() return vim.fn.maparg('K', 'n') ~= '' end)"
tmux send-keys -t "$session" ":e counters.json" Enter "/\"id\": \"hon\"" Enter
tmux send-keys -t "$session" ":lua $attached; print('attached to ' .. #vim.lsp.buf_get_clients(0) .. ' client')" Enter
check "a copy of counters.json is attached" wait_for "attached to 1 client"
check "and the recipe's K shows a topic's sample questions" press_until K "Sample questions"

# A new file, empty when opened, attaches once a pack is pasted into it.
cat > "$state/paste.json" <<'PACK'
{"format": 1, "id": "mine", "title": "Mine", "version": "1.0.0", "topicz": [],
 "topics": []}
PACK
tmux send-keys -t "$session" ":e new.json" Enter
tmux load-buffer -b pack "$state/paste.json"
tmux send-keys -t "$session" "i"
tmux paste-buffer -p -b pack -t "$session"
tmux send-keys -t "$session" Escape
check "a pack pasted into a new file gets diagnostics" wait_for 'unknown key "topicz" in'
# The recipe's <leader>f formats, by the call this Neovim has (formatting() in 0.7).
tmux send-keys -t "$session" -l '\f'
one_line() {
  for _ in $(seq 50); do
    tmux send-keys -t "$session" ":lua print('lines: ' .. vim.api.nvim_buf_line_count(0))" Enter
    screen | grep -qF "lines: 1" && return 0
    sleep 0.2
  done
  return 1
}
check "the recipe's <leader>f lays the pack out as biki-pack fmt does" one_line

# 2. A listening quiz with nothing to speak says so in its window and what to install.
tmux send-keys -t "$session" ":lua require('biki').setup({ skill = 'listening' })" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.hon 1" Enter
check "a listening quiz with nothing to speak says there is no audio" wait_for "🔇 No audio: Nothing can speak:"
check "and what to install" shows_wrapped "Install Open JTalk with: sudo apt-get install open-jtalk"
check "and shows the reading instead" shows "Read it instead: "
check "rather than a silent listen" not_shows "🔊 listen"
tmux send-keys -t "$session" "quit" Enter
check "(quit)" wait_for "— finished"
tmux send-keys -t "$session" "q"

# 8. :help biki, once the recipe's :helptags has run.
# A help window shows the tag it jumped to on its first line, with the stars concealed.
at_top() {
  for _ in $(seq 50); do
    screen | head -1 | grep -qE -- "$1" && return 0
    sleep 0.1
  done
  return 1
}
tmux send-keys -t "$session" ":help biki" Enter
check ":help biki opens the manual" wait_for "biki.txt [Help]"
check "at its *biki* tag" at_top " biki$"
tmux send-keys -t "$session" ":help :BikiQuiz" Enter
check ":help :BikiQuiz finds its tag" at_top " :BikiQuiz$"
tmux send-keys -t "$session" ":help biki-setup" Enter
check ":help biki-setup finds its tag" at_top " biki-setup$"
tmux send-keys -t "$session" ":help biki-health" Enter
check ":help biki-health finds its tag" at_top " biki-health$"
tmux send-keys -t "$session" ":helpclose" Enter

# 9. :checkhealth biki.
tmux send-keys -t "$session" ":checkhealth biki" Enter
check ":checkhealth biki finds biki on PATH" wait_for "OK: \`biki\` is $bin/biki"
check "with its version" shows "OK: version $("$biki" --version)"
check "and its topics, packs and plugins" wait_for "$("$biki" topics | tail -n +2 | wc -l) topics from"
check "and says nothing can speak" shows "WARNING: Nothing can speak: BIKI_OPEN_JTALK names /nonexistent/open_jtalk"
check "with what to install" shows_wrapped "(or espeak-ng: sudo apt-get install espeak-ng)"
check "setup() was called" shows "OK: setup() was called"
tmux send-keys -t "$session" ":qa!" Enter
sleep 0.5

# 10. on_attach and capabilities, as lspconfig users pass them: plain-text hover asked for. And
# setup() called once the pack is open, as a plugin manager loading Biki late does.
cat > "$state/caps.lua" <<'LUA'
require("biki").setup({
  capabilities = { textDocument = { hover = { contentFormat = { "plaintext" } } } },
  on_attach = function(client, bufnr)
    vim.b[bufnr].attached_by = client.name
    vim.keymap.set("n", "K", vim.lsp.buf.hover, { buffer = bufnr })
  end,
})
LUA
start nvim --clean --cmd "\"set rtp^=$here\"" counters.json -c "\"luafile $state/caps.lua\""
tmux send-keys -t "$session" "/\"id\": \"hon\"" Enter
tmux send-keys -t "$session" ":lua $attached; print('on_attach was given ' .. tostring(vim.b.attached_by))" Enter
check "a pack opened before setup() is attached, and on_attach called" wait_for "on_attach was given biki"
check "setup's capabilities reach the server: hover in plain text" press_until K "counters.hon — 本 (1–10)"
check "(Markdown would bold the id)" not_shows "**counters.hon**"

tmux send-keys -t "$session" ":qa!" Enter
finish "nvim editor"
