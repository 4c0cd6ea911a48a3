#!/usr/bin/env bash
# End-to-end check of the interactive REPL, by hand: drives the real launcher in tmux against a scripted model on
# 127.0.0.1 (dev.dockhand.bench.DemoModel) and prints the screen after each step, checking what must be on it.
#   scripts/repl-demo.sh            run the steps and print each screen
#   scripts/repl-demo.sh --attach   the same, then attach to the tmux session to look around (Ctrl-B D leaves)
# Needs tmux. Uses --sandbox none, a throw-away workspace and a throw-away ~/.dockhand.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
command -v tmux >/dev/null || { echo "repl-demo: tmux is not installed (apt-get install tmux)." >&2; exit 2; }
"$root/scripts/dockhand" --version >/dev/null

work="$(mktemp -d)"
session="dockhand-demo-$$"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
"$java" -cp "$("$root/scripts/bench-classpath.sh")" dev.dockhand.bench.DemoModel >"$work/url" 2>"$work/model.log" &
model=$!
cleanup() {
  tmux kill-session -t "$session" 2>/dev/null || true
  kill "$model" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
mkdir -p "$work/project"

tmux new-session -d -s "$session" -x 100 -y 32 \
  "cd '$work/project' && OPENAI_API_KEY=demo OPENAI_BASE_URL='$(cat "$work/url")' DOCKHAND_HOME='$work/home' \
   '$root/scripts/dockhand' --model demo --sandbox none; sleep 600"

failures=0
# Waits until the REPL sits at an empty prompt: the last line above the status line is "›" alone.
at_prompt() {
  for _ in $(seq 150); do
    tmux capture-pane -p -t "$session" | sed 's/[[:space:]]*$//' | grep -v '^$' | tail -2 | head -1 | grep -qx '›' \
      && return 0
    sleep 0.1
  done
}

# step KEYS... -- EXPECTED: sends the keys, waits until EXPECTED is on screen (or 15 s), prints the screen.
step() {
  local keys=() expected
  while [ "$1" != "--" ]; do keys+=("$1"); shift; done
  expected="$2"
  [ ${#keys[@]} -gt 0 ] && tmux send-keys -t "$session" "${keys[@]}"
  for _ in $(seq 150); do
    tmux capture-pane -p -t "$session" | grep -qF -- "$expected" && break
    sleep 0.1
  done
  echo "──── after: ${keys[*]:-(start)}"
  tmux capture-pane -p -t "$session" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
  if ! tmux capture-pane -p -t "$session" | grep -qF -- "$expected"; then
    echo "MISSING: $expected"
    failures=$((failures + 1))
  fi
}

# A message is typed only at an empty prompt, and each step waits for something only that step shows: keys typed
# before a question is on screen are thrown away by design, so a fast script would otherwise lose them.
at_prompt; step -- "/help for commands"
at_prompt; step "hello there" Enter -- "See the docs (https://example.com/docs)."
at_prompt; step "please write the file" Enter -- "? Allow write_file?"
step y -- "I wrote hello.txt."
at_prompt; step "now run something long" Enter -- "? Allow run_shell_command?"
step a -- "tick 2"
step C-c -- "cancelled; the conversation is kept"
at_prompt; step "/stats" Enter -- "Model requests"
at_prompt; step "!cat hello.txt" Enter -- "hello from the demo"
at_prompt; step "/quit" Enter -- ""

if [ "${1:-}" = "--attach" ]; then
  tmux attach -t "$session"
fi
if [ "$failures" -gt 0 ]; then
  echo "repl-demo: $failures step(s) did not show what they should." >&2
  exit 1
fi
echo "repl-demo: every step showed what it should."
