#!/usr/bin/env bash
# Import speed and peak memory of every format, in a release build, on the same launches (one
# every 30 seconds, 50 apps) written in each: csv, ActivityWatch bucket csv, dumpsys, App Usage
# with notification rows, knowledgeC.db. Run from the package's root:
#   scripts/bench-formats.sh [EVENTS]
set -euo pipefail
events=${1:-1000000}
work=${BENCH_DIR:-/tmp/fetchpredict-formats}
shared=$(cd "$(dirname "$0")/../../shared" && pwd)
mkdir -p "$work"
python3 "$shared/bench/make-launches.py" --events "$events" --seed 1 > "$work/launches.csv"
python3 scripts/make-format-logs.py "$events" "$work"
swift build -c release --product fetchpredict >/dev/null
bin="$(swift build -c release --show-bin-path)/fetchpredict"
for file in launches.csv bucket.csv usage.txt app-usage.csv knowledgeC.db; do
  for run in 1 2 3; do
    rm -f "$work"/fp.sqlite*
    /usr/bin/time -f "%e s wall, %M KB peak  $file ($(du -h "$work/$file" | cut -f1))" \
      "$bin" import "$work/$file" --db "$work/fp.sqlite" --time-zone UTC --date-order mdy 2>&1 >/dev/null | tail -1
  done
done
rm -f "$work"/fp.sqlite*
