#!/usr/bin/env bash
# How long `fetchpredict evaluate` takes, in a release build: the Xiaomi log's frontier (11 budget
# levels and the baselines), and a log five times as long (the same 35 days repeated, 175 days) to
# show that the cost grows with the log's length, not faster. The long log is made in a temporary
# folder from ../shared/datasets and removed after. Run from the package's root:
#   scripts/bench-evaluate.sh [evaluate options]
set -euo pipefail
cd "$(dirname "$0")/.."
log=../shared/datasets/activitywatch-android-1/export.json
swift build -c release --product fetchpredict >/dev/null
bin="$(swift build -c release --show-bin-path)/fetchpredict"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" import "$log" --db "$work/x.sqlite" --device phone --time-zone Europe/Warsaw >/dev/null
python3 - "$work" <<'PY'
import sqlite3, sys
work = sys.argv[1]
rows = sqlite3.connect(f"{work}/x.sqlite").execute(
    "SELECT launch.time, app.name FROM launch JOIN app ON app.id = launch.appId ORDER BY launch.time").fetchall()
span = 35 * 86_400_000
with open(f"{work}/long.csv", "w") as out:
    out.write("timestamp,app,event\n")
    for copy in range(5):
        for time, app in rows:
            out.write(f"{(time + copy * span) / 1000:.3f},{app},launch\n")
print(f"long log: {5 * len(rows)} launches over {5 * 35} days", file=sys.stderr)
# The issue's yardstick: 168 days and 25,000 launches. The long log's first 168 days, thinned
# evenly (every launch kept whose running share stays under the target) to 25,000 launches.
kept = [(time + copy * span, app) for copy in range(5) for time, app in rows]
first = kept[0][0]
kept = [(time, app) for time, app in kept if time < first + 168 * 86_400_000]
step = 25_000 / len(kept)
with open(f"{work}/168-days.csv", "w") as out:
    out.write("timestamp,app,event\n")
    written = 0
    for index, (time, app) in enumerate(kept):
        if written < (index + 1) * step:
            out.write(f"{time / 1000:.3f},{app},launch\n")
            written += 1
print(f"168-day log: {written} launches", file=sys.stderr)
PY
for name in "$log" "$work/long.csv" "$work/168-days.csv"; do
  for run in 1 2 3; do
    /usr/bin/time -f "%e s wall, %U s user, %M KB  $(basename "$name")" "$bin" evaluate "$name" \
      --time-zone Europe/Warsaw "$@" 2>&1 >/dev/null | tail -1
  done
done
