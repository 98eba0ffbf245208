#!/usr/bin/env bash
# Listening in the editors as a learner meets it, with the installed biki by name and Open JTalk
# installed as README.md says: Neovim and Vim in a real terminal (tmux types and reads the
# screen) and Emacs in batch speak a listening question through `biki say`, say which engine
# speaks, play the question again on asking, and pass their rate and pitch settings on. The
# audio player is a stand-in that writes down what it was given to play; `biki` is reached
# through a stand-in that writes down each `biki say` it runs.
#   Tests/clients/listening.sh        (with an installed Biki: `biki` on PATH)
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
session="biki-listening-$$"
state="$(mktemp -d)"
. "$root/Tests/clients/screen.sh"
trap 'end_screen; rm -rf "$state"' EXIT

for tool in biki tmux nvim emacs vim; do
  command -v "$tool" >/dev/null || { echo "listening.sh: $tool is not on PATH"; exit 1; }
done

# The moment of silence `biki say --engine` and `biki quiz --speak` try the sound with is not a question's.
printf '#!/bin/sh\ncase "$*" in *silence.wav) exit 0 ;; esac\necho "$@" >> "%s/played"\n' "$state" > "$state/player"
chmod +x "$state/player"
# The editors run `biki say` by the biki their server runs: this one notes each.
printf '#!/bin/sh\n[ "$1" = say ] && echo "$@" >> "%s/said"\nexec "%s" "$@"\n' "$state" "$(command -v biki)" > "$state/biki"
chmod +x "$state/biki"
export BIKI_AUDIO_PLAYER="$state/player" XDG_CACHE_HOME="$state/cache" XDG_STATE_HOME="$state/state"

played() { played_into "$1" "$state/played"; }

# Emacs in batch with biki.el loaded as README's Emacs section installs it, running $1 with
# sound on; what it says goes to emacs.log.
emacs_with_biki() {
  emacs --batch -Q -L "$root/Editors/emacs" --eval "
(progn
  (require 'package)
  (add-to-list 'package-directory-list \"/usr/share/emacs/site-lisp/elpa\")
  (package-initialize)
  (require 'biki)
  (setq biki-speak t)
  $1)" > "$state/emacs.log" 2>&1
}
check "biki say --engine names Open JTalk" sh -c 'biki say --engine | grep -q "^Speaking with Open JTalk, voice mei_normal"'

# Neovim set up for listening, in a terminal $1 columns wide, with the extra commands $2,
# asking two questions of counters.hon.
nvim_listening_quiz() {
  local setup="lua require('biki').setup({ cmd = { '$state/biki', 'serve' }, skill = 'listening', seed = 3, rate = 0.8, pitch = 2 })"
  replace_session -x "$1" -y 30 -c "$state" \
    "nvim -u NONE -i NONE -n --cmd 'set rtp^=$root/Editors/nvim' -c 'runtime plugin/biki.lua' -c \"$setup\" $2"
  sleep 0.5
  tmux send-keys -t "$session" ":BikiQuiz counters.hon 2" Enter
}
nvim_listening_quiz 110 "-c 'cnoremap <F5> <Cmd>BikiReplay<CR>'"
check "Neovim asks a listening question" wait_for "🔊 listen"
check "and Open JTalk's audio of it is played" played 1
check "a file Biki made" sh -c "grep -q '^$state/cache/biki/speech/.*\.wav$' '$state/played'"
check "Neovim's rate and pitch reach biki say" grep -q -- "--rate 0.8 --pitch 2$" "$state/said"
tmux send-keys -t "$session" Enter
check "an empty answer plays it again" played 2
tmux send-keys -t "$session" F5
check ":BikiReplay, mapped while the answer is typed, plays it again" played 3
check "the same audio each time" sh -c "[ \"\$(sort -u '$state/played' | wc -l)\" -eq 1 ]"
check "and no answer was counted" wait_for "[1/2]"
tmux send-keys -t "$session" "quit" Enter
check "(quit)" wait_for "— finished"
tmux send-keys -t "$session" "q" ":checkhealth biki" Enter
check ":checkhealth biki says Open JTalk speaks" wait_for "OK: Speaking with Open JTalk, voice mei_normal"
tmux send-keys -t "$session" ":qa!" Enter

rm -f "$state/played"
emacs_with_biki "(biki-speech-engine) (biki--speak \"はっぽん\" \"八本\") (sleep-for 5)"
check "Emacs says which engine speaks" grep -q "Biki: Speaking with Open JTalk, voice mei_normal" "$state/emacs.log"
check "and plays Open JTalk's audio of a reading" played 1

# Vim: g:biki_rate and g:biki_pitch reach biki say; :BikiReplay plays the question again.
rm -f "$state/played" "$state/said"
vimrc="$state/vimrc"
cat > "$vimrc" <<VIMRC
set nocompatible
set rtp^=$root/Editors/vim
let g:biki_command = ['$state/biki', 'serve']
let g:biki_skill = 'listening'
let g:biki_seed = 3
let g:biki_rate = 1.5
let g:biki_pitch = -2
VIMRC
replace_session -x 110 -y 30 -c "$state" "vim -N -u '$vimrc' -i NONE"
sleep 0.5
tmux send-keys -t "$session" ":BikiQuiz counters.hon 2" Enter
check "Vim asks a listening question, and plays it" played 1
check "Vim's rate and pitch reach biki say" grep -q -- "--rate 1.5 --pitch -2$" "$state/said"
tmux send-keys -t "$session" Escape ":BikiReplay" Enter
check "Vim's :BikiReplay plays it again" played 2
check "the same audio both times" sh -c "[ \"\$(sort -u '$state/played' | wc -l)\" -eq 1 ]"
tmux send-keys -t "$session" Escape ":qa!" Enter

# No sound card, as over SSH or in a container: aplay's own words. Each editor says so once and
# shows the reading, and :checkhealth warns.
printf '#!/bin/sh\necho "aplay: main:831: audio open error: No such file or directory" >&2\nexit 1\n' > "$state/no-card"
chmod +x "$state/no-card"
export BIKI_AUDIO_PLAYER="$state/no-card"
check "biki say --engine says aplay cannot play, and exits 69" sh -c \
  'biki say --engine > "$0/engine"; [ $? -eq 69 ] && grep -q "^Open JTalk would speak, but no-card cannot play sound here: it says \"aplay: main:831: audio open error" "$0/engine"' "$state"
nvim_listening_quiz 200 ""
check "Neovim says there is no sound, in aplay's words" wait_for "No audio: Open JTalk would speak, but no-card cannot play sound here"
check "and shows the reading to answer" wait_for "Read it instead: "
tmux send-keys -t "$session" "quit" Enter
check "(quit)" wait_for "— finished"
tmux send-keys -t "$session" "q" ":checkhealth biki" Enter
check ":checkhealth biki warns of it" wait_for "WARNING: Open JTalk would speak, but no-card cannot play sound here"
tmux send-keys -t "$session" ":qa!" Enter
emacs_with_biki "(biki--speak \"はっぽん\" \"八本\") (biki--speak \"はっぽん\" \"八本\")"
check "Emacs says once that there is no sound" sh -c \
  "[ \"\$(grep -c 'Biki: Open JTalk would speak, but no-card cannot play sound here' '$state/emacs.log')\" -eq 1 ]"

finish "listening"
