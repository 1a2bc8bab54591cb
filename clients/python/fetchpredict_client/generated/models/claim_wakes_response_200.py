from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.device_wake import DeviceWake


T = TypeVar("T", bound="ClaimWakesResponse200")


@_attrs_define
class ClaimWakesResponse200:
    """
    Attributes:
        wakes (list[DeviceWake]):
    """

    wakes: list[DeviceWake]

    def to_dict(self) -> dict[str, Any]:
        wakes = []
        for wakes_item_data in self.wakes:
            wakes_item = wakes_item_data.to_dict()
            wakes.append(wakes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "wakes": wakes,
            }
        )

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

        claim_wakes_response_200 = cls(
            wakes=wakes,
        )

        return claim_wakes_response_200
