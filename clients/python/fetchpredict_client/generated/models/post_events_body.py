from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.event import Event


T = TypeVar("T", bound="PostEventsBody")


@_attrs_define
class PostEventsBody:
    """
    Attributes:
        events (list[Event]): At most the service's --max-batch-events (10,000 by default): a larger batch is answered
            413, to be sent in parts, as a body over --max-body-bytes is.
    """

    events: list[Event]

    def to_dict(self) -> dict[str, Any]:
        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event import Event

        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = Event.from_dict(events_item_data)

            events.append(events_item)

        post_events_body = cls(
            events=events,
        )

        return post_events_body
