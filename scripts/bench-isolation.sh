#!/usr/bin/env bash
# What one tenant's cheap writes cost another's feed (issue 55), release build, loopback, the
# clients on the same 2-core machine (scripts/bench/isolation.py says what each case does):
#   feed:  tenant quiet has 45 devices of 28 synthetic days (scripts/bench/load-devices.py), due in
#          the next 12 hours; its feed is read and its batches sent back to back while tenant busy
#          is idle, sends PUT /v1/settings, or creates and erases devices, at full speed and 5/s.
#          Goals: 0 answers short of a due device; feed and batch p99 within max(50 ms, 3 x alone).
#   race:  (PostgreSQL) 30 erasures of a device while two clients send it batches: the events left
#          under a device the store no longer has (orphans). Goal: 0.
#   flood: (SQLite) under ulimit -n 1024, 2,000 idle connections held while a new client asks
#          /healthz and a next-wake, a connection each: answered, p50 and p99.
# STORE is sqlite or postgres (a throwaway cluster); FP_TOOL runs another build of fetchpredict.
# Run from the package's root:
#   scripts/bench-isolation.sh [STORE (sqlite)] [SECONDS (8)]
set -euo pipefail
cd "$(dirname "$0")/.."
store=${1:-sqlite}
seconds=${2:-8}
work=${BENCH_DIR:-/tmp/fetchpredict-bench-isolation}
tool=$(scripts/bench/tool.sh)
rm -rf "$work" && mkdir -p "$work"

if [ "$store" = postgres ]; then
  . scripts/bench/pg-cluster.sh
  start_pg_cluster "$work" isolation
  at=(--postgres "$pgurl")
else
  at=(--db "$work/serve.sqlite")
fi
quiet=$("$tool" keys create --tenant quiet "${at[@]}" | awk '{print $NF}')
busy=$("$tool" keys create --tenant busy "${at[@]}" | awk '{print $NF}')

server=""
start_server() {  # start_server [OPEN-FILES]: serve on a free port, wait until it is ready
  bash -c "ulimit -n ${1:-65536} 2>/dev/null || true; exec \"\$0\" \"\$@\"" "$tool" serve "${at[@]}" \
    --listen 127.0.0.1:0 --log-level warning 2>"$work/serve.log" &
  server=$!
  port=$(scripts/bench/serve-port.sh "$work/serve.log" 30)
}
stop_server() { kill -TERM "$server"; wait "$server" || true; }

start_server
python3 scripts/bench/load-devices.py --tool "$tool" --port "$port" --key "$quiet" --devices 45 >/dev/null
echo "== $store: tenant quiet's feed and batches while tenant busy writes, $seconds s a case"
status=0
python3 scripts/bench/isolation.py feed --port "$port" --quiet-key "$quiet" --busy-key "$busy" \
  --seconds "$seconds" || status=1

if [ "$store" = postgres ]; then
  python3 scripts/bench/isolation.py race --port "$port" --key "$busy" --rounds 30
  orphans=$(psql -qtA "$pgurl" -c \
    "SELECT count(*) FROM event e WHERE NOT EXISTS (SELECT 1 FROM device d WHERE d.id = e.device_id)")
  echo "race: $orphans events left under a device that is gone (goal 0)"
  [ "$orphans" = 0 ] || status=1
fi
stop_server

if [ "$store" = sqlite ]; then
  start_server 1024
  python3 scripts/bench/isolation.py flood --port "$port" --key "$quiet" --device d0000 --idle 2000 || status=1
  stop_server
fi
exit $status
