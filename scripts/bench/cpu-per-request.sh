#!/usr/bin/env bash
# CPU per request of the service and of the PostgreSQL backends serving it, from /proc, for a store
# that scripts/bench-fleet.sh loaded (its devices bench/d0000... with zones, and tenant bench):
#   scripts/bench/cpu-per-request.sh DEVICES STORE-ARGUMENTS...
#   scripts/bench/cpu-per-request.sh 2000 --db /tmp/fetchpredict-bench-fleet/serve.sqlite
#   scripts/bench/cpu-per-request.sh 2000 --postgres postgres://postgres@127.0.0.1:PORT/fleet?sslmode=disable
# Starts a service on a new key, asks each of DEVICES devices once (the CPU of learning or of
# reading the model cache, per device), then next-wake at a fixed load (32 connections pausing
# 50 ms, 20 s): utime + stime of the service and of the backends of database 'fleet', per request.
# Linux only (/proc); run from the package's root after `swift build -c release`.
set -euo pipefail
cd "$(dirname "$0")/../.."
tool=.build/release/fetchpredict
devices=$1; shift
work=$(mktemp -d)
key=$("$tool" keys create --tenant bench "$@" | awk '{print $NF}')
"$tool" serve "$@" --listen 127.0.0.1:0 --cache-devices "$devices" --log-level warning 2>"$work/serve.log" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
port=
for _ in $(seq 100); do
  port=$(grep -o 'address=127.0.0.1:[0-9]*' "$work/serve.log" | head -1 | cut -d: -f2 || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "the service did not start: $(cat "$work/serve.log")" >&2; exit 1; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
backends() { local t=0; for p in $(pgrep -f "postgres: .* fleet " || true); do t=$((t + $(ticks "$p"))); done; echo $t; }
per() { echo "scale=3; $1 * 1000 / $(getconf CLK_TCK) / $2" | bc; }  # ticks, count: ms each
s0=$(ticks $pid); b0=$(backends)
python3 scripts/bench/prepare-devices.py --port "$port" --key "$key" --devices "$devices" >/dev/null
s1=$(ticks $pid); b1=$(backends)
echo "one next-wake per device (learning it, or reading it from the model cache): service $(per $((s1 - s0)) "$devices") ms, PostgreSQL $(per $((b1 - b0)) "$devices") ms of CPU per device"
export FP_KEY=$key FP_DEVICES=$devices FP_START=$(date +%s)
out=$(FP_DELAY_MS=50 wrk -t1 -c32 -d20s --latency -s scripts/bench/requests.lua "http://127.0.0.1:$port")
s2=$(ticks $pid); b2=$(backends)
n=$(echo "$out" | awk '/requests in/ {print $1}')
echo "next-wake, 32 connections pausing 50 ms: $n requests; service $(per $((s2 - s1)) "$n") ms, PostgreSQL $(per $((b2 - b1)) "$n") ms of CPU per request"
