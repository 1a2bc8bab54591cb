#!/usr/bin/env python3
"""Give the imported synthetic devices their settings, and have a running `fetchpredict serve`
learn each one, for the benchmarks.

    prepare-devices.py --port PORT --key KEY --devices 10000 [--settings] [--no-learn] [--connections 4]
        [--now INSTANT]

Devices are d0000, d0001... of the key's tenant, as fleet-csv.py --prefix TENANT/ writes them.
With --settings each first gets the zone Europe/Warsaw and the default interval minimum
(PUT /v1/devices/DEVICE). Then each is asked its next wake once, at the present requests.lua
starts from (or --now), so that the service learns it; the pass's duration is the cost of learning a device
from the store (with --no-learn, not asked: only the settings). Prints the devices learned (or
set) and the rate.
"""

import argparse
import http.client
import json
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--settings", action="store_true")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--now", default="2024-01-29T06:00:00Z")
    parser.add_argument("--no-learn", action="store_true")
    options = parser.parse_args()
    headers = {"Authorization": f"Bearer {options.key}", "Content-Type": "application/json"}
    failures = []

    def work(first):
        connection = http.client.HTTPConnection("127.0.0.1", options.port, timeout=300)

        def call(method, path, body=None):
            connection.request(method, path, json.dumps(body) if body is not None else None, headers)
            answer = connection.getresponse()
            text = answer.read()
            # 204: next-wake has no wake to give (a device whose apps are never fetched).
            if answer.status not in (200, 204):
                failures.append(f"{method} {path}: {answer.status} {text[:300]!r}")

        for index in range(first, options.devices, options.connections):
            device = f"d{index:04d}"
            if options.settings:
                call("PUT", f"/v1/devices/{device}", {"timeZone": "Europe/Warsaw", "defaultInterval": "minimum"})
            if not options.no_learn:
                call("GET", f"/v1/devices/{device}/next-wake?now={options.now}")

    start = time.monotonic()
    threads = [threading.Thread(target=work, args=(first,)) for first in range(options.connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    if failures:
        sys.exit(f"{len(failures)} requests failed, the first: {failures[0]}")
    done = "set" if options.no_learn else "learned"
    print(f"{done} {options.devices} devices in {elapsed:.1f} s: {options.devices / elapsed:,.0f} devices/s")


if __name__ == "__main__":
    main()
