"""Claims, `POST /v1/wakes/claim`: a due wake is leased to one caller while its lease holds."""

from __future__ import annotations

import threading
import time

from conftest import Service
from test_feed import BEFORE, NOW, READERS, make_fleet

from fetchpredict_client import FetchPredictor


def test_claims_never_hand_out_a_device_twice(fleet: FetchPredictor) -> None:
    make_fleet(fleet)
    # Claimed two at a time while the leases hold (ten minutes),
    rounds = []
    while wakes := fleet.claim(BEFORE, limit=2, lease_seconds=600, now=NOW):
        assert len(wakes) <= 2
        rounds.append(wakes)
        assert len(rounds) <= len(READERS), "claims go on handing out wakes"
    # every due device comes once, in three rounds, and each as the feed gives it: a lease hides
    # a wake from other claims, not from the feed.
    claimed = [wake for wakes in rounds for wake in wakes]
    assert [len(wakes) for wakes in rounds] == [2, 2, 1]
    assert sorted(wake.device for wake in claimed) == sorted(READERS)
    feed = {wake.device: wake.to_dict() for wake in fleet.due_wakes(BEFORE, now=NOW)}
    assert {wake.device: wake.to_dict() for wake in claimed} == feed
    # Once all are leased, a claim of any size gets none.
    assert fleet.claim(BEFORE, limit=100, lease_seconds=600, now=NOW) == []


def test_workers_claiming_at_once_share_the_wakes(fleet: FetchPredictor, service: Service, tenant_key: str) -> None:
    make_fleet(fleet)
    # Four workers, each with a client of its own, claim one wake at a time, all at once.
    start = threading.Barrier(4)
    got: list[list[str]] = [[] for _ in range(4)]

    def work(worker: int) -> None:
        with FetchPredictor(service.url, tenant_key) as client:
            start.wait()
            while wakes := client.claim(BEFORE, limit=1, lease_seconds=600, now=NOW):
                got[worker].extend(wake.device for wake in wakes)

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    # No device went to two workers, or twice to one, and none was lost.
    claimed = [device for devices in got for device in devices]
    assert sorted(claimed) == sorted(READERS)


def test_a_lease_that_ends_gives_the_wake_back(fleet: FetchPredictor) -> None:
    make_fleet(fleet)
    first = fleet.claim(BEFORE, limit=1, lease_seconds=1, now=NOW)
    assert len(first) == 1
    time.sleep(2.1)
    # The first wake's lease (one second, by the service's clock) has ended: it is claimed again.
    again = fleet.claim(BEFORE, limit=1, lease_seconds=600, now=NOW)
    assert [wake.to_dict() for wake in again] == [wake.to_dict() for wake in first]
