#!/usr/bin/env bash
# Does a change leave every answer as it was? Builds this checkout and BASE (a commit, built in a
# worktree under $COMPARE_DIR), runs both on the same inputs in turn, and compares what they
# write byte for byte: `evaluate --json` on the five shared logs, `schedule --json` and `next
# --json` on the four personas, and the model cache each store keeps. Prints each output's sha256
# for BASE and for this checkout, and exits 1 if any differs (the first lines of the difference
# are shown). For refactors that must change nothing a user sees, such as the forecaster seam.
#
# Run from the package's root:  scripts/compare-outputs.sh BASE_COMMIT
#   (HEAD_BIN=... BASE_BIN=... to compare two fetchpredict binaries built already;
#    FORECAST_ARGS="--forecaster trees --planning chance" to compare another forecaster's answers;
#    LOGS="2023 lyon" to evaluate only those of the five logs: xiaomi samsung 2023 india lyon)
# Both are built without the package's Service trait (the CLI alone: the service's answers are
# not compared here). The real logs are read from ../shared/datasets, never copied.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/compare-outputs.sh BASE_COMMIT}
work=${COMPARE_DIR:-/tmp/fetchpredict-compare}
datasets=../shared/datasets
mkdir -p "$work"

# build FOLDER: the release fetchpredict of the checkout in FOLDER, without the service where the
# package has traits (commits before them build it whole).
build() {
  local flags=()
  grep -q "\.trait(" "$1/Package.swift" && flags=(--disable-default-traits)
  local log
  log=$(cd "$1" && swift build -c release --product fetchpredict "${flags[@]}" 2>&1) || { echo "$log" >&2; exit 1; }
  echo "$(cd "$1" && swift build -c release --show-bin-path)/fetchpredict"
}
tree="$work/base-$(git rev-parse --short "$base")"
[ -n "${BASE_BIN:-}" ] || [ -d "$tree" ] || git worktree add -f "$tree" "$base" >/dev/null
# HEAD_BIN and BASE_BIN name fetchpredict binaries built already (with or without the service:
# the command-line answers are the same), so that a release build made for a benchmark serves here.
head_bin=${HEAD_BIN:-$(build .)}
base_bin=${BASE_BIN:-$(build "$tree")}

# The forecaster and planning every answer is asked with (none: the defaults).
read -r -a forecast <<< "${FORECAST_ARGS:-}"
logs=${LOGS:-xiaomi samsung 2023 india lyon}

# log NAME: the file and the options of one of the five logs.
log() {
  case $1 in
    xiaomi) echo "$datasets/activitywatch-android-1/export.json --time-zone Europe/Warsaw" ;;
    samsung) echo "$datasets/activitywatch-android-2/export.json --time-zone Europe/Warsaw" ;;
    2023) echo "$datasets/app-usage-export-2023/Activity_history.csv --date-order dmy --time-zone UTC" ;;
    india) echo "$datasets/app-usage-export-2024-india/Activity.csv --date-order mdy --time-zone Asia/Kolkata" ;;
    lyon) echo "$datasets/app-usage-export-2019-lyon/AUM_V4_Activity_2019-12-10_22-19-45.csv --date-order mdy --time-zone Europe/Paris" ;;
    *) echo "unknown log '$1' (xiaomi samsung 2023 india lyon)" >&2; exit 2 ;;
  esac
}

# outputs BIN OUT: every compared output of BIN into folder OUT.
outputs() {
  local bin=$1 out=$2 name
  rm -rf "$out" && mkdir -p "$out"
  for name in $logs; do
    # shellcheck disable=SC2046  # the log's file and options are words
    "$bin" evaluate $(log "$name") ${forecast[@]+"${forecast[@]}"} --json > "$out/evaluate-$name.json"
  done
  for persona in commuter night-owl irregular shifting; do
    "$bin" generate --persona "$persona" --days 28 --seed 1 --time-zone Europe/Warsaw > "$out/$persona.csv"
    local db="$out/$persona.sqlite"
    "$bin" import "$out/$persona.csv" --db "$db" --device phone --time-zone Europe/Warsaw >/dev/null
    "$bin" config --default-interval minimum --db "$db" --device phone >/dev/null
    "$bin" schedule --db "$db" --device phone --now 2024-01-29T00:00:00+01:00 --hours 48 \
      ${forecast[@]+"${forecast[@]}"} --json > "$out/schedule-$persona.json"
    # A device with no wake exits otherwise: its status is part of the answer.
    "$bin" next --db "$db" --device phone --now 2024-01-29T09:00:00+01:00 \
      ${forecast[@]+"${forecast[@]}"} --json > "$out/next-$persona.json" \
      || echo "exit $?" >> "$out/next-$persona.json"
    # What the store cached of the model it learned, row by row.
    python3 - "$db" > "$out/model-cache-$persona.txt" <<'PY'
import hashlib, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for table, key in (("modelCache", "deviceId"), ("appModelCache", "deviceId, app")):
    for row in db.execute(f"SELECT * FROM {table} ORDER BY {key}"):
        print(table, *[hashlib.sha256(v).hexdigest() if isinstance(v, bytes) else v for v in row])
PY
    rm -f "$out/$persona.csv" "$db"*
  done
}
outputs "$base_bin" "$work/out-base"
outputs "$head_bin" "$work/out-head"

status=0
printf '%-28s %-16s %-16s\n' OUTPUT "BASE $(git rev-parse --short "$base")" "HEAD $(git rev-parse --short HEAD)"
for file in "$work/out-base"/*; do
  name=$(basename "$file")
  a=$(sha256sum < "$file" | cut -c1-16)
  b=$(sha256sum < "$work/out-head/$name" | cut -c1-16)
  if [ "$a" = "$b" ]; then mark=same; else mark=DIFFERENT; status=1; fi
  printf '%-28s %-16s %-16s %s\n' "$name" "$a" "$b" "$mark"
done
if [ $status -ne 0 ]; then
  for file in "$work/out-base"/*; do
    name=$(basename "$file")
    cmp -s "$file" "$work/out-head/$name" && continue
    echo "== $name"
    diff "$file" "$work/out-head/$name" | head -10 || true  # head closes the pipe early
  done
fi
exit $status
