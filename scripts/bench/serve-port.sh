#!/usr/bin/env bash
# Waits until a `fetchpredict serve --listen 127.0.0.1:0` whose log goes to LOG is ready, and
# prints the port its ready line names; after SECONDS (default 10) it prints the log to standard
# error and fails. For the scripts that start a service: port=$(scripts/bench/serve-port.sh LOG)
#   scripts/bench/serve-port.sh LOG [SECONDS]
set -uo pipefail
log=$1
tenths=$((${2:-10} * 10))
for _ in $(seq "$tenths"); do
  port=$(grep -o 'address=127.0.0.1:[0-9]*' "$log" 2>/dev/null | head -1 | cut -d: -f2)
  [ -n "$port" ] && { echo "$port"; exit 0; }
  sleep 0.1
done
echo "the service did not start: $(cat "$log" 2>/dev/null)" >&2
exit 1
