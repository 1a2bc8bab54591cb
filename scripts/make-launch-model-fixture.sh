#!/usr/bin/env bash
# Remakes fixtures/launch-model/: trees fitted by scripts/fit-launch-model.py on the feature rows of
# three synthetic people (commuter, night owl, irregular; 28 days, seed 1), the rows of a fourth
# (shifting, every 5th row) that the fit never saw, and the script's chance for each of them, under
# those trees and under the package's prior (the JSON in Sources/FetchPredictorCore/Learning/
# LaunchPrior.swift). LaunchModelTests hold the Swift inference to those chances within 1e-6. Synthetic only: no
# personal log goes into the repository. Needs numpy and scikit-learn.
#   scripts/make-launch-model-fixture.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product fetchpredict >/dev/null 2>&1 || swift build -c release --product fetchpredict
tool=$(swift build -c release --show-bin-path 2>/dev/null)/fetchpredict
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=fixtures/launch-model
mkdir -p "$out"
for persona in commuter night-owl irregular shifting; do
  "$tool" generate --persona "$persona" --days 28 --seed 1 --time-zone Europe/Warsaw >"$work/$persona.csv"
  "$tool" features "$work/$persona.csv" --time-zone Europe/Warsaw --out "$work/rows-$persona.csv" >/dev/null
done
OMP_NUM_THREADS=1 scripts/fit-launch-model.py commuter="$work/rows-commuter.csv" \
  night-owl="$work/rows-night-owl.csv" irregular="$work/rows-irregular.csv" \
  --model trees --out "$out/synthetic-trees.json" >/dev/null
awk 'NR == 1 || NR % 5 == 0' "$work/rows-shifting.csv" >"$out/rows-shifting.csv"
scripts/fit-launch-model.py --predict "$out/synthetic-trees.json" "$out/rows-shifting.csv" --out "$out/chances.txt"
python3 -c 'import re, sys; sys.stdout.write(re.search(r"#\"(\{.*\})\"#", open(sys.argv[1]).read()).group(1))' \
  Sources/FetchPredictorCore/Learning/LaunchPrior.swift >"$work/prior.json"
scripts/fit-launch-model.py --predict "$work/prior.json" "$out/rows-shifting.csv" --out "$out/prior-chances.txt"
echo "$out: $(($(wc -l <"$out/rows-shifting.csv") - 1)) rows, model $(du -k "$out/synthetic-trees.json" | cut -f1) KB"
