from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeviceSettings")


@_attrs_define
class DeviceSettings:
    """
    Attributes:
        device (str):
        default_interval (str):
        time_zone (str | Unset):
        wakes_per_hour (int | Unset): The device's push budget, when it has one.
    """

    device: str
    default_interval: str
    time_zone: str | Unset = UNSET
    wakes_per_hour: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        default_interval = self.default_interval

        time_zone = self.time_zone

        wakes_per_hour = self.wakes_per_hour

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device": device,
                "defaultInterval": default_interval,
            }
        )
        if time_zone is not UNSET:
            field_dict["timeZone"] = time_zone
        if wakes_per_hour is not UNSET:
            field_dict["wakesPerHour"] = wakes_per_hour

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        device = d.pop("device")

        default_interval = d.pop("defaultInterval")

        time_zone = d.pop("timeZone", UNSET)

        wakes_per_hour = d.pop("wakesPerHour", UNSET)

        device_settings = cls(
            device=device,
            default_interval=default_interval,
            time_zone=time_zone,
            wakes_per_hour=wakes_per_hour,
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
