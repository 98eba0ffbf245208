#!/usr/bin/env bash
# Listening settings and biki-replay in real Emacs in a real terminal, the settings in init.el
# as Customize saves them: biki-voice, biki-speech-rate and biki-speech-pitch reach `biki say`
# and every session's `speech`, and hearing the question again (C-c C-l while answering, l in
# the quiz buffer, M-x biki-replay) runs the same `biki say` without counting an answer. A
# stand-in biki (Editors/tests/speech.sh) writes down each `biki say` and what is sent to the
# real server.
#   BIKI=.build/debug/biki Editors/emacs/tests/speech.sh    (or with biki on PATH)
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
biki="${BIKI:-$(command -v biki)}" || { echo "emacs speech: no biki on PATH, and BIKI is not set"; exit 1; }
biki="$(cd "$(dirname "$biki")" && pwd)/$(basename "$biki")"
session="biki-emacs-speech-$$"
state="$(mktemp -d)"
trap 'end_screen; rm -rf "$state"' EXIT

. "$here/../../Tests/clients/screen.sh"
. "$here/../tests/speech.sh"
make_stand_in
mkdir -p "$state/home/.emacs.d"

cat >"$state/home/.emacs.d/init.el" <<EOF
(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(add-to-list 'load-path "$here")
(require 'biki)
(global-set-key (kbd "C-c b") 'biki-command-map)
(custom-set-variables
 '(biki-program "$state/bin/biki")
 '(biki-quiz-skill "listening")
 '(biki-quiz-seed 3)
 '(biki-voice "jm_kumo")
 '(biki-speech-rate 0.8)
 '(biki-speech-pitch -2))
(setq native-comp-async-report-warnings-errors 'silent inhibit-startup-screen t)
EOF

tmux new-session -d -s "$session" -x 120 -y 40 \
  "env HOME='$state/home' LANG=C.UTF-8 XDG_STATE_HOME='$state/state' emacs -nw"
check "Emacs starts" wait_for "*scratch*"

tmux send-keys -t "$session" M-x "biki-replay" Enter
check "M-x biki-replay with no quiz says no question is being spoken" wait_for "no question is being spoken"
check "and runs nothing" said_times 0

# The quiz splits the one window: *scratch* above, the quiz below.
tmux send-keys -t "$session" C-x 1 C-c b q
check "C-c b q asks for a topic" wait_for "Biki topic:"
tmux send-keys -t "$session" "counters.hon" Enter
check "a listening question is asked" wait_for "🔊 listen"
check "and spoken once" said_times 1
check "with the voice, rate and pitch" said_with "--voice jm_kumo --rate 0.8 --pitch -2"
check "the session asks for the same speech" \
  sessions_asked_for 1 '{"pitch": -2.0, "rate": 0.8, "voice": "jm_kumo"}'

tmux send-keys -t "$session" C-c C-l
check "C-c C-l while answering says it again" said_times 2
check "with the same arguments" said_alike
# From the answer's minibuffer, past *scratch*, to the quiz buffer, where l says it again.
tmux send-keys -t "$session" C-x o C-x o
sleep 0.3
tmux send-keys -t "$session" l
check "l in the quiz buffer says it again" said_times 3
check "alike" said_alike
check "counting no answer" no_answer_sent
check "still the first question" shows "[1/10]"
tmux send-keys -t "$session" C-x o
sleep 0.3
tmux send-keys -t "$session" "quit" Enter
check "quit ends the quiz" wait_for "— finished"
tmux send-keys -t "$session" l
check "l after the quiz says no question is being spoken" wait_for "no question is being spoken"
check "and runs nothing" said_times 3

# A review asks for the same speech when it starts.
tmux send-keys -t "$session" C-c b r
check "C-c b r starts a review, spoken" said_times 4
check "its session asks for the same speech" \
  sessions_asked_for 2 '{"pitch": -2.0, "rate": 0.8, "voice": "jm_kumo"}'
tmux send-keys -t "$session" C-c C-e
check "(ended)" wait_for "Review — finished"

check "no Lisp error is in the echo area" not_matches "error in process|Wrong type argument|Symbol.s function definition is void"
finish "emacs speech"
