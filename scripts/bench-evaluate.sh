#!/usr/bin/env bash
# How long `fetchpredict evaluate` takes, in a release build: the Xiaomi log's frontier (11 budget
# levels and the baselines), and a log five times as long (the same 35 days repeated, 175 days) to
# show that the cost grows with the log's length, not faster. The long log is made in a temporary
# folder from ../shared/datasets and removed after. Run from the package's root:
#   scripts/bench-evaluate.sh
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
PY
for name in "$log" "$work/long.csv"; do
  for run in 1 2 3; do
    /usr/bin/time -f "%e s wall, %U s user, %M KB  $(basename "$name")" "$bin" evaluate "$name" \
      --time-zone Europe/Warsaw 2>&1 >/dev/null | tail -1
  done
done
