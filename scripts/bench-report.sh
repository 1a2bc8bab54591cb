#!/usr/bin/env bash
# The size and time of a report of 200 apps, in a release build: 60 days of synthetic launches
# (and fetch results) of 200 apps, each with its own habits. Run from the package's root:
#   scripts/bench-report.sh
set -euo pipefail
work=${BENCH_DIR:-/tmp/fetchpredict-report}
mkdir -p "$work"
python3 - "$work/apps.csv" <<'PY'
import random, sys
from datetime import datetime, timedelta, timezone
random.seed(1)
start = datetime(2024, 1, 1, tzinfo=timezone.utc)
with open(sys.argv[1], "w") as out:
    out.write("timestamp,app,event,result\n")
    for app in range(200):
        habits = [random.uniform(6 * 60, 23 * 60) for _ in range(random.randint(1, 4))]
        for day in range(60):
            for habit in habits:
                if random.random() < 0.8:
                    moment = start + timedelta(days=day, minutes=random.gauss(habit, 10))
                    out.write(f"{moment:%Y-%m-%dT%H:%M:%S}Z,com.example.app{app},launch,\n")
                    fetch = moment - timedelta(minutes=random.uniform(2, 20))
                    result = random.choice(["newData", "noData", "failed"])
                    out.write(f"{fetch:%Y-%m-%dT%H:%M:%S}Z,com.example.app{app},fetch,{result}\n")
PY
swift build -c release --product fetchpredict >/dev/null
bin="$(swift build -c release --show-bin-path)/fetchpredict"
rm -f "$work"/r.sqlite*
"$bin" import "$work/apps.csv" --db "$work/r.sqlite" --time-zone UTC >/dev/null
"$bin" config --default-interval minimum --db "$work/r.sqlite" >/dev/null
"$bin" report --db "$work/r.sqlite" --now 2024-03-01T06:00:00Z --out "$work/warm.html" 2>/dev/null
for run in 1 2 3 4 5; do
  /usr/bin/time -f "%e s wall, %M KB peak" "$bin" report --db "$work/r.sqlite" --now 2024-03-01T06:00:00Z \
    --out "$work/report.html" 2>&1 | tail -1
done
echo "size: $(stat -c %s "$work/report.html") bytes, $(grep -o 'data-chart="profile"' "$work/report.html" | wc -l) apps"
