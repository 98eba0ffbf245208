#!/usr/bin/env bash
# The topic menu of `biki quiz` as a learner meets it: the installed biki, run by bare name from
# a home directory, in a real 80×24 terminal. tmux types the keys and reads the screen.
#   Tests/clients/menu.sh        (with an installed Biki: `biki` on PATH)
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
session="biki-menu-$$"
home="$(mktemp -d)"
. "$(dirname "$0")/screen.sh"
trap 'end_screen; rm -rf "$home"' EXIT

for tool in biki tmux; do
  command -v "$tool" >/dev/null || { echo "menu.sh: $tool is not on PATH"; exit 1; }
done

tmux new-session -d -s "$session" -x 80 -y 24 -c "$home" \
  "env HOME='$home' PATH='$PATH' TERM=xterm biki quiz --mode questions=1; echo QUIZ-ENDED; sleep 30"

check "the first screen is the kinds, whole, on a 24-line terminal" \
  wait_for "Number, words or a topic id (Enter to stop):"
check "its first line is on the screen" shows "Choose a topic: a kind's number, or words to find one"
check "counters are one line, with how many there are" shows "  5. Counters ("
check "no line is wider than the terminal" not_matches '^.{81,}$'

tmux send-keys -t "$session" "5" Enter
check "a kind's topics come a screenful at a time" wait_for "Number, words, or Enter for more:"
check "the rest is counted" shows " more"
check "the list starts at its first topic" shows "   1. 本 (1–10)  [counters.hon]"

tmux send-keys -t "$session" "" Enter
check "Enter shows the next screenful" wait_for "Counters ("
check "numbered on from the first" shows "continued:"

tmux send-keys -t "$session" "匹 100" Enter
check "words find the one topic that has them all" wait_for "匹 (1–100) — "
tmux send-keys -t "$session" "quit" Enter
check "the quiz ends" wait_for "QUIZ-ENDED"

finish "menu tmux"
