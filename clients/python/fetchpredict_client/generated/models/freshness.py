from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.app_freshness import AppFreshness
    from ..models.freshness_figures import FreshnessFigures


T = TypeVar("T", bound="Freshness")


@_attrs_define
class Freshness:
    """
    Attributes:
        from_ (str):
        to (str):
        device (None | str):
        app (None | str):
        observed (FreshnessFigures):
        baselines (list[FreshnessFigures]): periodic-30, periodic-60, periodic-120 and the oracle, over the same cold
            launches.
        apps (list[AppFreshness]):
        pending_devices (int): The tenant's devices whose latest launches or fetches are not kept yet; 0 for one device.
    """

    from_: str
    to: str
    device: None | str
    app: None | str
    observed: FreshnessFigures
    baselines: list[FreshnessFigures]
    apps: list[AppFreshness]
    pending_devices: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        to = self.to

        device: None | str
        device = self.device

        app: None | str
        app = self.app

        observed = self.observed.to_dict()

        baselines = []
        for baselines_item_data in self.baselines:
            baselines_item = baselines_item_data.to_dict()
            baselines.append(baselines_item)

        apps = []
        for apps_item_data in self.apps:
            apps_item = apps_item_data.to_dict()
            apps.append(apps_item)

        pending_devices = self.pending_devices

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "from": from_,
                "to": to,
                "device": device,
                "app": app,
                "observed": observed,
                "baselines": baselines,
                "apps": apps,
                "pendingDevices": pending_devices,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.app_freshness import AppFreshness
        from ..models.freshness_figures import FreshnessFigures

        d = dict(src_dict)
        from_ = d.pop("from")

        to = d.pop("to")

        def _parse_device(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        device = _parse_device(d.pop("device"))

        def _parse_app(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        app = _parse_app(d.pop("app"))

        observed = FreshnessFigures.from_dict(d.pop("observed"))

        baselines = []
        _baselines = d.pop("baselines")
        for baselines_item_data in _baselines:
            baselines_item = FreshnessFigures.from_dict(baselines_item_data)

            baselines.append(baselines_item)

        apps = []
        _apps = d.pop("apps")
        for apps_item_data in _apps:
            apps_item = AppFreshness.from_dict(apps_item_data)

            apps.append(apps_item)

        pending_devices = d.pop("pendingDevices")

        freshness = cls(
            from_=from_,
            to=to,
            device=device,
            app=app,
            observed=observed,
            baselines=baselines,
            apps=apps,
            pending_devices=pending_devices,
        )

        freshness.additional_properties = d
        return freshness

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
