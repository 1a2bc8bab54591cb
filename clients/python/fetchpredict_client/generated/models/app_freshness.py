from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.freshness_figures import FreshnessFigures


T = TypeVar("T", bound="AppFreshness")


@_attrs_define
class AppFreshness:
    """
    Attributes:
        app (str):
        observed (FreshnessFigures):
        baselines (list[FreshnessFigures]):
    """

    app: str
    observed: FreshnessFigures
    baselines: list[FreshnessFigures]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        app = self.app

        observed = self.observed.to_dict()

        baselines = []
        for baselines_item_data in self.baselines:
            baselines_item = baselines_item_data.to_dict()
            baselines.append(baselines_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "app": app,
                "observed": observed,
                "baselines": baselines,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.freshness_figures import FreshnessFigures

        d = dict(src_dict)
        app = d.pop("app")

        observed = FreshnessFigures.from_dict(d.pop("observed"))

        baselines = []
        _baselines = d.pop("baselines")
        for baselines_item_data in _baselines:
            baselines_item = FreshnessFigures.from_dict(baselines_item_data)

            baselines.append(baselines_item)

        app_freshness = cls(
            app=app,
            observed=observed,
            baselines=baselines,
        )

        app_freshness.additional_properties = d
        return app_freshness

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
