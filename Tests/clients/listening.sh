#!/usr/bin/env bash
# Listening in the editors as a learner meets it, with the installed biki by name and Open JTalk
# installed as README.md says: Neovim in a real terminal (tmux types and reads the screen) and
# Emacs in batch speak a listening question through `biki say`, and say which engine speaks.
# The audio player is a stand-in that writes down what it was given to play.
#   Tests/clients/listening.sh        (with an installed Biki: `biki` on PATH)
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
session="biki-listening-$$"
state="$(mktemp -d)"
. "$root/Tests/clients/screen.sh"
trap 'tmux kill-session -t "$session" 2>/dev/null; rm -rf "$state"' EXIT

for tool in biki tmux nvim emacs; do
  command -v "$tool" >/dev/null || { echo "listening.sh: $tool is not on PATH"; exit 1; }
done

printf '#!/bin/sh\necho "$@" >> "%s/played"\n' "$state" > "$state/player"
chmod +x "$state/player"
export BIKI_AUDIO_PLAYER="$state/player" XDG_CACHE_HOME="$state/cache" XDG_STATE_HOME="$state/state"

# Waits up to 20 s for the player to have been given N files; true when it was.
played() {
  for _ in $(seq 200); do
    [ "$(cat "$state/played" 2>/dev/null | grep -c "\.wav$")" -ge "$1" ] && return 0
    sleep 0.1
  done
  return 1
}
check "biki say --engine names Open JTalk" sh -c 'biki say --engine | grep -q "^Speaking with Open JTalk, voice mei_normal"'

setup="lua require('biki').setup({ skill = 'listening', seed = 3 })"
tmux new-session -d -s "$session" -x 110 -y 30 -c "$state" \
  "nvim -u NONE -i NONE -n --cmd 'set rtp^=$root/Editors/nvim' -c 'runtime plugin/biki.lua' -c \"$setup\""
sleep 0.5
tmux send-keys -t "$session" ":BikiQuiz counters.hon 2" Enter
check "Neovim asks a listening question" wait_for "🔊 listen"
check "and Open JTalk's audio of it is played" played 1
check "a file Biki made" sh -c "grep -q '^$state/cache/biki/speech/.*\.wav$' '$state/played'"
tmux send-keys -t "$session" "quit" Enter
check "(quit)" wait_for "— finished"
tmux send-keys -t "$session" "q" ":checkhealth biki" Enter
check ":checkhealth biki says Open JTalk speaks" wait_for "OK: Speaking with Open JTalk, voice mei_normal"
tmux send-keys -t "$session" ":qa!" Enter

rm -f "$state/played"
emacs --batch -Q -L "$root/Editors/emacs" --eval "
(progn
  (require 'package)
  (add-to-list 'package-directory-list \"/usr/share/emacs/site-lisp/elpa\")
  (package-initialize)
  (require 'biki)
  (setq biki-speak t)
  (biki-speech-engine)
  (biki--speak \"はっぽん\" \"八本\")
  (sleep-for 5))" > "$state/emacs.log" 2>&1
check "Emacs says which engine speaks" grep -q "Biki: Speaking with Open JTalk, voice mei_normal" "$state/emacs.log"
check "and plays Open JTalk's audio of a reading" played 1

finish "listening"
