#!/usr/bin/env python3
"""Load synthetic devices into a running `fetchpredict serve` through its API, for the benchmarks.

    load-devices.py --tool PATH --port PORT --key KEY --devices 1000 --days 28

Devices are named d0000, d0001...: each takes one of 100 synthetic logs (four personas, 25 seeds,
from `fetchpredict generate`) shifted by its own whole number of minutes, so that no two learn
the same thing. Each gets the zone Europe/Warsaw and the default interval minimum, then its events
in batches of 1,000. Prints the events stored and the rate.
"""

import argparse
import csv
import http.client
import io
import json
import subprocess
import sys
import time
from datetime import datetime, timedelta


def logs(tool, days):
    """The 100 source logs, each a list of event objects with datetime timestamps."""
    result = []
    for persona in ["commuter", "night-owl", "irregular", "shifting"]:
        for seed in range(1, 26):
            text = subprocess.run(
                [tool, "generate", "--persona", persona, "--days", str(days), "--seed", str(seed),
                 "--time-zone", "Europe/Warsaw"], check=True, capture_output=True, text=True).stdout
            events = []
            for row in csv.DictReader(io.StringIO(text)):
                event = {"time": datetime.fromisoformat(row["timestamp"]), "app": row["app"], "event": row["event"]}
                if row["result"]:
                    event["result"] = row["result"]
                if row["duration"]:
                    event["duration"] = float(row["duration"])
                events.append(event)
            result.append(events)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--days", type=int, default=28)
    options = parser.parse_args()
    sources = logs(options.tool, options.days)
    connection = http.client.HTTPConnection("127.0.0.1", options.port, timeout=120)
    headers = {"Authorization": f"Bearer {options.key}", "Content-Type": "application/json"}

    def call(method, path, body):
        connection.request(method, path, json.dumps(body), headers)
        answer = connection.getresponse()
        text = answer.read()
        if answer.status != 200:
            sys.exit(f"{method} {path}: {answer.status} {text[:300]!r}")
        return json.loads(text)

    stored = 0
    start = time.monotonic()
    for index in range(options.devices):
        device = f"d{index:04d}"
        call("PUT", f"/v1/devices/{device}", {"timeZone": "Europe/Warsaw", "defaultInterval": "minimum"})
        shift = timedelta(minutes=(index * 7919) % 121 - 60)
        events = []
        for event in sources[index % len(sources)]:
            copy = dict(event)
            copy["timestamp"] = (copy.pop("time") + shift).isoformat(timespec="milliseconds")
            events.append(copy)
        for first in range(0, len(events), 1000):
            stored += call("POST", f"/v1/devices/{device}/events", {"events": events[first:first + 1000]})["stored"]
        if (index + 1) % 100 == 0:
            print(f"  {index + 1} devices loaded", file=sys.stderr)
    elapsed = time.monotonic() - start
    print(f"loaded {stored} events of {options.devices} devices in {elapsed:.1f} s: {stored / elapsed:,.0f} events/s")


if __name__ == "__main__":
    main()
