from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeleteDeviceResponse200Erased")


@_attrs_define
class DeleteDeviceResponse200Erased:
    """
    Attributes:
        launches (int):
        fetches (int):
        device_events (int):
        notifications (int):
        kept (int):
    """

    launches: int
    fetches: int
    device_events: int
    notifications: int
    kept: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        launches = self.launches

        fetches = self.fetches

        device_events = self.device_events

        notifications = self.notifications

        kept = self.kept

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "launches": launches,
                "fetches": fetches,
                "deviceEvents": device_events,
                "notifications": notifications,
                "kept": kept,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        launches = d.pop("launches")

        fetches = d.pop("fetches")

        device_events = d.pop("deviceEvents")

        notifications = d.pop("notifications")

        kept = d.pop("kept")

        delete_device_response_200_erased = cls(
            launches=launches,
            fetches=fetches,
            device_events=device_events,
            notifications=notifications,
            kept=kept,
        )

        delete_device_response_200_erased.additional_properties = d
        return delete_device_response_200_erased

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
