"""Settings and the device list, through the layer of our own against a live service."""

from __future__ import annotations

from fetchpredict_client import UNSET, FetchPredictor


def test_settings_round_trip(fleet: FetchPredictor) -> None:
    # Given a device made with a zone, an interval and a push budget,
    put = fleet.put_device("phone", time_zone="Europe/Warsaw", default_interval="minimum", wakes_per_hour=3)
    # then the service answers what it now holds, and a GET answers the same.
    assert (put.device, put.time_zone, put.default_interval, put.wakes_per_hour) == (
        "phone", "Europe/Warsaw", "minimum", 3,
    )
    assert fleet.device("phone").to_dict() == put.to_dict()

    # When only the interval changes, the zone and the budget stay as they were;
    fleet.put_device("phone", default_interval=3600)
    kept = fleet.device("phone")
    assert (kept.time_zone, kept.default_interval, kept.wakes_per_hour) == ("Europe/Warsaw", "3600", 3)

    # and a budget of None takes the budget away: None, and whose it is, "none".
    fleet.put_device("phone", wakes_per_hour=None)
    cleared = fleet.device("phone")
    assert cleared.wakes_per_hour is None and cleared.wakes_per_hour_from == "none"

    # A budget the tenant sets is the one the device is planned with, and says whose it is.
    fleet.put_tenant_settings(wakes_per_hour=2)
    inherited = fleet.device("phone")
    assert (inherited.wakes_per_hour, inherited.wakes_per_hour_from) == (2, "tenant")
    fleet.put_tenant_settings(wakes_per_hour=None)


def test_forecaster_round_trip(fleet: FetchPredictor) -> None:
    # A device is planned with the service's forecaster until it sets its own;
    put = fleet.put_device("phone", time_zone="Europe/Warsaw")
    assert (put.forecaster.value, put.forecaster_from.value) == ("hazard", "service")
    # one it sets is answered back, and a GET answers the same;
    own = fleet.put_device("phone", forecaster="daily")
    assert (own.forecaster.value, own.forecaster_from.value) == ("daily", "device")
    assert fleet.device("phone").to_dict() == own.to_dict()
    # and None returns it to the service's.
    back = fleet.put_device("phone", forecaster=None)
    assert (back.forecaster.value, back.forecaster_from.value) == ("hazard", "service")


def test_tenant_budget_round_trip(fleet: FetchPredictor) -> None:
    # A tenant starts with no budget; one set is answered back, and None takes it away.
    assert fleet.tenant_settings().wakes_per_hour is None
    assert fleet.put_tenant_settings(wakes_per_hour=2).wakes_per_hour == 2
    assert fleet.tenant_settings().wakes_per_hour == 2
    assert fleet.put_tenant_settings(wakes_per_hour=None).wakes_per_hour is None


def test_app_settings(fleet: FetchPredictor) -> None:
    fleet.put_device("phone", time_zone="Europe/Warsaw")
    app = fleet.put_app("phone", "com.example/news", interval="never", enabled=False)
    assert (app.app, app.interval, app.enabled) == ("com.example/news", "never", False)
    again = fleet.put_app("phone", "com.example/news", interval=None, enabled=True)
    assert (again.interval, again.enabled) == (UNSET, True)
    needs = fleet.put_app("phone", "com.example/news", requires_power=True, requires_unmetered=True)
    assert (needs.requires_power, needs.requires_unmetered, needs.requires_battery_not_low) == (True, True, False)
    assert needs.enabled is True
    lifted = fleet.put_app("phone", "com.example/news", requires_unmetered=False)
    assert (lifted.requires_power, lifted.requires_unmetered) == (True, False)


def test_devices_iterates_every_page(fleet: FetchPredictor) -> None:
    # Seven devices, two a page: four pages, every name once, in byte order.
    names = ["b", "a", "Z", "żółw", "c1", "c10", "c2"]
    for name in names:
        fleet.put_device(name, time_zone="UTC")
    assert list(fleet.devices(page_size=2)) == sorted(names, key=lambda name: name.encode())
    assert list(fleet.devices()) == sorted(names, key=lambda name: name.encode())


def test_delete_device(fleet: FetchPredictor) -> None:
    fleet.put_device("gone", time_zone="UTC")
    fleet.post_events("gone", [{"timestamp": "2024-01-01T07:00:00Z", "app": "news", "event": "launch"}])
    erased = fleet.delete_device("gone")
    assert (erased.device, erased.erased.launches) == ("gone", 1)
    assert list(fleet.devices()) == []
