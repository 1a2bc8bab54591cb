from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delete_device_response_200 import DeleteDeviceResponse200
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    device: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/devices/{device}".format(
            device=quote(str(device), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeleteDeviceResponse200 | Error | None:
    if response.status_code == 200:
        response_200 = DeleteDeviceResponse200.from_dict(response.json())

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
) -> Response[DeleteDeviceResponse200 | Error]:
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
) -> Response[DeleteDeviceResponse200 | Error]:
    """Erases a device for good; the same as `fetchpredict prune --device D --all`.

     Every event, app, setting, learned model and import record of the device, and the device
    itself, in one transaction (a person's right to erasure). Then the device answers 404; one
    made later under its name starts with nothing.

    Args:
        device (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeleteDeviceResponse200 | Error]
    """

    kwargs = _get_kwargs(
        device=device,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    device: str,
    *,
    client: AuthenticatedClient | Client,
) -> DeleteDeviceResponse200 | Error | None:
    """Erases a device for good; the same as `fetchpredict prune --device D --all`.

     Every event, app, setting, learned model and import record of the device, and the device
    itself, in one transaction (a person's right to erasure). Then the device answers 404; one
    made later under its name starts with nothing.

    Args:
        device (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeleteDeviceResponse200 | Error
    """

    return sync_detailed(
        device=device,
        client=client,
    ).parsed


async def asyncio_detailed(
    device: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[DeleteDeviceResponse200 | Error]:
    """Erases a device for good; the same as `fetchpredict prune --device D --all`.

     Every event, app, setting, learned model and import record of the device, and the device
    itself, in one transaction (a person's right to erasure). Then the device answers 404; one
    made later under its name starts with nothing.

    Args:
        device (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeleteDeviceResponse200 | Error]
    """

    kwargs = _get_kwargs(
        device=device,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    device: str,
    *,
    client: AuthenticatedClient | Client,
) -> DeleteDeviceResponse200 | Error | None:
    """Erases a device for good; the same as `fetchpredict prune --device D --all`.

     Every event, app, setting, learned model and import record of the device, and the device
    itself, in one transaction (a person's right to erasure). Then the device answers 404; one
    made later under its name starts with nothing.

    Args:
        device (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeleteDeviceResponse200 | Error
    """

    return (
        await asyncio_detailed(
            device=device,
            client=client,
        )
    ).parsed
