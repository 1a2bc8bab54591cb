from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PutAppResponse200")


@_attrs_define
class PutAppResponse200:
    """
    Attributes:
        device (str):
        app (str):
        enabled (bool):
        requires_power (bool):
        requires_unmetered (bool):
        requires_battery_not_low (bool):
        interval (str | Unset): Its own interval; absent when it follows the device's default.
    """

    device: str
    app: str
    enabled: bool
    requires_power: bool
    requires_unmetered: bool
    requires_battery_not_low: bool
    interval: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        app = self.app

        enabled = self.enabled

        requires_power = self.requires_power

        requires_unmetered = self.requires_unmetered

        requires_battery_not_low = self.requires_battery_not_low

        interval = self.interval

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "device": device,
                "app": app,
                "enabled": enabled,
                "requiresPower": requires_power,
                "requiresUnmetered": requires_unmetered,
                "requiresBatteryNotLow": requires_battery_not_low,
            }
        )
        if interval is not UNSET:
            field_dict["interval"] = interval

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        device = d.pop("device")

        app = d.pop("app")

        enabled = d.pop("enabled")

        requires_power = d.pop("requiresPower")

        requires_unmetered = d.pop("requiresUnmetered")

        requires_battery_not_low = d.pop("requiresBatteryNotLow")

        interval = d.pop("interval", UNSET)

        put_app_response_200 = cls(
            device=device,
            app=app,
            enabled=enabled,
            requires_power=requires_power,
            requires_unmetered=requires_unmetered,
            requires_battery_not_low=requires_battery_not_low,
            interval=interval,
        )

        return put_app_response_200
