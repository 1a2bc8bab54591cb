from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScheduleLowPowerMode")


@_attrs_define
class ScheduleLowPowerMode:
    """Present when Low Power Mode was on at `from`; the device has no wakes until an event turns it off.

    Attributes:
        is_on (bool):
        since (str): When it was turned on.
    """

    is_on: bool
    since: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        is_on = self.is_on

        since = self.since

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "isOn": is_on,
                "since": since,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        is_on = d.pop("isOn")

        since = d.pop("since")

        schedule_low_power_mode = cls(
            is_on=is_on,
            since=since,
        )

        schedule_low_power_mode.additional_properties = d
        return schedule_low_power_mode

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
