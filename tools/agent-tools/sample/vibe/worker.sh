#!/bin/sh
# A stand-in for a command-line coding agent, for the harness demo. It reads its brief on standard input, looks at
# the project a little, and reports. A brief that starts with "slow:" keeps it busy for a minute, so the demo can
# show a wait that times out and a kill.
brief=$(cat)
first=$(printf '%s\n' "$brief" | head -n 1)
case "$first" in
  slow:*) echo "working slowly on: $first"; sleep 60 ;;
esac
files=$(ls src 2>/dev/null | wc -l | tr -d ' ')
messages=$(printf '%s\n' "$brief" | grep -c '^--- Message')
printf '[%s worker %s, run %s] Looked at %s files in src/. Task: "%s".' "$VIBE_TIER" "$VIBE_WORKER_ID" "$VIBE_RUN" "$files" "$first"
if [ "$messages" -gt 0 ]; then
  printf ' Took %s message(s) from the lead into account: "%s".' "$messages" "$(printf '%s\n' "$brief" | tail -n 1)"
fi
echo
