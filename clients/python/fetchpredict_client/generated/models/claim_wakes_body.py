from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ClaimWakesBody")


@_attrs_define
class ClaimWakesBody:
    """
    Attributes:
        before (float | str): The instant wakes are due by (after `now`), ISO 8601 with an offset or `Z`, or Unix
            seconds.
        now (float | str | Unset): The instant to plan from (default the service's clock), ISO 8601 or Unix seconds.
        limit (int | Unset): The most wakes leased (default 100).
        lease_seconds (int | Unset): How long the lease holds, by the service's clock (default 60).
    """

    before: float | str
    now: float | str | Unset = UNSET
    limit: int | Unset = UNSET
    lease_seconds: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        before: float | str
        before = self.before

        now: float | str | Unset
        if isinstance(self.now, Unset):
            now = UNSET
        else:
            now = self.now

        limit = self.limit

        lease_seconds = self.lease_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "before": before,
            }
        )
        if now is not UNSET:
            field_dict["now"] = now
        if limit is not UNSET:
            field_dict["limit"] = limit
        if lease_seconds is not UNSET:
            field_dict["leaseSeconds"] = lease_seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_before(data: object) -> float | str:
            return cast(float | str, data)

        before = _parse_before(d.pop("before"))

        def _parse_now(data: object) -> float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(float | str | Unset, data)

        now = _parse_now(d.pop("now", UNSET))

        limit = d.pop("limit", UNSET)

        lease_seconds = d.pop("leaseSeconds", UNSET)

        claim_wakes_body = cls(
            before=before,
            now=now,
            limit=limit,
            lease_seconds=lease_seconds,
        )

        return claim_wakes_body
