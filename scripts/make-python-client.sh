#!/usr/bin/env bash
# Generates the typed layer of the Python client, clients/python/fetchpredict_client/generated,
# from the OpenAPI document with openapi-python-client. The generator and the ruff it formats with
# are pinned in clients/python/generator-requirements.txt and installed in a venv of their own
# (kept between runs in $FETCHPREDICT_GENERATOR_VENV, default ~/.cache/fetchpredict/, one a set of
# pins). The output is the same on every run: CI reruns it with --check to prove the package is
# current. The files under generated/ are never edited by hand; the layer of our own is beside it.
#   scripts/make-python-client.sh           regenerate in place
#   scripts/make-python-client.sh --check   regenerate into a temporary folder and compare
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  *) echo "usage: scripts/make-python-client.sh [--check]" >&2; exit 2 ;;
esac

document=Sources/FetchPredictorService/openapi.yaml
requirements=clients/python/generator-requirements.txt
target=clients/python/fetchpredict_client/generated

pins=$(sha256sum "$requirements" | cut -c1-12)
venv=${FETCHPREDICT_GENERATOR_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/fetchpredict/python-client-generator-$pins}
if [ ! -f "$venv/.installed" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
  touch "$venv/.installed"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Generated outside the work tree, so that no configuration around it (a pyproject.toml with ruff's
# settings) reaches the post hooks; a warning (a route or a response the generator cannot read) fails.
if ! PATH="$venv/bin:$PATH" openapi-python-client generate --meta none --fail-on-warning \
  --config clients/python/openapi-python-client.yaml --path "$document" \
  --output-path "$work/generated" >"$work/log" 2>&1; then
  cat "$work/log" >&2
  echo "openapi-python-client could not generate the client from $document (above)" >&2
  exit 1
fi

if $check; then
  if ! diff -r -x __pycache__ "$work/generated" "$target" >"$work/diff"; then
    head -n 40 "$work/diff" >&2
    echo "$target is not what $document generates: run scripts/make-python-client.sh and commit it" >&2
    exit 1
  fi
  echo "$target is current with $document"
else
  rm -rf "$target"
  cp -R "$work/generated" "$target"
  echo "generated $target from $document"
fi
