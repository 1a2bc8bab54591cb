from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.post_events_body import PostEventsBody
from ...models.post_events_response_200 import PostEventsResponse200
from ...types import Response


def _get_kwargs(
    device: str,
    *,
    body: PostEventsBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/devices/{device}/events".format(
            device=quote(str(device), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PostEventsResponse200 | None:
    if response.status_code == 200:
        response_200 = PostEventsResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 408:
        response_408 = Error.from_dict(response.json())

        return response_408

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

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
) -> Response[Error | PostEventsResponse200]:
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
    body: PostEventsBody,
) -> Response[Error | PostEventsResponse200]:
    """Records a batch of events, all or none; creates the device.

     Each event is an object as a line of the `jsonl` import format. One invalid event is a 400
    that names its index and field (`events[3].timestamp`), and nothing of the batch is stored.
    The same event (app, kind, instant to the millisecond) is stored once: sent again, it is
    counted as a duplicate. A 200 means the batch is stored durably.

    Args:
        device (str):
        body (PostEventsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PostEventsResponse200]
    """

    kwargs = _get_kwargs(
        device=device,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    body: PostEventsBody,
) -> Error | PostEventsResponse200 | None:
    """Records a batch of events, all or none; creates the device.

     Each event is an object as a line of the `jsonl` import format. One invalid event is a 400
    that names its index and field (`events[3].timestamp`), and nothing of the batch is stored.
    The same event (app, kind, instant to the millisecond) is stored once: sent again, it is
    counted as a duplicate. A 200 means the batch is stored durably.

    Args:
        device (str):
        body (PostEventsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PostEventsResponse200
    """

    return sync_detailed(
        device=device,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    body: PostEventsBody,
) -> Response[Error | PostEventsResponse200]:
    """Records a batch of events, all or none; creates the device.

     Each event is an object as a line of the `jsonl` import format. One invalid event is a 400
    that names its index and field (`events[3].timestamp`), and nothing of the batch is stored.
    The same event (app, kind, instant to the millisecond) is stored once: sent again, it is
    counted as a duplicate. A 200 means the batch is stored durably.

    Args:
        device (str):
        body (PostEventsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PostEventsResponse200]
    """

    kwargs = _get_kwargs(
        device=device,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    device: str,
    *,
    client: AuthenticatedClient | Client,
    body: PostEventsBody,
) -> Error | PostEventsResponse200 | None:
    """Records a batch of events, all or none; creates the device.

     Each event is an object as a line of the `jsonl` import format. One invalid event is a 400
    that names its index and field (`events[3].timestamp`), and nothing of the batch is stored.
    The same event (app, kind, instant to the millisecond) is stored once: sent again, it is
    counted as a duplicate. A 200 means the batch is stored durably.

    Args:
        device (str):
        body (PostEventsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PostEventsResponse200
    """

    return (
        await asyncio_detailed(
            device=device,
            client=client,
            body=body,
        )
    ).parsed
