#!/usr/bin/env bash
# The heavy robustness checks, beside the quick ones in the test suite:
#  1. an import of 1,000,000 events killed with SIGKILL at KILLS random moments: each time
#     PRAGMA integrity_check says ok and the store holds exactly what committed imports stored;
#     the import run again completes it;
#  2. 8 processes recording 1,000 launches each at once, while an import runs and schedules are
#     queried: every event stored exactly once, no "database is locked" reaching a user;
#  3. a file of GIB gibibytes imported with bounded memory.
#   scripts/robustness.sh [KILLS] [GIB]          (default: 25 kills, 1 GiB)
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-25}
gib=${2:-1}
work=${BENCH_DIR:-/tmp/fetchpredict-robustness}
mkdir -p "$work"
swift build -c release --product fetchpredict >/dev/null
bin="$(swift build -c release --show-bin-path)/fetchpredict"
[ -f "$work/launches.csv" ] || python3 ../shared/bench/make-launches.py --events 1000000 --seed 1 > "$work/launches.csv"
count() { sqlite3 "$1" "SELECT count(*) FROM launch"; }

echo "== 1. $kills killed imports"
db="$work/killed.sqlite"; rm -f "$db"*
"$bin" import fixtures/commuter-28d.csv --db "$db" --time-zone UTC >/dev/null
committed=$(count "$db")
for i in $(seq 1 "$kills"); do
  "$bin" import "$work/launches.csv" --db "$db" --time-zone UTC >/dev/null 2>&1 &
  pid=$!
  sleep "$(python3 -c "import random; print(round(random.uniform(0.1, 3.5), 2))")"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  integrity=$(sqlite3 "$db" "PRAGMA integrity_check")
  now=$(count "$db")
  if [ "$integrity" != ok ] || { [ "$now" != "$committed" ] && [ "$now" != $((committed + 1000000)) ]; }; then
    echo "kill $i: integrity $integrity, $now launches (committed: $committed)"; exit 1
  fi
  committed=$now
done
"$bin" import "$work/launches.csv" --db "$db" --time-zone UTC >/dev/null
[ "$(count "$db")" = $((committed + 1000000)) ] || [ "$(count "$db")" = "$committed" ] || { echo "final import incomplete"; exit 1; }
echo "ok: $kills kills, integrity ok each time, the store held only committed imports; the import run again completed it ($(count "$db") launches)"

echo "== 2. 8 writers x 1000 events, with an import and schedule queries"
db="$work/concurrent.sqlite"; rm -f "$db"*
"$bin" config --default-interval minimum --time-zone UTC --db "$db" >/dev/null
"$bin" config --time-zone UTC --db "$db" --device phone >/dev/null
"$bin" import "$work/launches.csv" --db "$db" --device bulk --time-zone UTC >/dev/null 2>"$work/import.err" &
import=$!
( for i in $(seq 1 40); do "$bin" schedule --db "$db" --now 2024-06-01T00:00:00Z >/dev/null 2>>"$work/schedule.err" || echo fail >> "$work/schedule.err"; done ) &
queries=$!
seq 0 7999 | xargs -P 8 -I{} sh -c "\"$bin\" record launch writer\$(({} % 8)) --at \$((1704067200 + {} * 60)) --db \"$db\" --device phone >/dev/null 2>>\"$work/record.err\" || echo failed {} >> \"$work/record.err\""
wait "$import" "$queries"
stored=$(sqlite3 "$db" "SELECT count(*) FROM launch JOIN app ON app.id = launch.appId JOIN device ON device.id = app.deviceId WHERE device.name = 'phone'")
errors=$(cat "$work/record.err" "$work/schedule.err" "$work/import.err" 2>/dev/null | wc -l)
locked=$(cat "$work/record.err" "$work/schedule.err" "$work/import.err" 2>/dev/null | grep -ci locked || true)
echo "stored $stored of 8000 recorded launches; $errors error lines, $locked mentioning a lock"
[ "$stored" = 8000 ] && [ "$errors" = 0 ] || exit 1
rm -f "$work"/*.err

echo "== 3. a ${gib} GiB file"
big="$work/big.csv"
if [ ! -f "$big" ]; then
  python3 - "$big" "$gib" <<'PY'
import sys
path, gib = sys.argv[1], float(sys.argv[2])
target = int(gib * (1 << 30))
with open(path, "w") as out:
    out.write("timestamp,app,event\n")
    t, written, i = 1704067200, 0, 0
    while written < target:
        line = f"{t + i},com.example.app{i % 500},launch\n"
        out.write(line)
        written += len(line)
        i += 1
PY
fi
db="$work/big.sqlite"; rm -f "$db"*
ls -la "$big"
/usr/bin/time -f "imported in %e s, peak memory %M KB" "$bin" import "$big" --db "$db" --time-zone UTC
