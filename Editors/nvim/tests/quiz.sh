#!/usr/bin/env bash
# A quiz in real Neovim in a real terminal: tmux types the keys and reads the screen, so what is
# checked is what a learner sees at each prompt.
#   BIKI=.build/debug/biki Editors/nvim/tests/quiz.sh
# Runs `biki` by name, from BIKI's directory put first on PATH. Exits 0 when every check passes;
# prints each check, and the screen when one fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
biki="${BIKI:-$here/../../.build/debug/biki}"
PATH="$(cd "$(dirname "$biki")" && pwd):$PATH"
session="biki-nvim-$$"
state="$(mktemp -d)"
trap 'end_screen; rm -rf "$state"' EXIT

. "$here/../../Tests/clients/screen.sh"

# The number a 本 question shows in kanji (1 to 10).
answer_on_screen() {
  local kanji
  # The question's own line in the window: the prompt alone, indented by two.
  kanji="$(screen | grep -oE '│  (十|[一二三四五六七八九]十?)本 ' | head -1 | grep -oE '(十|[一二三四五六七八九]十?)本')"
  case "${kanji%本}" in
    一) echo 1 ;; 二) echo 2 ;; 三) echo 3 ;; 四) echo 4 ;; 五) echo 5 ;;
    六) echo 6 ;; 七) echo 7 ;; 八) echo 8 ;; 九) echo 9 ;; 十) echo 10 ;; *) echo "?" ;;
  esac
}

setup="lua require('biki').setup({ speak = false, seed = 3 })"
tmux new-session -d -s "$session" -x 100 -y 30 \
  "env PATH='$PATH' XDG_STATE_HOME='$state' nvim -u NONE -i NONE -n --cmd 'set rtp^=$here' -c 'runtime plugin/biki.lua' -c \"$setup\""
sleep 0.5

tmux send-keys -t "$session" ":BikiQuiz counters.hon 2" Enter
check "the first question is on screen with its prompt" wait_for "Answer (本):"
check "the window shows the topic's title and the count" shows "[1/2] 本 (1–10)"
first="$(answer_on_screen)"
check "the question is shown before the prompt asks for it" test "$first" != "?"

tmux send-keys -t "$session" "0" Enter
check "a wrong answer says so and asks again" wait_for "✗ not 0; try again, or skip"
check "on the same question" shows "[1/2]"

tmux send-keys -t "$session" Enter
sleep 0.5
check "an empty answer repeats the question" wait_for "Answer (本):"
check "and does not end the quiz" not_shows "finished"
check "still the first question" test "$(answer_on_screen)" = "$first"

tmux send-keys -t "$session" "$first" Enter
check "a right answer moves on to the next question" wait_for "[2/2]"
check "showing the verdict on the last answer" shows "✓ ${first}本"
check "with the next question's prompt" wait_for "Answer (本):"
check "and the next question on screen" test "$(answer_on_screen)" != "?"

tmux send-keys -t "$session" "skip" Enter
check "the last question ends the quiz with a summary" wait_for "— finished"
check "one correct of two" shows "Correct: 1 of 2"
check "one skipped" shows "Skipped: 1"

# The summary has the focus, but the next command runs in the window the learner came from.
echo "a note of mine" > "$state/notes.txt"
tmux send-keys -t "$session" ":e $state/notes.txt" Enter
check ":e after a quiz opens the file" wait_for "a note of mine"
check "and closes the summary" not_shows "— finished"
tmux send-keys -t "$session" ":lua print(vim.api.nvim_win_get_config(0).relative == '' and 'in a window of its own' or 'in a float')" Enter
check "in a window of its own, not the summary's float" wait_for "in a window of its own"

# What the quiz missed (a wrong answer, a skip) comes back, in rounds until each is right at the
# first try.
tmux send-keys -t "$session" ":BikiMissed counters.hon" Enter
check ":BikiMissed asks again what the last quiz missed" wait_for "[round 1: 1/2] Missed in 本 (1–10)"
tmux send-keys -t "$session" "$(answer_on_screen)" Enter
check "round 1 goes on to the second" wait_for "[round 1: 2/2]"
missed="$(answer_on_screen)"
tmux send-keys -t "$session" "skip" Enter
check "what round 1 missed comes back in round 2" wait_for "[round 2: 1/1]"
check "the same question" test "$(answer_on_screen)" = "$missed"
tmux send-keys -t "$session" "$missed" Enter
check "right at the first try, the rounds end" wait_for "Rounds: 2: each right at the first try"
tmux send-keys -t "$session" "q"

tmux send-keys -t "$session" ":BikiTopics" Enter
check ":BikiTopics lists the topics" wait_for "numbers.beginner"
tmux send-keys -t "$session" ":BikiTopics" Enter
sleep 1
check ":BikiTopics twice raises nothing" not_shows "Failed to rename"
check "no error is on screen" not_shows "E5108"

# A review: the missed form first, in kana.
tmux send-keys -t "$session" ":BikiReview counters.hon 2" Enter
check ":BikiReview asks in kana, with its own title" wait_for "Reading (kana):"
check "the review window says what it is" shows "[1/2] Review of 本 (1–10)"
tmux send-keys -t "$session" "skip" Enter
sleep 0.5
tmux send-keys -t "$session" "skip" Enter
check "the review ends with a summary" wait_for "— finished"
tmux send-keys -t "$session" "q" ":BikiStats" Enter
check ":BikiStats shows forms, weakest first" wait_for "Forms, weakest first"
check "and accuracy per topic" shows "counters.hon"

check "eight answers are in the history" test "$(grep -vc '"event"' "$state/biki/history.jsonl" 2>/dev/null || echo 0)" -eq 8

# Which counter: the thing and how many are shown; the count with its counter is typed.
tmux send-keys -t "$session" Escape ":BikiQuiz counters.which-counter 2" Enter
check "which-counter asks for the count with its counter" wait_for "Count with its counter (5本 or ごほん):"
check "showing the thing and how many" shows "バナナ (ばなな, banana) × 8"
tmux send-keys -t "$session" "8匹" Enter
check "the wrong counter is wrong" wait_for "✗ not 8匹"
tmux send-keys -t "$session" "はっぽん" Enter
check "the count in kana with the right counter is right" wait_for "✓ 8本 (はっぽん"
check "and the next thing is shown" shows "航空便 (こうくうびん, flight) × 1"

tmux send-keys -t "$session" "skip" Enter
check "the which-counter quiz ends with a summary" wait_for "— finished"

# A themed topic: the counters of one situation, mixed.
tmux send-keys -t "$session" "q" ":BikiQuiz counters.theme-table 2" Enter
check "a themed topic opens with its title" wait_for "At the table (皿, 杯, 人前, 切れ, 個)"
check "and shows its first counter" wait_for "七杯"
tmux send-keys -t "$session" "7" Enter
check "the count is right" wait_for "✓ 7"
check "and the next counter of the table is shown" wait_for "九人前"

tmux send-keys -t "$session" "quit" Enter
check "the themed quiz ends with a summary" wait_for "— finished"

# Enter in the topic list drills the topic on the cursor's line.
tmux send-keys -t "$session" "q" ":BikiTopics" Enter
sleep 1
tmux send-keys -t "$session" "/^counters.hon " Enter Enter
check "Enter in :BikiTopics starts a quiz on that line's topic" wait_for "[1/10] 本 (1–10)"
tmux send-keys -t "$session" "quit" Enter
check "quit ends it with a summary" wait_for "— finished"
tmux send-keys -t "$session" "q"
check "q closes the summary" wait_gone "— finished"

# Arguments: a number is a question count, a word a topic, in either order, as :BikiReview.
tmux send-keys -t "$session" ":BikiQuiz 2 counters.hon" Enter
check ":BikiQuiz 2 counters.hon asks two questions" wait_for "[1/2] 本 (1–10)"
tmux send-keys -t "$session" "quit" Enter
check "(quit)" wait_for "— finished"
tmux send-keys -t "$session" "q" ":BikiQuiz 2" Enter
check ":BikiQuiz 2 offers the topics to choose from" wait_for "[numbers.beginner]"
check "rather than looking for a topic named 2" not_shows 'no topic "2"'
# To the end of the list, where an empty choice cancels.
tmux send-keys -t "$session" "G"
check "(the list ends in a choice)" wait_for "Type number and <Enter>"
tmux send-keys -t "$session" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.hon counters.wa" Enter
check "two topics are refused by name" wait_for "biki: give one topic, not counters.hon and counters.wa"
tmux send-keys -t "$session" ":BikiQuiz counters.ho" Tab
check "<Tab> completes a topic id" wait_for ":BikiQuiz counters.hon"
tmux send-keys -t "$session" " 2" Tab
check "and then a question count" wait_for ":BikiQuiz counters.hon 20"
tmux send-keys -t "$session" C-u Escape

# Kana: verdicts show each reading once, the kana a romaji answer was read as, and the usual reading
# when another one is accepted. Seed 1 asks 10本 first.
tmux send-keys -t "$session" ":lua require('biki').setup({ speak = false, seed = 1, skill = 'kana' })" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.hon 3" Enter
check "a kana quiz asks for the reading" wait_for "Reading (kana):"
check "of 10本" shows "│  10本"
tmux send-keys -t "$session" "juuhon" Enter
check "a wrong reading in romaji is wrong" wait_for "✗ not juuhon; try again, or skip"
check "with the kana it was read as" wait_for "You typed じゅうほん."
tmux send-keys -t "$session" "じっぽん" Enter
check "じっぽん is right, each reading shown once" wait_for "✓ じゅっぽん / じっぽん  (十本)"
check "and named uncommon, with the usual reading" shows "accepted, though uncommon: the usual reading is じゅっぽん"
check "the answer is not repeated as readings" not_shows "じゅっぽん|じっぽん"
tmux send-keys -t "$session" "skip" Enter
check "a skipped kana question shows its readings once" wait_for "→ はっぽん / はちほん  (八本)"
tmux send-keys -t "$session" "quit" Enter
check "the kana quiz ends" wait_for "— finished"

# strict = true: an uncommon reading is refused, naming the usual one.
tmux send-keys -t "$session" "q" ":lua require('biki').setup({ speak = false, seed = 1, skill = 'kana', strict = true })" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.hon 1" Enter
check "a strict quiz asks 10本 again" wait_for "Reading (kana):"
tmux send-keys -t "$session" "じっぽん" Enter
check "strict refuses じっぽん" wait_for "✗ not じっぽん; try again, or skip"
check "naming the usual reading" wait_for "the usual reading is じゅっぽん"
tmux send-keys -t "$session" "じゅっぽん" Enter
check "and takes じゅっぽん" wait_for "— finished"

# Which counter: a skipped question says why the thing takes its counter. Seed 6 asks 飛行機 × 6.
tmux send-keys -t "$session" "q" ":lua require('biki').setup({ speak = false, seed = 6, skill = 'counter' })" Enter
tmux send-keys -t "$session" ":BikiQuiz counters.which-counter 2" Enter
check "which-counter asks for the count with its counter" wait_for "Count with its counter"
tmux send-keys -t "$session" "skip" Enter
check "a skip says what the counter counts" wait_for "機 counts aircraft: aeroplanes, helicopters."
tmux send-keys -t "$session" "quit" Enter
check "(quit)" wait_for "— finished"

tmux send-keys -t "$session" ":qa!" Enter
finish "nvim quiz"
