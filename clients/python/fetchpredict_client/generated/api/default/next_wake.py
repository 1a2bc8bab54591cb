from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.next_wake_response_200 import NextWakeResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    device: str,
    *,
    now: str | Unset = UNSET,
    before: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["now"] = now

    params["before"] = before

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/devices/{device}/next-wake".format(
            device=quote(str(device), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | NextWakeResponse200 | None:
    if response.status_code == 200:
        response_200 = NextWakeResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Error | NextWakeResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    now: str | Unset = UNSET,
    before: str | Unset = UNSET,
) -> Response[Any | Error | NextWakeResponse200]:
    """The wake the device waits for at `now`: the first of the plan made at its last event (or its daily
    re-plan), so the same wake whenever it is asked until then; the same as `fetchpredict next --now`.

    Args:
        device (str):
        now (str | Unset):
        before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | NextWakeResponse200]
    """

    kwargs = _get_kwargs(
        device=device,
        now=now,
        before=before,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    now: str | Unset = UNSET,
    before: str | Unset = UNSET,
) -> Any | Error | NextWakeResponse200 | None:
    """The wake the device waits for at `now`: the first of the plan made at its last event (or its daily
    re-plan), so the same wake whenever it is asked until then; the same as `fetchpredict next --now`.

    Args:
        device (str):
        now (str | Unset):
        before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | NextWakeResponse200
    """

    return sync_detailed(
        device=device,
        client=client,
        now=now,
        before=before,
    ).parsed


async def asyncio_detailed(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    now: str | Unset = UNSET,
    before: str | Unset = UNSET,
) -> Response[Any | Error | NextWakeResponse200]:
    """The wake the device waits for at `now`: the first of the plan made at its last event (or its daily
    re-plan), so the same wake whenever it is asked until then; the same as `fetchpredict next --now`.

    Args:
        device (str):
        now (str | Unset):
        before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | NextWakeResponse200]
    """

    kwargs = _get_kwargs(
        device=device,
        now=now,
        before=before,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    now: str | Unset = UNSET,
    before: str | Unset = UNSET,
) -> Any | Error | NextWakeResponse200 | None:
    """The wake the device waits for at `now`: the first of the plan made at its last event (or its daily
    re-plan), so the same wake whenever it is asked until then; the same as `fetchpredict next --now`.

    Args:
        device (str):
        now (str | Unset):
        before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | NextWakeResponse200
    """

    return (
        await asyncio_detailed(
            device=device,
            client=client,
            now=now,
            before=before,
        )
    ).parsed
