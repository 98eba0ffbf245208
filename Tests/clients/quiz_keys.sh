#!/usr/bin/env bash
# The answer prompt of the terminal quiz as a learner meets it: the installed biki by name, in a
# real terminal (tmux types the keys and reads the screen). Arrows, Home, End, Backspace,
# Delete, Ctrl-U and ↑ edit the answer as a shell's prompt does, kana included, and romaji shows
# the kana it spells as it is typed; Ctrl-C ends the
# quiz with its summary, and the session's end is in the history.
#   Tests/clients/quiz_keys.sh        (with an installed Biki: `biki` on PATH)
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
session="biki-quiz-keys-$$"
state="$(mktemp -d)"
. "$root/Tests/clients/screen.sh"
trap 'end_screen; rm -rf "$state"' EXIT

for tool in biki tmux; do
  command -v "$tool" >/dev/null || { echo "quiz_keys.sh: $tool is not on PATH"; exit 1; }
done
export XDG_STATE_HOME="$state/state" XDG_CACHE_HOME="$state/cache"

# Seed 4 asks 6本, 1本, 7本.
tmux new-session -d -s "$session" -x 100 -y 30 -c "$state" \
  "biki quiz counters.hon --skill kana --seed 4 --mode questions=3; echo QUIZ-ENDED \$?; sleep 30"
check "the quiz asks 6本" wait_for "[1/3] 6本"
tmux send-keys -t "$session" "roppo"
check "romaji shows the kana it spells as it is typed" wait_for "roppo  (ろっぽ)"
tmux send-keys -t "$session" C-u
check "and the preview goes with the text" wait_gone "(ろっぽ)"
# ろぽん, then ← ← to put っ before ぽ: ろっぽん.
tmux send-keys -t "$session" "ろぽん" Left Left "っ" Enter
check "← moves back over kana, and what is typed goes in there" wait_for "✓ Correct"
check "the line shows the answer as edited" shows "ろっぽん"
check "the next question" wait_for "[2/3] 1本"
# Typed wrong, cleared with Ctrl-U; then Home, Delete and End to mend a romaji answer.
tmux send-keys -t "$session" "wrong" C-u "xippon" Home Delete End BSpace "n" Enter
check "Ctrl-U, Home, Delete, End and Backspace edit the line" wait_for "✓ Correct (いっぽん)"
check "no escape sequence was typed into the answer" not_shows "[D"
check "the third question" wait_for "[3/3] 7本"
tmux send-keys -t "$session" Up
# The answer line itself (with its preview), not only the one above it that was given.
recalled() {
  for _ in $(seq 50); do
    [ "$(screen | grep -c '^ippon')" -ge 2 ] && return 0
    sleep 0.1
  done
  return 1
}
check "↑ brings back the answer given before" recalled
tmux send-keys -t "$session" C-c
check "Ctrl-C ends the quiz with its summary" wait_for "Finished (ended): 2 questions"
check "and the program ends well" wait_for "QUIZ-ENDED 0"
check "the session's end is in the history" grep -q '"event":"sessionEnded".*"reason":"ended"' "$state/state/biki/history.jsonl"

finish "quiz keys"
