from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PutAppBody")


@_attrs_define
class PutAppBody:
    """
    Attributes:
        interval (int | None | str | Unset):
        enabled (bool | Unset):
        requires_power (bool | Unset): Woken only while the device is on external power.
        requires_unmetered (bool | Unset): Woken only while the device is on an unmetered network.
        requires_battery_not_low (bool | Unset): Woken only while the battery is at 20% or more, or charging.
    """

    interval: int | None | str | Unset = UNSET
    enabled: bool | Unset = UNSET
    requires_power: bool | Unset = UNSET
    requires_unmetered: bool | Unset = UNSET
    requires_battery_not_low: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        interval: int | None | str | Unset
        if isinstance(self.interval, Unset):
            interval = UNSET
        else:
            interval = self.interval

        enabled = self.enabled

        requires_power = self.requires_power

        requires_unmetered = self.requires_unmetered

        requires_battery_not_low = self.requires_battery_not_low

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if interval is not UNSET:
            field_dict["interval"] = interval
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if requires_power is not UNSET:
            field_dict["requiresPower"] = requires_power
        if requires_unmetered is not UNSET:
            field_dict["requiresUnmetered"] = requires_unmetered
        if requires_battery_not_low is not UNSET:
            field_dict["requiresBatteryNotLow"] = requires_battery_not_low

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_interval(data: object) -> int | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | str | Unset, data)

        interval = _parse_interval(d.pop("interval", UNSET))

        enabled = d.pop("enabled", UNSET)

        requires_power = d.pop("requiresPower", UNSET)

        requires_unmetered = d.pop("requiresUnmetered", UNSET)

        requires_battery_not_low = d.pop("requiresBatteryNotLow", UNSET)

        put_app_body = cls(
            interval=interval,
            enabled=enabled,
            requires_power=requires_power,
            requires_unmetered=requires_unmetered,
            requires_battery_not_low=requires_battery_not_low,
        )

        return put_app_body
