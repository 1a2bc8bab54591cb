#!/usr/bin/env python3
"""The measurements of scripts/attack-fairness.sh, against a running `fetchpredict serve` on
127.0.0.1: whether one client shuts others out (issue 74).

    fairness.py --port PORT --key KEY --new-key KEY --limit WRONG-KEYS-A-MINUTE [--seconds S] [--only NAME]

The attackers come from 127.0.0.1, the clients they would shut out from other loopback addresses
(127.0.0.2, ...: Linux routes all of 127.0.0.0/8 to the loopback), as other hosts would.

- keep-alive: 1,000 connections from one address, each asking /healthz every 20 s; a new client
  asks once every half second: the share answered within 3 s (goal 95%).
- trickle: 1,000 connections from one address, each sending a POST's head and then a byte every
  3 s; from 5 s on, a new client asks once every half second: the share answered within 3 s
  (goal 95%).
- guesser: a worker uses its key; another client at its address spends the wrong-key allowance
  and keeps guessing at 2 a second; the worker asks every half second: the share answered 200
  (goal 100%). Then a valid key no one at that address used yet: how long until it is served.
- burst: 800 wrong keys at once from one address (a fresh one): how many are looked up and
  answered 401 (goal: at most the limit a minute).

Prints one line a measurement and a JSON line of every figure; exits 1 when a goal is missed.
"""

import argparse
import http.client
import json
import resource
import selectors
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor


def connect(port, source, timeout=3.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def answered(port, source, request, wait=3.0):
    """The status an HTTP request from `source` is answered with within `wait` seconds, or 0."""
    deadline = time.monotonic() + wait
    try:
        s = connect(port, source, wait)
        s.sendall(request)
        data = b""
        while b"\r\n" not in data and time.monotonic() < deadline:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        s.close()
        return int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.1 ") else 0
    except (OSError, ValueError, IndexError):
        return 0


def healthz(port, source):
    return answered(port, source, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")


class Holder(threading.Thread):
    """Opens `count` connections from 127.0.0.1 with `head`, then every `every` seconds sends
    `repeat` on each still open, reading and dropping what comes back, until stopped."""

    def __init__(self, port, count, head, repeat, every):
        super().__init__(daemon=True)
        self.port, self.count, self.head, self.repeat, self.every = port, count, head, repeat, every
        self.stopped = threading.Event()
        self.opened = 0

    def run(self):
        selector = selectors.DefaultSelector()
        sockets = []
        for _ in range(self.count):
            try:
                s = connect(self.port, "127.0.0.1", 1.0)
                s.sendall(self.head)
                s.setblocking(False)
                selector.register(s, selectors.EVENT_READ)
                sockets.append(s)
            except OSError:
                pass
        self.opened = len(sockets)
        next_send = time.monotonic() + self.every
        while not self.stopped.is_set():
            for key, _ in selector.select(timeout=0.2):
                try:
                    if not key.fileobj.recv(65536):
                        selector.unregister(key.fileobj)
                except OSError:
                    selector.unregister(key.fileobj)
            if time.monotonic() >= next_send:
                next_send += self.every
                for s in sockets:
                    try:
                        s.send(self.repeat)
                    except OSError:
                        pass
        for s in sockets:
            s.close()


def probe(port, seconds, source="127.0.0.2"):
    """A new client asking /healthz every half second for `seconds`: (answered, asked)."""
    ok = asked = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        asked += 1
        ok += healthz(port, source) == 200
        time.sleep(max(0.0, 0.5 - (time.monotonic() - started)))
    return ok, asked


def keep_alive(port, seconds):
    holder = Holder(port, 1000, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
                    b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 20.0)
    holder.start()
    time.sleep(2)
    ok, asked = probe(port, seconds)
    holder.stopped.set()
    holder.join()
    return {"opened": holder.opened, "answered": ok, "asked": asked}


def trickle(port, seconds):
    head = b"POST /v1/devices/phone/events HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{"
    holder = Holder(port, 1000, head, b" ", 3.0)
    holder.start()
    time.sleep(5)
    ok, asked = probe(port, seconds, "127.0.0.3")
    holder.stopped.set()
    holder.join()
    return {"opened": holder.opened, "answered": ok, "asked": asked}


def request(port, key, source, path="/v1/devices"):
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
        connection.request("GET", path, headers={"Authorization": f"Bearer {key}"})
        status = connection.getresponse().status
        connection.close()
        return status
    except OSError:
        return 0


def guesser(port, key, new_key, limit, seconds):
    """A worker using `key` at an address where another starts guessing: the share of its requests
    served; then how long a key new to the address (`new_key`) waits to be served there."""
    source = "127.0.0.4"
    first = request(port, key, source)
    for guess in range(limit + 5):
        request(port, f"fpk_spent{guess}", source)
    stopped = threading.Event()

    def guess():
        count = 0
        while not stopped.is_set():
            request(port, f"fpk_guess{count}", source)
            count += 1
            time.sleep(0.5)

    thread = threading.Thread(target=guess, daemon=True)
    thread.start()
    served, asked = int(first == 200), 1
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        asked += 1
        served += request(port, key, source) == 200
        time.sleep(0.5)
    started, waited = time.monotonic(), None
    while time.monotonic() - started < 30:
        if request(port, new_key, source) == 200:
            waited = time.monotonic() - started
            break
        time.sleep(0.5)
    stopped.set()
    thread.join()
    return {"served": served, "asked": asked, "newKeyWaitedSeconds": waited}


def burst(port, count):
    source = "127.0.0.5"
    with ThreadPoolExecutor(max_workers=64) as pool:
        statuses = list(pool.map(lambda index: request(port, f"fpk_burst{index}", source), range(count)))
    return {"looked_up": statuses.count(401), "limited": statuses.count(429), "sent": count}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--new-key", required=True, help="a valid key no request has used yet")
    parser.add_argument("--limit", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--only")
    options = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4096)), hard))
    figures, failed = {}, False

    def report(name, detail, held):
        nonlocal failed
        failed |= not held
        print(f"{'ok  ' if held else 'FAIL'} {name}: {detail}", flush=True)

    def report_new_clients(name, f, holding):
        """A held-connections measurement: the share of new clients answered, against 95%."""
        share = f["answered"] / max(1, f["asked"])
        report(name, f"{f['opened']} connections from one address {holding}; a new client answered within 3 s "
               f"{f['answered']} of {f['asked']} ({share:.0%}, goal 95%)", share >= 0.95)

    port = options.port
    if options.only in (None, "keep-alive"):
        figures["keepAlive"] = keep_alive(port, options.seconds)
        report_new_clients("keep-alive", figures["keepAlive"], "asking /healthz every 20 s")
    if options.only in (None, "trickle"):
        figures["trickle"] = trickle(port, options.seconds)
        report_new_clients("trickle", figures["trickle"], "trickling a body a byte every 3 s (asked after 5 s)")
    if options.only in (None, "guesser"):
        f = figures["guesser"] = guesser(port, options.key, options.new_key, options.limit, options.seconds)
        waited = "never in 30 s" if f["newKeyWaitedSeconds"] is None else f"after {f['newKeyWaitedSeconds']:.1f} s"
        report("guesser", f"a key in use beside a guesser at its address served {f['served']} of {f['asked']} "
               f"(goal all); a key new to that address served {waited}", f["served"] == f["asked"])
    if options.only in (None, "burst"):
        f = figures["burst"] = burst(port, 800)
        report("burst", f"800 wrong keys at once from one address: {f['looked_up']} looked up (401), "
               f"{f['limited']} refused (429); goal at most {options.limit}", f["looked_up"] <= options.limit)
    print(json.dumps(figures), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
