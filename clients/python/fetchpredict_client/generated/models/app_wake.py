from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.app_wake_reasons_item import AppWakeReasonsItem


T = TypeVar("T", bound="AppWake")


@_attrs_define
class AppWake:
    """
    Attributes:
        app (str):
        planned_time (str):
        expected_launches (float):
        reasons (list[AppWakeReasonsItem]):
    """

    app: str
    planned_time: str
    expected_launches: float
    reasons: list[AppWakeReasonsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        app = self.app

        planned_time = self.planned_time

        expected_launches = self.expected_launches

        reasons = []
        for reasons_item_data in self.reasons:
            reasons_item = reasons_item_data.to_dict()
            reasons.append(reasons_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "app": app,
                "plannedTime": planned_time,
                "expectedLaunches": expected_launches,
                "reasons": reasons,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.app_wake_reasons_item import AppWakeReasonsItem

        d = dict(src_dict)
        app = d.pop("app")

        planned_time = d.pop("plannedTime")

        expected_launches = d.pop("expectedLaunches")

        reasons = []
        _reasons = d.pop("reasons")
        for reasons_item_data in _reasons:
            reasons_item = AppWakeReasonsItem.from_dict(reasons_item_data)

            reasons.append(reasons_item)

        app_wake = cls(
            app=app,
            planned_time=planned_time,
            expected_launches=expected_launches,
            reasons=reasons,
        )

        app_wake.additional_properties = d
        return app_wake

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
