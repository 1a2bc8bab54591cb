"""Events in, the next wake out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from history import news_reader

from fetchpredict_client import Event, FetchPredictor
from fetchpredict_client.generated.models import EventEvent


def test_events_then_next_wake(fleet: FetchPredictor) -> None:
    # Given three weeks of a person who reads the news at 07:00 and 20:00 UTC,
    fleet.put_device("phone", time_zone="Europe/Warsaw", default_interval="minimum")
    events = news_reader()
    stored = fleet.post_events("phone", events)
    assert (stored.received, stored.stored, stored.duplicates) == (42, 42, 0)

    # when the next wake is asked at 05:00 the next morning,
    now = datetime(2024, 1, 22, 5, tzinfo=UTC)
    wake = fleet.next_wake("phone", now=now)

    # then it wakes the news app after now and before the usual 07:00 launch,
    assert wake is not None
    assert wake.device == "phone"
    assert [app.app for app in wake.apps] == ["com.example.news"]
    time = datetime.fromisoformat(wake.time)
    assert now < time <= now + timedelta(hours=2), wake.time
    # the same wake whatever the form of the instant asked with,
    assert fleet.next_wake("phone", now="2024-01-22T06:00:00+01:00") == wake
    # and none when only a wake before 05:01 would do.
    assert fleet.next_wake("phone", now=now, before=now + timedelta(minutes=1)) is None


def test_a_batch_sent_again_is_counted_as_duplicates(fleet: FetchPredictor) -> None:
    batch: list[Event | dict[str, object]] = [
        Event(timestamp="2024-01-22T07:00:00Z", event=EventEvent.LAUNCH, app="com.example.news"),
        {"timestamp": 1705910700, "app": "com.example.news", "event": "fetch", "result": "newData", "duration": 2.5},
    ]
    first = fleet.post_events("phone", batch)
    again = fleet.post_events("phone", batch)
    assert (first.stored, first.duplicates) == (2, 0)
    assert (again.stored, again.duplicates) == (0, 2)


def test_no_wake_without_history(fleet: FetchPredictor) -> None:
    fleet.put_device("new", time_zone="Europe/Warsaw")
    assert fleet.next_wake("new", now="2024-01-22T05:00:00Z") is None
