#!/usr/bin/env bash
# Prints the path of the fetchpredict the scripts run: $FP_TOOL when set (another build), else the
# package's release build, made first (its output shown only when it fails). Run from the
# package's root:  tool=$(scripts/bench/tool.sh)
set -euo pipefail
if [ -n "${FP_TOOL:-}" ]; then
  echo "$FP_TOOL"
  exit 0
fi
swift build -c release >/dev/null 2>&1 || { swift build -c release >&2; exit 1; }
echo "$(swift build -c release --show-bin-path 2>/dev/null)/fetchpredict"
