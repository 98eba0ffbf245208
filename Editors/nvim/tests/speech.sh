#!/usr/bin/env bash
# Listening settings and :BikiReplay in real Neovim in a real terminal, as a learner sets them
# in setup(): voice, rate and pitch reach `biki say` and every session's `speech`, and replaying
# the question runs the same `biki say` again without counting an answer. A stand-in biki
# (Editors/tests/speech.sh) writes down each `biki say` and what is sent to the real server.
#   BIKI=.build/debug/biki Editors/nvim/tests/speech.sh
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
biki="${BIKI:-$here/../../.build/debug/biki}"
biki="$(cd "$(dirname "$biki")" && pwd)/$(basename "$biki")"
session="biki-nvim-speech-$$"
state="$(mktemp -d)"
trap 'end_screen; rm -rf "$state"' EXIT

. "$here/../../Tests/clients/screen.sh"
. "$here/../tests/speech.sh"
make_stand_in
mkdir -p "$state/home"

# The answer is typed at input()'s prompt, where only a Command-line mapping reaches :BikiReplay.
setup="lua require('biki').setup({ cmd = { '$state/bin/biki', 'serve' }, skill = 'listening', seed = 3, voice = 'jm_kumo', rate = 0.8, pitch = -2 })"
tmux new-session -d -s "$session" -x 110 -y 30 \
  "env HOME='$state/home' XDG_STATE_HOME='$state/state' nvim -u NONE -i NONE -n --cmd 'set rtp^=$here' -c 'runtime plugin/biki.lua' -c \"$setup\" -c 'cnoremap <F5> <Cmd>BikiReplay<CR>'"
sleep 0.5

tmux send-keys -t "$session" ":BikiReplay" Enter
check ":BikiReplay with no quiz says no question is being spoken" wait_for "no question is being spoken"
check "and runs nothing" said_times 0

tmux send-keys -t "$session" ":BikiQuiz counters.hon 2" Enter
check "a listening question is asked" wait_for "🔊 listen"
check "and spoken once" said_times 1
check "with the voice, rate and pitch" said_with "--voice jm_kumo --rate 0.8 --pitch -2"
check "the session asks for the same speech" \
  sessions_asked_for 1 '{"pitch": -2.0, "rate": 0.8, "voice": "jm_kumo"}'

tmux send-keys -t "$session" F5
check ":BikiReplay while the answer is typed says it again" said_times 2
check "with the same arguments" said_alike
check "counting no answer" no_answer_sent
check "still the first question" shows "[1/2]"
check "and the prompt still waits for the answer" shows "Answer"

tmux send-keys -t "$session" Enter
check "an empty answer says it again too" said_times 3
check "alike" said_alike
check "and counts nothing" no_answer_sent

tmux send-keys -t "$session" "quit" Enter
check "quit ends the quiz" wait_for "— finished"
tmux send-keys -t "$session" "q" ":BikiReplay" Enter
check ":BikiReplay after the quiz says no question is being spoken" wait_for "no question is being spoken"
check "and runs nothing" said_times 3

# A voice file: Neovim runs biki with no shell, so the "~" is expanded for it.
tmux send-keys -t "$session" ":lua require('biki').setup({ voice = '~/voices/x.htsvoice' })" Enter
tmux send-keys -t "$session" ":BikiReview 1" Enter
check "a review's listening question is spoken" said_times 4
check "with the voice file's whole name" said_with "--voice $state/home/voices/x.htsvoice --rate 0.8 --pitch -2"
check "which the review's session asks for too" \
  sessions_asked_for 2 '{"pitch": -2.0, "rate": 0.8, "voice": "'"$state"'/home/voices/x.htsvoice"}'
tmux send-keys -t "$session" "quit" Enter
check "(quit)" wait_for "— finished"

# Sound off: the question shows its reading, and a replay says why there is none.
tmux send-keys -t "$session" "q" ":lua require('biki').setup({ speak = false })" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.hon 1" Enter
check "with speak = false the window says there is no audio" wait_for "No audio: sound is off"
tmux send-keys -t "$session" F5
check ":BikiReplay says why" wait_for "no audio: sound is off"
check "and runs nothing" said_times 4
tmux send-keys -t "$session" Escape
check "(quit)" wait_for "— finished"

# A question that is read, not heard: nothing to say again, and the window says so.
tmux send-keys -t "$session" "q" ":lua require('biki').setup({ speak = true, skill = 'reading' })" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.hon 1" Enter
check "a reading question is shown" wait_for "Answer (本):"
tmux send-keys -t "$session" F5
check ":BikiReplay says no question is being spoken" wait_for "no question is being spoken"
check "and runs nothing" said_times 4
tmux send-keys -t "$session" Escape
check "(quit)" wait_for "— finished"
tmux send-keys -t "$session" "q" ":qa!" Enter

finish "nvim speech"
