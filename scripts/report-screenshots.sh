#!/usr/bin/env bash
# Renders the HTML report in a real browser (headless Chromium, installed when missing) and writes
# PNG screenshots, light and dark, of a fixture's report and of the shared ActivityWatch log's.
# Run from the package's root:  scripts/report-screenshots.sh [OUTPUT_FOLDER]
# (FETCHPREDICT_BIN=path/to/fetchpredict uses that build)
set -euo pipefail
out=${1:-/tmp/fetchpredict-screenshots}
mkdir -p "$out"
if ! command -v chromium >/dev/null; then
  apt-get install -y chromium >/dev/null || { echo "chromium is needed: apt-get install chromium" >&2; exit 1; }
fi
# FETCHPREDICT_BIN names a build to use instead of building this one.
if [ -n "${FETCHPREDICT_BIN:-}" ]; then
  bin=$FETCHPREDICT_BIN
else
  swift build --product fetchpredict >/dev/null
  bin="$(swift build --show-bin-path)/fetchpredict"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shoot() { # html, png, extra chromium flags
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,2400 "${@:3}" \
    --screenshot="$2" "file://$1" >/dev/null 2>&1
  echo "wrote $2"
}
"$bin" import fixtures/commuter-28d.csv --db "$work/fixture.sqlite" --device phone --time-zone Europe/Warsaw >/dev/null
"$bin" config --default-interval minimum --db "$work/fixture.sqlite" >/dev/null
"$bin" report --db "$work/fixture.sqlite" --device phone --now 2024-01-29T06:00:00Z --evaluate \
  --out "$work/fixture.html" 2>/dev/null
shoot "$work/fixture.html" "$out/report-fixture.png"
shoot "$work/fixture.html" "$out/report-fixture-dark.png" --force-dark-mode --blink-settings=preferredColorScheme=0
log=../shared/datasets/activitywatch-android-1/export.json
if [ -f "$log" ]; then
  "$bin" import "$log" --db "$work/real.sqlite" --device phone --time-zone Europe/Warsaw >/dev/null
  "$bin" config --default-interval minimum --db "$work/real.sqlite" >/dev/null
  "$bin" report --db "$work/real.sqlite" --device phone --now 2022-01-08T17:00:00Z --out "$work/real.html" 2>/dev/null
  shoot "$work/real.html" "$out/report-activitywatch.png"
fi
