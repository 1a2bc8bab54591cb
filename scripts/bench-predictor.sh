#!/usr/bin/env bash
# Planning speed with 1,000,000 events of 200 apps stored (the import benchmark's file):
# learning, nextWake(after:) latency, a 24-hour schedule, and `fetchpredict next APP` as a whole
# process against `fetchpredict --version`. Run from the package's root: scripts/bench-predictor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/fetchpredict-bench}
mkdir -p "$work"
[ -f "$work/launches.csv" ] || python3 ../shared/bench/make-launches.py --events 1000000 --seed 1 > "$work/launches.csv"
swift build -c release >/dev/null
bins="$(swift build -c release --show-bin-path)"
rm -f "$work"/predict.sqlite*
"$bins/fetchpredict" import "$work/launches.csv" --db "$work/predict.sqlite" --time-zone UTC
"$bins/fetchpredict-bench" "$work/predict.sqlite"
command -v hyperfine >/dev/null || { echo "hyperfine is needed: apt-get install hyperfine" >&2; exit 1; }
hyperfine --warmup 3 --runs 30 -N \
  "$bins/fetchpredict --version" \
  "$bins/fetchpredict next com.example.app7 --db $work/predict.sqlite --now 2024-12-12T00:00:00Z"
