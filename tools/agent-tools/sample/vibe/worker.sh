#!/bin/sh
# A stand-in for a command-line coding agent, for the harness demo. It reads its brief on standard input, looks at
# the project a little, and reports. A brief that starts with "slow:" keeps it busy for a minute, so the demo can
# show a wait that times out and a kill. A brief that starts with "write NAME" writes that file, unless the agent
# runs in its read-only mode: started with --read-only (the harness's AGENT_TOOLS_VIBE_READONLY_COMMAND), or on a
# surface whose tiers (AGENT_TOOLS_TIERS) do not include write.
read_only=no
[ "$1" = "--read-only" ] && read_only=yes
case ",${AGENT_TOOLS_TIERS:-read,write,exec}," in
  *,write,*) ;;
  *) read_only=yes ;;
esac
brief=$(cat)
first=$(printf '%s\n' "$brief" | head -n 1)
case "$first" in
  slow:*) echo "working slowly on: $first"; sleep 60 ;;
  write\ *)
    target=$(printf '%s\n' "$first" | cut -d' ' -f2)
    if [ "$read_only" = yes ]; then
      echo "Read-only mode (surface ${AGENT_TOOLS_SURFACE:-?}): did not write $target."
    else
      printf 'Written by worker %s.\n' "$VIBE_WORKER_ID" > "$target"
      echo "Wrote $target."
    fi
    ;;
esac
files=$(ls src 2>/dev/null | wc -l | tr -d ' ')
messages=$(printf '%s\n' "$brief" | grep -c '^--- Message')
printf '[%s worker %s, run %s] Looked at %s files in src/. Task: "%s".' "$VIBE_TIER" "$VIBE_WORKER_ID" "$VIBE_RUN" "$files" "$first"
if [ "$messages" -gt 0 ]; then
  printf ' Took %s message(s) from the lead into account: "%s".' "$messages" "$(printf '%s\n' "$brief" | tail -n 1)"
fi
echo
