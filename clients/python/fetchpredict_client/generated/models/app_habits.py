from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.app_habits_profiles_item import AppHabitsProfilesItem
    from ..models.app_habits_state import AppHabitsState


T = TypeVar("T", bound="AppHabits")


@_attrs_define
class AppHabits:
    """
    Attributes:
        app (str):
        cold_start (bool):
        profiles (list[AppHabitsProfilesItem]):
        state (AppHabitsState):
        state_text (str):
    """

    app: str
    cold_start: bool
    profiles: list[AppHabitsProfilesItem]
    state: AppHabitsState
    state_text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        app = self.app

        cold_start = self.cold_start

        profiles = []
        for profiles_item_data in self.profiles:
            profiles_item = profiles_item_data.to_dict()
            profiles.append(profiles_item)

        state = self.state.to_dict()

        state_text = self.state_text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "app": app,
                "coldStart": cold_start,
                "profiles": profiles,
                "state": state,
                "stateText": state_text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.app_habits_profiles_item import AppHabitsProfilesItem
        from ..models.app_habits_state import AppHabitsState

        d = dict(src_dict)
        app = d.pop("app")

        cold_start = d.pop("coldStart")

        profiles = []
        _profiles = d.pop("profiles")
        for profiles_item_data in _profiles:
            profiles_item = AppHabitsProfilesItem.from_dict(profiles_item_data)

            profiles.append(profiles_item)

        state = AppHabitsState.from_dict(d.pop("state"))

        state_text = d.pop("stateText")

        app_habits = cls(
            app=app,
            cold_start=cold_start,
            profiles=profiles,
            state=state,
            state_text=state_text,
        )

        app_habits.additional_properties = d
        return app_habits

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
