#!/usr/bin/env bash
# Planning speed with 1,000,000 events of 200 apps stored (the import benchmark's file):
# learning, nextWake(after:) latency, a 24-hour schedule, and `fetchpredict next APP` as a whole
# process against `fetchpredict --version`. Run from the package's root:
#   scripts/bench-predictor.sh               this checkout
#   scripts/bench-predictor.sh BASE_COMMIT   this checkout and BASE_COMMIT (built in a worktree
#                                            under $BENCH_DIR), fetchpredict-bench of each in
#                                            turn, twice, each on a fresh copy of the same store
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/fetchpredict-bench}
base=${1:-}
mkdir -p "$work"
[ -f "$work/launches.csv" ] || python3 ../shared/bench/make-launches.py --events 1000000 --seed 1 > "$work/launches.csv"
swift build -c release >/dev/null
bins="$(swift build -c release --show-bin-path)"
rm -f "$work"/predict.sqlite* "$work"/pristine.sqlite*
importer=$bins/fetchpredict
if [ -n "$base" ]; then
  tree="$work/base-$base"
  [ -d "$tree" ] || git worktree add -f "$tree" "$base" >/dev/null
  (cd "$tree" && swift build -c release --product fetchpredict-bench >/dev/null \
    && swift build -c release --product fetchpredict >/dev/null)
  basebins="$(cd "$tree" && swift build -c release --show-bin-path)"
  # The base's schema, which this checkout migrates as it opens a copy: a store this checkout
  # made may have columns the base does not know, and the base refuses it.
  importer=$basebins/fetchpredict
fi
"$importer" import "$work/launches.csv" --db "$work/pristine.sqlite" --time-zone UTC
# fetchpredict-bench records launches into the store it is given: each run gets a fresh copy.
# The run before may leave its -wal and -shm: beside a fresh copy they would be read into it.
bench() {  # bench BIN-FOLDER
  rm -f "$work"/predict.sqlite*
  cp "$work/pristine.sqlite" "$work/predict.sqlite"
  "$1/fetchpredict-bench" "$work/predict.sqlite"
}
if [ -n "$base" ]; then
  for round in 1 2; do
    echo "== round $round: $base"
    bench "$basebins"
    echo "== round $round: this checkout ($(git rev-parse --short HEAD))"
    bench "$bins"
  done
  exit 0
fi
bench "$bins"
# `next` as a user runs it: every app fetching at the minimum interval, asked just after the last
# event (2024-12-12T19:04), so that the model the first run cached is read. A --now before the last
# event learns again on every run (no event after now is read), and the present day, two years
# after the log, finds every app in a quiet spell and times the empty schedule's hint instead.
# On a copy of the imported store: the one fetchpredict-bench ran on has launches after that time,
# and an answer as of a time before a stored event learns the device from scratch at every run.
rm -f "$work"/next.sqlite*
cp "$work/pristine.sqlite" "$work/next.sqlite"
"$bins/fetchpredict" config --default-interval minimum --db "$work/next.sqlite" >/dev/null
next=("$bins/fetchpredict" next com.example.app7 --db "$work/next.sqlite" --now 2024-12-13T00:00:00Z)
"${next[@]}"
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 3 --runs 30 -N "$bins/fetchpredict --version" "${next[*]}"
elif command -v farm-bench >/dev/null; then
  farm-bench -n 30 --vs "$bins/fetchpredict --version" -- "${next[@]}"
else
  echo "hyperfine is needed to time next as a process: apt-get install hyperfine" >&2
  exit 1
fi
