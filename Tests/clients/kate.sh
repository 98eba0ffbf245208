#!/usr/bin/env bash
# Kate 22.12 (Debian 12's) set up as docs/editors.md says, in a real window under Xvfb: the
# User Server Settings taken from that page, Kate's LSP Client plugin on, and `biki serve`
# allowed to start (Kate asks once; the answer is kept in katerc). Kate opens a pack with a
# typo and an npm manifest; what Kate and biki say to each other is read from a `biki` on PATH
# that passes everything through to the installed one:
# - Kate starts `biki serve` by bare name, initializes it and gives it the settings;
# - the pack's typo comes back as a diagnostic on its line, and package.json gets none.
#   Tests/clients/kate.sh        (with an installed Biki: `biki` on PATH; KEEP=1 keeps its files)
# Exits 0 when every check passes; prints each check, and the exchange when one fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
state="$(mktemp -d)"
trap 'rm -rf "$state"' EXIT

for tool in biki kate Xvfb xdotool; do
  command -v "$tool" >/dev/null || {
    echo "kate.sh: $tool is not on PATH (sudo apt-get install --no-install-recommends kate xvfb xdotool)"
    exit 1
  }
done
real="$(command -v biki)"
home="$state/home"
mkdir -p "$home/.config/kate/lspclient" "$state/bin" "$state/project" "$state/run"
chmod 700 "$state/run"

# The settings exactly as the page gives them.
awk '/^## Kate/ { kate = 1 } kate && /^```json/ { inside = 1; next } inside && /^```/ { exit } inside' \
  "$root/docs/editors.md" >"$home/.config/kate/lspclient/settings.json"
grep -q '"command": \["biki", "serve"\]' "$home/.config/kate/lspclient/settings.json" \
  || { echo "FAIL docs/editors.md gives Kate's settings (## Kate, a json block)"; exit 1; }

# A biki that keeps what passes each way, then is the installed one.
cat >"$state/bin/biki" <<WRAP
#!/bin/sh
tee -a '$state/to-biki.log' | '$real' "\$@" | tee -a '$state/from-biki.log'
WRAP
chmod +x "$state/bin/biki"
# The plugin on, and the server allowed, as Kate keeps them once the user has said so.
cat >"$home/.config/katerc" <<KATERC
[Kate Plugins]
lspclientplugin=true

[lspclient]
AllowedServerCommandLines=$state/bin/biki serve
KATERC

cat >"$state/project/mine.json" <<'PACK'
{
  "format": 1,
  "id": "mine",
  "title": "Mine", "version": "1.0.0", "topicz": [],
  "topics": []
}
PACK
printf '{ "name": "web", "version": "1.0.0", "topics": [] }\n' >"$state/project/package.json"

# A display of its own, so that keys can be typed into Kate's window.
exec 3>"$state/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp >"$state/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 100); do [ -s "$state/display" ] && break; sleep 0.1; done
exec 3>&-
[ -s "$state/display" ] || { echo "FAIL Xvfb starts"; cat "$state/xvfb.log"; exit 1; }
display=":$(head -1 "$state/display")"
trap 'kill "$xvfb" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$state"' EXIT
# package.json first, the pack last: Kate tells the server of a document when it is shown.
(
  cd "$state/project" &&
    DISPLAY="$display" HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" \
      XDG_CACHE_HOME="$home/.cache" XDG_STATE_HOME="$home/.local/state" XDG_RUNTIME_DIR="$state/run" \
      PATH="$state/bin:$PATH" exec timeout 60 kate -n "$state/project/package.json" "$state/project/mine.json" \
      >"$state/kate.log" 2>&1
) &
kate_run=$!

status=0
check() {  # check DESCRIPTION COMMAND...: waits up to 30 s for COMMAND to succeed
  local description="$1"
  shift
  for _ in $(seq 300); do
    if "$@"; then
      echo "ok   $description"
      return 0
    fi
    sleep 0.1
  done
  echo "FAIL $description"
  status=1
}
sent() { [ -f "$state/to-biki.log" ] && tr -d ' \n' <"$state/to-biki.log" | grep -q "$1"; }
mine="file://$state/project/mine.json"

check "Kate starts biki serve and initializes it" sent '"method":"initialize"'
check "Kate gives it the settings of docs/editors.md" sent '"biki":{"inlayHints":true}'
check "Kate opens the pack" sent "\"uri\":\"$mine\""
typo_diagnosed() {
  [ -f "$state/from-biki.log" ] && grep -o "\"uri\":\"$mine\",[^]]*" "$state/from-biki.log" \
    | grep '"line":3,' | grep -q '"unknown-key"'
}
check "the pack's typo comes back on its line (4)" typo_diagnosed
# Alt+Left shows the tab to the left, package.json (no window manager: the focus is given).
DISPLAY="$display" timeout 20 xdotool search --sync --onlyvisible --class kate windowfocus --sync key alt+Left \
  >/dev/null 2>&1
manifest="file://$state/project/package.json"
check "Kate opens package.json" sent "\"uri\":\"$manifest\""
# The server answers every JSON document; a file that is not a pack gets an empty list.
published() {
  [ -f "$state/from-biki.log" ] \
    && grep -o "\"uri\":\"$manifest\",\"version\":[0-9]*,\"diagnostics\":\[." "$state/from-biki.log"
}
any_published() { published | grep -q .; }
check "package.json's diagnostics are published" any_published
if published | grep -qv '\[\]$'; then
  echo "FAIL package.json gets no diagnostics"
  status=1
else
  echo "ok   package.json gets no diagnostics"
fi

kill "$kate_run" 2>/dev/null
pkill -f "kate -n $state/project" 2>/dev/null
wait "$kate_run" 2>/dev/null
kill "$xvfb" 2>/dev/null
if [ "$status" -ne 0 ]; then
  echo "--- to biki"; head -c 4000 "$state/to-biki.log" 2>/dev/null
  echo "--- from biki"; head -c 4000 "$state/from-biki.log" 2>/dev/null
  echo "--- kate"; grep -v 'udisks\|D-Bus\|sonnet' "$state/kate.log" | tail -20
  exit 1
fi
echo "kate: all checks passed"
