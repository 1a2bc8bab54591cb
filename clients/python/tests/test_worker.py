"""examples/python/worker.py against the live service: it pushes what it claims, records a fetch
for each app of each wake, and says what failed in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import Service
from history import news_reader
from test_feed import make_fleet

from fetchpredict_client import FetchPredictor

WORKER = Path(__file__).resolve().parents[3] / "examples" / "python" / "worker.py"
NOW = "2024-01-22T07:02:30Z"
BEFORE = "2024-01-22T07:03:30Z"


def work(url: str, key: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(WORKER), "--url", url, "--key", key, *flags],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_worker_pushes_what_it_claims_and_records_the_fetches(
    fleet: FetchPredictor, service: Service, tenant_key: str
) -> None:
    # Given five readers and two twins of the third, whose wakes fall in the same minute,
    make_fleet(fleet)
    for twin in ("twin-a", "twin-b"):
        fleet.put_device(twin, time_zone="Europe/Warsaw", default_interval="minimum")
        fleet.post_events(twin, news_reader(2 * 37))
    due = list(fleet.due_wakes(BEFORE, now=NOW))
    assert sorted(wake.device for wake in due) == ["reader-3", "twin-a", "twin-b"]

    # when the worker runs one round at 07:02:30,
    ran = work(service.url, tenant_key, "--once", "--now", NOW, "--duration", "3.5")

    # then it pushes each wake due in the next minute once, in the order of their times,
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr == ""
    lines = ran.stdout.splitlines()
    assert lines[:-1] == [
        f"push {wake.device} at {wake.time}: {wake.apps[0].app} ({wake.apps[0].expected_launches:.2f} expected)"
        for wake in due
    ]
    assert lines[-1] == f"Pushed 3 wakes due before {BEFORE}."
    # has recorded a newData fetch of 3.5 s at each wake's time (sent again, it is a duplicate),
    for wake in due:
        again = fleet.post_events(
            wake.device,
            [{"timestamp": wake.time, "app": "com.example.news", "event": "fetch", "result": "newData", "duration": 3.5}],
        )
        assert (again.stored, again.duplicates) == (0, 1), wake.device
    # and leased them: another worker's round gets none of them.
    second = work(service.url, tenant_key, "--once", "--now", NOW)
    assert second.stdout.splitlines() == [f"Pushed 0 wakes due before {BEFORE}."]


def test_the_worker_says_in_one_line_that_the_service_is_not_there() -> None:
    ran = work("http://127.0.0.1:1", "k", "--once")
    assert ran.returncode == 1
    assert ran.stdout == ""
    assert ran.stderr.startswith("worker.py: cannot reach http://127.0.0.1:1: ")
    assert ran.stderr.count("\n") == 1 and "Traceback" not in ran.stderr


def test_the_worker_stops_at_a_refused_key(service: Service) -> None:
    # Not with --once: a refusal that asking again cannot mend ends the loop too.
    ran = work(service.url, "fpk_revoked", "--every", "0")
    assert ran.returncode == 1
    assert ran.stderr.startswith("worker.py: HTTP 401: ")
    assert ran.stderr.count("\n") == 1 and "Traceback" not in ran.stderr


def test_the_worker_refuses_a_local_time(service: Service) -> None:
    ran = work(service.url, "k", "--once", "--now", "2024-01-22T06:40:30")
    assert ran.returncode == 2
    assert "has no UTC offset" in ran.stderr and "Traceback" not in ran.stderr
