#!/usr/bin/env bash
# Import speed against SQLite's own shell, as ../shared/bench/README.md describes, and the peak
# memory of an import. Run from the package's root:  scripts/bench-import.sh [EVENTS]
set -euo pipefail
events=${1:-1000000}
work=${BENCH_DIR:-/tmp/fetchpredict-bench}
shared=$(cd "$(dirname "$0")/../../shared" && pwd)
mkdir -p "$work"
python3 "$shared/bench/make-launches.py" --events "$events" --seed 1 > "$work/launches.csv"
cp "$shared/bench/sqlite-import-reference.sql" "$work/"
swift build -c release >/dev/null
bin="$(swift build -c release --show-bin-path)/fetchpredict"
command -v hyperfine >/dev/null || { echo "hyperfine is needed: apt-get install hyperfine" >&2; exit 1; }
hyperfine --warmup 1 --runs 5 \
  --prepare "rm -f $work/reference.sqlite* $work/fp.sqlite*" \
  "cd $work && sqlite3 reference.sqlite < sqlite-import-reference.sql" \
  "$bin import $work/launches.csv --db $work/fp.sqlite"
rm -f "$work"/fp.sqlite*
/usr/bin/time -f "peak memory of the import: %M KB" "$bin" import "$work/launches.csv" --db "$work/fp.sqlite" >/dev/null
