#!/usr/bin/env bash
# Vim with ALE, configured as docs/editors.md says, in a real terminal under tmux: a broken
# pack's diagnostic arrives on the right line.
#   BIKI=.build/debug/biki Tests/clients/ale.sh
set -uo pipefail
biki="${BIKI:-.build/debug/biki}"
work="$(mktemp -d)"
session="biki-ale-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null; rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$(cd "$(dirname "$biki")" && pwd)/$(basename "$biki")" "$work/bin/biki"

# The configuration from docs/editors.md, as a user would paste it.
# The first vim block of the section.
awk '/^## Vim with ALE/ { section = 1 } section && /^```vim$/ { inside = 1; next }
     inside && /^```$/ { exit } inside { print }' "$(dirname "$0")/../../docs/editors.md" > "$work/vimrc.biki"
{
  echo "set nocompatible"
  echo "set runtimepath^=/usr/share/vim-ale"
  echo "filetype plugin on"
  cat "$work/vimrc.biki"
} > "$work/vimrc"
printf '{\n  "format": 1,\n  "id": "mine",\n  "title": "Mine", "version": "1.0.0", "topicz": [],\n  "topics": []\n}\n' > "$work/mine.json"

tmux new-session -d -s "$session" -x 120 -y 20 \
  "env PATH='$work/bin:/usr/bin:/bin' HOME='$work' XDG_STATE_HOME='$work/state' vim -u '$work/vimrc' '$work/mine.json'"
for _ in $(seq 100); do
  sleep 0.2
  tmux send-keys -t "$session" ":call writefile(map(ale#engine#GetLoclist(bufnr('')), 'v:val.lnum . \":\" . v:val.col . \" \" . v:val.text'), '$work/found')" Enter
  grep -q topicz "$work/found" 2>/dev/null && break
done
tmux send-keys -t "$session" ":qa!" Enter
if grep -qF '4:40 unknown key "topicz" in the pack; did you mean "topics"?' "$work/found" 2>/dev/null; then
  echo "ale: the diagnostic arrived at line 4, column 40"
else
  echo "ale: no diagnostic; found:"; cat "$work/found" 2>/dev/null
  exit 1
fi
