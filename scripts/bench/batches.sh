#!/usr/bin/env bash
# Event batches a second at saturation through one `fetchpredict serve` on a store: wrk, 2 threads,
# 32 connections, 15 s (FP_SECONDS), batches of 10 launches of tenant bench's devices d0000... at today's present
# (scripts/bench/requests.lua with FP_NEXT_SHARE=0). For comparing builds on copies of one store,
# alternated, as docs/experiments.md did after scripts/bench-due.sh:
#   FP_KEY=KEY FP_DEVICES=20000 scripts/bench/batches.sh BINARY STORE.sqlite|postgres://... [serve options...]
# With FP_NEXT_SHARE=1, GET next-wake instead of batches (each at the present, as above); with
# FP_DELAY_MS=N, each connection pauses N ms between requests (below saturation).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$1 store=$2
shift 2
log=$(mktemp)
if [[ $store == postgres://* ]]; then where=(--postgres "$store"); else where=(--db "$store"); fi
"$bin" serve "${where[@]}" "$@" --listen 127.0.0.1:0 --cache-devices 20000 --log-level warning 2>"$log" &
pid=$!
# The server goes with the script, wrk failing or missing included.
trap 'kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT
port=$(scripts/bench/serve-port.sh "$log" 60)
share=${FP_NEXT_SHARE:-0}
out=$(FP_NEXT_SHARE=$share FP_DAY=$(date -u -d "today 00:00" +%s) FP_START=$(date +%s) FP_DELAY_MS=${FP_DELAY_MS:-0} \
  wrk -t2 -c32 -d"${FP_SECONDS:-15}s" --latency -s scripts/bench/requests.lua "http://127.0.0.1:$port")
what=$([ "$share" = 1 ] && echo "next-wakes" || echo "batches")
echo "$out" | awk -v what="$what" '/Requests\/sec/ {rate=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2}
  END {printf "%.0f %s/s, p50 %s, p99 %s\n", rate, what, p50, p99}'
