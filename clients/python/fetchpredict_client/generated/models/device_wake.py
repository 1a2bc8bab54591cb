from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.app_wake import AppWake


T = TypeVar("T", bound="DeviceWake")


@_attrs_define
class DeviceWake:
    """
    Attributes:
        device (str):
        time (str):
        apps (list[AppWake]):
    """

    device: str
    time: str
    apps: list[AppWake]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        time = self.time

        apps = []
        for apps_item_data in self.apps:
            apps_item = apps_item_data.to_dict()
            apps.append(apps_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device": device,
                "time": time,
                "apps": apps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.app_wake import AppWake

        d = dict(src_dict)
        device = d.pop("device")

        time = d.pop("time")

        apps = []
        _apps = d.pop("apps")
        for apps_item_data in _apps:
            apps_item = AppWake.from_dict(apps_item_data)

            apps.append(apps_item)

        device_wake = cls(
            device=device,
            time=time,
            apps=apps,
        )

        device_wake.additional_properties = d
        return device_wake

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
