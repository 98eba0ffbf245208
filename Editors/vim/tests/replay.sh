#!/usr/bin/env bash
# A quiz in real Vim against a recording of `biki serve`: Tests/clients/exchange.json (recorded
# from the real server and held to it by RecordedExchangeTests), replayed by
# Tests/clients/replay_server.py. The screen shows what the recorded answers hold, field by
# field, so a field the server renames fails here once the recording is made again.
#   Editors/vim/tests/replay.sh
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
work="$(mktemp -d)"
session="biki-vim-replay-$$"
. "$repo/Tests/clients/screen.sh"
trap 'end_screen; rm -rf "$work"' EXIT

# The recorded value at a path of the recording, as Python reads it.
recorded() {
  python3 - "$repo/Tests/clients/exchange.json" "$1" <<'PY'
import json, sys
steps = json.load(open(sys.argv[1], encoding="utf-8"))["exchange"]
method, nth, path = sys.argv[2].split(" ", 2)
value = [step["result"] for step in steps if step["method"] == method][int(nth) - 1]
for key in path.split("."):
    value = value[int(key)] if key.isdigit() else value[key]
print(value)
PY
}

cat > "$work/vimrc" <<VIM
set nocompatible
set runtimepath^=$repo/Editors/vim
filetype plugin on
let g:biki_command = ['python3', '$repo/Tests/clients/replay_server.py', '$repo/Tests/clients/exchange.json']
let g:biki_speak = 0
VIM
tmux new-session -d -s "$session" -x 120 -y 40 "cd '$work' && HOME='$work' vim -N -u '$work/vimrc'"
wait_for "~" || sleep 1

tmux send-keys -t "$session" ":BikiQuiz counters.hon 2" Enter
check "the quiz starts at the recorded limit" wait_for "[1/$(recorded 'biki/startSession 1 progress.questionLimit')]"
check "with the recorded first question" shows "$(recorded 'biki/startSession 1 question.prompt')"
tmux send-keys -t "$session" "0" Enter
check "a wrong answer is told as the verdict says" wait_for "✗ not 0"
tmux send-keys -t "$session" Enter
check "an empty line skips, revealing the recorded answer" wait_for "→ $(recorded 'biki/skip 1 expected.answer')"
check "and the recorded next question" shows "$(recorded 'biki/skip 1 question.prompt')"
tmux send-keys -t "$session" "1" Enter
check "the last answer ends the quiz" wait_for "— finished"

# :BikiSkip from Normal mode puts the learner back at the prompt: the answer typed next is
# taken as the answer.
tmux send-keys -t "$session" ":BikiQuiz counters.hon 2" Enter
check "a second quiz starts" wait_for "[1/2]  $(recorded 'biki/startSession 1 question.prompt')"
tmux send-keys -t "$session" Escape ":BikiSkip" Enter
check ":BikiSkip shows the next question" wait_for "[2/2]"
tmux send-keys -t "$session" "2" Enter
check "and the answer typed next is taken" wait_for "✓ "
check "the summary counts as the server's does" \
  shows "Correct: $(recorded 'biki/answer 2 summary.correct') of $(recorded 'biki/answer 2 summary.questions')"
check "and lists the missed question" shows "$(recorded 'biki/answer 2 summary.missed.0.prompt') → "
tmux send-keys -t "$session" ":qa!" Enter
finish "vim replay"
