#!/usr/bin/env bash
# A quiz in real Vim in a real terminal: tmux types the keys and reads the screen. The plugin is
# installed and configured by the Quizzes blocks of docs/editors.md, in a home of its own, and
# runs the `biki` found on PATH, from a directory outside the repository.
#   PATH=<dir with an installed biki>:$PATH Editors/vim/tests/quiz.sh
# Exits 0 when every check passes; prints each check, and the screen when one fails.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
docs="$repo/docs/editors.md"
biki="$(command -v biki)" || { echo "vim quiz: no biki on PATH"; exit 1; }
work="$(mktemp -d)"
session="biki-vim-$$"
. "$(dirname "$0")/../../../Tests/clients/screen.sh"
trap 'end_screen; rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/bin" "$work/elsewhere"
ln -s "$biki" "$work/bin/biki"

# The numbered block of kind $1 under "### Quizzes".
block() {
  awk -v kind="$1" '/^### Quizzes/ { section = 1 } /^### Pack/ { section = 0 }
       section && $0 == "```" kind { inside = 1; next } inside && /^```$/ { exit } inside { print }' "$docs"
}
(cd "$repo" && HOME="$work/home" bash -e <<<"$(block sh)") || { echo "vim quiz: the install block failed"; exit 1; }
block vim > "$work/home/.vimrc"


# The number the last 本 question on screen shows in kanji (1 to 10).
answer_on_screen() {
  local kanji
  kanji="$(screen | grep -oE '^\[(round [0-9]+: )?[0-9]+/[0-9]+\]  (十|[一二三四五六七八九])本 ' | tail -1 | grep -oE '(十|[一二三四五六七八九])本')"
  case "${kanji%本}" in
    一) echo 1 ;; 二) echo 2 ;; 三) echo 3 ;; 四) echo 4 ;; 五) echo 5 ;;
    六) echo 6 ;; 七) echo 7 ;; 八) echo 8 ;; 九) echo 9 ;; 十) echo 10 ;; *) echo "?" ;;
  esac
}

# Vim as the user starts it, with $1 as PATH. -N: Vim resets 'compatible' when it finds
# ~/.vimrc itself, not when given one with -u.
# Keys are typed once Vim has drawn its empty buffer (the ~ of its filler lines), not after a
# fixed wait.
start_vim() {
  replace_session -x 120 -y 40 \
    "cd '$work/elsewhere' && env PATH='$1' HOME='$work/home' XDG_STATE_HOME='$work/state' vim -N -u '$work/home/.vimrc'"
  wait_for "~" || sleep 1
}

start_vim "$work/bin:/usr/bin:/bin"
# \bt: the documented mapping to <Plug>(biki-topics).
tmux send-keys -t "$session" '\bt'
check "the topic list shows the topics" wait_for "numbers.beginner"
check "with their titles and skills" shows "1–10  (listening, reading, kana)"

tmux send-keys -t "$session" ":call search('^counters.hon ')" Enter Enter
check "Enter starts a quiz on the topic under the cursor" wait_for "本 (1–10): 10 questions"
check "a question shows" wait_for "[1/10]"
first="$(answer_on_screen)"
check "the question is a number of 本" test "$first" != "?"
tmux send-keys -t "$session" C-c
check "CTRL-C ends the quiz with its summary" wait_for "— finished"

# A set seed (10本, 8本, 2本): forms with sound changes are met, so :BikiStats has forms to list
# (three questions without one, 2本 4本 9本, would leave it none).
tmux send-keys -t "$session" ":let g:biki_seed = 1" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.hon 3" Enter
check ":BikiQuiz starts a quiz of 3" wait_for "[1/3]"
first="$(answer_on_screen)"
tmux send-keys -t "$session" "$first" Enter
check "a right answer shows ✓ and the reading" wait_for "✓ ${first}本  "
check "and the next question" wait_for "[2/3]"
second="$(answer_on_screen)"
tmux send-keys -t "$session" "0" Enter
check "a wrong answer shows ✗" wait_for "✗ not 0"
tmux send-keys -t "$session" Enter
check "an empty line then shows the right answer with its reading" wait_for "→ ${second}本  "
check "and moves on" wait_for "[3/3]"
tmux send-keys -t "$session" Escape ":BikiSkip" Enter
check ":BikiSkip skips the last question" wait_for "— finished"
check "the summary counts one right of three" shows "Correct: 1 of 3"
check "one wrong try, two skips" shows "Wrong attempts: 1   Skipped: 2"
check "and lists what to practise again" shows "To practise again:"

# What the quiz missed (the second and third) comes back in rounds until each is right at once.
tmux send-keys -t "$session" ":BikiMissed counters.hon" Enter
check ":BikiMissed asks again what the quiz missed" wait_for "[round 1: 1/2]"
tmux send-keys -t "$session" "$(answer_on_screen)" Enter
check "round 1 goes on to the second" wait_for "[round 1: 2/2]"
missed="$(answer_on_screen)"
tmux send-keys -t "$session" Enter
check "what round 1 missed comes back in round 2" wait_for "[round 2: 1/1]"
check "the same question" test "$(answer_on_screen)" = "$missed"
tmux send-keys -t "$session" "$missed" Enter
check "right at the first try, the rounds end" wait_for "Rounds: 2: each right at the first try"
tmux send-keys -t "$session" Escape

# g:biki_strict: an uncommon reading (じっぽん for 10本, seed 1 in kana) is refused, naming the usual.
tmux send-keys -t "$session" ":let g:biki_skill = 'kana' | let g:biki_seed = 1 | let g:biki_strict = 1" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.hon 1" Enter
check "a strict kana quiz starts" wait_for "[1/1]  10本"
tmux send-keys -t "$session" "じっぽん" Enter
check "strict refuses じっぽん" wait_for "✗ not じっぽん"
check "naming the usual reading" wait_for "じっぽん is uncommon, and this quiz is strict: the usual reading is じゅっぽん."
tmux send-keys -t "$session" "じゅっぽん" Enter
check "and takes じゅっぽん" wait_for "— finished"
tmux send-keys -t "$session" Escape ":unlet g:biki_skill g:biki_seed g:biki_strict" Enter

# Which counter: a skipped question says why the thing takes its counter. Seed 6 asks 飛行機 × 6.
tmux send-keys -t "$session" ":let g:biki_skill = 'counter' | let g:biki_seed = 6" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.which-counter 2" Enter
check "which-counter asks 飛行機" wait_for "飛行機"
tmux send-keys -t "$session" Enter
check "an empty line skips, saying what the counter counts" wait_for "機 counts aircraft: aeroplanes, helicopters."
tmux send-keys -t "$session" Escape ":unlet g:biki_skill g:biki_seed" Enter

tmux send-keys -t "$session" ":BikiStats" Enter
check ":BikiStats shows the answers by topic" wait_for "counters.hon"
check "and the forms, weakest first" shows "Forms, weakest first"

tmux send-keys -t "$session" ":help biki" Enter
check ":help biki opens the help at its start" wait_for "Biki quizzes you on how Japanese numbers"

# Without biki on PATH.
start_vim "/usr/bin:/bin"
tmux send-keys -t "$session" ":BikiTopics" Enter
check "without biki on PATH, the message says so" wait_for 'biki: cannot run "biki": it is not on your PATH'

# Installed by 'runtimepath' instead of as a package.
rm -rf "$work/home/.vim"
printf 'set runtimepath+=%s\n' "$repo/Editors/vim" > "$work/home/.vimrc"
start_vim "$work/bin:/usr/bin:/bin"
tmux send-keys -t "$session" ":BikiTopics" Enter
check "on 'runtimepath', :BikiTopics lists the topics" wait_for "numbers.beginner"

tmux send-keys -t "$session" ":qa!" Enter
finish "vim quiz"
