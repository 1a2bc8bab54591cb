from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.put_app_body import PutAppBody
from ...models.put_app_response_200 import PutAppResponse200
from ...types import Response


def _get_kwargs(
    device: str,
    app: str,
    *,
    body: PutAppBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/devices/{device}/apps/{app}".format(
            device=quote(str(device), safe=""),
            app=quote(str(app), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PutAppResponse200 | None:
    if response.status_code == 200:
        response_200 = PutAppResponse200.from_dict(response.json())

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
) -> Response[Error | PutAppResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    device: str,
    app: str,
    *,
    client: AuthenticatedClient | Client,
    body: PutAppBody,
) -> Response[Error | PutAppResponse200]:
    """Sets an app's fetch interval, whether fetch is enabled, and the state of the device its wakes need;
    creates the device and app.

     The fields given are changed, in one transaction; the others are kept. An app that requires power,
    an unmetered network or a battery not low (as BGProcessingTask and WorkManager let one ask) is woken
    only where its device's state events make that likely; a device that never told its state plans it
    as one that asks nothing.

    Args:
        device (str):
        app (str):
        body (PutAppBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PutAppResponse200]
    """

    kwargs = _get_kwargs(
        device=device,
        app=app,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    device: str,
    app: str,
    *,
    client: AuthenticatedClient | Client,
    body: PutAppBody,
) -> Error | PutAppResponse200 | None:
    """Sets an app's fetch interval, whether fetch is enabled, and the state of the device its wakes need;
    creates the device and app.

     The fields given are changed, in one transaction; the others are kept. An app that requires power,
    an unmetered network or a battery not low (as BGProcessingTask and WorkManager let one ask) is woken
    only where its device's state events make that likely; a device that never told its state plans it
    as one that asks nothing.

    Args:
        device (str):
        app (str):
        body (PutAppBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PutAppResponse200
    """

    return sync_detailed(
        device=device,
        app=app,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    device: str,
    app: str,
    *,
    client: AuthenticatedClient | Client,
    body: PutAppBody,
) -> Response[Error | PutAppResponse200]:
    """Sets an app's fetch interval, whether fetch is enabled, and the state of the device its wakes need;
    creates the device and app.

     The fields given are changed, in one transaction; the others are kept. An app that requires power,
    an unmetered network or a battery not low (as BGProcessingTask and WorkManager let one ask) is woken
    only where its device's state events make that likely; a device that never told its state plans it
    as one that asks nothing.

    Args:
        device (str):
        app (str):
        body (PutAppBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PutAppResponse200]
    """

    kwargs = _get_kwargs(
        device=device,
        app=app,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    device: str,
    app: str,
    *,
    client: AuthenticatedClient | Client,
    body: PutAppBody,
) -> Error | PutAppResponse200 | None:
    """Sets an app's fetch interval, whether fetch is enabled, and the state of the device its wakes need;
    creates the device and app.

     The fields given are changed, in one transaction; the others are kept. An app that requires power,
    an unmetered network or a battery not low (as BGProcessingTask and WorkManager let one ask) is woken
    only where its device's state events make that likely; a device that never told its state plans it
    as one that asks nothing.

    Args:
        device (str):
        app (str):
        body (PutAppBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PutAppResponse200
    """

    return (
        await asyncio_detailed(
            device=device,
            app=app,
            client=client,
            body=body,
        )
    ).parsed
