#!/usr/bin/env bash
# biki.el in real Emacs in a real terminal, set up as docs/editors.md tells a user to: the
# package installed with package-install-file into a fresh home, the init.el lines read from that
# page. tmux types the keys and reads the screen, so what is checked is what the user sees.
#   Editors/emacs/tests/tmux.sh        (with an installed Biki: `biki` on PATH)
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
docs="$here/../../docs/editors.md"
session="biki-emacs-$$"
state="$(mktemp -d)"
. "$(dirname "$0")/../../../Tests/clients/screen.sh"
trap 'end_screen; rm -rf "$state"' EXIT

for tool in biki tmux emacs; do
  if ! command -v "$tool" >/dev/null; then
    case "$tool" in
      biki) echo "tmux.sh: biki is not on PATH; install Biki (biki install --prefix ~/.local) and put its bin on PATH" ;;
      *) echo "tmux.sh: $tool is not installed (sudo apt-get install emacs-nox elpa-eglot tmux)" ;;
    esac
    exit 1
  fi
done

# The user's side: a home with biki.el installed as a package, and the init.el from the docs.
home="$state/home"
mkdir -p "$home/.emacs.d" "$state/drafts"
if ! HOME="$home" emacs --batch --eval "(package-install-file \"$here/biki.el\")" >"$state/install.log" 2>&1; then
  echo "FAIL package-install-file installs biki.el"; cat "$state/install.log"; exit 1
fi
echo "ok   package-install-file installs biki.el"
# The first elisp block of the Emacs section is the init.el the docs give.
awk '/^## Emacs/ { emacs = 1 } emacs && /^```elisp/ { inside = 1; next } inside && /^```/ { exit } inside' \
  "$docs" >"$home/.emacs.d/init.el"
if ! grep -q "biki-setup" "$home/.emacs.d/init.el"; then
  echo "FAIL docs/editors.md gives an init.el for Emacs (its Emacs section has no elisp block with biki-setup)"; exit 1
fi
# Options a user may set (customize-group biki lists them): replayable questions, in kana.
# Debian's Emacs compiles elpa-seq natively on first use in a fresh home, and would show its
# warnings (about seq, nothing of Biki's) in a window over the screen the checks read.
cat >>"$home/.emacs.d/init.el" <<'EOF'
(setq biki-speak nil biki-quiz-seed 1 biki-quiz-skill "kana" biki-quiz-questions 2)
(setq native-comp-async-report-warnings-errors 'silent)
EOF

# A copy of an installed pack with a typo in a key.
installed="$(dirname "$(command -v biki)")/../share/biki/built-in-packs/money.json"
sed '0,/"category"/s//"categroy"/' "$installed" >"$state/drafts/money.json"
# A pack with a counter of its own, used by name.
cat >"$state/drafts/kitchen.json" <<'EOF'
{
  "format": 1,
  "id": "kitchen",
  "title": "In the kitchen",
  "version": "1.0.0",
  "counters": [
    { "id": "sara", "symbols": ["皿"], "reading": "さら", "whole": { "1": ["ひとさら"], "2": ["ふたさら"] }, "final": { "1": ["いっさら"], "8": ["はっさら"], "10": ["じゅっさら"] } }
  ],
  "topics": [
    {
      "id": "plates",
      "title": "Plates (1–12皿)",
      "description": "ひとさら, ふたさら, さんさら ….",
      "category": "counter",
      "skills": ["reading", "kana"],
      "variables": { "n": { "range": { "min": 1, "max": 12 } } },
      "question": {
        "parts": [{ "number": "n", "counter": "sara" }],
        "answer": { "value": "n", "postfix": "皿" }
      }
    }
  ]
}
EOF
# An npm manifest whose keys a pack also has.
cat >"$state/drafts/package.json" <<'EOF'
{
  "name": "app", "version": "1.0.0", "id": "app", "format": "esm", "topics": ["numbers"],
  "scripts": { "build": "tsc" }
}
EOF

tmux new-session -d -s "$session" -x 120 -y 40 \
  "env HOME='$home' LANG=C.UTF-8 XDG_STATE_HOME='$state/state' XDG_DATA_HOME='$state/data' emacs -nw"
check "Emacs starts with the init.el from the docs" wait_for "Welcome to GNU Emacs"

open_file() { tmux send-keys -t "$session" C-x 1 C-x C-f C-a C-k "$1" Enter; }

# A pack with a typo: Biki's diagnostic, through eglot and Flymake.
open_file "$state/drafts/money.json"
check "a copy of a pack opens in biki-pack-mode" wait_for "(Biki-Pack"
check "eglot runs biki serve for it" wait_for "[eglot:"
check "the check ends with errors counted in the mode line" wait_for "Flymake[2 "
tmux send-keys -t "$session" M-x "flymake-show-buffer-diagnostics" Enter
check "the typo's diagnostic is listed, with the fix" \
  wait_for 'unknown key "categroy" in a topic; did you mean "category"?'

# M-. on a counter's name goes to the pack's own counter.
open_file "$state/drafts/kitchen.json"
check "a pack without \$schema opens in biki-pack-mode" wait_for "kitchen.json   All L1     (Biki-Pack"
check "its check ends clean" wait_for "Flymake[0 0]"
tmux send-keys -t "$session" C-s '"counter": "sa' Enter
check "the cursor is on the counter's use" on_line kitchen.json 18
tmux send-keys -t "$session" M-.
check "M-. goes to the counter's definition" on_line kitchen.json 7
# js-mode's M-. would be asking for a symbol: end that, so the checks below stand alone.
tmux send-keys -t "$session" C-g
# M-, only after the quit is done: sent at once on a busy machine, the quit could eat it.
wait_for "Quit" >/dev/null
tmux send-keys -t "$session" M-,
check "M-, comes back" wait_for "kitchen.json   All L18"

# An npm manifest stays JavaScript, and is not sent to Biki.
open_file "$state/drafts/package.json"
check "package.json opens in its usual mode" wait_for "package.json   All L1     (J"
check "not in biki-pack-mode" not_shows "package.json   All L1     (Biki-Pack"
sleep 1
check "and without eglot" not_matches "^-.* package\.json .*\[eglot"

# A quiz from the key the docs bind: question, verdicts with hint and readings, summary.
tmux send-keys -t "$session" C-x 1 C-c b q
check "C-c b q asks for a topic" wait_for "Biki topic:"
tmux send-keys -t "$session" "counters.hon" Enter
check "the quiz shows its title and count" wait_for "[1/2] 本 (1–10)"
check "and the question" shows "  10本"
check "and asks for the reading" wait_for "Reading (kana):"
tmux send-keys -t "$session" "juuhon" Enter
check "a wrong answer in romaji says so, with the kana it was read as" \
  wait_for "✗ not juuhon; try again, or skip. You typed じゅうほん."
tmux send-keys -t "$session" "じっぽん" Enter
check "a right answer shows the readings and the usual one" \
  wait_for "✓ じゅっぽん|じっぽん  (十本, じゅっぽん / じっぽん)  (accepted, though uncommon: the usual reading is じゅっぽん)"
check "and moves on" shows "[2/2] 本 (1–10)"
tmux send-keys -t "$session" C-c C-n
check "C-c C-n skips, which ends the quiz with its summary" wait_for "本 (1–10) — finished"
check "one correct of two" shows "Correct: 1 of 2"
check "the skipped question's answer is shown" shows "8本 → はっぽん|はちほん  (八本, はっぽん / はちほん)"

# A review from the Biki menu of the quiz buffer.
tmux send-keys -t "$session" F10
for _ in $(seq 8); do
  shows "Review Due and Weak Forms" && break
  tmux send-keys -t "$session" Right
  sleep 0.2
done
check "the menu bar has a Biki menu" shows "Review Due and Weak Forms"
check "with the stats" shows "Stats and Forms"
tmux send-keys -t "$session" Down Enter
check "Review from the menu starts a review" wait_for "[1/20] Review"
check "asking for a reading" wait_for "Reading (kana):"
tmux send-keys -t "$session" C-c C-e
check "C-c C-e ends it" wait_for "Review — finished"

tmux send-keys -t "$session" C-c b s
check "C-c b s shows the stats" wait_for "Skipped: 1   Accuracy:"
check "and the forms, weakest first" wait_for "Forms, weakest first"

tmux send-keys -t "$session" C-x 1 M-x "customize-group" Enter
sleep 0.3
tmux send-keys -t "$session" "biki" Enter
check "customize-group biki shows the group" wait_for "Biki group:"
check "with the quiz options" shows "Biki Quiz Skill"
check "and the biki command" shows "Biki Program"

check "no Lisp error is in the echo area" not_matches "error in process|Error in post-command-hook|Wrong type argument"

finish "emacs tmux"
