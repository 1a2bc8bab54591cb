#!/usr/bin/env python3
"""Replay a usage log through FetchPredictor's HTTP API and print the next wakes.

A small client of the service, with Python's standard library only. It gives the device a time
zone and a default interval, posts the log's events in batches (each batch is stored whole or
not at all, and a repeated event is counted as a duplicate, so running it twice is safe), then
asks for the next wake after the last event and for the day's schedule.

    KEY=$(fetchpredict keys create --tenant demo | awk '{print $NF}')
    fetchpredict serve &
    examples/python/replay.py fixtures/night-owl-14d.jsonl --key "$KEY" --time-zone America/New_York

The log is in the `jsonl` format (one event object a line) or the `csv` format of `fetchpredict
import` (timestamp,app,event,result,duration,bytes); its timestamps carry their UTC offset.
"""

import argparse
import csv
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request


class APIError(Exception):
    """An answer of the service that is not a success, with its status and sentence."""

    def __init__(self, status, body):
        try:
            detail = json.loads(body)
            message = detail.get("error", body)
            if detail.get("field"):
                message = f"{detail['field']}: {message}"
        except ValueError:
            message = body
        super().__init__(f"HTTP {status}: {message}")
        self.status = status


class Client:
    """The routes this example uses; every answer is JSON, or None for 204."""

    def __init__(self, url, key):
        self.url = url.rstrip("/")
        self.key = key

    def call(self, method, path, body=None, query=None, accept="application/json"):
        url = self.url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.key}")
        request.add_header("Accept", accept)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                text = answer.read().decode()
                if answer.status == 204:
                    return None
                return json.loads(text) if accept == "application/json" else text
        except urllib.error.HTTPError as error:
            raise APIError(error.code, error.read().decode()) from None

    def device(self, device, **settings):
        return self.call("PUT", f"/v1/devices/{quote(device)}", settings)

    def events(self, device, events):
        return self.call("POST", f"/v1/devices/{quote(device)}/events", {"events": events})

    def next_wake(self, device, now):
        return self.call("GET", f"/v1/devices/{quote(device)}/next-wake", query={"now": now})

    def schedule(self, device, start, hours):
        return self.call("GET", f"/v1/devices/{quote(device)}/schedule", query={"from": start, "hours": hours})


def quote(name):
    return urllib.parse.quote(name, safe="")


def read_log(path):
    """The log's events as the API takes them, in file order."""
    with open(path, newline="", encoding="utf-8") as file:
        if path.endswith(".csv"):
            for row in csv.DictReader(file):
                event = {"timestamp": row["timestamp"], "app": row["app"], "event": row["event"]}
                if row.get("result"):
                    event["result"] = row["result"]
                if row.get("duration"):
                    event["duration"] = float(row["duration"])
                if row.get("bytes"):
                    event["bytes"] = int(row["bytes"])
                yield event
        else:
            for line in file:
                if line.strip():
                    event = json.loads(line)
                    event.pop("device", None)
                    yield event


def describe(wake):
    apps = ", ".join(f"{app['app']} ({app['expectedLaunches']:.2f} expected)" for app in wake["apps"])
    return f"{wake['time']}  {apps}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", help="a jsonl or csv log whose timestamps carry their offset")
    parser.add_argument("--url", default=os.environ.get("FETCHPREDICT_URL", "http://127.0.0.1:8080"))
    parser.add_argument("--key", default=os.environ.get("FETCHPREDICT_KEY"), help="an API key (or $FETCHPREDICT_KEY)")
    parser.add_argument("--device", default="replayed")
    parser.add_argument("--time-zone", required=True, help="the device's IANA zone, such as Europe/Warsaw")
    parser.add_argument("--interval", default="minimum", help="the default fetch interval (default: minimum)")
    parser.add_argument("--batch", type=int, default=1000, help="events a request (default: 1000)")
    parser.add_argument("--hours", type=float, default=24, help="hours of schedule to print (default: 24)")
    options = parser.parse_args()
    if not options.key:
        parser.error("give --key or set FETCHPREDICT_KEY")

    client = Client(options.url, options.key)
    try:
        client.device(options.device, timeZone=options.time_zone, defaultInterval=options.interval)
        stored = duplicates = 0
        batch, last = [], None
        for event in read_log(options.log):
            batch.append(event)
            last = event["timestamp"]
            if len(batch) == options.batch:
                answer = client.events(options.device, batch)
                stored, duplicates = stored + answer["stored"], duplicates + answer["duplicates"]
                batch = []
        if batch:
            answer = client.events(options.device, batch)
            stored, duplicates = stored + answer["stored"], duplicates + answer["duplicates"]
        print(f"Replayed {options.log}: {stored} events stored, {duplicates} already there.")
        if last is None:
            return 0
        wake = client.next_wake(options.device, last)
        if wake is None:
            print(f"No wake planned in the day after {last}.")
        else:
            print(f"Next wake after {last}: {describe(wake['wake'])}")
        schedule = client.schedule(options.device, last, options.hours)
        print(f"{len(schedule['wakes'])} device wakes in the {options.hours:g} hours after {last}:")
        for wake in schedule["wakes"]:
            print("  " + describe(wake))
    except APIError as error:
        print(f"replay.py: {error}", file=sys.stderr)
        return 1
    except urllib.error.URLError as error:
        print(f"replay.py: cannot reach {options.url}: {error.reason}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
