from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.device_settings import DeviceSettings
from ...models.error import Error
from ...models.put_device_body import PutDeviceBody
from ...types import Response


def _get_kwargs(
    device: str,
    *,
    body: PutDeviceBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/devices/{device}".format(
            device=quote(str(device), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeviceSettings | Error | None:
    if response.status_code == 200:
        response_200 = DeviceSettings.from_dict(response.json())

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
) -> Response[DeviceSettings | Error]:
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
    body: PutDeviceBody,
) -> Response[DeviceSettings | Error]:
    """Sets a device's time zone, the interval of its apps that set none, its push budget and its
    forecaster; creates the device.

     The time zone is where the device's days begin: daily habits are local times, and the
    device must have one before wakes are planned. An absent field is left as it is.

    Args:
        device (str):
        body (PutDeviceBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeviceSettings | Error]
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
    body: PutDeviceBody,
) -> DeviceSettings | Error | None:
    """Sets a device's time zone, the interval of its apps that set none, its push budget and its
    forecaster; creates the device.

     The time zone is where the device's days begin: daily habits are local times, and the
    device must have one before wakes are planned. An absent field is left as it is.

    Args:
        device (str):
        body (PutDeviceBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeviceSettings | Error
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
    body: PutDeviceBody,
) -> Response[DeviceSettings | Error]:
    """Sets a device's time zone, the interval of its apps that set none, its push budget and its
    forecaster; creates the device.

     The time zone is where the device's days begin: daily habits are local times, and the
    device must have one before wakes are planned. An absent field is left as it is.

    Args:
        device (str):
        body (PutDeviceBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeviceSettings | Error]
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
    body: PutDeviceBody,
) -> DeviceSettings | Error | None:
    """Sets a device's time zone, the interval of its apps that set none, its push budget and its
    forecaster; creates the device.

     The time zone is where the device's days begin: daily habits are local times, and the
    device must have one before wakes are planned. An absent field is left as it is.

    Args:
        device (str):
        body (PutDeviceBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeviceSettings | Error
    """

    return (
        await asyncio_detailed(
            device=device,
            client=client,
            body=body,
        )
    ).parsed
