from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.freshness_figures_strategy import FreshnessFiguresStrategy

T = TypeVar("T", bound="FreshnessFigures")


@_attrs_define
class FreshnessFigures:
    """
    Attributes:
        strategy (FreshnessFiguresStrategy): `observed` for the fetches sent; `periodic-N` for a fetch of every app
            every N minutes from local midnight; `oracle` for a fetch a minute before each cold launch.
        cold_launches (int):
        fresh_cold_launches (int):
        fetches (int):
        app_days (int): For each day, the apps launched or fetched on it.
        days (int): Local days; over a tenant, the days of each device with a launch or fetch.
        device_wakes (int): Distinct instants at which at least one app fetched.
        wasted_no_data (int):
        wasted_failed (int):
        wasted_superseded (int): Fetches followed within a day by another refresh of the app before any launch of it.
        wasted (int):
        median_content_age_minutes (float | None): The median age of the content at a cold launch; null over a tenant
            (medians do not add up).
        fresh_rate (float):
        fetches_per_app_day (float):
        device_wakes_per_day (float):
    """

    strategy: FreshnessFiguresStrategy
    cold_launches: int
    fresh_cold_launches: int
    fetches: int
    app_days: int
    days: int
    device_wakes: int
    wasted_no_data: int
    wasted_failed: int
    wasted_superseded: int
    wasted: int
    median_content_age_minutes: float | None
    fresh_rate: float
    fetches_per_app_day: float
    device_wakes_per_day: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        strategy = self.strategy.value

        cold_launches = self.cold_launches

        fresh_cold_launches = self.fresh_cold_launches

        fetches = self.fetches

        app_days = self.app_days

        days = self.days

        device_wakes = self.device_wakes

        wasted_no_data = self.wasted_no_data

        wasted_failed = self.wasted_failed

        wasted_superseded = self.wasted_superseded

        wasted = self.wasted

        median_content_age_minutes: float | None
        median_content_age_minutes = self.median_content_age_minutes

        fresh_rate = self.fresh_rate

        fetches_per_app_day = self.fetches_per_app_day

        device_wakes_per_day = self.device_wakes_per_day

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "strategy": strategy,
                "coldLaunches": cold_launches,
                "freshColdLaunches": fresh_cold_launches,
                "fetches": fetches,
                "appDays": app_days,
                "days": days,
                "deviceWakes": device_wakes,
                "wastedNoData": wasted_no_data,
                "wastedFailed": wasted_failed,
                "wastedSuperseded": wasted_superseded,
                "wasted": wasted,
                "medianContentAgeMinutes": median_content_age_minutes,
                "freshRate": fresh_rate,
                "fetchesPerAppDay": fetches_per_app_day,
                "deviceWakesPerDay": device_wakes_per_day,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        strategy = FreshnessFiguresStrategy(d.pop("strategy"))

        cold_launches = d.pop("coldLaunches")

        fresh_cold_launches = d.pop("freshColdLaunches")

        fetches = d.pop("fetches")

        app_days = d.pop("appDays")

        days = d.pop("days")

        device_wakes = d.pop("deviceWakes")

        wasted_no_data = d.pop("wastedNoData")

        wasted_failed = d.pop("wastedFailed")

        wasted_superseded = d.pop("wastedSuperseded")

        wasted = d.pop("wasted")

        def _parse_median_content_age_minutes(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        median_content_age_minutes = _parse_median_content_age_minutes(
            d.pop("medianContentAgeMinutes")
        )

        fresh_rate = d.pop("freshRate")

        fetches_per_app_day = d.pop("fetchesPerAppDay")

        device_wakes_per_day = d.pop("deviceWakesPerDay")

        freshness_figures = cls(
            strategy=strategy,
            cold_launches=cold_launches,
            fresh_cold_launches=fresh_cold_launches,
            fetches=fetches,
            app_days=app_days,
            days=days,
            device_wakes=device_wakes,
            wasted_no_data=wasted_no_data,
            wasted_failed=wasted_failed,
            wasted_superseded=wasted_superseded,
            wasted=wasted,
            median_content_age_minutes=median_content_age_minutes,
            fresh_rate=fresh_rate,
            fetches_per_app_day=fetches_per_app_day,
            device_wakes_per_day=device_wakes_per_day,
        )

        freshness_figures.additional_properties = d
        return freshness_figures

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
