#!/usr/bin/env bash
# Listening settings and :BikiReplay in real Vim in a real terminal, as a learner sets them in
# ~/.vimrc: g:biki_voice, g:biki_rate and g:biki_pitch reach `biki say` and every session's
# `speech`, and replaying the question (the command, or <Plug>(biki-replay) at the prompt) runs
# the same `biki say` again without counting an answer. A stand-in biki
# (Editors/tests/speech.sh) writes down each `biki say` and what is sent to the real server.
#   BIKI=.build/debug/biki Editors/vim/tests/speech.sh    (or with biki on PATH)
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
biki="${BIKI:-$(command -v biki)}" || { echo "vim speech: no biki on PATH, and BIKI is not set"; exit 1; }
biki="$(cd "$(dirname "$biki")" && pwd)/$(basename "$biki")"
session="biki-vim-speech-$$"
state="$(mktemp -d)"
trap 'end_screen; rm -rf "$state"' EXIT

. "$here/../../Tests/clients/screen.sh"
. "$here/../tests/speech.sh"
make_stand_in
mkdir -p "$state/home"

cat >"$state/home/.vimrc" <<VIMRC
set nocompatible
set runtimepath^=$here
let g:biki_command = ['$state/bin/biki', 'serve']
let g:biki_skill = 'listening'
let g:biki_seed = 3
let g:biki_voice = 'jm_kumo'
let g:biki_rate = 1.5
let g:biki_pitch = -2
imap <F5> <Plug>(biki-replay)
VIMRC
tmux new-session -d -s "$session" -x 110 -y 30 \
  "env HOME='$state/home' XDG_STATE_HOME='$state/state' vim -N -u '$state/home/.vimrc' -i NONE"
wait_for "~" || sleep 1

tmux send-keys -t "$session" ":BikiReplay" Enter
check ":BikiReplay with no quiz says no question is being spoken" wait_for "biki: no question is being spoken"
check "and runs nothing" said_times 0

tmux send-keys -t "$session" ":BikiQuiz counters.hon 2" Enter
check "a listening question is asked" wait_for "[1/2]  🔊 listen"
check "without showing its reading, the answer" not_matches "\[1/2\] .*ほん"
check "and spoken once" said_times 1
check "with the voice, rate and pitch" said_with "--voice jm_kumo --rate 1.5 --pitch -2"
check "the session asks for the same speech" \
  sessions_asked_for 1 '{"pitch": -2.0, "rate": 1.5, "voice": "jm_kumo"}'

tmux send-keys -t "$session" F5
check "<Plug>(biki-replay) at the prompt says it again" said_times 2
check "with the same arguments" said_alike
check "still typing the answer" shows "-- INSERT --"
tmux send-keys -t "$session" Escape ":BikiReplay" Enter
check ":BikiReplay says it again" said_times 3
check "alike" said_alike
check "and puts the learner back at the prompt" wait_for "-- INSERT --"
check "counting no answer" no_answer_sent
check "still the first question" not_shows "[2/2]"

# A voice file: Vim's job runs biki with no shell, so the "~" is expanded for it.
tmux send-keys -t "$session" Escape ":let g:biki_voice = '~/voices/x.htsvoice'" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.hon 1" Enter
check "the next quiz's question is spoken" said_times 4
check "with the voice file's whole name" said_with "--voice $state/home/voices/x.htsvoice --rate 1.5 --pitch -2"
check "which its session asks for too" \
  sessions_asked_for 2 '{"pitch": -2.0, "rate": 1.5, "voice": "'"$state"'/home/voices/x.htsvoice"}'

tmux send-keys -t "$session" Escape ":let g:biki_speak = 0" Enter ":BikiReplay" Enter
check "with g:biki_speak off, :BikiReplay says why" wait_for "biki: no audio: g:biki_speak is off"
check "and runs nothing" said_times 4

# CTRL-C at the prompt, once Vim is at it: sent with the keys before it, Vim would take it first.
tmux send-keys -t "$session" ":let g:biki_speak = 1" Enter ":startinsert" Enter
wait_for "-- INSERT --"
tmux send-keys -t "$session" C-c
check "CTRL-C ends the quiz" wait_for "— finished"
tmux send-keys -t "$session" ":BikiReplay" Enter
check ":BikiReplay after it says no question is being spoken" wait_for "biki: no question is being spoken"
check "and runs nothing" said_times 4
tmux send-keys -t "$session" ":qa!" Enter

finish "vim speech"
