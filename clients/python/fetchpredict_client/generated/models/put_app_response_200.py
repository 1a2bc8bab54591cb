from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PutAppResponse200")


@_attrs_define
class PutAppResponse200:
    """
    Attributes:
        device (str):
        app (str):
        enabled (bool):
        interval (str | Unset): Its own interval; absent when it follows the device's default.
    """

    device: str
    app: str
    enabled: bool
    interval: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        app = self.app

        enabled = self.enabled

        interval = self.interval

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device": device,
                "app": app,
                "enabled": enabled,
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

        interval = d.pop("interval", UNSET)

        put_app_response_200 = cls(
            device=device,
            app=app,
            enabled=enabled,
            interval=interval,
        )

        put_app_response_200.additional_properties = d
        return put_app_response_200

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
