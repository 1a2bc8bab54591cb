#!/usr/bin/env bash
# schemathesis against a live `fetchpredict serve` and its own OpenAPI document: no 5xx, no
# response that breaks the document, every request that breaks it refused with a 4xx. Needs schemathesis from PyPI (pip install schemathesis).
# Run from the package's root: scripts/schemathesis.sh [EXAMPLES]   (default 50 per operation)
set -euo pipefail
cd "$(dirname "$0")/.."
examples=${1:-50}
command -v schemathesis >/dev/null || { echo "schemathesis is needed: pip install schemathesis" >&2; exit 1; }
tool=${FETCHPREDICT:-$(swift build --show-bin-path)/fetchpredict}
[ -x "$tool" ] || swift build >/dev/null
work=$(mktemp -d)
trap 'kill -TERM "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
key=$("$tool" keys create --tenant fuzz --db "$work/events.sqlite" | awk '{print $NF}')
"$tool" serve --db "$work/events.sqlite" --listen 127.0.0.1:0 --log-level warning 2>"$work/serve.log" &
server=$!
port=$(scripts/bench/serve-port.sh "$work/serve.log")
url="http://127.0.0.1:$port"
# A device with a zone and three weeks of launches, so that its routes answer 200 as well as 4xx.
curl -sf -X PUT -H "Authorization: Bearer $key" -d '{"timeZone": "Europe/Warsaw", "defaultInterval": "minimum"}' \
  "$url/v1/devices/phone" >/dev/null
"$tool" generate --persona commuter --days 21 --format jsonl --time-zone Europe/Warsaw |
  python3 -c 'import json, sys; print(json.dumps({"events": [json.loads(l) for l in sys.stdin if l.strip()]}))' |
  curl -sf -H "Authorization: Bearer $key" -d @- "$url/v1/devices/phone/events" >/dev/null
# Every check, in positive and negative mode (schema-breaking requests must get a 4xx), but one:
# positive_data_acceptance wants every request the document allows answered 2xx, and some rules
# are not the document's to say: 'before' after 'now', a cursor this service gave, a device name
# within 255 bytes once the tenant's name is put before it. Those get a 400 naming the field.
schemathesis run "$url/openapi.yaml" --url "$url" -H "Authorization: Bearer $key" --mode all \
  --checks all --exclude-checks positive_data_acceptance \
  --max-examples "$examples" --generation-deterministic
