from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.device_wake import DeviceWake


T = TypeVar("T", bound="Wakes")


@_attrs_define
class Wakes:
    """
    Attributes:
        wakes (list[DeviceWake]):
        cursor (str | Unset):
    """

    wakes: list[DeviceWake]
    cursor: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        wakes = []
        for wakes_item_data in self.wakes:
            wakes_item = wakes_item_data.to_dict()
            wakes.append(wakes_item)

        cursor = self.cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "wakes": wakes,
            }
        )
        if cursor is not UNSET:
            field_dict["cursor"] = cursor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.device_wake import DeviceWake

        d = dict(src_dict)
        wakes = []
        _wakes = d.pop("wakes")
        for wakes_item_data in _wakes:
            wakes_item = DeviceWake.from_dict(wakes_item_data)

            wakes.append(wakes_item)

        cursor = d.pop("cursor", UNSET)

        wakes = cls(
            wakes=wakes,
            cursor=cursor,
        )

        return wakes
