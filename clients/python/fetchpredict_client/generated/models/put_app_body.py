from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PutAppBody")


@_attrs_define
class PutAppBody:
    """
    Attributes:
        interval (int | None | str | Unset):
        enabled (bool | Unset):
    """

    interval: int | None | str | Unset = UNSET
    enabled: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        interval: int | None | str | Unset
        if isinstance(self.interval, Unset):
            interval = UNSET
        else:
            interval = self.interval

        enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if interval is not UNSET:
            field_dict["interval"] = interval
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_interval(data: object) -> int | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | str | Unset, data)

        interval = _parse_interval(d.pop("interval", UNSET))

        enabled = d.pop("enabled", UNSET)

        put_app_body = cls(
            interval=interval,
            enabled=enabled,
        )

        return put_app_body
