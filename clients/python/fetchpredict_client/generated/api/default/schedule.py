from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.schedule import Schedule
from ...types import UNSET, Response, Unset


def _get_kwargs(
    device: str,
    *,
    from_: str | Unset = UNSET,
    hours: float | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["from"] = from_

    params["hours"] = hours

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/devices/{device}/schedule".format(
            device=quote(str(device), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Schedule | None:
    if response.status_code == 200:
        response_200 = Schedule.from_dict(response.json())

        return response_200

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
) -> Response[Error | Schedule]:
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
    from_: str | Unset = UNSET,
    hours: float | Unset = UNSET,
) -> Response[Error | Schedule]:
    """The device wakes planned after `from` for `hours`; JSON, iCalendar or CSV by `Accept`.

    Args:
        device (str):
        from_ (str | Unset):
        hours (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Schedule]
    """

    kwargs = _get_kwargs(
        device=device,
        from_=from_,
        hours=hours,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    from_: str | Unset = UNSET,
    hours: float | Unset = UNSET,
) -> Error | Schedule | None:
    """The device wakes planned after `from` for `hours`; JSON, iCalendar or CSV by `Accept`.

    Args:
        device (str):
        from_ (str | Unset):
        hours (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Schedule
    """

    return sync_detailed(
        device=device,
        client=client,
        from_=from_,
        hours=hours,
    ).parsed


async def asyncio_detailed(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    from_: str | Unset = UNSET,
    hours: float | Unset = UNSET,
) -> Response[Error | Schedule]:
    """The device wakes planned after `from` for `hours`; JSON, iCalendar or CSV by `Accept`.

    Args:
        device (str):
        from_ (str | Unset):
        hours (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Schedule]
    """

    kwargs = _get_kwargs(
        device=device,
        from_=from_,
        hours=hours,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    from_: str | Unset = UNSET,
    hours: float | Unset = UNSET,
) -> Error | Schedule | None:
    """The device wakes planned after `from` for `hours`; JSON, iCalendar or CSV by `Accept`.

    Args:
        device (str):
        from_ (str | Unset):
        hours (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Schedule
    """

    return (
        await asyncio_detailed(
            device=device,
            client=client,
            from_=from_,
            hours=hours,
        )
    ).parsed
