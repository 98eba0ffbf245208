#!/usr/bin/env bash
# Listening in the terminal quiz as a learner meets it: the installed biki by name, in a real
# terminal (tmux types and reads the screen), slowed down with --rate. An empty line plays the
# question again without counting an answer. The player is a stand-in that writes down what it
# was given to play.
#   Tests/clients/quiz_listening.sh        (with an installed Biki: `biki` on PATH)
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
session="biki-quiz-listening-$$"
state="$(mktemp -d)"
. "$root/Tests/clients/screen.sh"
trap 'end_screen; rm -rf "$state"' EXIT

for tool in biki tmux; do
  command -v "$tool" >/dev/null || { echo "quiz_listening.sh: $tool is not on PATH"; exit 1; }
done

# The moment of silence `biki say --engine` and `biki quiz --speak` try the sound with is not a question's.
printf '#!/bin/sh\ncase "$*" in *silence.wav) exit 0 ;; esac\necho "$@" >> "%s/played"\n' "$state" > "$state/player"
chmod +x "$state/player"
export BIKI_AUDIO_PLAYER="$state/player" XDG_CACHE_HOME="$state/cache" XDG_STATE_HOME="$state/state"

played() { played_into "$1" "$state/played"; }

tmux new-session -d -s "$session" -x 100 -y 30 -c "$state" \
  "biki quiz counters.hon --speak --skill listening --seed 3 --mode questions=2 --rate 0.7; sleep 30"
check "the quiz says which engine speaks" wait_for "Speaking with Open JTalk"
check "and asks a listening question" wait_for "[1/2] 🔊"
check "whose audio is played" played 1
tmux send-keys -t "$session" Enter
check "an empty line plays it again" played 2
check "the same audio both times" sh -c "[ \"\$(sort -u '$state/played' | wc -l)\" -eq 1 ]"
check "without counting an answer" sh -c "! tmux capture-pane -p -t '$session' | grep -qF '[2/2]'"
tmux send-keys -t "$session" "skip" Enter
check "skip moves on" wait_for "[2/2] 🔊"
check "and the next question is played" played 3
tmux send-keys -t "$session" "quit" Enter
check "quit ends the quiz" wait_for "Finished (ended)"
check "the replay was no attempt" wait_for "Wrong attempts: 0   Skipped: 1"
check "at --rate 0.7, Biki's own audio" sh -c "grep -q '^$state/cache/biki/speech/.*\.wav$' '$state/played'"

finish "quiz listening"
