from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PutDeviceBody")


@_attrs_define
class PutDeviceBody:
    """
    Attributes:
        time_zone (str | Unset): An IANA zone name.
        default_interval (int | str | Unset): The minimum background fetch interval: `never`, `minimum`, or a whole
            number of seconds from 1 to 2,592,000 (30 days), as a number or as text.
        wakes_per_hour (int | None | Unset): A push budget: at most this many device wakes in any hour of the device's
            plans, the wakes worth the most expected launches kept; null for none.
    """

    time_zone: str | Unset = UNSET
    default_interval: int | str | Unset = UNSET
    wakes_per_hour: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        time_zone = self.time_zone

        default_interval: int | str | Unset
        if isinstance(self.default_interval, Unset):
            default_interval = UNSET
        else:
            default_interval = self.default_interval

        wakes_per_hour: int | None | Unset
        if isinstance(self.wakes_per_hour, Unset):
            wakes_per_hour = UNSET
        else:
            wakes_per_hour = self.wakes_per_hour

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if time_zone is not UNSET:
            field_dict["timeZone"] = time_zone
        if default_interval is not UNSET:
            field_dict["defaultInterval"] = default_interval
        if wakes_per_hour is not UNSET:
            field_dict["wakesPerHour"] = wakes_per_hour

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        time_zone = d.pop("timeZone", UNSET)

        def _parse_default_interval(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        default_interval = _parse_default_interval(d.pop("defaultInterval", UNSET))

        def _parse_wakes_per_hour(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        wakes_per_hour = _parse_wakes_per_hour(d.pop("wakesPerHour", UNSET))

        put_device_body = cls(
            time_zone=time_zone,
            default_interval=default_interval,
            wakes_per_hour=wakes_per_hour,
        )

        return put_device_body
