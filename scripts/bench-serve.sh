#!/usr/bin/env bash
# The HTTP service under load, release build, loopback, wrk on the same 2-core machine:
#   1,000 devices with 28 days of synthetic history each, loaded through the API;
#   next-wake at saturation, then at half of it (p50 and p99); batches of 10 events at
#   saturation; a mix of 90% next-wake and 10% batches; the server's peak memory with the cache
#   holding every device, and again with --cache-devices 100; the library's own next-wake latency
#   on the same store (fetchpredict-bench --devices), for the HTTP layer's cost.
# Run from the package's root: scripts/bench-serve.sh [DEVICES] [SECONDS]
# BINS=DIR uses the release builds in DIR (another commit's, to compare in turn) and builds none;
# the library's part is left out when DIR has no fetchpredict-bench. SERVE_ARGS adds options to
# serve (such as --key-check-interval 0, to compare one build with and without its key cache).
set -euo pipefail
cd "$(dirname "$0")/.."
devices=${1:-1000}
seconds=${2:-15}
work=${BENCH_DIR:-/tmp/fetchpredict-bench-serve}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
if [ -n "${BINS:-}" ]; then
  bins=$BINS
else
  swift build -c release >/dev/null
  bins="$(swift build -c release --show-bin-path)"
fi
tool="$bins/fetchpredict"
mkdir -p "$work"
rm -f "$work"/serve.sqlite*
key=$("$tool" keys create --tenant bench --db "$work/serve.sqlite" | awk '{print $NF}')
# One present for every run, a minute a second from 2024-01-29T06:00:00Z (see requests.lua).
export FP_KEY=$key FP_DEVICES=$devices FP_START=$(date +%s)

server=""
start_server() {  # start_server CACHE: serve on a free port, wait until it is ready
  "$tool" serve --db "$work/serve.sqlite" --listen 127.0.0.1:0 --cache-devices "$1" --log-level warning ${SERVE_ARGS:-} \
    2>"$work/serve.log" &
  server=$!
  # The heap's high-water mark: RssAnon sampled, since VmHWM also counts the store's pages that
  # SQLite reads through mmap, which the kernel can drop at will.
  (while kill -0 "$server" 2>/dev/null; do awk '/RssAnon/ {print $2}' "/proc/$server/status" 2>/dev/null; sleep 0.2; done) \
    >"$work/rss.log" &
  port=$(scripts/bench/serve-port.sh "$work/serve.log")
}
stop_server() {
  kill -TERM "$server"
  wait "$server"
}
peak_memory() {
  local anon
  anon=$(sort -n "$work/rss.log" | tail -1)
  awk -v anon="$anon" '/VmHWM/ {printf "heap (RssAnon) at most %.0f MiB; VmHWM %.0f MiB with the mmapped store", anon / 1024, $2 / 1024}' \
    "/proc/$server/status"
}
rate() { awk '/Requests\/sec/ {printf "%.0f", $2}'; }
run_wrk() {  # run_wrk SCRIPT CONNECTIONS [DELAY_MS]: wrk's output
  FP_DELAY_MS=${3:-0} wrk -t2 -c"$2" -d"${seconds}s" --latency -s "scripts/bench/$1" "http://127.0.0.1:$port"
}
percentiles() { awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} END {printf "p50 %s, p99 %s", p50, p99}'; }

start_server "$devices"
echo "== loading $devices devices through POST /v1/devices/{device}/events"
python3 scripts/bench/load-devices.py --tool "$tool" --port "$port" --key "$key" --devices "$devices"
# Every model learned once, as a service that has run a while has them.
FP_DELAY_MS=0 wrk -t1 -c1 -d5s -s scripts/bench/requests.lua "http://127.0.0.1:$port" >/dev/null

echo "== next-wake at a random minute of the day, planned anew almost every time (32 connections)"
out=$(FP_CLOCK=random run_wrk requests.lua 32)
echo "  $(echo "$out" | rate) requests/s, $(echo "$out" | percentiles)"
echo "== next-wake at the present, at saturation (32 connections)"
out=$(run_wrk requests.lua 32)
saturation=$(echo "$out" | rate)
echo "  $saturation requests/s, $(echo "$out" | percentiles)"
# Half the saturating rate, offered by 16 connections that each pause between requests.
pause=$(python3 -c "print(max(1, round(16 * 1000 / ($saturation / 2))))")
echo "== next-wake at the present, at about half of it (16 connections, ${pause} ms between requests each)"
out=$(run_wrk requests.lua 16 "$pause")
echo "  $(echo "$out" | rate) requests/s offered and served, $(echo "$out" | percentiles)"
if [ "$saturation" -gt 2000 ]; then
  pause=$(python3 -c "print(round(16 * 1000 / 1000))")
  out=$(run_wrk requests.lua 16 "$pause")
  echo "== next-wake at about 1,000 requests/s: $(echo "$out" | rate) requests/s, $(echo "$out" | percentiles)"
fi
echo "== batches of 10 events at saturation (32 connections)"
out=$(FP_NEXT_SHARE=0 run_wrk requests.lua 32)
echo "  $(echo "$out" | rate) batches/s, $(echo "$out" | percentiles); $(echo "$out" | grep 'non-2xx')"
echo "== 90% next-wake, 10% batches, at saturation (32 connections)"
out=$(FP_NEXT_SHARE=0.9 run_wrk requests.lua 32)
echo "  $(echo "$out" | rate) requests/s, $(echo "$out" | percentiles); $(echo "$out" | grep 'non-2xx')"
echo "== peak memory with --cache-devices $devices: $(peak_memory)"
stop_server

start_server 100
FP_DELAY_MS=0 wrk -t2 -c16 -d"${seconds}s" -s scripts/bench/requests.lua "http://127.0.0.1:$port" >/dev/null
echo "== peak memory with --cache-devices 100 after next-wake over all $devices devices: $(peak_memory)"
stop_server

[ -x "$bins/fetchpredict-bench" ] || exit 0
echo "== the library alone, same store"
FP_MINUTE=$((360 + $(date +%s) - FP_START + 1)) "$bins/fetchpredict-bench" --devices bench "$devices" "$work/serve.sqlite"
FP_CLOCK=random "$bins/fetchpredict-bench" --devices bench "$devices" "$work/serve.sqlite"
