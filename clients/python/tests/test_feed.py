"""The feed, `GET /v1/wakes`, through every page: device by device, what next_wake gives."""

from __future__ import annotations

from datetime import datetime

from conftest import Service
from history import news_reader

from fetchpredict_client import DeviceWake, FetchPredictor
from fetchpredict_client.generated.api.default import due_wakes
from fetchpredict_client.generated.models import Wakes

NOW = "2024-01-22T05:00:00Z"
BEFORE = "2024-01-22T23:00:00Z"
# Five readers of the news, each 37 minutes after the one before; named so that the order of
# their names is not the order of their wakes.
READERS = {f"reader-{5 - index}": index * 37 for index in range(5)}


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def make_fleet(fleet: FetchPredictor) -> None:
    for device, shift in READERS.items():
        fleet.put_device(device, time_zone="Europe/Warsaw", default_interval="minimum")
        fleet.post_events(device, news_reader(shift))
    # A device whose apps may never fetch has no wake, and is not in the feed.
    fleet.put_device("quiet", time_zone="Europe/Warsaw", default_interval="never")
    fleet.post_events("quiet", news_reader())


def as_dicts(wakes: list[DeviceWake]) -> list[dict[str, object]]:
    return [wake.to_dict() for wake in wakes]


def test_the_feed_is_next_wake_device_by_device(fleet: FetchPredictor) -> None:
    make_fleet(fleet)
    # When the feed is read two wakes a page,
    feed = list(fleet.due_wakes(BEFORE, now=NOW, page_size=2))
    # then it holds, in the order of their times, every device whose next wake at the same now
    # comes before `before`, each exactly as next_wake gives it;
    wakes = [fleet.next_wake(device, now=NOW) for device in [*READERS, "quiet"]]
    expected = [wake for wake in wakes if wake is not None and at(wake.time) < at(BEFORE)]
    expected.sort(key=lambda wake: (at(wake.time), wake.device))
    assert as_dicts(feed) == as_dicts(expected)
    # every reader is due, and their wakes are all different,
    assert sorted(wake.device for wake in feed) == sorted(READERS)
    assert len({wake.time for wake in feed}) == len(READERS)
    # and the device that may never fetch is not.
    assert fleet.next_wake("quiet", now=NOW) is None


def test_the_feed_stops_before_before(fleet: FetchPredictor) -> None:
    make_fleet(fleet)
    feed = list(fleet.due_wakes(BEFORE, now=NOW))
    # Asked for the wakes before the third one's time, it gives the first two, and only those.
    third = feed[2].time
    assert as_dicts(list(fleet.due_wakes(third, now=NOW, page_size=1))) == as_dicts(feed[:2])


def test_the_feed_comes_in_pages_with_a_cursor(fleet: FetchPredictor) -> None:
    make_fleet(fleet)
    first = due_wakes.sync(client=fleet.api, before=BEFORE, now=NOW, limit=2)
    assert isinstance(first, Wakes)
    assert len(first.wakes) == 2 and isinstance(first.cursor, str)
    rest = list(fleet.due_wakes(BEFORE, now=NOW, page_size=2))[2:]
    second = due_wakes.sync(client=fleet.api, before=BEFORE, now=NOW, limit=2, cursor=first.cursor)
    assert isinstance(second, Wakes)
    assert as_dicts(second.wakes) == as_dicts(rest[:2])


def test_the_feed_holds_no_other_tenants_device(fleet: FetchPredictor, service: Service) -> None:
    make_fleet(fleet)
    # Given another tenant with a reader of its own, due before the same instant,
    with FetchPredictor(service.url, service.new_key("other")) as other:
        other.put_device("elsewhere", time_zone="Europe/Warsaw", default_interval="minimum")
        other.post_events("elsewhere", news_reader(15))
        assert [wake.device for wake in other.due_wakes(BEFORE, now=NOW)] == ["elsewhere"]
    # then this tenant's feed does not hold it.
    assert sorted(wake.device for wake in fleet.due_wakes(BEFORE, now=NOW, page_size=1)) == sorted(READERS)
