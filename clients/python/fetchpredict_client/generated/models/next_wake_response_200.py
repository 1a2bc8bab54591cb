from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.device_wake import DeviceWake


T = TypeVar("T", bound="NextWakeResponse200")


@_attrs_define
class NextWakeResponse200:
    """
    Attributes:
        device (str):
        now (str):
        wake (DeviceWake):
    """

    device: str
    now: str
    wake: DeviceWake
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        now = self.now

        wake = self.wake.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device": device,
                "now": now,
                "wake": wake,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.device_wake import DeviceWake

        d = dict(src_dict)
        device = d.pop("device")

        now = d.pop("now")

        wake = DeviceWake.from_dict(d.pop("wake"))

        next_wake_response_200 = cls(
            device=device,
            now=now,
            wake=wake,
        )

        next_wake_response_200.additional_properties = d
        return next_wake_response_200

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
