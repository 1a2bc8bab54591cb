from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.delete_device_response_200_erased import DeleteDeviceResponse200Erased


T = TypeVar("T", bound="DeleteDeviceResponse200")


@_attrs_define
class DeleteDeviceResponse200:
    """
    Attributes:
        device (str):
        erased (DeleteDeviceResponse200Erased):
    """

    device: str
    erased: DeleteDeviceResponse200Erased

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        erased = self.erased.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "device": device,
                "erased": erased,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delete_device_response_200_erased import (
            DeleteDeviceResponse200Erased,
        )

        d = dict(src_dict)
        device = d.pop("device")

        erased = DeleteDeviceResponse200Erased.from_dict(d.pop("erased"))

        delete_device_response_200 = cls(
            device=device,
            erased=erased,
        )

        return delete_device_response_200
