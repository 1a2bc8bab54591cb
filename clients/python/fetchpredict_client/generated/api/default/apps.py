from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.app_summary import AppSummary
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    device: str,
    *,
    now: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["now"] = now

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/devices/{device}/apps".format(
            device=quote(str(device), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | list[AppSummary] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = AppSummary.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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
) -> Response[Error | list[AppSummary]]:
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
) -> Response[Error | list[AppSummary]]:
    """The device's apps, their settings and event counts; what `fetchpredict apps --json` shows.

    Args:
        device (str):
        now (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[AppSummary]]
    """

    kwargs = _get_kwargs(
        device=device,
        now=now,
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
) -> Error | list[AppSummary] | None:
    """The device's apps, their settings and event counts; what `fetchpredict apps --json` shows.

    Args:
        device (str):
        now (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[AppSummary]
    """

    return sync_detailed(
        device=device,
        client=client,
        now=now,
    ).parsed


async def asyncio_detailed(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    now: str | Unset = UNSET,
) -> Response[Error | list[AppSummary]]:
    """The device's apps, their settings and event counts; what `fetchpredict apps --json` shows.

    Args:
        device (str):
        now (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[AppSummary]]
    """

    kwargs = _get_kwargs(
        device=device,
        now=now,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    now: str | Unset = UNSET,
) -> Error | list[AppSummary] | None:
    """The device's apps, their settings and event counts; what `fetchpredict apps --json` shows.

    Args:
        device (str):
        now (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[AppSummary]
    """

    return (
        await asyncio_detailed(
            device=device,
            client=client,
            now=now,
        )
    ).parsed
