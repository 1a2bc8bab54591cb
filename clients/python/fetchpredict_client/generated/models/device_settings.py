from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.device_settings_forecaster import DeviceSettingsForecaster
from ..models.device_settings_forecaster_from import DeviceSettingsForecasterFrom
from ..models.device_settings_wakes_per_hour_from import DeviceSettingsWakesPerHourFrom
from ..types import UNSET, Unset

T = TypeVar("T", bound="DeviceSettings")


@_attrs_define
class DeviceSettings:
    """
    Attributes:
        device (str):
        default_interval (str):
        wakes_per_hour (int | None): The push budget the device is planned with (at most this many device wakes in any
            hour): its own, else its tenant's, else the store's; null for none.
        wakes_per_hour_from (DeviceSettingsWakesPerHourFrom): Whose budget wakesPerHour is.
        forecaster (DeviceSettingsForecaster): What forecasts the device's cold launches, its own or else the service's.
        forecaster_from (DeviceSettingsForecasterFrom): Whose forecaster that is.
        time_zone (str | Unset):
    """

    device: str
    default_interval: str
    wakes_per_hour: int | None
    wakes_per_hour_from: DeviceSettingsWakesPerHourFrom
    forecaster: DeviceSettingsForecaster
    forecaster_from: DeviceSettingsForecasterFrom
    time_zone: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        default_interval = self.default_interval

        wakes_per_hour: int | None
        wakes_per_hour = self.wakes_per_hour

        wakes_per_hour_from = self.wakes_per_hour_from.value

        forecaster = self.forecaster.value

        forecaster_from = self.forecaster_from.value

        time_zone = self.time_zone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device": device,
                "defaultInterval": default_interval,
                "wakesPerHour": wakes_per_hour,
                "wakesPerHourFrom": wakes_per_hour_from,
                "forecaster": forecaster,
                "forecasterFrom": forecaster_from,
            }
        )
        if time_zone is not UNSET:
            field_dict["timeZone"] = time_zone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        device = d.pop("device")

        default_interval = d.pop("defaultInterval")

        def _parse_wakes_per_hour(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        wakes_per_hour = _parse_wakes_per_hour(d.pop("wakesPerHour"))

        wakes_per_hour_from = DeviceSettingsWakesPerHourFrom(d.pop("wakesPerHourFrom"))

        forecaster = DeviceSettingsForecaster(d.pop("forecaster"))

        forecaster_from = DeviceSettingsForecasterFrom(d.pop("forecasterFrom"))

        time_zone = d.pop("timeZone", UNSET)

        device_settings = cls(
            device=device,
            default_interval=default_interval,
            wakes_per_hour=wakes_per_hour,
            wakes_per_hour_from=wakes_per_hour_from,
            forecaster=forecaster,
            forecaster_from=forecaster_from,
            time_zone=time_zone,
        )

        device_settings.additional_properties = d
        return device_settings

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
