from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.event_event import EventEvent
from ..models.event_result import EventResult
from ..models.event_value_type_1 import EventValueType1
from ..types import UNSET, Unset

T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """An event; a key it does not have is refused (400 naming it), never dropped.

    Attributes:
        timestamp (float | str): An instant, ISO 8601 with an offset or `Z`, or Unix seconds.
        event (EventEvent): What happened. The device's own events (unlock, screen on or off, and its state: power,
            battery, network, Low Power Mode) have no app. While Low Power Mode is on (lowPowerOn, until a lowPowerOff), no
            app of the device is woken.
        app (str | Unset): The app; needed for launch, fetch and notification.
        result (EventResult | Unset): How a fetch ended; needed for fetch.
        duration (float | Unset): Seconds the fetch (or visit) lasted.
        bytes_ (int | Unset):
        value (EventValueType1 | int | Unset): Needed for battery, its charge as a whole percent, and for network, the
            network the device is on; no other event has one.
    """

    timestamp: float | str
    event: EventEvent
    app: str | Unset = UNSET
    result: EventResult | Unset = UNSET
    duration: float | Unset = UNSET
    bytes_: int | Unset = UNSET
    value: EventValueType1 | int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        timestamp: float | str
        timestamp = self.timestamp

        event = self.event.value

        app = self.app

        result: str | Unset = UNSET
        if not isinstance(self.result, Unset):
            result = self.result.value

        duration = self.duration

        bytes_ = self.bytes_

        value: int | str | Unset
        if isinstance(self.value, Unset):
            value = UNSET
        elif isinstance(self.value, EventValueType1):
            value = self.value.value
        else:
            value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "timestamp": timestamp,
                "event": event,
            }
        )
        if app is not UNSET:
            field_dict["app"] = app
        if result is not UNSET:
            field_dict["result"] = result
        if duration is not UNSET:
            field_dict["duration"] = duration
        if bytes_ is not UNSET:
            field_dict["bytes"] = bytes_
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_timestamp(data: object) -> float | str:
            return cast(float | str, data)

        timestamp = _parse_timestamp(d.pop("timestamp"))

        event = EventEvent(d.pop("event"))

        app = d.pop("app", UNSET)

        _result = d.pop("result", UNSET)
        result: EventResult | Unset
        if isinstance(_result, Unset):
            result = UNSET
        else:
            result = EventResult(_result)

        duration = d.pop("duration", UNSET)

        bytes_ = d.pop("bytes", UNSET)

        def _parse_value(data: object) -> EventValueType1 | int | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                value_type_1 = EventValueType1(data)

                return value_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventValueType1 | int | Unset, data)

        value = _parse_value(d.pop("value", UNSET))

        event = cls(
            timestamp=timestamp,
            event=event,
            app=app,
            result=result,
            duration=duration,
            bytes_=bytes_,
            value=value,
        )

        return event
