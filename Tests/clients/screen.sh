# What the editors' terminal tests share (Neovim, Vim, Emacs): the editor runs in tmux session
# "$session", tmux reads its screen. Each check prints ok or FAIL, and the screen when it fails;
# `finish NAME` prints the verdict and is false when any check failed.
failures=0

# Each script has a tmux server of its own. The scripts run side by side, and a shared server
# exits when one script ends its last session: a session another script was starting at that
# moment died with "server exited unexpectedly". -f /dev/null keeps the user's tmux.conf out.
# Each script's EXIT trap calls end_screen.
tmux_socket="$(mktemp -u "${TMPDIR:-/tmp}/biki-tmux.XXXXXX")"
tmux() { command tmux -S "$tmux_socket" -f /dev/null "$@"; }
end_screen() { tmux kill-server 2>/dev/null; rm -f "$tmux_socket"; }

# `replace_session ARGS...`: a new session "$session" (tmux new-session's ARGS after -s), then
# the end of the one before. In that order the server never finds itself empty and exits under
# the new session; each session gets a name of its own, as one killed may still be ending.
session_starts=0
replace_session() {
  local old="$session"
  session_starts=$((session_starts + 1))
  session="biki-$session_starts"
  tmux new-session -d -s "$session" "$@"
  [ "$session_starts" -gt 1 ] && tmux kill-session -t "$old" 2>/dev/null
  return 0
}

screen() { tmux capture-pane -p -t "$session"; }

# Waits up to 15 s for the screen to show a text; true when it did.
wait_for() {
  for _ in $(seq 150); do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  return 1
}

# Waits up to 3 s for a text to leave the screen; true when it did.
wait_gone() {
  for _ in $(seq 30); do
    screen | grep -qF -- "$1" || return 0
    sleep 0.1
  done
  return 1
}

# Presses a key until the screen shows a text, for up to 15 s: for a request the server answers
# in full only once it has checked the document (hover on a large pack).
press_until() {
  for _ in $(seq 30); do
    tmux send-keys -t "$session" "$1"
    for _ in $(seq 5); do
      screen | grep -qF -- "$2" && return 0
      sleep 0.1
    done
  done
  return 1
}

# Waits up to 15 s for Emacs' mode line of the window showing FILE to say the cursor is on LINE.
on_line() {
  for _ in $(seq 150); do
    screen | grep -qE -- "^-.* $1 +[A-Za-z0-9%]+ L$2 " && return 0
    sleep 0.1
  done
  return 1
}

# Waits up to 20 s for the stand-in audio player to have been given N files (it writes each
# down in FILE); true when it was.
played_into() {
  for _ in $(seq 200); do
    [ "$(cat "$2" 2>/dev/null | grep -c "\.wav$")" -ge "$1" ] && return 0
    sleep 0.1
  done
  return 1
}

check() {
  local name="$1"; shift
  if "$@"; then
    echo "ok   $name"
  else
    echo "FAIL $name"
    echo "---- screen ----"; screen; echo "----------------"
    failures=$((failures + 1))
  fi
}

shows() { screen | grep -qF -- "$1"; }
# Whether the screen shows a text that a window may have wrapped onto more rows: each row's
# border and what lies outside it are dropped, the rows joined, and runs of spaces made one. A
# row a float wrapped is full, so the join gives back the text; a message Neovim wrapped at a
# word goes on indented, so its words stay apart.
shows_wrapped() { screen | sed -E 's/^[^│]*│//; s/│[^│]*$//' | tr -d '\n' | tr -s ' ' | grep -qF -- "$1"; }
not_shows() { ! screen | grep -qF -- "$1"; }
not_matches() { ! screen | grep -qE -- "$1"; }

# `finish NAME`: the verdict, and the exit status.
finish() {
  if [ "$failures" -eq 0 ]; then echo "$1: all checks passed"; else echo "$1: $failures checks failed"; fi
  [ "$failures" -eq 0 ]
}
