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
import` (timestamp,app,event,result,duration,bytes); its timestamps carry their UTC offset. Any
other file, or an event that lacks a field its kind needs, is refused before the service is asked
anything: one line names the file, the line and what is missing, and the status is 2. Other
exports (App Usage, ActivityWatch, dumpsys, knowledgeC.db) are read by `fetchpredict import`, into
the store the service serves, with `--device TENANT/DEVICE`.
"""

import argparse
import csv
import http.client
import io
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request


class APIError(Exception):
    """An answer of the service that is not a success, with its status, field and sentence."""

    def __init__(self, status, body):
        self.status, self.field, self.reason = status, None, body.strip()
        try:
            detail = json.loads(body)
            self.reason = detail.get("error", self.reason)
            self.field = detail.get("field")
        except (ValueError, AttributeError):
            pass
        super().__init__(f"HTTP {status}: {self.field}: {self.reason}" if self.field else f"HTTP {status}: {self.reason}")


class Unreachable(Exception):
    """The service did not answer: its URL and why, in one line."""


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
        try:
            request = urllib.request.Request(url, data=data, method=method)
        except ValueError as error:
            raise Unreachable(f"{self.url} is not a URL the client can use ({error})") from None
        request.add_header("Authorization", f"Bearer {self.key}")
        request.add_header("Accept", accept)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                text = answer.read().decode("utf-8", "replace")
                if answer.status == 204:
                    return None
                return json.loads(text) if accept == "application/json" else text
        except urllib.error.HTTPError as error:
            raise APIError(error.code, error.read().decode("utf-8", "replace")) from None
        except urllib.error.URLError as error:
            reason = getattr(error.reason, "strerror", None) or error.reason
            raise Unreachable(f"cannot reach {self.url}: {reason}") from None
        except (OSError, http.client.HTTPException) as error:
            reason = getattr(error, "strerror", None) or error or type(error).__name__
            raise Unreachable(f"cannot reach {self.url}: {reason}") from None
        except ValueError:
            raise Unreachable(f"{self.url} answered {path} with something that is not JSON") from None

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


# What replay.py reads, and what to do with other files: the sentence every refusal ends with.
FORMATS = (
    "replay.py reads jsonl and the csv of fetchpredict import (timestamp,app,event); import other "
    "exports (App Usage, ActivityWatch, dumpsys, knowledgeC.db) into the service's store with "
    "fetchpredict import FILE --device TENANT/DEVICE"
)

# The csv format's column names, as fetchpredict import reads them (lower-cased, with its aliases).
COLUMNS = {"timestamp": "timestamp", "time": "timestamp", "app": "app", "package": "app",
           "bundle": "app", "event": "event", "kind": "event", "result": "result",
           "duration": "duration", "bytes": "bytes"}

# Events of the device, not of an app: their app is empty.
DEVICE_EVENTS = {"unlock", "screenon", "screenoff"}


class LogError(Exception):
    """Why the log cannot be replayed: the file, the line and what is wrong, in one line."""

    def __init__(self, path, line, problem):
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}; {FORMATS}")


def looks_like(text):
    """What a file that is not a log of replay.py's formats seems to be, for the message."""
    head = text[:4096]
    if head.startswith("SQLite format 3"):
        return " (an SQLite database, such as knowledgeC.db?)"
    if '"buckets"' in head:
        return " (an ActivityWatch export?)"
    if head.lstrip("\ufeff").lower().startswith('"app name"') or head.lower().startswith("app name,"):
        return " (an App Usage export?)"
    if head.startswith("id,timestamp,duration,data/"):
        return " (an ActivityWatch bucket csv?)"
    if "type=" in head and "package=" in head:
        return " (adb shell dumpsys usagestats output?)"
    return ""


def checked(event, path, line, where):
    """The event if it has every field its kind needs, else a LogError naming the first missing.

    `where` is what the event was read from, for the message: "object" or "row".
    """
    for field in ("timestamp", "event"):
        if event.get(field) in (None, ""):
            raise LogError(path, line, f"the {where} has no '{field}'")
    kind = str(event["event"]).lower()
    if kind not in DEVICE_EVENTS and event.get("app") in (None, ""):
        raise LogError(path, line, f"the {event['event']} event has no 'app'")
    if kind == "fetch" and event.get("result") in (None, ""):
        raise LogError(path, line, "the fetch has no 'result' (newData, noData or failed)")
    return event


def read_text(path):
    """The file's text, or a LogError when it cannot be read or is not UTF-8 text."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        raise LogError(path, None, f"cannot read the file: {error.strerror or error}") from None
    nul = data.find(b"\0")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise LogError(path, line, "the file is not UTF-8 text" + looks_like(data[:64].decode("latin-1"))) from None
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise LogError(path, line, "the file holds a NUL byte, which no text log does" + looks_like(text))
    return text


def read_log(path):
    """The log's events as the API takes them, each with its line, in file order.

    Raises LogError, naming the file and the line, for a file that is not jsonl or the csv
    format, and for an event that lacks a field its kind needs.
    """
    text = read_text(path)
    lines = [line.rstrip("\r") for line in text.split("\n")]
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        raise LogError(path, 1, "the file holds no events")
    if first.lstrip("\ufeff").lstrip().startswith("{"):
        yield from read_jsonl(path, lines, looks_like(text))
    else:
        yield from read_csv(path, text, looks_like(text))


def read_jsonl(path, lines, hint):
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError as error:
            raise LogError(path, number, f"the line is not a JSON object ({error.msg}){hint}") from None
        if not isinstance(event, dict):
            raise LogError(path, number, "the line is JSON but not an event object")
        if "timestamp" not in event and "time" in event:
            event["timestamp"] = event.pop("time")
        if "timestamp" not in event:
            raise LogError(path, number, f"the object has no 'timestamp'{hint}")
        event.pop("device", None)
        yield number, checked(event, path, number, "object")


def read_csv(path, text, hint):
    rows = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [name.strip().lower() for name in next(rows)]
        if header:
            header[0] = header[0].lstrip("\ufeff")
        columns = {COLUMNS[name]: index for index, name in enumerate(header) if name in COLUMNS}
        missing = [name for name in ("timestamp", "app", "event") if name not in columns]
        if missing:
            named = ", ".join(f"'{name}'" for name in missing[:-1])
            named = f"{named} or '{missing[-1]}'" if named else f"'{missing[-1]}'"
            raise LogError(path, 1, f"the header has no {named} column{hint}")
        for row in rows:
            number = rows.line_num
            if not row or row == [""]:
                continue
            if len(row) < len(header):
                raise LogError(path, number, f"the row has {len(row)} fields where the header has {len(header)}")
            event = {"timestamp": row[columns["timestamp"]], "app": row[columns["app"]],
                     "event": row[columns["event"]]}
            for field, convert in (("result", str), ("duration", float), ("bytes", int)):
                value = row[columns[field]] if field in columns else ""
                if value:
                    try:
                        event[field] = convert(value)
                    except ValueError:
                        raise LogError(path, number, f"'{field}' is not a number: '{value[:40]}'") from None
            yield number, checked(event, path, number, "row")
    except csv.Error as error:
        raise LogError(path, rows.line_num, f"the line is not csv ({error})") from None


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
    if options.batch < 1:
        parser.error("--batch must be 1 or more")

    # The whole log is read and checked before the service is asked anything: a file it cannot
    # replay changes nothing, and is named in one line with what is wrong.
    try:
        events = list(read_log(options.log))
    except LogError as error:
        print(f"replay.py: {error}", file=sys.stderr)
        return 2
    client = Client(options.url, options.key)
    try:
        client.device(options.device, timeZone=options.time_zone, defaultInterval=options.interval)
        stored = duplicates = 0
        for start in range(0, len(events), options.batch):
            batch = events[start:start + options.batch]
            try:
                answer = client.events(options.device, [event for _, event in batch])
            except APIError as error:
                # A refused event is named by its line in the file, not by its place in the batch.
                place = re.match(r"events\[(\d+)\]\.?(.*)", error.field or "")
                if error.status != 400 or not place or int(place.group(1)) >= len(batch):
                    raise
                line, field = batch[int(place.group(1))][0], place.group(2) or "the event"
                print(f"replay.py: {options.log}:{line}: {field}: {error.reason}", file=sys.stderr)
                return 2
            stored, duplicates = stored + answer["stored"], duplicates + answer["duplicates"]
        print(f"Replayed {options.log}: {stored} events stored, {duplicates} already there.")
        last = events[-1][1]["timestamp"]
        wake = client.next_wake(options.device, last)
        if wake is None:
            print(f"No wake planned in the day after {last}.")
        else:
            print(f"Next wake after {last}: {describe(wake['wake'])}")
        schedule = client.schedule(options.device, last, options.hours)
        print(f"{len(schedule['wakes'])} device wakes in the {options.hours:g} hours after {last}:")
        for wake in schedule["wakes"]:
            print("  " + describe(wake))
    except (APIError, Unreachable) as error:
        print(f"replay.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # The reader of the output went away (`| head`): stop quietly, as command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
