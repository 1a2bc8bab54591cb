from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.put_device_body_forecaster_type_0 import PutDeviceBodyForecasterType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="PutDeviceBody")


@_attrs_define
class PutDeviceBody:
    """
    Attributes:
        time_zone (str | Unset): An IANA zone name.
        default_interval (int | str | Unset): The minimum background fetch interval: `never`, `minimum`, or a whole
            number of seconds from 1 to 2,592,000 (30 days), as a number or as text.
        wakes_per_hour (int | None | Unset): A push budget: at most this many device wakes in any hour of the device's
            plans, the wakes worth the most expected launches kept; null for none.
        forecaster (None | PutDeviceBodyForecasterType0 | Unset): What forecasts the device's cold launches: hazard (the
            launch hazard learned from the device's apps), profile (the daily profile and the return after a launch, weighed
            by hand), daily (the daily profile alone) or trees (the launch model shipped with the service, an experiment);
            null for the service's (serve --forecaster).
    """

    time_zone: str | Unset = UNSET
    default_interval: int | str | Unset = UNSET
    wakes_per_hour: int | None | Unset = UNSET
    forecaster: None | PutDeviceBodyForecasterType0 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        time_zone = self.time_zone

        default_interval: int | str | Unset
        if isinstance(self.default_interval, Unset):
            default_interval = UNSET
        else:
            default_interval = self.default_interval

        wakes_per_hour: int | None | Unset
        if isinstance(self.wakes_per_hour, Unset):
            wakes_per_hour = UNSET
        else:
            wakes_per_hour = self.wakes_per_hour

        forecaster: None | str | Unset
        if isinstance(self.forecaster, Unset):
            forecaster = UNSET
        elif isinstance(self.forecaster, PutDeviceBodyForecasterType0):
            forecaster = self.forecaster.value
        else:
            forecaster = self.forecaster

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if time_zone is not UNSET:
            field_dict["timeZone"] = time_zone
        if default_interval is not UNSET:
            field_dict["defaultInterval"] = default_interval
        if wakes_per_hour is not UNSET:
            field_dict["wakesPerHour"] = wakes_per_hour
        if forecaster is not UNSET:
            field_dict["forecaster"] = forecaster

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        time_zone = d.pop("timeZone", UNSET)

        def _parse_default_interval(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        default_interval = _parse_default_interval(d.pop("defaultInterval", UNSET))

        def _parse_wakes_per_hour(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        wakes_per_hour = _parse_wakes_per_hour(d.pop("wakesPerHour", UNSET))

        def _parse_forecaster(
            data: object,
        ) -> None | PutDeviceBodyForecasterType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                forecaster_type_0 = PutDeviceBodyForecasterType0(data)

                return forecaster_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PutDeviceBodyForecasterType0 | Unset, data)

        forecaster = _parse_forecaster(d.pop("forecaster", UNSET))

        put_device_body = cls(
            time_zone=time_zone,
            default_interval=default_interval,
            wakes_per_hour=wakes_per_hour,
            forecaster=forecaster,
        )

        return put_device_body
