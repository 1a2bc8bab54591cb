from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Silence")


@_attrs_define
class Silence:
    """
    Attributes:
        last_launch (str):
        since (str):
        app (str | Unset):
    """

    last_launch: str
    since: str
    app: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        last_launch = self.last_launch

        since = self.since

        app = self.app

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "lastLaunch": last_launch,
                "since": since,
            }
        )
        if app is not UNSET:
            field_dict["app"] = app

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        last_launch = d.pop("lastLaunch")

        since = d.pop("since")

        app = d.pop("app", UNSET)

        silence = cls(
            last_launch=last_launch,
            since=since,
            app=app,
        )

        return silence
