"""Did the wakes pay? Freshness of one device and of the tenant, through the layer of our own."""

from __future__ import annotations

import time

import pytest

from fetchpredict_client import APIError, FetchPredictor

# A day of Mail in Berlin: a fetch 20 minutes before a launch (fresh), 40 minutes before (not),
# 30 seconds before (not), a failed one (not), and a launch 10 minutes after another (not cold).
DAY = [
    {"timestamp": "2024-05-06T08:00:00+02:00", "app": "Mail", "event": "fetch", "result": "newData"},
    {"timestamp": "2024-05-06T08:20:00+02:00", "app": "Mail", "event": "launch"},
    {"timestamp": "2024-05-06T10:00:00+02:00", "app": "Mail", "event": "fetch", "result": "newData"},
    {"timestamp": "2024-05-06T10:40:00+02:00", "app": "Mail", "event": "launch"},
    {"timestamp": "2024-05-06T12:00:00+02:00", "app": "Mail", "event": "fetch", "result": "newData"},
    {"timestamp": "2024-05-06T12:00:30+02:00", "app": "Mail", "event": "launch"},
    {"timestamp": "2024-05-06T14:00:00+02:00", "app": "Mail", "event": "fetch", "result": "failed"},
    {"timestamp": "2024-05-06T14:10:00+02:00", "app": "Mail", "event": "launch"},
    {"timestamp": "2024-05-06T14:20:00+02:00", "app": "Mail", "event": "launch"},
]


def test_a_device_and_its_tenant_count_the_day_as_worked_by_hand(fleet: FetchPredictor) -> None:
    for device in ("phone", "tablet"):
        fleet.put_device(device, time_zone="Europe/Berlin")
        fleet.post_events(device, DAY)
    one = fleet.freshness("2024-05-06", "2024-05-07", device="phone")
    assert (one.observed.cold_launches, one.observed.fresh_cold_launches, one.observed.fetches) == (4, 1, 4)
    assert [b.strategy.value for b in one.baselines] == ["periodic-30", "periodic-60", "periodic-120", "oracle"]
    assert one.baselines[-1].fresh_cold_launches == 4
    # The tenant's figures are kept by the service's pass as events arrive: both devices, once
    # none is pending.
    deadline = time.monotonic() + 10
    tenant = fleet.freshness("2024-05-06", "2024-05-07")
    while tenant.pending_devices and time.monotonic() < deadline:
        time.sleep(0.05)
        tenant = fleet.freshness("2024-05-06", "2024-05-07")
    assert tenant.pending_devices == 0
    assert (tenant.observed.cold_launches, tenant.observed.fresh_cold_launches) == (8, 2)
    assert [a.app for a in tenant.apps] == ["Mail"]
    assert tenant.observed.median_content_age_minutes is None
    # As evaluate scores it: no app has the protocol's 20 cold launches in a day's log.
    protocol = fleet.freshness("2024-05-01", "2024-05-10", device="phone", scope="protocol")
    assert protocol.observed.cold_launches == 0 and protocol.observed.days == 0


def test_a_bad_period_names_its_field(fleet: FetchPredictor) -> None:
    with pytest.raises(APIError) as refused:
        fleet.freshness("2024-05-08", "2024-05-06")
    assert refused.value.status == 400 and refused.value.field == "to"
