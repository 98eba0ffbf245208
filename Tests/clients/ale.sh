#!/usr/bin/env bash
# Vim with ALE in a real terminal under tmux, set up by nothing but the ~/.vimrc block of
# docs/editors.md: a broken pack's diagnostic arrives on its line and column, and ALE's code
# action fixes the name.
#   BIKI=.build/debug/biki Tests/clients/ale.sh
# The same on a line with kanji before the name: ALE counts columns in bytes, and the recipe's
# initializationOptions.positionEncoding "utf-8" has Biki count them so too.
# Exits 0 when every check that ran passed; prints each check, and the screen when one fails.
set -uo pipefail
biki="${BIKI:-.build/debug/biki}"
docs="$(cd "$(dirname "$0")/../.." && pwd)/docs/editors.md"
work="$(mktemp -d)"
session="biki-ale-$$"
. "$(dirname "$0")/screen.sh"
trap 'end_screen; rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/home" "$work/packs"
ln -s "$(cd "$(dirname "$biki")" && pwd)/$(basename "$biki")" "$work/bin/biki"

# The first vim block under "### Pack diagnostics with ALE", as a user pastes it into ~/.vimrc.
awk '/^### Pack diagnostics with ALE/ { section = 1 } section && /^```vim$/ { inside = 1; next }
     inside && /^```$/ { exit } inside { print }' "$docs" > "$work/home/.vimrc"
grep -q ale#linter#Define "$work/home/.vimrc" || { echo "ale: no vimrc block found in $docs"; exit 1; }

# Vim on one pack file. -N: Vim resets 'compatible' when it finds ~/.vimrc itself, not when
# given one with -u, and ALE's scripts need line continuation.
open_vim() {
  rm -f "$work/found"
  replace_session -x 120 -y 20 \
    "cd '$work/packs' && env PATH='$work/bin:/usr/bin:/bin' HOME='$work/home' XDG_STATE_HOME='$work/state' vim -N -u '$work/home/.vimrc' '$1'"
}

# Writes what ALE shows for the buffer ("line:column message" each) to $work/found, until a
# line with $1 is there or 20 s pass. mapnew: GetLoclist returns ALE's own list, which map()
# would turn into strings under ALE's feet.
wait_diagnostic() {
  for _ in $(seq 100); do
    sleep 0.2
    tmux send-keys -t "$session" ":call writefile(mapnew(ale#engine#GetLoclist(bufnr('')), 'v:val.lnum . \":\" . v:val.col . \" \" . v:val.text'), '$work/found')" Enter
    grep -qF -- "$1" "$work/found" 2>/dev/null && return 0
  done
  return 1
}

found() { grep -qF -- "$1" "$work/found" 2>/dev/null; }

# :ALECodeAction at the first diagnostic, taking the first fix; true once line $1 reads $2.
code_action() {
  local line="$1" expected="$2"
  tmux send-keys -t "$session" ":ALEFirst" Enter
  sleep 0.5
  tmux send-keys -t "$session" ":ALECodeAction" Enter
  for _ in $(seq 50); do screen | grep -qF "Change \"topicz\" to \"topics\"" && break; sleep 0.2; done
  tmux send-keys -t "$session" "1" Enter
  for _ in $(seq 50); do
    sleep 0.2
    tmux send-keys -t "$session" ":call writefile([getline($line)], '$work/line')" Enter
    [ "$(cat "$work/line" 2>/dev/null)" = "$expected" ] && return 0
  done
  echo "line $line: $(cat "$work/line" 2>/dev/null)"
  return 1
}

message='unknown key "topicz" in the pack; did you mean "topics"?'

printf '{\n  "format": 1,\n  "id": "mine",\n  "title": "Mine", "version": "1.0.0", "topicz": [],\n  "topics": []\n}\n' > "$work/packs/mine.json"
open_vim mine.json
check "the diagnostic arrives on line 4, column 40" wait_diagnostic "4:40 $message"
check ":ALECodeAction renames the key" code_action 4 '  "title": "Mine", "version": "1.0.0", "topics": [],'

# "  "title": "本 – 長い物", "version": "1.0.0", "topicz"": the key's first byte is byte 53.
printf '{\n  "format": 1,\n  "id": "mine",\n  "title": "本 – 長い物", "version": "1.0.0", "topicz": [],\n  "topics": []\n}\n' > "$work/packs/kanji.json"
open_vim kanji.json
check "after kanji, the diagnostic is on the key's byte column" wait_diagnostic "4:53 $message"
check "after kanji, :ALECodeAction renames the key and nothing else" \
  code_action 4 '  "title": "本 – 長い物", "version": "1.0.0", "topics": [],'

tmux send-keys -t "$session" ":qa!" Enter
finish "ale"
