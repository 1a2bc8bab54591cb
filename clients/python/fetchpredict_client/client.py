"""`FetchPredictor`: the routes a scheduler uses, over the generated client, with the feed's and
the device list's pages followed, claims of due wakes, and retries on 503 and 429."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar

import httpx

from .errors import APIError, BadAnswer, RetriesExhausted, Unreachable
from .generated import AuthenticatedClient
from .generated.api.default import (
    apps,
    claim_wakes,
    delete_device,
    due_wakes,
    freshness,
    get_device,
    get_tenant_settings,
    habits,
    list_devices,
    next_wake,
    post_events,
    put_app,
    put_device,
    put_tenant_settings,
    schedule,
)
from .generated.models import (
    AppHabits,
    AppSummary,
    ClaimWakesBody,
    ClaimWakesResponse200,
    DeleteDeviceResponse200,
    DeviceSettings,
    DeviceWake,
    Event,
    Freshness,
    FreshnessScope,
    ListDevicesResponse200,
    NextWakeResponse200,
    PostEventsBody,
    PostEventsResponse200,
    PutAppBody,
    PutAppResponse200,
    PutDeviceBody,
    PutDeviceBodyForecasterType0,
    PutTenantSettingsBody,
    Schedule,
    TenantSettings,
    Wakes,
)
from .generated.types import UNSET, Response, Unset
from .retry import RETRIED, Retry, parse_retry_after

Instant = datetime | str
"""An instant: an aware datetime, or text as the service reads it (ISO 8601 with `Z` or an
offset, or Unix seconds). A datetime without a zone is refused, as the service refuses a local
time: no zone is assumed."""

T = TypeVar("T")


def instant(value: Instant) -> str:
    """The text the service reads for an instant."""
    if isinstance(value, datetime):
        if value.utcoffset() is None:
            raise ValueError(f"{value} has no UTC offset: give the datetime a tzinfo")
        return value.isoformat()
    return value


def _optional(value: Instant | None) -> str | Unset:
    return UNSET if value is None else instant(value)


def _refuse_failures(response: httpx.Response) -> None:
    """An httpx response hook: every answer that is not a 2xx becomes an `APIError`, before the
    generated code parses it, so that the status, the sentence and `Retry-After` are all kept."""
    if not 200 <= response.status_code < 300:
        response.read()
        retry_after = parse_retry_after(response.headers.get("Retry-After"))
        raise APIError.from_answer(response.status_code, response.content, retry_after)


class FetchPredictor:
    """One tenant's client of a FetchPredictor service, by its URL and an API key.

    Each method is one route (or, for `devices` and `due_wakes`, all its pages) and returns the
    generated model of its answer. A 503 or 429 is asked again after its `Retry-After`, up to
    `retry.attempts` times in all; any other failure raises at once. Every failure is a
    `FetchPredictorError`: an `APIError` with the status, the service's sentence and the field at
    fault; `RetriesExhausted` when every attempt was 503 or 429; `Unreachable` when nothing
    answered.

        with FetchPredictor("http://127.0.0.1:8080", key) as fleet:
            fleet.put_device("phone", time_zone="Europe/Warsaw", default_interval="minimum")
            fleet.post_events("phone", [{"timestamp": "2024-01-29T07:58:00Z", "app": "news", "event": "launch"}])
            for wake in fleet.due_wakes(before="2024-01-30T09:00:00Z", now="2024-01-30T08:00:00Z"):
                print(wake.device, wake.time, [app.app for app in wake.apps])

    The generated client is `self.api`, for the routes and options this layer leaves out
    (`fetchpredict_client.generated.api.default`); its failures raise `APIError` too.
    """

    def __init__(
        self,
        url: str,
        key: str,
        *,
        timeout: float = 60.0,
        retry: Retry | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """A client of the service at `url` (such as `http://127.0.0.1:8080`) for `key`'s tenant.

        - Parameters:
          - timeout: seconds to connect, and between two reads of an answer.
          - retry: how often, and after how long, a 503 or 429 is asked again.
          - sleep: how a wait between attempts is spent (a test passes its own).
        """
        self.url = url.rstrip("/")
        self.retry = retry or Retry()
        self._sleep = sleep
        self.api = AuthenticatedClient(
            base_url=self.url,
            token=key,
            timeout=httpx.Timeout(timeout),
            httpx_args={"event_hooks": {"response": [_refuse_failures]}},
        )

    def close(self) -> None:
        """Closes the connections kept open."""
        self.api.get_httpx_client().close()

    def __enter__(self) -> FetchPredictor:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # Devices and their settings.

    def put_device(
        self,
        device: str,
        *,
        time_zone: str | Unset = UNSET,
        default_interval: int | str | Unset = UNSET,
        wakes_per_hour: int | None | Unset = UNSET,
        forecaster: str | None | Unset = UNSET,
    ) -> DeviceSettings:
        """Sets a device's zone, the interval of its apps that set none, its push budget (`None`
        for none) and its forecaster ("hazard", "profile", "daily" or "trees"; `None` for the
        service's); creates the device. What is not given is left as it is."""
        body = PutDeviceBody(
            time_zone=time_zone,
            default_interval=default_interval,
            wakes_per_hour=wakes_per_hour,
            forecaster=PutDeviceBodyForecasterType0(forecaster) if isinstance(forecaster, str) else forecaster,
        )
        answer = self._call(lambda: put_device.sync_detailed(device, client=self.api, body=body))
        return self._expect(answer, DeviceSettings, "PUT /v1/devices/{device}")

    def tenant_settings(self) -> TenantSettings:
        """The key's tenant's settings: the push budget of its devices that set none."""
        answer = self._call(lambda: get_tenant_settings.sync_detailed(client=self.api))
        return self._expect(answer, TenantSettings, "GET /v1/settings")

    def put_tenant_settings(self, *, wakes_per_hour: int | None | Unset = UNSET) -> TenantSettings:
        """Sets the push budget of the tenant's devices that set none of their own (`None` for
        none); a device's budget is its own, else its tenant's."""
        body = PutTenantSettingsBody(wakes_per_hour=wakes_per_hour)
        answer = self._call(lambda: put_tenant_settings.sync_detailed(client=self.api, body=body))
        return self._expect(answer, TenantSettings, "PUT /v1/settings")

    def device(self, device: str) -> DeviceSettings:
        """A device's settings."""
        answer = self._call(lambda: get_device.sync_detailed(device, client=self.api))
        return self._expect(answer, DeviceSettings, "GET /v1/devices/{device}")

    def delete_device(self, device: str) -> DeleteDeviceResponse200:
        """Erases a device and everything of it, for good."""
        answer = self._call(lambda: delete_device.sync_detailed(device, client=self.api))
        return self._expect(answer, DeleteDeviceResponse200, "DELETE /v1/devices/{device}")

    def put_app(
        self,
        device: str,
        app: str,
        *,
        interval: int | str | None | Unset = UNSET,
        enabled: bool | Unset = UNSET,
        requires_power: bool | Unset = UNSET,
        requires_unmetered: bool | Unset = UNSET,
        requires_battery_not_low: bool | Unset = UNSET,
    ) -> PutAppResponse200:
        """Sets an app's fetch interval (`None`: the device's default again), whether it may
        fetch, and the state of the device its wakes need (on power, on an unmetered network, a
        battery not low), in one change; what is left out is kept. Creates the device and the app."""
        body = PutAppBody(
            interval=interval,
            enabled=enabled,
            requires_power=requires_power,
            requires_unmetered=requires_unmetered,
            requires_battery_not_low=requires_battery_not_low,
        )
        answer = self._call(lambda: put_app.sync_detailed(device, app, client=self.api, body=body))
        return self._expect(answer, PutAppResponse200, "PUT /v1/devices/{device}/apps/{app}")

    def devices(self, *, page_size: int | None = None) -> Iterator[str]:
        """Every device of the tenant, by name in byte order, a page (`limit`) a request."""
        limit: int | Unset = UNSET if page_size is None else page_size

        def page(cursor: str | Unset) -> tuple[list[str], str | Unset]:
            answer = self._call(
                lambda: list_devices.sync_detailed(client=self.api, limit=limit, cursor=cursor)
            )
            found = self._expect(answer, ListDevicesResponse200, "GET /v1/devices")
            return found.devices, found.cursor

        return self._pages(page)

    # Events, and what is learned from them.

    def post_events(
        self, device: str, events: Iterable[Event | Mapping[str, Any]]
    ) -> PostEventsResponse200:
        """Records a batch of events, all or none; creates the device.

        Each event is an `Event` or a mapping as a line of the `jsonl` format (`timestamp`,
        `app`, `event`, and `result`, `duration`, `bytes` for a fetch); a `timestamp` may be an
        aware datetime. An event sent again is counted in `duplicates`, never stored twice, so a
        batch may be sent again after any failure.
        """
        body = PostEventsBody(events=[_event(index, item) for index, item in enumerate(events)])
        answer = self._call(lambda: post_events.sync_detailed(device, client=self.api, body=body))
        return self._expect(answer, PostEventsResponse200, "POST /v1/devices/{device}/events")

    def next_wake(
        self, device: str, now: Instant | None = None, before: Instant | None = None
    ) -> DeviceWake | None:
        """The wake the device waits for at `now` (default: the service's clock), or None when
        none is planned in the next day (or before `before`)."""
        answer = self._call(
            lambda: next_wake.sync_detailed(
                device, client=self.api, now=_optional(now), before=_optional(before)
            )
        )
        if answer.status_code == 204:
            return None
        return self._expect(answer, NextWakeResponse200, "GET /v1/devices/{device}/next-wake").wake

    def schedule(
        self, device: str, start: Instant | None = None, hours: float | None = None
    ) -> Schedule:
        """The device wakes planned from `start` (default: the service's clock) for `hours`
        (default 24)."""
        answer = self._call(
            lambda: schedule.sync_detailed(
                device,
                client=self.api,
                from_=_optional(start),
                hours=UNSET if hours is None else hours,
            )
        )
        return self._expect(answer, Schedule, "GET /v1/devices/{device}/schedule")

    def apps(self, device: str, now: Instant | None = None) -> list[AppSummary]:
        """The device's apps, their settings and event counts, most launched first."""
        answer = self._call(lambda: apps.sync_detailed(device, client=self.api, now=_optional(now)))
        found = answer.parsed
        if not isinstance(found, list):
            raise BadAnswer(f"{self.url} answered GET /v1/devices/{{device}}/apps with no list")
        return found

    def habits(self, device: str, app: str, now: Instant | None = None) -> AppHabits:
        """What was learned of an app: its daily profiles, peaks and state."""
        answer = self._call(
            lambda: habits.sync_detailed(device, app, client=self.api, now=_optional(now))
        )
        return self._expect(answer, AppHabits, "GET /v1/devices/{device}/apps/{app}/habits")

    # The fleet's feed.

    def due_wakes(
        self, before: Instant, now: Instant | None = None, *, page_size: int | None = None
    ) -> Iterator[DeviceWake]:
        """Every device of the tenant whose wake as of `now` (default: the service's clock) comes
        before `before`, in the order of their wakes, each as `next_wake` gives it at `now`; a
        page (`limit`) a request, following the cursor.

        Give `now` when the feed is read over more than one page: without it each page is read
        at the service's clock of its own request.
        """
        limit: int | Unset = UNSET if page_size is None else page_size
        due, at = instant(before), _optional(now)

        def page(cursor: str | Unset) -> tuple[list[DeviceWake], str | Unset]:
            answer = self._call(
                lambda: due_wakes.sync_detailed(
                    client=self.api, before=due, now=at, limit=limit, cursor=cursor
                )
            )
            found = self._expect(answer, Wakes, "GET /v1/wakes")
            return found.wakes, found.cursor

        return self._pages(page)

    def claim(
        self,
        before: Instant,
        limit: int = 100,
        lease_seconds: int = 60,
        now: Instant | None = None,
    ) -> list[DeviceWake]:
        """Leases at most `limit` due wakes to this caller for `lease_seconds`: no other claim
        gets them until the lease ends or their fetch results are recorded (`post_events`).

        The wakes come in the order of their time, as `due_wakes` gives them; none when nothing
        is due and free. A worker that dies loses nothing: its wakes come back when the lease ends.
        """
        body = ClaimWakesBody(
            before=instant(before), now=_optional(now), limit=limit, lease_seconds=lease_seconds
        )
        answer = self._call(lambda: claim_wakes.sync_detailed(client=self.api, body=body))
        return self._expect(answer, ClaimWakesResponse200, "POST /v1/wakes/claim").wakes

    # Did the wakes pay?

    def freshness(
        self,
        from_: str,
        to: str,
        *,
        device: str | None = None,
        app: str | None = None,
        scope: str | None = None,
    ) -> Freshness:
        """The fresh cold launches of the fetches sent, from the day `from_` to the day before
        `to` (`YYYY-MM-DD`, each device's local days), beside fetching every 30, 60 and 120 minutes
        and the oracle: of one device (its period may be instants too) or of every device of the
        tenant, of one app or of each. Over the tenant, `pending_devices` says how many devices'
        latest events are not counted yet. `scope="protocol"` (with `device`) scores the device as
        `fetchpredict evaluate` does."""
        answer = self._call(
            lambda: freshness.sync_detailed(
                client=self.api,
                from_=from_,
                to=to,
                device=UNSET if device is None else device,
                app=UNSET if app is None else app,
                scope=UNSET if scope is None else FreshnessScope(scope),
            )
        )
        return self._expect(answer, Freshness, "GET /v1/freshness")

    # One place for what every call does.

    def _call(self, request: Callable[[], Response[Any]]) -> Response[Any]:
        """Makes the request, again after a 503 or 429 as `self.retry` says; raises a
        `FetchPredictorError` for any failure."""
        for attempt in itertools.count(1):
            try:
                return request()
            except APIError as error:
                if error.status not in RETRIED:
                    raise
                if attempt >= self.retry.attempts:
                    if attempt == 1:
                        raise
                    raise RetriesExhausted.after(error, attempt) from None
                self._sleep(self.retry.wait(attempt, error.retry_after))
            except (httpx.InvalidURL, httpx.UnsupportedProtocol) as error:
                raise Unreachable(f"{self.url} is not a URL the client can use ({error})") from None
            except httpx.TransportError as error:
                reason = str(error) or type(error).__name__
                raise Unreachable(f"cannot reach {self.url}: {reason}") from None
            except (ValueError, KeyError, TypeError) as error:
                # A 2xx whose body is not JSON, or lacks a field the document requires.
                raise BadAnswer(f"{self.url} answered with a body the client cannot read ({error!r})") from None
        raise AssertionError("unreachable")

    def _expect(self, answer: Response[Any], model: type[T], route: str) -> T:
        if not isinstance(answer.parsed, model):
            raise BadAnswer(f"{self.url} answered {route} with status {answer.status_code} and no {model.__name__}")
        return answer.parsed

    def _pages(self, page: Callable[[str | Unset], tuple[list[T], str | Unset]]) -> Iterator[T]:
        cursor: str | Unset = UNSET
        while True:
            items, following = page(cursor)
            yield from items
            if isinstance(following, Unset) or not following:
                return
            if following == cursor:
                raise BadAnswer(f"{self.url} answered the same cursor twice: {following}")
            cursor = following


def _event(index: int, item: Event | Mapping[str, Any]) -> Event:
    """An event of a batch as the generated model, from a mapping as a `jsonl` line."""
    if isinstance(item, Event):
        return item
    fields = dict(item)
    if isinstance(fields.get("timestamp"), datetime):
        fields["timestamp"] = instant(fields["timestamp"])
    try:
        return Event.from_dict(fields)
    except (KeyError, ValueError) as error:
        missing = f"has no {error}" if isinstance(error, KeyError) else f"is not valid: {error}"
        raise ValueError(f"events[{index}] {missing}") from None
