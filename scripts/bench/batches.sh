#!/usr/bin/env bash
# Event batches a second at saturation through one `fetchpredict serve` on a store: wrk, 2 threads,
# 32 connections, 15 s, batches of 10 launches of tenant bench's devices d0000... at today's present
# (scripts/bench/requests.lua with FP_NEXT_SHARE=0). For comparing builds on copies of one store,
# alternated, as docs/experiments.md did after scripts/bench-due.sh:
#   FP_KEY=KEY FP_DEVICES=20000 scripts/bench/batches.sh BINARY STORE.sqlite|postgres://... [serve options...]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$1 store=$2
shift 2
log=$(mktemp)
if [[ $store == postgres://* ]]; then where=(--postgres "$store"); else where=(--db "$store"); fi
"$bin" serve "${where[@]}" "$@" --listen 127.0.0.1:0 --cache-devices 20000 --log-level warning 2>"$log" &
pid=$!
port=$(scripts/bench/serve-port.sh "$log" 60)
out=$(FP_NEXT_SHARE=0 FP_DAY=$(date -u -d "today 00:00" +%s) FP_START=$(date +%s) FP_DELAY_MS=0 \
  wrk -t2 -c32 -d15s --latency -s scripts/bench/requests.lua "http://127.0.0.1:$port")
kill -TERM "$pid"
wait "$pid" || true
echo "$out" | awk '/Requests\/sec/ {rate=$2} /^ +99%/ {p99=$2} END {printf "%.0f batches/s, p99 %s\n", rate, p99}'
