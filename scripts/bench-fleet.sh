#!/usr/bin/env bash
# The service on PostgreSQL against the service on SQLite, in one run, release build, loopback,
# wrk on the same machine:
#   DEVICES synthetic devices with 28 days each, written as one CSV (scripts/bench/fleet-csv.py)
#   and loaded with `fetchpredict import`: by COPY into PostgreSQL, and into SQLite (events/s);
#   each device then given its zone and learned through the API (devices/s); next-wake at a fixed
#   offered load (32 connections, each pausing DELAY_MS between requests) and at saturation,
#   p50 and p99, through one SQLite instance, one PostgreSQL instance and two PostgreSQL
#   instances on the same database (one wrk per instance, rates added); the databases' sizes per
#   million events.
# A throwaway PostgreSQL cluster is started (initdb, pg_ctl; as the postgres user when root) and
# removed at the end. Run from the package's root:
#   scripts/bench-fleet.sh [DEVICES (10000)] [SECONDS (15)] [DELAY_MS (50)]
set -euo pipefail
cd "$(dirname "$0")/.."
devices=${1:-10000}
seconds=${2:-15}
delay=${3:-50}
work=${BENCH_DIR:-/tmp/fetchpredict-bench-fleet}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
. scripts/bench/pg-cluster.sh
require_pg
swift build -c release >/dev/null 2>&1 || { swift build -c release; exit 1; }
bins="$(swift build -c release --show-bin-path 2>/dev/null)"
tool="$bins/fetchpredict"
rm -rf "$work" && mkdir -p "$work"

# The cluster: fsync on, as a database that acknowledges writes has it; WAL room for a bulk load.
start_pg_cluster "$work" fleet max_connections=100

export FP_DEVICES=$devices FP_START=$(date +%s)
servers=(); ports=()
start_server() {  # start_server NAME STORE-ARGUMENTS...: serve on a free port, wait until ready
  local name=$1; shift
  "$tool" serve "$@" --listen 127.0.0.1:0 --cache-devices "$devices" --log-level warning 2>"$work/$name.log" &
  servers+=($!)
  port=$(scripts/bench/serve-port.sh "$work/$name.log")
  ports+=("$port")
}
stop_servers() {
  for pid in "${servers[@]}"; do kill -TERM "$pid"; wait "$pid" || true; done
  servers=(); ports=()
}
rate() { awk '/Requests\/sec/ {printf "%.0f", $2}'; }
percentiles() { awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} END {printf "p50 %s, p99 %s", p50, p99}'; }
prepare() {  # the devices' settings (with --settings) and one next-wake each, through the first server
  python3 scripts/bench/prepare-devices.py --port "${ports[0]}" --key "$FP_KEY" --devices "$devices" "$@"
}
seconds_of() { local t0=$(date +%s.%N); "$@" >"$work/last.out" 2>"$work/last.err"; echo "$(date +%s.%N) - $t0" | bc; }

one_instance() {  # one_instance NAME STORE-ARGUMENTS...: a server, the devices learned, next-wake at two loads
  local name=$1; shift
  start_server "$name" "$@"
  echo "  settings and learning: $(prepare --settings)"
  export FP_START=$(date +%s)
  out=$(FP_DELAY_MS=$delay wrk -t2 -c32 -d"${seconds}s" --latency -s scripts/bench/requests.lua "http://127.0.0.1:${ports[0]}")
  echo "  next-wake at a fixed load (32 connections, $delay ms pauses): $(echo "$out" | rate) requests/s, $(echo "$out" | percentiles)"
  out=$(FP_DELAY_MS=0 wrk -t2 -c32 -d"${seconds}s" --latency -s scripts/bench/requests.lua "http://127.0.0.1:${ports[0]}")
  echo "  next-wake at saturation (32 connections): $(echo "$out" | rate) requests/s, $(echo "$out" | percentiles)"
  stop_servers
}

echo "== $devices devices, 28 days each: one CSV"
python3 scripts/bench/fleet-csv.py --tool "$tool" --devices "$devices" --prefix bench/ >"$work/fleet.csv"
events=$(($(wc -l <"$work/fleet.csv") - 1))
echo "  $events events, $(du -m "$work/fleet.csv" | cut -f1) MB"

echo "== import"
t=$(seconds_of "$tool" import --postgres "$pgurl" "$work/fleet.csv")
tail -1 "$work/last.out" | grep -q "$events stored" || { cat "$work/last.out" "$work/last.err" >&2; exit 1; }
echo "  PostgreSQL by COPY: $t s, $(echo "$events / $t" | bc) events/s"
t=$(seconds_of "$tool" import --db "$work/serve.sqlite" "$work/fleet.csv")
tail -1 "$work/last.out" | grep -q "$events stored" || { cat "$work/last.out" "$work/last.err" >&2; exit 1; }
echo "  SQLite: $t s, $(echo "$events / $t" | bc) events/s"
sqlite_bytes=$(du -cb "$work"/serve.sqlite* | tail -1 | cut -f1)

echo "== SQLite, one instance"
export FP_KEY=$("$tool" keys create --tenant bench --db "$work/serve.sqlite" | awk '{print $NF}')
one_instance sqlite --db "$work/serve.sqlite"

echo "== PostgreSQL, one instance"
export FP_KEY=$("$tool" keys create --tenant bench --postgres "$pgurl" | awk '{print $NF}')
one_instance pg1 --postgres "$pgurl"

echo "== PostgreSQL, two instances on the same database (one wrk each, 16 connections each)"
start_server pg2a --postgres "$pgurl"
start_server pg2b --postgres "$pgurl"
for p in "${ports[@]}"; do
  echo "  instance :$p learning: $(python3 scripts/bench/prepare-devices.py --port "$p" --key "$FP_KEY" --devices "$devices")"
done
export FP_START=$(date +%s)
loads=()
for p in "${ports[@]}"; do
  FP_DELAY_MS=0 wrk -t1 -c16 -d"${seconds}s" --latency -s scripts/bench/requests.lua "http://127.0.0.1:$p" >"$work/wrk-$p.txt" &
  loads+=($!)
done
wait "${loads[@]}"
total=0
for p in "${ports[@]}"; do
  r=$(rate <"$work/wrk-$p.txt"); total=$((total + r))
  echo "  instance :$p: $r requests/s, $(percentiles <"$work/wrk-$p.txt")"
done
echo "  together: $total requests/s"
stop_servers

events=$(psql -tA "$pgurl" -c "SELECT count(*) FROM event")
event_bytes=$(psql -tA "$pgurl" -c "SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits WHERE inhparent = 'event'::regclass")
pg_bytes=$(psql -tA "$pgurl" -c "SELECT pg_database_size('fleet')")
per_million() { python3 -c "print(round($1 / $events * 1e6 / 2**20))"; }
echo "== size: $events events; PostgreSQL $(per_million "$event_bytes") MiB per million events in the event table (keys and partitions included), $(per_million "$pg_bytes") MiB with the whole database (learned models too); SQLite $(per_million "$sqlite_bytes") MiB after the import"
