#!/usr/bin/env bash
# The backtest figures of docs/evaluation.md: the real logs in ../shared/datasets and the synthetic
# personas with their content scenarios, each with the predictor's frontier, fresh@4 and wakes@50;
# then the five real logs evaluated together.
# Run from the package's root:  scripts/evaluate-all.sh [evaluate options, such as --forecaster profile]
# (FETCHPREDICT_BIN=path/to/fetchpredict evaluates that build instead of building this one)
set -euo pipefail
cd "$(dirname "$0")/.."
datasets=../shared/datasets
# FETCHPREDICT_BIN names another build to evaluate (a copy of an earlier commit's, to compare).
if [ -n "${FETCHPREDICT_BIN:-}" ]; then
  bin=$FETCHPREDICT_BIN
else
  swift build -c release --product fetchpredict >/dev/null
  bin="$(swift build -c release --show-bin-path)/fetchpredict"
fi
work=$(mktemp -d)
extra=("$@")
run() { echo; echo "== $1"; shift; /usr/bin/time -f "(%e s)" "$bin" evaluate "$@" "${extra[@]}"; }
run "ActivityWatch, Xiaomi phone, 35 days" "$datasets/activitywatch-android-1/export.json" --time-zone Europe/Warsaw
run "ActivityWatch, Samsung phone, 58 days" "$datasets/activitywatch-android-2/export.json" --time-zone Europe/Warsaw
run "App Usage export, 11 days (4 scored)" "$datasets/app-usage-export-2023/Activity_history.csv" --date-order dmy --time-zone UTC
run "App Usage export, India, 49 days" "$datasets/app-usage-export-2024-india/Activity.csv" --date-order mdy --time-zone Asia/Kolkata
run "App Usage export, Lyon, 31 days" "$datasets/app-usage-export-2019-lyon/AUM_V4_Activity_2019-12-10_22-19-45.csv" --date-order mdy --time-zone Europe/Paris
for persona in commuter night-owl; do
  "$bin" generate --persona "$persona" --days 28 --seed 1 --time-zone Europe/Warsaw > "$work/$persona.csv"
  run "persona $persona, 28 days, content scenario" "$work/$persona.csv" --time-zone Europe/Warsaw \
    --scenario "fixtures/scenarios/$persona.json"
  run "persona $persona, 28 days, content scenario, ignoring fetch results" "$work/$persona.csv" \
    --time-zone Europe/Warsaw --scenario "fixtures/scenarios/$persona.json" --ignore-fetch-results
done
for persona in irregular shifting; do
  "$bin" generate --persona "$persona" --days 28 --seed 1 --time-zone Europe/Warsaw > "$work/$persona.csv"
  run "persona $persona, 28 days" "$work/$persona.csv" --time-zone Europe/Warsaw
done
# The five real logs together, each device in its own zone: pooled figures, as the issue's panel
# of phones is read.
db="$work/pooled.sqlite"
"$bin" import "$datasets/activitywatch-android-1/export.json" --db "$db" --device xiaomi --time-zone Europe/Warsaw >/dev/null 2>&1
"$bin" import "$datasets/activitywatch-android-2/export.json" --db "$db" --device samsung --time-zone Europe/Warsaw >/dev/null 2>&1
"$bin" import "$datasets/app-usage-export-2023/Activity_history.csv" --db "$db" --device app-usage-2023 --date-order dmy --time-zone UTC >/dev/null 2>&1
"$bin" import "$datasets/app-usage-export-2024-india/Activity.csv" --db "$db" --device india --date-order mdy --time-zone Asia/Kolkata >/dev/null 2>&1
"$bin" import "$datasets/app-usage-export-2019-lyon/AUM_V4_Activity_2019-12-10_22-19-45.csv" --db "$db" --device lyon --date-order mdy --time-zone Europe/Paris >/dev/null 2>&1
echo; echo "== the five real logs together"
"$bin" evaluate --db "$db" "${extra[@]}" | sed -n "/^overall:/,\$p"
rm -rf "$work"
