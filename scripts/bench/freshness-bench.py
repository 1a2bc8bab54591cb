#!/usr/bin/env python3
"""Measure GET /v1/freshness of a running `fetchpredict serve`, for scripts/bench-freshness.sh.

    freshness-bench.py kept --port PORT --key KEY --from DAY --to DAY [--timeout 7200]
        waits until the freshness pass has kept every device of the key's tenant (pendingDevices 0),
        printing how long that took and the devices a second
    freshness-bench.py latency --port PORT --key KEY --from DAY --to DAY [--runs 300] [--app APP]
        the tenant's figures RUNS times, one request after another: p50 and p99
    freshness-bench.py post --port PORT --key KEY --device NAME --wakes FILE
        sends the wakes `evaluate --wakes-out` wrote (device,app,start,result) as fetch results of
        the device, 5,000 a batch
    freshness-bench.py agree --port PORT --key KEY --device NAME --from DAY --to DAY --evaluate FILE
        the device's figures with scope=protocol against the reported run of `evaluate --json`
        (FILE): every count must be equal; prints them side by side
"""

import argparse
import http.client
import json
import sys
import time


def get(port, key, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request("GET", path, headers={"Authorization": f"Bearer {key}"})
    answer = connection.getresponse()
    body = answer.read()
    connection.close()
    if answer.status != 200:
        sys.exit(f"GET {path}: {answer.status} {body[:300]!r}")
    return json.loads(body)


def post(options):
    import csv

    rows = list(csv.DictReader(open(options.wakes)))
    events = [{"timestamp": row["start"], "app": row["app"], "event": "fetch", "result": row["result"]} for row in rows]
    for start in range(0, len(events), 5000):
        body = json.dumps({"events": events[start:start + 5000]})
        connection = http.client.HTTPConnection("127.0.0.1", options.port, timeout=600)
        connection.request("POST", f"/v1/devices/{options.device}/events", body=body,
                           headers={"Authorization": f"Bearer {options.key}", "Content-Type": "application/json"})
        answer = connection.getresponse()
        text = answer.read()
        if answer.status != 200:
            sys.exit(f"POST: {answer.status} {text[:300]!r}")
    days = sorted({row["start"][:10] for row in rows})
    print(f"{len(events)} fetch results sent, {days[0] if days else '-'} to {days[-1] if days else '-'}")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def kept(options):
    path = f"/v1/freshness?from={options.from_}&to={options.to}"
    start = time.monotonic()
    first = get(options.port, options.key, path)["pendingDevices"]
    while True:
        pending = get(options.port, options.key, path)["pendingDevices"]
        if pending == 0:
            break
        if time.monotonic() - start > options.timeout:
            sys.exit(f"{pending} devices still pending after {options.timeout} s")
        time.sleep(1)
    took = time.monotonic() - start
    print(f"{first} devices kept in {took:.1f} s ({first / max(took, 0.001):.0f} devices/s)")


def latency(options):
    path = f"/v1/freshness?from={options.from_}&to={options.to}" + (f"&app={options.app}" if options.app else "")
    times = []
    answer = None
    for _ in range(options.runs):
        start = time.perf_counter()
        answer = get(options.port, options.key, path)
        times.append((time.perf_counter() - start) * 1000)
    observed = answer["observed"]
    print(f"{path}: p50 {percentile(times, 0.5):.2f} ms, p99 {percentile(times, 0.99):.2f} ms over {options.runs}; "
          f"{observed['coldLaunches']} cold launches, {observed['freshColdLaunches']} fresh, "
          f"{observed['fetches']} fetches, {observed['days']} device-days, pending {answer['pendingDevices']}")


def agree(options):
    path = f"/v1/freshness?device={options.device}&scope=protocol&from={options.from_}&to={options.to}"
    answer = get(options.port, options.key, path)
    report = json.load(open(options.evaluate))
    reported = report["reported"]
    pairs = [("coldLaunches", "coldLaunches"), ("freshColdLaunches", "freshLaunches"), ("fetches", "fetches"),
             ("appDays", "appDays"), ("deviceWakes", "deviceWakes"), ("wastedNoData", "wastedNoData"),
             ("wastedFailed", "wastedFailed"), ("wastedSuperseded", "wastedSuperseded"),
             ("medianContentAgeMinutes", "medianContentAgeMinutes")]
    wrong = [(ours, answer["observed"][ours], reported[theirs]) for ours, theirs in pairs
             if answer["observed"][ours] != reported[theirs]]
    overall = {figures["strategy"]: figures for figures in report["overall"] if figures.get("budget") is None}
    for baseline in answer["baselines"]:
        theirs = overall[baseline["strategy"]]
        for ours, key in pairs[:3]:
            if baseline[ours] != theirs[key]:
                wrong.append((f"{baseline['strategy']} {ours}", baseline[ours], theirs[key]))
    observed = answer["observed"]
    print(f"{options.device}: freshness {observed['coldLaunches']} cold, {observed['freshColdLaunches']} fresh, "
          f"{observed['fetches']} fetches, {observed['deviceWakes']} wakes, {observed['wasted']} wasted; "
          f"evaluate {reported['coldLaunches']}, {reported['freshLaunches']}, {reported['fetches']}, "
          f"{reported['deviceWakes']}, {reported['wasted']}: " + ("equal" if not wrong else f"DIFFER {wrong}"))
    if wrong:
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["kept", "latency", "agree", "post"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--from", dest="from_")
    parser.add_argument("--to")
    parser.add_argument("--wakes")
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--app")
    parser.add_argument("--device")
    parser.add_argument("--evaluate")
    parser.add_argument("--timeout", type=int, default=7200)
    options = parser.parse_args()
    {"kept": kept, "latency": latency, "agree": agree, "post": post}[options.what](options)


if __name__ == "__main__":
    main()
