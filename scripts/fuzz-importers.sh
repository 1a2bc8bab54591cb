#!/usr/bin/env bash
# The long run of the importers' mutation fuzzer (FuzzTests): ITERATIONS mutated copies of each
# fixture, imported with the format given and detected, for each SEED. A crash, a refusal that does
# not name the file, or a refused file that leaves events fails the run.
#   scripts/fuzz-importers.sh [ITERATIONS] [SEEDS...]      (default: 20000, seeds 1 2 3)
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-20000}
shift || true
seeds=${*:-1 2 3}
for seed in $seeds; do
  echo "seed $seed: $iterations mutations of each fixture"
  FETCHPREDICT_FUZZ_ITERATIONS=$iterations FETCHPREDICT_FUZZ_SEED=$seed \
    /usr/bin/time -f "  %e s, peak memory %M KB" swift test -c release --filter FuzzTests 2>&1 | grep -E "✔ Test run|✘|passed after|s, peak"
done
