#!/usr/bin/env python3
"""Write one CSV log of many synthetic devices, for `fetchpredict import` of a fleet.

    fleet-csv.py --tool PATH --devices 10000 --days 28 [--prefix bench/] [--start YYYY-MM-DD] > fleet.csv

Devices are named d0000, d0001... as in load-devices.py: each takes one of 100 synthetic logs
(four personas, 25 seeds, from `fetchpredict generate`) shifted by its own whole number of
minutes. Rows are the CSV format's, with the device column. With --prefix bench/ the devices are
the HTTP service's devices of tenant bench (the service stores a tenant's device as TENANT/DEVICE).
"""

import argparse
import csv
import io
import subprocess
import sys
from datetime import datetime, timedelta


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--prefix", default="", help="put before each device's name, such as bench/")
    parser.add_argument("--start", default="2024-01-01", help="the first day of every device's history")
    options = parser.parse_args()
    sources = []
    for persona in ["commuter", "night-owl", "irregular", "shifting"]:
        for seed in range(1, 26):
            text = subprocess.run(
                [options.tool, "generate", "--persona", persona, "--days", str(options.days), "--seed", str(seed), "--start", options.start,
                 "--time-zone", "Europe/Warsaw"], check=True, capture_output=True, text=True).stdout
            sources.append([(datetime.fromisoformat(row["timestamp"]), row) for row in csv.DictReader(io.StringIO(text))])
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["timestamp", "app", "event", "result", "duration", "bytes", "device"])
    for index in range(options.devices):
        device = f"{options.prefix}d{index:04d}"
        shift = timedelta(minutes=(index * 7919) % 121 - 60)
        for time, row in sources[index % len(sources)]:
            out.writerow([(time + shift).isoformat(timespec="milliseconds"), row["app"], row["event"],
                          row["result"], row["duration"], row.get("bytes", ""), device])


if __name__ == "__main__":
    main()
