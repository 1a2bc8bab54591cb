#!/usr/bin/env bash
# The service under what the open network sends it (issue 41): a flood of connections under a low
# limit of open files, slow bodies, malformed framing. After each attack the service must be
# alive and answer /healthz within a second, no trickling connection may outlive the request
# deadline, and framing errors are 4xx; the script prints what it shed and exits non-zero when an
# attack failed. About 40 s. Run from the package's root:
#   scripts/attack.sh [OPEN-FILES (1024)]
# FP_TOOL=path runs another build of fetchpredict; KEEP=1 keeps the store and the service's log.
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-1024}
work=$(mktemp -d /tmp/fetchpredict-attack.XXXXXX)
trap 'kill "$server" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
tool=$(scripts/bench/tool.sh)
key=$("$tool" keys create --tenant attack --db "$work/s.sqlite" | awk '{print $NF}')
# The limit of open files is set in a child shell, as a small container's would be; serve may
# raise its soft limit only up to this hard one.
bash -c "ulimit -n $files && exec \"\$0\" \"\$@\"" "$tool" serve --db "$work/s.sqlite" --listen 127.0.0.1:0 \
  --read-timeout 5 2>"$work/serve.log" &
server=$!
port=$(scripts/bench/serve-port.sh "$work/serve.log")
echo "== serve under ulimit -n $files, pid $server, port $port"
python3 scripts/bench/attack.py --port "$port" --key "$key" --files "$files" --pid "$server"
status=$?
echo "== the service's log of shedding:"
grep -i "shed" "$work/serve.log" | sed 's/^/  /' || echo "  (none)"
[ -z "${KEEP:-}" ] || echo "== kept: $work"
exit $status
