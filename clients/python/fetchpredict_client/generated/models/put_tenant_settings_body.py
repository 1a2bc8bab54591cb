from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PutTenantSettingsBody")


@_attrs_define
class PutTenantSettingsBody:
    """
    Attributes:
        wakes_per_hour (int | None | Unset):
    """

    wakes_per_hour: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        wakes_per_hour: int | None | Unset
        if isinstance(self.wakes_per_hour, Unset):
            wakes_per_hour = UNSET
        else:
            wakes_per_hour = self.wakes_per_hour

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if wakes_per_hour is not UNSET:
            field_dict["wakesPerHour"] = wakes_per_hour

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_wakes_per_hour(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        wakes_per_hour = _parse_wakes_per_hour(d.pop("wakesPerHour", UNSET))

        put_tenant_settings_body = cls(
            wakes_per_hour=wakes_per_hour,
        )

        return put_tenant_settings_body
