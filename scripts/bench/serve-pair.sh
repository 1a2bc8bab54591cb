#!/usr/bin/env bash
# Two builds of the service served at once, each on its own copy of one store, with a wrk on each
# at the same time, so that both meet the same machine (another tenant's load, the CPU's clock);
# per round the second build's next-wake rate over the first's, and its CPU per request (the
# service's utime + stime from /proc) over the first's, the order the two wrk start in alternating
# by round. For a figure "no slower than N%" on a machine whose rate drifts between
# runs more than N. Run an A/A pair (one binary twice) beside it for the method's own spread.
#   scripts/bench/serve-pair.sh BASE_BIN HEAD_BIN STORE DEVICES [ROUNDS (10)] [SECONDS (8)]
# STORE is one scripts/bench-serve.sh loaded (BENCH_DIR/serve.sqlite: tenant bench, devices
# d0000...). START_BACK=S starts the present S seconds later in the day than 06:00.
# BASE_ARGS and HEAD_ARGS add options to each side's serve (one binary twice, with and without a
# pass: BASE_ARGS="--freshness-per-second 0"); FP_NEXT_SHARE=0 sends event batches instead of
# next-wakes (scripts/bench/requests.lua); PREPARE=0 leaves the devices as the store has them.
set -euo pipefail
cd "$(dirname "$0")/../.."
base_bin=$1 head_bin=$2 store=$3 devices=$4 rounds=${5:-10} seconds=${6:-8}
work=$(mktemp -d)
declare -A pid port key
trap 'kill -TERM ${pid[base]:-} ${pid[head]:-} 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for name in base head; do
  mkdir -p "$work/$name"
  sqlite3 "$store" ".backup '$work/$name/s.sqlite'"
  bin=$base_bin; [ $name = head ] && bin=$head_bin
  key[$name]=$("$bin" keys create --tenant bench --db "$work/$name/s.sqlite" | awk '{print $NF}')
  extra=${BASE_ARGS:-}; [ $name = head ] && extra=${HEAD_ARGS:-}
  # shellcheck disable=SC2086 # the options are words
  "$bin" serve --db "$work/$name/s.sqlite" --listen 127.0.0.1:0 --cache-devices "$devices" --log-level warning \
    $extra 2>"$work/$name/serve.log" &
  pid[$name]=$!
  port[$name]=$(scripts/bench/serve-port.sh "$work/$name/serve.log")
  if [ "${PREPARE:-1}" != 0 ]; then
    python3 scripts/bench/prepare-devices.py --port "${port[$name]}" --key "${key[$name]}" --devices "$devices" >/dev/null
  fi
done
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
start=$(($(date +%s) - ${START_BACK:-0}))
for r in $(seq "$rounds"); do
  order="base head"; [ $((r % 2)) -eq 0 ] && order="head base"
  waiting=()
  declare -A before
  for name in base head; do before[$name]=$(ticks "${pid[$name]}"); done
  for name in $order; do
    FP_KEY=${key[$name]} FP_DEVICES=$devices FP_START=$start FP_DELAY_MS=0 \
      wrk -t1 -c16 -d"${seconds}s" -s scripts/bench/requests.lua "http://127.0.0.1:${port[$name]}" >"$work/$name/wrk.txt" &
    waiting+=($!)
  done
  wait "${waiting[@]}"
  declare -A rate cpu
  for name in base head; do
    rate[$name]=$(awk '/Requests\/sec/ {print $2}' "$work/$name/wrk.txt")
    n=$(awk '/requests in/ {print $1}' "$work/$name/wrk.txt")
    cpu[$name]=$(echo "scale=4; ($(ticks "${pid[$name]}") - ${before[$name]}) * 1000 / $(getconf CLK_TCK) / $n" | bc)
  done
  echo "round $r ($order first): rate base ${rate[base]} head ${rate[head]} ratio" \
    "$(echo "scale=3; ${rate[head]} / ${rate[base]}" | bc); CPU ms per request base ${cpu[base]} head ${cpu[head]}" \
    "ratio $(echo "scale=3; ${cpu[head]} / ${cpu[base]}" | bc)"
done
