from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PostEventsResponse200")


@_attrs_define
class PostEventsResponse200:
    """
    Attributes:
        device (str):
        received (int):
        stored (int):
        duplicates (int):
    """

    device: str
    received: int
    stored: int
    duplicates: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device = self.device

        received = self.received

        stored = self.stored

        duplicates = self.duplicates

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device": device,
                "received": received,
                "stored": stored,
                "duplicates": duplicates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        device = d.pop("device")

        received = d.pop("received")

        stored = d.pop("stored")

        duplicates = d.pop("duplicates")

        post_events_response_200 = cls(
            device=device,
            received=received,
            stored=stored,
            duplicates=duplicates,
        )

        post_events_response_200.additional_properties = d
        return post_events_response_200

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
