from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ListDevicesResponse200")


@_attrs_define
class ListDevicesResponse200:
    """
    Attributes:
        devices (list[str]):
        cursor (str | Unset):
    """

    devices: list[str]
    cursor: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        devices = self.devices

        cursor = self.cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "devices": devices,
            }
        )
        if cursor is not UNSET:
            field_dict["cursor"] = cursor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        devices = cast(list[str], d.pop("devices"))

        cursor = d.pop("cursor", UNSET)

        list_devices_response_200 = cls(
            devices=devices,
            cursor=cursor,
        )

        return list_devices_response_200
