from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="TenantSettings")


@_attrs_define
class TenantSettings:
    """
    Attributes:
        wakes_per_hour (int | None):
    """

    wakes_per_hour: int | None

    def to_dict(self) -> dict[str, Any]:
        wakes_per_hour: int | None
        wakes_per_hour = self.wakes_per_hour

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "wakesPerHour": wakes_per_hour,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_wakes_per_hour(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        wakes_per_hour = _parse_wakes_per_hour(d.pop("wakesPerHour"))

        tenant_settings = cls(
            wakes_per_hour=wakes_per_hour,
        )

        return tenant_settings
