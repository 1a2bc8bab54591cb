#!/usr/bin/env python3
"""Measure the fleet's feed of a running `fetchpredict serve`, for scripts/bench-due.sh.

    feed-bench.py planned --port PORT [--timeout 3600]
        waits until the sweep has planned every device (fetchpredict_plans_behind 0 in /metrics,
        twice a second apart) and prints how long that took
    feed-bench.py feed --port PORT --key KEY --minutes 1 [--runs 200]
        GET /v1/wakes?before=NOW+MINUTES&now=NOW, every page of it, RUNS times: p50 and p99 of a
        page, of a whole answer, and the rows of an answer
    feed-bench.py compare --port PORT --key KEY --devices N --minutes 60 [--connections 4]
        the devices due in the next MINUTES by the feed, and by asking each device's next-wake at
        the same now: the two sets must be equal; the time of each, and their ratio
    feed-bench.py claims --port PORT --key KEY [--workers 4] [--seconds 60]
        WORKERS threads claim the wakes due in the next minute, 100 at a time, for SECONDS: wakes
        handed out, and any handed out twice (must be 0)

Devices are d0000, d0001... of the key's tenant, as fleet-csv.py --prefix TENANT/ writes them.
"""

import argparse
import http.client
import json
import sys
import threading
import time
from datetime import datetime, timedelta, timezone


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Client:
    def __init__(self, port, key):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        self.headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def call(self, method, path, body=None):
        self.connection.request(method, path, json.dumps(body) if body is not None else None, self.headers)
        answer = self.connection.getresponse()
        text = answer.read()
        if answer.status == 204:
            return None
        if answer.status != 200:
            sys.exit(f"{method} {path}: {answer.status} {text[:300]!r}")
        return json.loads(text)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def feed(client, now, before):
    """Every page of the feed: the wakes, and each page's seconds."""
    wakes, pages, cursor = [], [], None
    while True:
        path = f"/v1/wakes?before={iso(before)}&now={iso(now)}&limit=1000"
        if cursor:
            path += f"&cursor={cursor}"
        start = time.monotonic()
        page = client.call("GET", path)
        pages.append(time.monotonic() - start)
        wakes += page["wakes"]
        cursor = page.get("cursor")
        if not cursor:
            return wakes, pages


def planned(options):
    connection = http.client.HTTPConnection("127.0.0.1", options.port, timeout=60)
    start = time.monotonic()
    zeros = 0
    while time.monotonic() - start < options.timeout:
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        behind = [line.split()[-1] for line in text.splitlines() if line.startswith("fetchpredict_plans_behind ")]
        zeros = zeros + 1 if behind and float(behind[0]) == 0 else 0
        if zeros >= 2:
            print(f"every device planned after {time.monotonic() - start:.0f} s")
            return
        time.sleep(1)
    sys.exit(f"the sweep did not plan every device within {options.timeout} s: {behind} behind")


def feeds(options):
    client = Client(options.port, options.key)
    pages, answers, rows = [], [], []
    for _ in range(options.runs):
        now = datetime.now(timezone.utc).replace(microsecond=0)
        start = time.monotonic()
        wakes, times = feed(client, now, now + timedelta(minutes=options.minutes))
        answers.append(time.monotonic() - start)
        pages += times
        rows.append(len(wakes))
    print(
        f"the next {options.minutes} min: {percentile(rows, 0.5)} rows (from {min(rows)} to {max(rows)}); "
        f"a page p50 {percentile(pages, 0.5) * 1000:.1f} ms, p99 {percentile(pages, 0.99) * 1000:.1f} ms; "
        f"a whole answer p50 {percentile(answers, 0.5) * 1000:.1f} ms, p99 {percentile(answers, 0.99) * 1000:.1f} ms"
    )


def compare(options):
    now = datetime.now(timezone.utc).replace(microsecond=0)
    before = now + timedelta(minutes=options.minutes)
    start = time.monotonic()
    wakes, _ = feed(Client(options.port, options.key), now, before)
    by_feed = time.monotonic() - start
    due = {}
    lock = threading.Lock()

    def work(first):
        client = Client(options.port, options.key)
        for index in range(first, options.devices, options.connections):
            answer = client.call("GET", f"/v1/devices/d{index:04d}/next-wake?now={iso(now)}")
            if answer and answer["wake"]["time"] < iso(before):
                with lock:
                    due[answer["device"]] = answer["wake"]["time"]

    start = time.monotonic()
    threads = [threading.Thread(target=work, args=(first,)) for first in range(options.connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    by_device = time.monotonic() - start
    from_feed = {wake["device"]: wake["time"] for wake in wakes}
    same = "the same" if from_feed == due else f"DIFFERENT ({len(set(from_feed.items()) ^ set(due.items()))} differ)"
    print(
        f"due in the next {options.minutes} min: {len(from_feed)} devices by the feed in {by_feed:.2f} s, "
        f"{len(due)} by {options.devices} next-wake requests ({options.connections} connections) in "
        f"{by_device:.1f} s: {same}; the feed {by_device / by_feed:,.0f} times faster"
    )
    if from_feed != due:
        sys.exit(1)


def claims(options):
    handed = []
    lock = threading.Lock()
    end = time.monotonic() + options.seconds

    def work():
        client = Client(options.port, options.key)
        while time.monotonic() < end:
            before = datetime.now(timezone.utc) + timedelta(minutes=1)
            answer = client.call("POST", "/v1/wakes/claim", {"before": iso(before), "limit": 100, "leaseSeconds": 300})
            with lock:
                handed.extend((wake["device"], wake["time"]) for wake in answer["wakes"])
            if not answer["wakes"]:
                time.sleep(0.2)

    threads = [threading.Thread(target=work) for _ in range(options.workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    twice = len(handed) - len(set(handed))
    print(f"{options.workers} workers for {options.seconds} s: {len(handed)} wakes handed out, {twice} twice")
    if twice:
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["planned", "feed", "compare", "claims"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--key")
    parser.add_argument("--minutes", type=int, default=1)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--timeout", type=int, default=3600)
    options = parser.parse_args()
    {"planned": planned, "feed": feeds, "compare": compare, "claims": claims}[options.what](options)


if __name__ == "__main__":
    main()
