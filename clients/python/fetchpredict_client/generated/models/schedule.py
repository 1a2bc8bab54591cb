from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.device_wake import DeviceWake
    from ..models.schedule_low_power_mode import ScheduleLowPowerMode
    from ..models.silence import Silence


T = TypeVar("T", bound="Schedule")


@_attrs_define
class Schedule:
    """
    Attributes:
        device (str):
        from_ (str):
        to (str):
        wakes (list[DeviceWake]):
        cold_start_apps (list[str]):
        silence (Silence | Unset):
        silent_apps (list[str] | Unset): Apps that may fetch but had gone silent by `from` while the device had not;
            they have no wakes.
        low_power_mode (ScheduleLowPowerMode | Unset): Present when Low Power Mode was on at `from`; the device has no
            wakes until an event turns it off.
    """

    device: str
    from_: str
    to: str
    wakes: list[DeviceWake]
    cold_start_apps: list[str]
    silence: Silence | Unset = UNSET
    silent_apps: list[str] | Unset = UNSET
    low_power_mode: ScheduleLowPowerMode | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        from_ = self.from_

        to = self.to

        wakes = []
        for wakes_item_data in self.wakes:
            wakes_item = wakes_item_data.to_dict()
            wakes.append(wakes_item)

        cold_start_apps = self.cold_start_apps

        silence: dict[str, Any] | Unset = UNSET
        if not isinstance(self.silence, Unset):
            silence = self.silence.to_dict()

        silent_apps: list[str] | Unset = UNSET
        if not isinstance(self.silent_apps, Unset):
            silent_apps = self.silent_apps

        low_power_mode: dict[str, Any] | Unset = UNSET
        if not isinstance(self.low_power_mode, Unset):
            low_power_mode = self.low_power_mode.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device": device,
                "from": from_,
                "to": to,
                "wakes": wakes,
                "coldStartApps": cold_start_apps,
            }
        )
        if silence is not UNSET:
            field_dict["silence"] = silence
        if silent_apps is not UNSET:
            field_dict["silentApps"] = silent_apps
        if low_power_mode is not UNSET:
            field_dict["lowPowerMode"] = low_power_mode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.device_wake import DeviceWake
        from ..models.schedule_low_power_mode import ScheduleLowPowerMode
        from ..models.silence import Silence

        d = dict(src_dict)
        device = d.pop("device")

        from_ = d.pop("from")

        to = d.pop("to")

        wakes = []
        _wakes = d.pop("wakes")
        for wakes_item_data in _wakes:
            wakes_item = DeviceWake.from_dict(wakes_item_data)

            wakes.append(wakes_item)

        cold_start_apps = cast(list[str], d.pop("coldStartApps"))

        _silence = d.pop("silence", UNSET)
        silence: Silence | Unset
        if isinstance(_silence, Unset):
            silence = UNSET
        else:
            silence = Silence.from_dict(_silence)

        silent_apps = cast(list[str], d.pop("silentApps", UNSET))

        _low_power_mode = d.pop("lowPowerMode", UNSET)
        low_power_mode: ScheduleLowPowerMode | Unset
        if isinstance(_low_power_mode, Unset):
            low_power_mode = UNSET
        else:
            low_power_mode = ScheduleLowPowerMode.from_dict(_low_power_mode)

        schedule = cls(
            device=device,
            from_=from_,
            to=to,
            wakes=wakes,
            cold_start_apps=cold_start_apps,
            silence=silence,
            silent_apps=silent_apps,
            low_power_mode=low_power_mode,
        )

        schedule.additional_properties = d
        return schedule

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
