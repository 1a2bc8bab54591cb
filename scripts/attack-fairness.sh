#!/usr/bin/env bash
# Whether one client shuts others out (issue 74), measured against `serve` under a low limit of
# open files on loopback: new clients beside 1,000 kept-alive connections and beside 1,000
# trickling bodies from one address (goal: 95% answered within 3 s), a key in use beside a guesser
# at its address (goal: all served; and how long a key new to it waits), and 800 wrong keys at once (goal: at most the allowance looked
# up). The attackers come from 127.0.0.1, the others from other loopback addresses. Each runs
# twice: with the defaults, and with no cap per address (--max-connections-per-address 0), which
# leaves the eviction of idle and slow connections alone to answer. Exits non-zero when a goal is
# missed. Run from the package's root:
#   scripts/attack-fairness.sh [SECONDS-A-MEASUREMENT (30)] [OPEN-FILES (1024)]
# FP_TOOL=path runs another build of fetchpredict (default: a release build); KEEP=1 keeps the
# store and the services' logs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
files=${2:-1024}
work=$(mktemp -d /tmp/fetchpredict-fairness.XXXXXX)
server=
trap 'kill "$server" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
tool=$(scripts/bench/tool.sh)
key=$("$tool" keys create --tenant fairness --db "$work/s.sqlite" | awk '{print $NF}')
status=0
# run NAME [serve options...]: one service, every measurement against it.
run() {
  local name=$1 new_key
  shift
  # A key no request has used yet, made before the service starts.
  new_key=$("$tool" keys create --tenant fairness --db "$work/s.sqlite" | awk '{print $NF}')
  bash -c "ulimit -n $files && exec \"\$0\" \"\$@\"" "$tool" serve --db "$work/s.sqlite" --listen 127.0.0.1:0 \
    "$@" 2>"$work/serve-$name.log" &
  server=$!
  local port
  port=$(scripts/bench/serve-port.sh "$work/serve-$name.log")
  echo "== $name: serve under ulimit -n $files $*, port $port"
  python3 scripts/bench/fairness.py --port "$port" --key "$key" --new-key "$new_key" --limit 60 \
    --seconds "$seconds" || status=1
  kill "$server"
  wait "$server" 2>/dev/null || true
}
run defaults
run no-cap --max-connections-per-address 0
exit $status
