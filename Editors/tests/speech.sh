# What the editors' speech tests share, sourced after Tests/clients/screen.sh with $state a
# fresh directory and $biki the real biki. The editor is given a stand-in biki,
# "$state/bin/biki", instead: it writes down each `biki say` it is asked to run, one line of
# arguments each in "$state/said", and answers it at once, so neither an engine nor a sound
# card is needed and a replay is seen as one more line; `biki say --engine` says it speaks. What
# the editor sends `biki serve` is copied to "$state/sent" on its way to the real server, so the
# requests are read as they were sent.

make_stand_in() {
  mkdir -p "$state/bin"
  cat >"$state/bin/biki" <<EOF
#!/bin/sh
case "\$1 \$2" in
  "say --engine"*) echo "Speaking with a stand-in."; exit 0 ;;
  say*) shift; printf '%s\n' "\$*" >>"$state/said"; exit 0 ;;
  serve*) shift; tee -a "$state/sent" | "$biki" serve "\$@"; exit ;;
esac
exec "$biki" "\$@"
EOF
  chmod +x "$state/bin/biki"
}

said_count() { cat "$state/said" 2>/dev/null | wc -l; }

# Waits up to 10 s for `biki say` to have run N times; true when it ran exactly N times.
said_times() {
  for _ in $(seq 100); do
    [ "$(said_count)" -ge "$1" ] && break
    sleep 0.1
  done
  # A run more than asked for would come straight after.
  sleep 0.3
  [ "$(said_count)" -eq "$1" ]
}

# Whether the last `biki say` ran with TEXT among its arguments.
said_with() { tail -1 "$state/said" 2>/dev/null | grep -qF -- "$1"; }

# Whether every `biki say` so far ran with the same arguments.
said_alike() { [ "$(sort -u "$state/said" | wc -l)" -eq 1 ]; }

# The JSON-RPC messages sent to the server, one a line: "METHOD PARAMS.speech", the speech as
# JSON with sorted keys and every number a float (Vim sends -2.0 where Neovim sends -2), or none.
sent() {
  python3 - "$state/sent" <<'PY'
import json, re, sys
data = open(sys.argv[1], "rb").read()
for header in re.finditer(rb"Content-Length: *(\d+)\r\n(?:[^\r\n]+\r\n)*\r\n", data):
    message = json.loads(data[header.end():header.end() + int(header.group(1))], parse_int=float)
    speech = (message.get("params") or {}).get("speech") if isinstance(message.get("params"), dict) else None
    print(message.get("method", "(response)"),
          "none" if speech is None else json.dumps(speech, sort_keys=True, ensure_ascii=False))
PY
}

# Whether N biki/startSession requests were sent so far, the last with `speech` as SPEECH
# (sorted JSON, or none).
sessions_asked_for() {
  local sessions
  sessions="$(sent | grep '^biki/startSession ')"
  [ "$(printf '%s\n' "$sessions" | grep -c .)" -eq "$1" ] &&
    [ "$(printf '%s\n' "$sessions" | tail -1)" = "biki/startSession $2" ]
}

# Whether no answer, skip or end of the session was sent.
no_answer_sent() { ! sent | grep -qE '^biki/(answer|skip|endSession) '; }
