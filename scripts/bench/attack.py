#!/usr/bin/env python3
"""The attacks of scripts/attack.sh, against a running `fetchpredict serve`.

    attack.py --port PORT --key KEY --files OPEN-FILES --pid PID

Each attack is followed by a check: the process is alive and GET /healthz answers 200 within a
second. Prints one line an attack; exits 1 when a check failed.
"""

import argparse
import os
import resource
import socket
import sys
import time


def connect(port, timeout=2.0):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.settimeout(timeout)
    return s


def status_of(port, raw, wait=5.0):
    """The status code the service answers to raw bytes, or 0 when it closed without one."""
    try:
        s = connect(port, wait)
        s.sendall(raw)
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        s.close()
        return int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.1 ") else 0
    except OSError:
        return 0


def alive(port, pid):
    """Whether the process lives and answers /healthz within a second."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False, "the process is gone"
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        if status_of(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 1.0) == 200:
            return True, "answers /healthz"
        time.sleep(0.05)
    return False, "does not answer /healthz within a second"


def still_open(sockets):
    """How many of the sockets the service has not closed: an answer it sent (a 408) is read
    through, and a socket is open when nothing more is there to read yet."""
    count = 0
    for s in sockets:
        s.setblocking(False)
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break  # closed by the service
        except BlockingIOError:
            count += 1
        except OSError:
            pass  # reset by the service
    return count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--files", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    options = parser.parse_args()
    port, failed = options.port, False

    def check(name, detail, held=True):
        """Prints an attack's outcome: it failed when the service is down after it, or when
        `held` says the service answered it wrongly."""
        nonlocal failed
        ok, said = alive(port, options.pid)
        ok = ok and held
        failed |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}; then the service {said}")

    # 1. A flood: four times the service's open files, held for 3 s (this process may open more).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, options.files * 4 + 256)), hard))
    flood, refused = [], 0
    for _ in range(options.files * 4):
        try:
            flood.append(connect(port, 1.0))
        except OSError:
            refused += 1
            if refused > 200:
                break
    time.sleep(3)
    kept = still_open(flood)
    for s in flood:
        s.close()
    check("connection flood", f"{len(flood)} connections opened ({refused} refused), {kept} still open after 3 s")

    # 2. Slow bodies: a GET and a POST refused with 401, each declaring 100,000 bytes and sending
    #    a byte every 2 s, 50 connections of each, for 12 s (--read-timeout 5).
    slow = []
    for index in range(100):
        head = (b"GET /healthz" if index % 2 else b"POST /v1/devices/phone/events") + \
            b" HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"
        try:
            s = connect(port)
            s.sendall(head)
            slow.append(s)
        except OSError:
            pass
    for _ in range(6):
        time.sleep(2)
        for s in slow:
            try:
                s.send(b"x")
            except OSError:
                pass
    kept = still_open(slow)
    for s in slow:
        s.close()
    check("slow bodies", f"{len(slow)} trickling connections, {kept} still open after 12 s at --read-timeout 5",
          held=kept == 0)

    # 3. Malformed framing: a chunk size of 'zz'.
    code = status_of(port, b"POST /v1/devices/phone/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                     + options.key.encode() + b"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
    check("malformed chunk size", f"answered {code}", held=code < 500)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
