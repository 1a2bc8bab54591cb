from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AppSummary")


@_attrs_define
class AppSummary:
    """
    Attributes:
        device (str):
        app (str):
        interval (str):
        enabled (bool):
        launches (int):
        interval_is_default (bool | Unset):
        system (bool | Unset): A system package (clock, calls, settings, installer...) with no interval of its own:
            never woken, whatever the default, until PUT gives it an interval.
        requires_power (bool | Unset): Woken only while the device is on external power.
        requires_unmetered (bool | Unset): Woken only while the device is on an unmetered network.
        requires_battery_not_low (bool | Unset): Woken only while the battery is at 20% or more, or charging.
    """

    device: str
    app: str
    interval: str
    enabled: bool
    launches: int
    interval_is_default: bool | Unset = UNSET
    system: bool | Unset = UNSET
    requires_power: bool | Unset = UNSET
    requires_unmetered: bool | Unset = UNSET
    requires_battery_not_low: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        app = self.app

        interval = self.interval

        enabled = self.enabled

        launches = self.launches

        interval_is_default = self.interval_is_default

        system = self.system

        requires_power = self.requires_power

        requires_unmetered = self.requires_unmetered

        requires_battery_not_low = self.requires_battery_not_low

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device": device,
                "app": app,
                "interval": interval,
                "enabled": enabled,
                "launches": launches,
            }
        )
        if interval_is_default is not UNSET:
            field_dict["intervalIsDefault"] = interval_is_default
        if system is not UNSET:
            field_dict["system"] = system
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
        device = d.pop("device")

        app = d.pop("app")

        interval = d.pop("interval")

        enabled = d.pop("enabled")

        launches = d.pop("launches")

        interval_is_default = d.pop("intervalIsDefault", UNSET)

        system = d.pop("system", UNSET)

        requires_power = d.pop("requiresPower", UNSET)

        requires_unmetered = d.pop("requiresUnmetered", UNSET)

        requires_battery_not_low = d.pop("requiresBatteryNotLow", UNSET)

        app_summary = cls(
            device=device,
            app=app,
            interval=interval,
            enabled=enabled,
            launches=launches,
            interval_is_default=interval_is_default,
            system=system,
            requires_power=requires_power,
            requires_unmetered=requires_unmetered,
            requires_battery_not_low=requires_battery_not_low,
        )

        app_summary.additional_properties = d
        return app_summary

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
