#!/usr/bin/env python3
"""Claim the fleet's due wakes, push them, and record what each push fetched: a push worker.

A sketch of the worker of a push service, on the Python client (`pip install ./clients/python`).
Each round claims the wakes due within the next minute (`POST /v1/wakes/claim` with `before` one
minute after now), leased to this worker alone for `--lease` seconds; prints the silent push it
would send for each (the device, the wake's time and its apps); and records, for each app of each
wake, the fetch that the push brings (event `fetch`, result `newData`, `--duration` seconds, at the
wake's time) through the events route, which moves the device's plan on. Then it sleeps `--every`
seconds and claims again. Run as many workers as you like: no two get the same wake, and the wakes
of a worker that dies come back to the others when their lease ends.

    pip install ./clients/python
    KEY=$(fetchpredict keys create --tenant demo | awk '{print $NF}')
    fetchpredict serve &
    examples/python/worker.py --key "$KEY"

`--now` stands the worker's clock at an instant, for old data (a replayed log) and tests; `--once`
claims one round and exits. A failure is one line on standard error: with `--once`, or for a
refusal that asking again cannot mend (a 4xx such as a revoked key), the status is 1; otherwise
the worker says what failed and claims again at the next round, as a service's restart calls for.
"""

import argparse
import os
import sys
import time
from datetime import datetime, timedelta, timezone

try:
    from fetchpredict_client import APIError, DeviceWake, FetchPredictor, FetchPredictorError, RetriesExhausted
except ImportError as error:
    print(f"worker.py: the Python client is not installed ({error}): pip install ./clients/python", file=sys.stderr)
    sys.exit(1)

# How far ahead a round claims: a silent push lands within seconds, and a wake a minute early or
# late is worth about as much as one on time.
AHEAD = timedelta(minutes=1)


def instant(text: str) -> datetime:
    """An instant from the command line: ISO 8601 with `Z` or an offset; a local time is refused."""
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an ISO 8601 instant such as 2024-01-22T06:45:00Z") from None
    if value.utcoffset() is None:
        raise argparse.ArgumentTypeError(f"'{text}' has no UTC offset: add Z or one, such as +01:00")
    return value


def stamp(value: datetime) -> str:
    return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def describe(wake: DeviceWake) -> str:
    apps = ", ".join(f"{app.app} ({app.expected_launches:.2f} expected)" for app in wake.apps)
    return f"push {wake.device} at {wake.time}: {apps}"


def fetches(wake: DeviceWake, duration: float) -> list[dict[str, object]]:
    """The fetch results the push of `wake` brings: one `newData` fetch of each of its apps."""
    return [
        {"timestamp": wake.time, "app": app.app, "event": "fetch", "result": "newData", "duration": duration}
        for app in wake.apps
    ]


def round_of_claims(client: FetchPredictor, options: argparse.Namespace) -> tuple[str, int]:
    """Claims, pushes and records the wakes due within a minute of now: the instant they are due
    before, and how many."""
    now = options.now or datetime.now(timezone.utc)
    before = stamp(now + AHEAD)
    wakes = client.claim(before, options.limit, options.lease, now=stamp(options.now) if options.now else None)
    for wake in wakes:
        print(describe(wake), flush=True)
        client.post_events(wake.device, fetches(wake, options.duration))
    return before, len(wakes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("FETCHPREDICT_URL", "http://127.0.0.1:8080"),
                        help="the service (or $FETCHPREDICT_URL; default: http://127.0.0.1:8080)")
    parser.add_argument("--key", default=os.environ.get("FETCHPREDICT_KEY"), help="an API key (or $FETCHPREDICT_KEY)")
    parser.add_argument("--limit", type=int, default=100, help="wakes a claim, 1 to 1000 (default: 100)")
    parser.add_argument("--lease", type=int, default=60, help="seconds a claimed wake is this worker's (default: 60)")
    parser.add_argument("--every", type=float, default=15, help="seconds between rounds (default: 15)")
    parser.add_argument("--duration", type=float, default=2.0, help="seconds each recorded fetch took (default: 2)")
    parser.add_argument("--now", type=instant, help="the instant to act at instead of the clock, for old data and tests (with --once)")
    parser.add_argument("--once", action="store_true", help="claim one round, then exit")
    options = parser.parse_args()
    if not options.key:
        parser.error("give --key or set FETCHPREDICT_KEY")
    if not 1 <= options.limit <= 1000:
        parser.error("--limit must be from 1 to 1000")
    if options.every < 0 or options.duration < 0:
        parser.error("--every and --duration must be 0 or more seconds")

    with FetchPredictor(options.url, options.key) as client:
        while True:
            try:
                before, pushed = round_of_claims(client, options)
                if options.once or pushed:
                    print(f"Pushed {pushed} wakes due before {before}.", flush=True)
            except FetchPredictorError as error:
                print(f"worker.py: {error}", file=sys.stderr, flush=True)
                # A refusal (a bad key, a bad flag the service names) is the same next round.
                final = isinstance(error, APIError) and not isinstance(error, RetriesExhausted) and error.status < 500
                if options.once or final:
                    return 1
                pushed = 0
            if options.once:
                return 0
            # A full claim may have left more due: the next round starts at once.
            if pushed < options.limit:
                time.sleep(options.every)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # The reader of the output went away (`| head`): stop quietly, as command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
