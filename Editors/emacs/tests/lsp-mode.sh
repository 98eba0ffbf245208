#!/usr/bin/env bash
# biki.el with lsp-mode (Debian's elpa-lsp-mode) instead of eglot, in real Emacs in a real
# terminal: the package installed with package-install-file into a fresh home, the init.el of
# docs/editors.md with the one line that picks lsp-mode. tmux types the keys and reads the
# screen: a pack's typo is diagnosed, M-. goes to a counter's definition, and biki.el's
# settings reach the server (a directory of packs in biki-pack-directories is served).
#   Editors/emacs/tests/lsp-mode.sh        (with an installed Biki: `biki` on PATH)
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
docs="$here/../../docs/editors.md"
session="biki-lsp-mode-$$"
state="$(mktemp -d)"
. "$(dirname "$0")/../../../Tests/clients/screen.sh"
trap 'end_screen; rm -rf "$state"' EXIT

for tool in biki tmux emacs; do
  command -v "$tool" >/dev/null || { echo "lsp-mode.sh: $tool is not on PATH"; exit 1; }
done
[ -d /usr/share/emacs/site-lisp/elpa-src ] && ls /usr/share/emacs/site-lisp/elpa-src | grep -q '^lsp-mode' \
  || { echo "lsp-mode.sh: lsp-mode is not installed (sudo apt-get install elpa-lsp-mode)"; exit 1; }

home="$state/home"
mkdir -p "$home/.emacs.d" "$state/drafts"
if ! HOME="$home" emacs --batch --eval "(package-install-file \"$here/biki.el\")" >"$state/install.log" 2>&1; then
  echo "FAIL package-install-file installs biki.el"; cat "$state/install.log"; exit 1
fi
echo "ok   package-install-file installs biki.el"
# The docs' init.el, then the lsp-mode block the docs give.
awk '/^## Emacs/ { emacs = 1 } emacs && /^```elisp/ { inside = 1; next } inside && /^```/ { exit } inside' \
  "$docs" >"$home/.emacs.d/init.el"
awk '/^### With lsp-mode/ { section = 1 } section && /^```elisp/ { inside = 1; next } inside && /^```/ { exit } inside' \
  "$docs" >>"$home/.emacs.d/init.el"
grep -q "biki-language-client 'lsp-mode" "$home/.emacs.d/init.el" \
  || { echo "FAIL docs/editors.md gives the lsp-mode lines (### With lsp-mode, an elisp block)"; exit 1; }
cat >>"$home/.emacs.d/init.el" <<'INIT'
(setq native-comp-async-report-warnings-errors 'silent)
INIT

installed="$(dirname "$(command -v biki)")/../share/biki/built-in-packs/money.json"
sed '0,/"category"/s//"categroy"/' "$installed" >"$state/drafts/money.json"
cat >"$state/drafts/kitchen.json" <<'PACK'
{
  "format": 1,
  "id": "kitchen",
  "title": "In the kitchen",
  "version": "1.0.0",
  "counters": [
    { "id": "sara", "symbols": ["皿"], "reading": "さら", "whole": { "1": ["ひとさら"], "2": ["ふたさら"] } }
  ],
  "topics": [
    {
      "id": "plates", "title": "Plates (1–12皿)", "description": "ひとさら, ふたさら ….",
      "category": "counter", "skills": ["reading", "kana"],
      "variables": { "n": { "range": { "min": 1, "max": 12 } } },
      "question": {
        "parts": [{ "number": "n", "counter": "sara" }],
        "answer": { "value": "n", "postfix": "皿" }
      }
    }
  ]
}
PACK

# A directory of packs given to the server through lsp-mode's settings only.
mkdir -p "$state/extra"
cat >"$state/extra/pantry.json" <<'PACK'
{
  "format": 1, "id": "pantry", "title": "In the pantry", "version": "1.0.0",
  "topics": [
    {
      "id": "jars", "title": "Bottles (1–20本)", "description": "いっぽん, にほん ….",
      "category": "counter", "skills": ["kana"],
      "variables": { "n": { "range": { "min": 1, "max": 20 } } },
      "question": { "parts": [{ "number": "n", "counter": "hon" }], "answer": { "value": "n", "postfix": "本" } }
    }
  ]
}
PACK
echo "(setq biki-pack-directories (list \"$state/extra\"))" >>"$home/.emacs.d/init.el"

tmux new-session -d -s "$session" -x 120 -y 40 \
  "env HOME='$home' LANG=C.UTF-8 XDG_STATE_HOME='$state/state' XDG_DATA_HOME='$state/data' emacs -nw"
check "Emacs starts" wait_for "Welcome to GNU Emacs"
open_file() { tmux send-keys -t "$session" C-x 1 C-x C-f C-a C-k "$1" Enter; }

open_file "$state/drafts/money.json"
check "a copy of a pack opens in biki-pack-mode" wait_for "(Biki-Pack"
check "lsp-mode connects to biki serve" wait_for "LSP[biki"
diagnostics() {
  tmux send-keys -t "$session" M-: \
    "(message \"biki-diagnostics: %s\" (mapconcat (function flymake-diagnostic-text) (flymake-diagnostics) \" | \"))" Enter
}
# Asked every half second for up to 30 s: the check runs once lsp-mode has connected.
found=1
for _ in $(seq 60); do
  diagnostics
  sleep 0.5
  # The echo area shows the message, then M-:'s value: the same text, its quotes escaped.
  if screen | grep -qE 'biki-diagnostics: unknown key \\?"categroy'; then found=0; break; fi
done
check "the typo is diagnosed through lsp-mode" test "$found" -eq 0

open_file "$state/drafts/kitchen.json"
check "a pack without \$schema opens in biki-pack-mode" wait_for "kitchen.json"
check "and lsp-mode checks it too" wait_for "LSP[biki"
tmux send-keys -t "$session" C-s '"counter": "sa' Enter
sleep 1
tmux send-keys -t "$session" M-.
check "M-. goes to the counter's definition" on_line kitchen.json 7

# The server asks lsp-mode for its settings and loads the directory they name: asked until
# its topics hold the pack there, for up to 30 s.
found=1
for _ in $(seq 30); do
  tmux send-keys -t "$session" M-: \
    "(message \"biki-pantry: %s\" (if (string-match-p \"pantry.jars\" (json-encode (lsp-request \"biki/topics\" (make-hash-table)))) \"served\" \"not yet\"))" Enter
  sleep 1
  if screen | grep -q 'biki-pantry: served'; then found=0; break; fi
done
check "biki-pack-directories reaches the server through lsp-mode" test "$found" -eq 0

finish "emacs lsp-mode"
