#!/usr/bin/env bash
# The service on PostgreSQL against the service on SQLite, in one run, release build, loopback,
# wrk on the same machine (first version: loads through the API; issue 26 asks for COPY and
# 10,000 devices next):
#   DEVICES synthetic devices with 28 days each, loaded through POST .../events into each store
#   (events/s); next-wake at saturation through one SQLite instance, one PostgreSQL instance and
#   two PostgreSQL instances on the same database (one wrk per instance, rates added), p50 and
#   p99; the database's size per million events.
# A throwaway PostgreSQL cluster is started (initdb, pg_ctl; as the postgres user when root) and
# removed at the end. Run from the package's root: scripts/bench-fleet.sh [DEVICES] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
devices=${1:-1000}
seconds=${2:-15}
work=${BENCH_DIR:-/tmp/fetchpredict-bench-fleet}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pgbin/initdb" ] || { echo "PostgreSQL is needed: apt-get install postgresql" >&2; exit 1; }
swift build -c release >/dev/null
bins="$(swift build -c release --show-bin-path)"
tool="$bins/fetchpredict"
rm -rf "$work" && mkdir -p "$work"

# The cluster: fsync on, as a database that acknowledges writes has it.
as_pg=(); [ "$(id -u)" = 0 ] && { chown postgres "$work"; as_pg=(runuser -u postgres --); }
pgport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"${as_pg[@]}" "$pgbin/initdb" -D "$work/pg" -A trust -U postgres -E UTF8 >/dev/null
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
  -o "-p $pgport -k $work -c listen_addresses=127.0.0.1 -c max_connections=100 -c shared_buffers=512MB" start >/dev/null
trap '"${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true' EXIT
psql -q "postgres://postgres@127.0.0.1:$pgport/postgres" -c "CREATE DATABASE fleet"
pgurl="postgres://postgres@127.0.0.1:$pgport/fleet?sslmode=disable"

export FP_DEVICES=$devices FP_START=$(date +%s)
servers=(); ports=()
start_server() {  # start_server NAME STORE-ARGUMENTS...: serve on a free port, wait until ready
  local name=$1; shift
  "$tool" serve "$@" --listen 127.0.0.1:0 --cache-devices "$devices" --log-level warning 2>"$work/$name.log" &
  servers+=($!)
  for _ in $(seq 100); do
    port=$(grep -o 'address=127.0.0.1:[0-9]*' "$work/$name.log" | head -1 | cut -d: -f2 || true)
    [ -n "$port" ] && { ports+=("$port"); return; }
    sleep 0.1
  done
  echo "the service did not start: $(cat "$work/$name.log")" >&2
  exit 1
}
stop_servers() {
  for pid in "${servers[@]}"; do kill -TERM "$pid"; wait "$pid" || true; done
  servers=(); ports=()
}
rate() { awk '/Requests\/sec/ {printf "%.0f", $2}'; }
percentiles() { awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} END {printf "p50 %s, p99 %s", p50, p99}'; }
load() {  # the devices through the first server; prints the loader's summary
  python3 scripts/bench/load-devices.py --tool "$tool" --port "${ports[0]}" --key "$FP_KEY" --devices "$devices"
}
warm() { for p in "${ports[@]}"; do FP_DELAY_MS=0 wrk -t1 -c1 -d5s -s scripts/bench/requests.lua "http://127.0.0.1:$p" >/dev/null; done; }

one_instance() {  # one_instance NAME STORE-ARGUMENTS...: a key, a server, the load, next-wake at saturation
  local name=$1; shift
  export FP_KEY=$("$tool" keys create --tenant bench "$@" | awk '{print $NF}')
  start_server "$name" "$@"
  echo "  load: $(load | tail -1)"
  warm
  out=$(FP_DELAY_MS=0 wrk -t2 -c32 -d"${seconds}s" --latency -s scripts/bench/requests.lua "http://127.0.0.1:${ports[0]}")
  echo "  next-wake at saturation (32 connections): $(echo "$out" | rate) requests/s, $(echo "$out" | percentiles)"
  stop_servers
}

echo "== SQLite, one instance"
one_instance sqlite --db "$work/serve.sqlite"
sqlite_bytes=$(du -cb "$work"/serve.sqlite* | tail -1 | cut -f1)

echo "== PostgreSQL, one instance"
one_instance pg1 --postgres "$pgurl"

echo "== PostgreSQL, two instances on the same database (one wrk each, 16 connections each)"
start_server pg2a --postgres "$pgurl"
start_server pg2b --postgres "$pgurl"
warm
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
pg_bytes=$(psql -tA "$pgurl" -c "SELECT pg_database_size('fleet')")
echo "== size: $events events; PostgreSQL $(python3 -c "print(round($pg_bytes / $events * 1e6 / 2**20))") MiB per million events, SQLite $(python3 -c "print(round($sqlite_bytes / $events * 1e6 / 2**20))") MiB"
