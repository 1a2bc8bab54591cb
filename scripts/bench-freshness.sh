#!/usr/bin/env bash
# Freshness on live traffic (issue 60), release build:
#   agree: each of the five shared logs and the four personas imported as a device of tenant
#     bench, `evaluate --wakes-out` at the default budget, those wakes sent through the service as
#     the device's fetch results; GET /v1/freshness?device=...&scope=protocol and
#     `fetchpredict freshness --scope protocol` must give evaluate's counts, every one.
#   cost: DEVICES synthetic devices of DAYS days ending today (scripts/bench/fleet-csv.py, tenant
#     bench), imported into SQLite; the freshness pass keeping them all (devices a second); GET
#     /v1/freshness of the tenant for a day and for the whole period, p50 and p99; then event
#     batches a second at saturation (scripts/bench/batches.sh) with the pass on (the defaults,
#     --freshness-per-second 500 and --freshness-share 0.05) and off (0), alternated, on the same
#     store. The pass keeps the fleet first with no share (--freshness-share 1): its own speed.
# Run from the package's root:
#   scripts/bench-freshness.sh [agree|cost|all (all)] [DEVICES (100000)] [DAYS (2)]
# FETCHPREDICT_BIN names another build; BENCH_DIR the folder (default /tmp/fetchpredict-bench-freshness).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
devices=${2:-100000}
days=${3:-2}
work=${BENCH_DIR:-/tmp/fetchpredict-bench-freshness}
datasets=../shared/datasets
if [ -n "${FETCHPREDICT_BIN:-}" ]; then
  tool=$FETCHPREDICT_BIN
else
  swift build -c release --product fetchpredict >/dev/null 2>&1 || { swift build -c release --product fetchpredict; exit 1; }
  tool="$(swift build -c release --show-bin-path)/fetchpredict"
fi
rm -rf "$work" && mkdir -p "$work"
pid=
serve() {  # serve STORE NAME [OPTIONS...]: serve the store on a free port; sets port and pid
  local store=$1 name=$2; shift 2
  "$tool" serve --db "$store" "$@" --listen 127.0.0.1:0 --log-level warning 2>"$work/$name.log" &
  pid=$!
  port=$(scripts/bench/serve-port.sh "$work/$name.log" 60)
}
stop() { kill -TERM "$pid"; wait "$pid" || true; pid=; }
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null' EXIT

if [ "$what" = agree ] || [ "$what" = all ]; then
  echo "== agreement: evaluate's wakes sent as fetch results, scored by freshness"
  logs=(
    "xiaomi|$datasets/activitywatch-android-1/export.json|Europe/Warsaw|"
    "samsung|$datasets/activitywatch-android-2/export.json|Europe/Warsaw|"
    "app-usage-2023|$datasets/app-usage-export-2023/Activity_history.csv|UTC|dmy"
    "india|$datasets/app-usage-export-2024-india/Activity.csv|Asia/Kolkata|mdy"
    "lyon|$datasets/app-usage-export-2019-lyon/AUM_V4_Activity_2019-12-10_22-19-45.csv|Europe/Paris|mdy"
  )
  for persona in commuter night-owl irregular shifting; do
    # No fetch of its own: the wakes evaluate plans are the device's only fetches.
    "$tool" generate --persona "$persona" --days 28 --seed 1 --time-zone Europe/Warsaw --fetch-period 0 \
      >"$work/$persona.csv"
    logs+=("$persona|$work/$persona.csv|Europe/Warsaw|")
  done
  for entry in "${logs[@]}"; do
    IFS='|' read -r name file zone order <<<"$entry"
    store="$work/$name.sqlite"
    "$tool" import "$file" --db "$store" --device "bench/$name" --time-zone "$zone" \
      ${order:+--date-order "$order"} >/dev/null 2>&1
    "$tool" evaluate --db "$store" --device "bench/$name" --wakes-out "$work/$name-wakes.csv" --json \
      >"$work/$name-evaluate.json" 2>/dev/null
    key=$("$tool" keys create --tenant bench --db "$store" | awk '{print $NF}')
    serve "$store" "agree-$name" --sweep-per-second 0
    python3 scripts/bench/freshness-bench.py post --port "$port" --key "$key" --device "$name" \
      --wakes "$work/$name-wakes.csv" >/dev/null
    # (awk, not sort | head: head's early exit would fail the pipe under pipefail)
    first=$(awk -F, 'NR > 1 { day = substr($3, 1, 10); if (min == "" || day < min) min = day } END { print min }' \
      "$work/$name-wakes.csv")
    last=$(awk -F, 'NR > 1 { day = substr($3, 1, 10); if (day > max) max = day } END { print max }' \
      "$work/$name-wakes.csv")
    from=$(date -u -d "$first -10 days" +%F) to=$(date -u -d "$last +3 days" +%F)
    python3 scripts/bench/freshness-bench.py agree --port "$port" --key "$key" --device "$name" \
      --from "$from" --to "$to" --evaluate "$work/$name-evaluate.json"
    stop
    # The command line reads the same store as evaluate scores it.
    "$tool" freshness --db "$store" --device "bench/$name" --scope protocol --json >"$work/$name-freshness.json"
    python3 - "$work/$name-freshness.json" "$work/$name-evaluate.json" <<'PY'
import json, sys
ours, theirs = json.load(open(sys.argv[1]))["observed"], json.load(open(sys.argv[2]))["reported"]
pairs = [("coldLaunches", "coldLaunches"), ("freshColdLaunches", "freshLaunches"), ("fetches", "fetches"),
         ("deviceWakes", "deviceWakes"), ("wasted", "wasted"), ("medianContentAgeMinutes", "medianContentAgeMinutes")]
wrong = [(a, ours[a], theirs[b]) for a, b in pairs if ours[a] != theirs[b]]
print("  fetchpredict freshness --scope protocol: " + ("equal" if not wrong else f"DIFFER {wrong}"))
sys.exit(1 if wrong else 0)
PY
  done
fi

if [ "$what" = cost ] || [ "$what" = all ]; then
  echo "== cost: $devices devices of $days days ending today, SQLite"
  start=$(date -u -d "-$((days - 1)) days" +%F)
  python3 scripts/bench/fleet-csv.py --tool "$tool" --devices "$devices" --days "$days" --prefix bench/ \
    --start "$start" >"$work/fleet.csv"
  store="$work/fleet.sqlite"
  /usr/bin/time -o "$work/import.time" -f "  imported $(($(wc -l <"$work/fleet.csv") - 1)) events in %e s" \
    "$tool" import "$work/fleet.csv" --db "$store" >/dev/null 2>&1
  cat "$work/import.time"
  # Every device in Warsaw at once (the fleet's file names none; config would take a process a
  # device): the store's own trigger marks each device's whole history to keep, as a new zone does.
  sqlite3 "$store" "UPDATE device SET timeZone = 'Europe/Warsaw' WHERE timeZone IS NULL"
  key=$("$tool" keys create --tenant bench --db "$store" | awk '{print $NF}')
  today=$(date -u +%F) tomorrow=$(date -u -d "+1 day" +%F) yesterday=$(date -u -d "-1 day" +%F)
  serve "$store" cost --sweep-per-second 0 --freshness-per-second 5000 --freshness-share 1
  printf "  the pass: "
  python3 scripts/bench/freshness-bench.py kept --port "$port" --key "$key" --from "$start" --to "$tomorrow"
  printf "  a day: "
  python3 scripts/bench/freshness-bench.py latency --port "$port" --key "$key" --from "$yesterday" --to "$today"
  printf "  the period: "
  python3 scripts/bench/freshness-bench.py latency --port "$port" --key "$key" --from "$start" --to "$tomorrow"
  printf "  one app, the period: "
  python3 scripts/bench/freshness-bench.py latency --port "$port" --key "$key" --from "$start" --to "$tomorrow" \
    --app com.example.mail
  stop
  echo "  event batches at saturation, the pass on (500 a second) and off, alternated:"
  for round in 1 2; do
    for pass in 500 0; do
      printf "    round %s, --freshness-per-second %s: " "$round" "$pass"
      FP_KEY=$key FP_DEVICES=$devices scripts/bench/batches.sh "$tool" "$store" --sweep-per-second 0 \
        --freshness-per-second "$pass"
    done
  done
fi
