#!/usr/bin/env bash
# The fleet's feed (GET /v1/wakes, POST /v1/wakes/claim) on SQLite and PostgreSQL, release build,
# loopback, in one run:
#   DEVICES synthetic devices with 28 days each, whose histories end today (scripts/bench/fleet-csv.py),
#   imported and given a zone and `minimum` through the API; then the service's sweep learns and
#   plans every device from cold (how long that takes);
#   the feed of the next minute and of the next hour: p50 and p99 of a page and of a whole
#   answer, and its rows; the same devices found by asking each one's next-wake at the same now,
#   which must agree, and how much longer that takes;
#   event batches per second (wrk, batches of 10 launches only, 32 connections) against the
#   release build of BASE (default 903f9ae, the commit before the kept wakes) on a copy of the
#   same store, and with the sweep on and off;
#   4 workers claiming the next minute's wakes for 60 s: wakes handed out, none twice.
# Run from the package's root:
#   scripts/bench-due.sh [DEVICES (100000)] [SECONDS (15)] [BACKENDS ("sqlite postgres")]
# BASE_TOOL=path uses that binary as the base (else BASE is built in a worktree under /tmp); the
# base imports the fleet, and a build before f9b7dd0 imports a file of many devices in a time
# quadratic in them (hours at 10,000): give one with that commit's one-line mend applied;
# TOOL=path that binary as this version (else the release build of the working tree).
# REUSE=1 keeps BENCH_DIR from an earlier run of as many devices today: its fleet.csv, and its
# SQLite base store if there is one (imported and given its zones; an earlier run's batches in it).
# The service is started with --learns-per-tenant LEARNS (default: the cores): the fleet is one
# tenant, and the sweep learns within the tenant's limit.
set -euo pipefail
cd "$(dirname "$0")/.."
devices=${1:-100000}
seconds=${2:-15}
backends=${3:-sqlite postgres}
base_commit=${BASE:-903f9ae}
work=${BENCH_DIR:-/tmp/fetchpredict-bench-due}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
. scripts/bench/pg-cluster.sh
if [ -n "${TOOL:-}" ]; then
  tool=$TOOL
else
  swift build -c release --product fetchpredict >/dev/null 2>&1 || { swift build -c release; exit 1; }
  tool="$(swift build -c release --show-bin-path 2>/dev/null)/fetchpredict"
fi
base=${BASE_TOOL:-}
if [ -z "$base" ]; then
  tree=/tmp/fetchpredict-base-$base_commit
  [ -d "$tree" ] || git worktree add -f "$tree" "$base_commit" >/dev/null
  (cd "$tree" && swift build -c release --product fetchpredict >/dev/null)
  base="$(cd "$tree" && swift build -c release --show-bin-path)/fetchpredict"
fi
learns=${LEARNS:-$(nproc)}
reuse=${REUSE:-0}
[ "$reuse" = 1 ] || rm -rf "$work"
mkdir -p "$work"
rm -rf "$work/head.sqlite"* "$work/pg" "$work/pg.log"
[[ $backends == *postgres* ]] && start_pg_cluster "$work" base max_connections=100

servers=()
start_server() {  # start_server NAME BINARY ARGUMENTS...: serve on a free port; sets port
  local name=$1 binary=$2; shift 2
  "$binary" serve "$@" --learns-per-tenant "$learns" --listen 127.0.0.1:0 --cache-devices 20000 --log-level warning 2>"$work/$name.log" &
  servers+=($!)
  port=$(scripts/bench/serve-port.sh "$work/$name.log" 60)
}
stop_servers() {
  for pid in "${servers[@]}"; do kill -TERM "$pid"; wait "$pid" || true; done
  servers=()
}
batches() {  # batches NAME BINARY ARGUMENTS...: event batches a second at saturation
  start_server "$@"
  local out
  out=$(FP_NEXT_SHARE=0 FP_DAY=$day FP_START=$(date +%s) FP_DELAY_MS=0 \
    wrk -t2 -c32 -d"${seconds}s" --latency -s scripts/bench/requests.lua "http://127.0.0.1:$port")
  stop_servers
  echo "$out" | awk '/Requests\/sec/ {rate=$2} /^ +99%/ {p99=$2} END {printf "%.0f batches/s, p99 %s", rate, p99}'
}

day=$(date -u -d "today 00:00" +%s)
export FP_DEVICES=$devices
echo "== $devices devices, 28 days each, ending today"
if [ "$reuse" = 1 ] && [ -s "$work/fleet.csv" ]; then
  echo "  (the fleet of $(date -r "$work/fleet.csv" '+%F %R'))"
else
  python3 scripts/bench/fleet-csv.py --tool "$tool" --devices "$devices" --prefix bench/ \
    --start "$(date -u -d '-28 days' +%F)" >"$work/fleet.csv"
fi
echo "  $(($(wc -l <"$work/fleet.csv") - 1)) events"

for backend in $backends; do
  echo "== $backend"
  if [ "$backend" = sqlite ]; then
    base_store=(--db "$work/base.sqlite"); head_store=(--db "$work/head.sqlite")
  else
    base_store=(--postgres "$pgurl"); head_store=(--postgres "postgres://postgres@127.0.0.1:$pgport/head?sslmode=disable")
  fi
  # The base's store first: the version after it migrates a copy of it, which the base could not open.
  if [ "$backend" = sqlite ] && [ "$reuse" = 1 ] && [ -s "$work/base.sqlite" ]; then
    echo "  (the base store of $(date -r "$work/base.sqlite" '+%F %R'))"
    export FP_KEY=$("$base" keys create --tenant bench "${base_store[@]}" | awk '{print $NF}')
  else
    "$base" import "${base_store[@]}" "$work/fleet.csv" >/dev/null
    "$base" config --default-interval minimum "${base_store[@]}" >/dev/null
    export FP_KEY=$("$base" keys create --tenant bench "${base_store[@]}" | awk '{print $NF}')
    start_server base-prepare "$base" "${base_store[@]}"
    echo "  zones, through the base's API: $(python3 scripts/bench/prepare-devices.py --port "$port" \
      --key "$FP_KEY" --devices "$devices" --settings --no-learn)"
    stop_servers
  fi
  if [ "$backend" = sqlite ]; then
    cp "$work/base.sqlite" "$work/head.sqlite"
  else
    psql -q "postgres://postgres@127.0.0.1:$pgport/postgres" -c "CREATE DATABASE head TEMPLATE base"
  fi

  echo "  event batches, base $base_commit: $(batches base "$base" "${base_store[@]}")"
  echo "  event batches, this version, no sweep: $(batches head-nosweep "$tool" "${head_store[@]}" --sweep-per-second 0)"

  start_server head "$tool" "${head_store[@]}"
  echo "  the sweep, from cold: $(python3 scripts/bench/feed-bench.py planned --port "$port")"
  python3 scripts/bench/feed-bench.py feed --port "$port" --key "$FP_KEY" --minutes 1 | sed 's/^/  /'
  python3 scripts/bench/feed-bench.py feed --port "$port" --key "$FP_KEY" --minutes 60 --runs 20 | sed 's/^/  /'
  python3 scripts/bench/feed-bench.py compare --port "$port" --key "$FP_KEY" --devices "$devices" --minutes 60 |
    sed 's/^/  /'
  python3 scripts/bench/feed-bench.py claims --port "$port" --key "$FP_KEY" --workers 4 --seconds 60 | sed 's/^/  /'
  stop_servers
  echo "  event batches, this version, with the sweep: $(batches head-sweep "$tool" "${head_store[@]}")"
done
