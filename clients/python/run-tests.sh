#!/usr/bin/env bash
# The Python client's checks, as CI runs them: a new venv with the package as pip installs it,
# pytest and mypy; a type check; then the tests against a live `fetchpredict serve` of
# $FETCHPREDICT_BIN (default: the debug build, $(swift build --show-bin-path)/fetchpredict,
# which must be built).
#   clients/python/run-tests.sh [PYTEST-ARGUMENTS...]
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${FETCHPREDICT_BIN:-}" ]; then
  FETCHPREDICT_BIN="$(cd ../.. && swift build --show-bin-path)/fetchpredict"
fi
if [ ! -x "$FETCHPREDICT_BIN" ]; then
  echo "no fetchpredict at $FETCHPREDICT_BIN: run swift build, or set FETCHPREDICT_BIN" >&2
  exit 1
fi
export FETCHPREDICT_BIN
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
# Installed from a copy, so that no build/ or egg-info of an earlier install (where a file since
# removed may linger) is read, and none is left here.
mkdir "$work/package"
cp -R pyproject.toml README.md fetchpredict_client "$work/package/"
"$work/venv/bin/pip" install -q --disable-pip-version-check "$work/package[test]"
# The layer of our own, its tests and the worker example are typed: mypy --strict (pyproject.toml)
# finds nothing in them. The generated code is left out; its findings are the generator's.
"$work/venv/bin/mypy" --cache-dir "$work/mypy" fetchpredict_client tests ../../examples/python/worker.py
# The pytest script, not `python -m pytest`, so that the package is imported as installed, not
# from this folder.
"$work/venv/bin/pytest" -p no:cacheprovider "$@"
