"""Failures: the status, the service's sentence and the field at fault, in one line."""

from __future__ import annotations

import socket
from datetime import datetime

import pytest
from conftest import Service

from fetchpredict_client import APIError, FetchPredictor, RetriesExhausted, Unreachable


def test_a_400_names_the_field(fleet: FetchPredictor) -> None:
    with pytest.raises(APIError) as refused:
        fleet.put_device("phone", time_zone="Mars/Base")
    error = refused.value
    assert not isinstance(error, RetriesExhausted)
    assert (error.status, error.field) == (400, "timeZone")
    assert "Mars/Base" in error.error
    assert str(error) == f"HTTP 400: timeZone: {error.error}"
    assert "\n" not in str(error)


def test_a_400_names_the_event_at_fault(fleet: FetchPredictor) -> None:
    batch = [
        {"timestamp": "2024-01-22T07:00:00Z", "app": "news", "event": "launch"},
        {"timestamp": "2024-01-22T08:00:00", "app": "news", "event": "launch"},
    ]
    with pytest.raises(APIError) as refused:
        fleet.post_events("phone", batch)
    assert (refused.value.status, refused.value.field) == (400, "events[1].timestamp")
    # All or none: the valid first event was not stored either.
    assert list(fleet.devices()) == []


def test_the_feed_refuses_a_before_that_is_no_instant(fleet: FetchPredictor) -> None:
    with pytest.raises(APIError) as refused:
        list(fleet.due_wakes("tomorrow"))
    assert (refused.value.status, refused.value.field) == (400, "before")


def test_an_unknown_device_is_404(fleet: FetchPredictor) -> None:
    with pytest.raises(APIError) as refused:
        fleet.next_wake("nowhere", now="2024-01-22T05:00:00Z")
    assert refused.value.status == 404
    assert "nowhere" in refused.value.error


def test_a_key_that_is_not_valid_is_401(service: Service) -> None:
    with FetchPredictor(service.url, "fpk_not_a_key") as stranger, pytest.raises(APIError) as refused:
        list(stranger.devices())
    assert refused.value.status == 401
    assert refused.value.error


def test_a_local_time_is_refused_before_anything_is_sent(fleet: FetchPredictor) -> None:
    with pytest.raises(ValueError, match="no UTC offset"):
        fleet.claim(datetime(2024, 1, 22, 8), limit=1, lease_seconds=60)


def test_a_service_that_is_not_there_is_unreachable() -> None:
    # A port that was free a moment ago, and on which nothing listens.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with FetchPredictor(f"http://127.0.0.1:{port}", "k") as nobody, pytest.raises(Unreachable) as failed:
        nobody.device("phone")
    assert str(failed.value).startswith(f"cannot reach http://127.0.0.1:{port}: ")
    assert "\n" not in str(failed.value)


def test_a_url_the_client_cannot_use_says_so() -> None:
    with FetchPredictor("127.0.0.1:8080", "k") as nowhere, pytest.raises(Unreachable) as failed:
        nowhere.device("phone")
    assert str(failed.value).startswith("127.0.0.1:8080 is not a URL the client can use (")
