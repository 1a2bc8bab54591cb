#!/usr/bin/env bash
# The device state's figures of docs/evaluation.md: each persona's log with the phone's state
# (generate --device-state: charging at night with some nights forgotten, Wi-Fi at home and at
# work, a battery read every hour, Low Power Mode on some evenings), seeds 1 to 3, evaluated
# with some apps constrained (fixtures/settings/PERSONA-constraints.json). Per persona, pooled
# over the seeds: the predictor at the reported budget (0.85), the same predictor told nothing of
# the state, and the oracle.
# Run from the package's root:  scripts/evaluate-state.sh
# (FETCHPREDICT_BIN=path/to/fetchpredict evaluates that build instead of building this one)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${FETCHPREDICT_BIN:-}" ]; then
  bin=$FETCHPREDICT_BIN
else
  swift build -c release --product fetchpredict >/dev/null
  bin="$(swift build -c release --show-bin-path)/fetchpredict"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| persona | strategy | constrained cold launches | fresh under constraints | rate | refused wakes | fetches in Low Power Mode | breaking constraints | fresh rate, all apps | wakes per app-day | asked (with refused) |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for persona in commuter night-owl irregular shifting; do
  for seed in 1 2 3; do
    "$bin" generate --persona "$persona" --days 28 --seed "$seed" --time-zone Europe/Warsaw --device-state \
      > "$work/$persona-$seed.csv"
    "$bin" evaluate "$work/$persona-$seed.csv" --time-zone Europe/Warsaw \
      --settings "fixtures/settings/$persona-constraints.json" --budgets 0.85 --budget 0.85 --json 2>/dev/null \
      | jq -r '(.reported | select(. != null) | ["predictor"] + [.]),
               (.overall[] | select(.strategy == "predictor-ignoring-state" or .strategy == "oracle") | [.strategy] + [.])
               | [.[0], .[1].state.constrainedColdLaunches, .[1].state.constrainedFreshLaunches,
                  .[1].state.refusedByState, .[1].state.fetchesInLowPowerMode,
                  .[1].state.fetchesBreakingConstraints, .[1].coldLaunches, .[1].freshLaunches,
                  .[1].fetches, .[1].appDays] | @tsv'
  done > "$work/$persona.tsv"
  awk -F'\t' -v persona="$persona" '
    { n[$1] += $2; f[$1] += $3; r[$1] += $4; l[$1] += $5; b[$1] += $6; c[$1] += $7; a[$1] += $8; w[$1] += $9; d[$1] += $10 }
    END {
      split("predictor predictor-ignoring-state oracle", order, " ")
      for (i = 1; i <= 3; i++) { s = order[i]
        printf "| %s | %s | %d | %d | %.3f | %d | %d | %d | %.3f | %.2f | %.2f |\n", persona, s, n[s], f[s],
          (n[s] ? f[s] / n[s] : 0), r[s], l[s], b[s], (c[s] ? a[s] / c[s] : 0), (d[s] ? w[s] / d[s] : 0),
          (d[s] ? (w[s] + r[s]) / d[s] : 0) }
    }' "$work/$persona.tsv"
done
