#!/usr/bin/env python3
"""What one tenant's cheap writes cost another tenant's feed, for scripts/bench-isolation.sh
(issue 55), against a running `fetchpredict serve`.

    isolation.py feed --port PORT --quiet-key KEY --busy-key KEY [--devices 45] [--seconds 8]
        The quiet tenant's devices d0000... (load-devices.py's) are due in the 12 hours after NOW
        (the end of their logs). Its feed is read back to back at NOW, and its batches (one launch
        of one of those devices, an hour before NOW) are sent back to back, while the busy tenant
        does nothing, then sends PUT /v1/settings (a budget that changes each time), then creates
        and erases a device, each at full speed and at 5 a second. Per case: the feed's answers,
        those short of a due device and the fewest due devices an answer held, the feed's and the
        batches' p50 and p99, and the busy tenant's writes.
    isolation.py race --port PORT --key KEY [--rounds 30]
        Each round gives device race/rN a launch, then erases it while two clients send batches of
        20 launches to it; prints the batches acknowledged. The orphans are counted by the caller.
    isolation.py flood --port PORT --key KEY --device D [--idle 2000] [--requests 200]
        Holds IDLE connections that send nothing (reopening those the service closes) while a new
        client opens a connection for each request, in turn GET /healthz and a keyed next-wake of
        D: answered, and p50 and p99 of a whole request, connection included.
"""

import argparse
import http.client
import json
import resource
import socket
import sys
import threading
import time
from datetime import datetime, timedelta, timezone

NOW = datetime(2024, 1, 29, 8, 0, tzinfo=timezone.utc)  # just after load-devices.py's 28 days
BEFORE = NOW + timedelta(hours=12)


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def percentile(values, share):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


class Client:
    def __init__(self, port, key):
        self.port = port
        self.headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method, path, body=None, expect=(200, 204)):
        self.connection.request(method, path, json.dumps(body) if body is not None else None, self.headers)
        answer = self.connection.getresponse()
        text = answer.read()
        if answer.status not in expect:
            sys.exit(f"{method} {path}: {answer.status} {text[:300]!r}")
        return json.loads(text) if text and answer.status == 200 else None


def feed_devices(client):
    """The devices of every page of the quiet tenant's feed at NOW, before BEFORE."""
    devices, cursor = set(), None
    while True:
        path = f"/v1/wakes?before={iso(BEFORE)}&now={iso(NOW)}&limit=1000"
        if cursor:
            path += f"&cursor={cursor}"
        page = client.call("GET", path)
        devices.update(wake["device"] for wake in page["wakes"])
        cursor = page.get("cursor")
        if not cursor:
            return devices


def due_devices(client, count):
    due = set()
    for index in range(count):
        device = f"d{index:04d}"
        answer = client.call("GET", f"/v1/devices/{device}/next-wake?now={iso(NOW)}")
        if answer and answer["wake"]["time"] < iso(BEFORE):
            due.add(device)
    return due


def busy_writes(client, mode, pace, stop, done):
    """The busy tenant's writes until stop is set: settings or a device made and erased."""
    index = 0
    while not stop.is_set():
        start = time.monotonic()
        if mode == "settings":
            client.call("PUT", "/v1/settings", {"wakesPerHour": 10 + index % 2})
        else:
            device = f"tmp{index}"
            client.call("POST", f"/v1/devices/{device}/events",
                        {"events": [{"timestamp": iso(NOW - timedelta(hours=1)), "app": "com.example.a",
                                     "event": "launch"}]})
            client.call("DELETE", f"/v1/devices/{device}")
        index += 1
        done[0] = index
        if pace:
            stop.wait(max(0, 1 / pace - (time.monotonic() - start)))
    if mode == "settings":
        client.call("PUT", "/v1/settings", {"wakesPerHour": None})


def feed_case(options, name, mode, pace):
    quiet, busy = Client(options.port, options.quiet_key), Client(options.port, options.busy_key)
    writer = Client(options.port, options.quiet_key)
    due = due_devices(quiet, options.devices)
    stop, done = threading.Event(), [0]
    answers, short, fewest, feed_times, batch_times = 0, 0, len(due), [], []

    def batches():
        index = 0
        while not stop.is_set():
            device = f"d{index % options.devices:04d}"
            moment = NOW - timedelta(hours=1) + timedelta(milliseconds=index)
            start = time.monotonic()
            writer.call("POST", f"/v1/devices/{device}/events",
                        {"events": [{"timestamp": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                                     "app": "com.example.chat", "event": "launch"}]})
            batch_times.append(time.monotonic() - start)
            index += 1

    threads = [threading.Thread(target=batches)]
    if mode:
        threads.append(threading.Thread(target=busy_writes, args=(busy, mode, pace, stop, done)))
    for thread in threads:
        thread.start()
    began = time.monotonic()
    end = began + options.seconds
    while time.monotonic() < end:
        start = time.monotonic()
        devices = feed_devices(quiet)
        feed_times.append(time.monotonic() - start)
        answers += 1
        held = len(due & devices)
        short += held < len(due)
        fewest = min(fewest, held)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    print(f"{name:<24} feed: {answers} answers, {short} short of the {len(due)} due (fewest {fewest}); "
          f"p50 {percentile(feed_times, 0.5) * 1000:.1f} ms, p99 {percentile(feed_times, 0.99) * 1000:.1f} ms; "
          f"batches: {len(batch_times) / elapsed:.0f}/s, p50 {percentile(batch_times, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(batch_times, 0.99) * 1000:.1f} ms; busy tenant's writes: {done[0] / elapsed:.1f}/s",
          flush=True)
    return short


def feed(options):
    cases = [("alone", None, None), ("settings, full speed", "settings", None), ("settings, 5/s", "settings", 5),
             ("erasures, full speed", "erase", None), ("erasures, 5/s", "erase", 5)]
    warm = Client(options.port, options.quiet_key)
    due_devices(warm, options.devices)
    feed_devices(warm)  # every model learned and every plan made, as after a while of use
    short = sum(feed_case(options, *case) for case in cases)
    sys.exit(1 if short else 0)


def race(options):
    acknowledged = 0
    lock = threading.Lock()
    main = Client(options.port, options.key)
    for round_ in range(options.rounds):
        device = f"r{round_}"
        main.call("POST", f"/v1/devices/{device}/events",
                  {"events": [{"timestamp": iso(NOW), "app": "com.example.a", "event": "launch"}]})
        go = threading.Barrier(3)

        def send(offset):
            nonlocal acknowledged
            client = Client(options.port, options.key)
            go.wait()
            for batch in range(3):
                events = [{"timestamp": (NOW + timedelta(seconds=offset * 1000 + batch * 20 + i)).isoformat().replace("+00:00", "Z"),
                           "app": "com.example.a", "event": "launch"} for i in range(20)]
                answer = client.call("POST", f"/v1/devices/{device}/events", {"events": events}, expect=(200, 404, 409, 503))
                if answer:
                    with lock:
                        acknowledged += answer["stored"]

        threads = [threading.Thread(target=send, args=(offset,)) for offset in (1, 2)]
        for thread in threads:
            thread.start()
        go.wait()
        main.call("DELETE", f"/v1/devices/{device}", expect=(200, 204, 404))
        for thread in threads:
            thread.join()
    print(f"race: {options.rounds} rounds of an erasure between two clients' batches; {acknowledged} events acknowledged")


def flood(options):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, options.idle + 256)), hard))
    stop = threading.Event()
    held = []

    def hold():
        sockets = []
        while not stop.is_set():
            while len(sockets) < options.idle and not stop.is_set():
                try:
                    sockets.append(socket.create_connection(("127.0.0.1", options.port), timeout=2))
                except OSError:
                    time.sleep(0.01)
            # Reopen the connections the service closed for room.
            alive = []
            for s in sockets:
                s.setblocking(False)
                try:
                    closed = s.recv(1) == b""
                except BlockingIOError:
                    closed = False
                except OSError:
                    closed = True
                if closed:
                    s.close()
                else:
                    alive.append(s)
            sockets = alive
            held.append(len(sockets))
            stop.wait(0.2)
        for s in sockets:
            s.close()

    holder = threading.Thread(target=hold)
    holder.start()
    time.sleep(5)
    times, failed = [], 0
    for index in range(options.requests):
        path = "/healthz" if index % 2 == 0 else f"/v1/devices/{options.device}/next-wake?now={iso(NOW)}"
        start = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", options.port, timeout=10)
            connection.request("GET", path, headers={"Authorization": f"Bearer {options.key}"})
            answer = connection.getresponse()
            answer.read()
            connection.close()
            if answer.status == 200:
                times.append(time.monotonic() - start)
            else:
                failed += 1
        except OSError:
            failed += 1
    stop.set()
    holder.join()
    print(f"flood: {options.idle} idle connections opened and reopened, {percentile(held, 0.5)} held "
          f"(the median of the holder's counts, the rest closed for room); "
          f"a new client: {len(times)} of {options.requests} answered 200, "
          f"p50 {percentile(times, 0.5) * 1000:.1f} ms, p99 {percentile(times, 0.99) * 1000:.1f} ms")
    sys.exit(1 if failed else 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["feed", "race", "flood"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--quiet-key")
    parser.add_argument("--busy-key")
    parser.add_argument("--key")
    parser.add_argument("--device", default="d0000")
    parser.add_argument("--devices", type=int, default=45)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=200)
    options = parser.parse_args()
    {"feed": feed, "race": race, "flood": flood}[options.mode](options)


if __name__ == "__main__":
    main()
