#!/usr/bin/env bash
# What one tenant's heavy requests cost the others (issue 38), release build, loopback, wrk and
# the heavy client on the same 2-core machine:
#   tenant light: 20 devices of 28 synthetic days (scripts/bench/load-devices.py), asked for their
#     next wake by 4 connections at saturation (wrk, scripts/bench/requests.lua): p50 and p99;
#   tenant heavy: one device with 1,000,000 launches of 200 apps (../shared/bench/make-launches.py),
#     asked back to back for its next wake as of earlier instants, each of which learns its model
#     again from its events (1), or at the present with --cache-devices 20, so that the light
#     devices evict its model and every request learns it cold from the store's cache (2).
# Each scenario gives the light devices' p50 and p99 alone and during the heavy requests, and the
# heavy requests' count, statuses and times. The goal: p99 during at most max(50 ms, 3 x p99 alone).
# STORE is sqlite or postgres (a throwaway cluster, as in bench-fleet.sh); FP_TOOL runs another
# build of fetchpredict (an older commit's, to compare). Run from the package's root:
#   scripts/bench-fairness.sh [STORE (sqlite)] [SECONDS (10)]
set -euo pipefail
cd "$(dirname "$0")/.."
store=${1:-sqlite}
seconds=${2:-10}
work=${BENCH_DIR:-/tmp/fetchpredict-bench-fairness}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
tool=$(scripts/bench/tool.sh)
mkdir -p "$work"
launches=${BENCH_LAUNCHES:-/tmp/fetchpredict-bench/launches.csv}
[ -f "$launches" ] || { mkdir -p "$(dirname "$launches")"; python3 ../shared/bench/make-launches.py --events 1000000 --seed 1 >"$launches"; }
rm -rf "$work/pg" "$work"/*.sqlite* "$work/loaded"

if [ "$store" = postgres ]; then
  . scripts/bench/pg-cluster.sh
  start_pg_cluster "$work" fairness
  at=(--postgres "$pgurl")
else
  at=(--db "$work/serve.sqlite")
fi

echo "== $store: heavy/big with $(($(wc -l <"$launches") - 1)) launches; light: 20 devices of 28 days"
"$tool" import "$launches" "${at[@]}" --device heavy/big --time-zone UTC | tail -1
"$tool" config --default-interval minimum --device heavy/big "${at[@]}" >/dev/null
heavy=$("$tool" keys create --tenant heavy "${at[@]}" | awk '{print $NF}')
light=$("$tool" keys create --tenant light "${at[@]}" | awk '{print $NF}')

server=""
start_server() {  # start_server ARGUMENTS...: serve on a free port, wait until it is ready
  "$tool" serve "${at[@]}" --listen 127.0.0.1:0 --log-level warning "$@" 2>"$work/serve.log" &
  server=$!
  port=$(scripts/bench/serve-port.sh "$work/serve.log" 30)
}
stop_server() { kill -TERM "$server"; wait "$server" || true; }
percentiles() { awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} END {printf "p50 %s, p99 %s", p50, p99}'; }
light_load() {  # light_load SECONDS: wrk's output for the light devices' next wakes
  FP_KEY=$light FP_DEVICES=20 FP_START=$(date +%s) wrk -t2 -c4 -d"${1}s" --latency -s scripts/bench/requests.lua \
    "http://127.0.0.1:$port"
}
heavy_requests() {  # heavy_requests MODE: back to back until killed; one line per answer
  local i=0 now
  while true; do
    if [ "$1" = earlier ]; then
      now=$(date -u -d "2024-11-01 +$i hours" +%Y-%m-%dT%H:00:00Z)  # a new instant: learned again
    else
      now=2024-12-13T00:00:00Z  # the present, after the log's last event: from the cache
    fi
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H "Authorization: Bearer $heavy" \
      "http://127.0.0.1:$port/v1/devices/big/next-wake?now=$now" || true
    i=$((i + 1))
  done
}
scenario() {  # scenario NAME MODE SERVE-ARGUMENTS...
  local name=$1 mode=$2; shift 2
  start_server "$@"
  if [ ! -f "$work/loaded" ]; then
    python3 scripts/bench/load-devices.py --tool "$tool" --port "$port" --key "$light" --devices 20 >/dev/null
    touch "$work/loaded"
  fi
  # Every light model learned, and the big one learned and cached once, as after a while of use.
  light_load 3 >/dev/null
  curl -s -o /dev/null -H "Authorization: Bearer $heavy" "http://127.0.0.1:$port/v1/devices/big/next-wake?now=2024-12-13T00:00:00Z"
  echo "== $name"
  echo "  light alone: $(light_load "$seconds" | percentiles)"
  heavy_requests "$mode" >"$work/heavy.txt" &
  local loop=$!
  sleep 1
  echo "  light during: $(light_load "$seconds" | percentiles)"
  kill "$loop"; wait "$loop" 2>/dev/null || true
  awk '{n[$1]++; t[$1]+=$2; if ($2 > m[$1]) m[$1]=$2}
       END {printf "  heavy requests:"; for (s in n) printf " %d answered %s (mean %.2f s, max %.2f s);", n[s], s, t[s]/n[s], m[s]; print ""}' \
    "$work/heavy.txt"
  stop_server
}
scenario "heavy/big asked as of earlier instants: each request learns 1,000,000 events again" earlier
scenario "heavy/big asked at the present, evicted by the light devices (--cache-devices 20): learned cold from the cache" \
  present --cache-devices 20
