#!/usr/bin/env bash
# The synthetic personas over six seeds each (28 days; the commuter and the night-owl with their
# content scenarios): fresh@4 and wakes@50 of every seed and their means. One seed's log holds only
# 50 to 150 scored cold launches, so a change of a few hundredths on one seed can be chance; read
# a change against the means. Run from the package's root:
#   scripts/evaluate-personas.sh [evaluate options, such as --forecaster profile]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product fetchpredict >/dev/null
bin="$(swift build -c release --show-bin-path)/fetchpredict"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for persona in commuter night-owl irregular shifting; do
  scenario=()
  if [ -f "fixtures/scenarios/$persona.json" ]; then scenario=(--scenario "fixtures/scenarios/$persona.json"); fi
  figures=()
  for seed in 1 2 3 4 5 6; do
    log="$work/$persona-$seed.csv"
    "$bin" generate --persona "$persona" --days 28 --seed "$seed" --time-zone Europe/Warsaw >"$log"
    figures+=("$("$bin" evaluate "$log" --time-zone Europe/Warsaw "${scenario[@]}" "$@" |
      awk '/^fresh@4:/ { print $2 "/" $4 }')")
  done
  printf '%s\n' "${figures[@]}" | awk -F/ -v persona="$persona" '
    { line = line " " $0; fresh += $1; if ($2 != "not") { wakes += $2; reached++ } }
    END { printf "%-10s %s   mean fresh@4 %.3f, wakes@50 %.2f (%d of %d seeds reach 50%%)\n",
          persona, line, fresh / NR, reached ? wakes / reached : 0, reached, NR }'
done
