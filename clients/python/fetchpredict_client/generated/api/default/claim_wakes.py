from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.claim_wakes_body import ClaimWakesBody
from ...models.claim_wakes_response_200 import ClaimWakesResponse200
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: ClaimWakesBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/wakes/claim",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ClaimWakesResponse200 | Error | None:
    if response.status_code == 200:
        response_200 = ClaimWakesResponse200.from_dict(response.json())

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
) -> Response[ClaimWakesResponse200 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ClaimWakesBody,
) -> Response[ClaimWakesResponse200 | Error]:
    """Leases due wakes to the caller, as `GET /v1/wakes` gives them: no other claim gets a device's wake
    until the lease ends or the device's plan moves on (its fetch results recorded), whatever `now`
    another claim names.

    Args:
        body (ClaimWakesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClaimWakesResponse200 | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ClaimWakesBody,
) -> ClaimWakesResponse200 | Error | None:
    """Leases due wakes to the caller, as `GET /v1/wakes` gives them: no other claim gets a device's wake
    until the lease ends or the device's plan moves on (its fetch results recorded), whatever `now`
    another claim names.

    Args:
        body (ClaimWakesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClaimWakesResponse200 | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ClaimWakesBody,
) -> Response[ClaimWakesResponse200 | Error]:
    """Leases due wakes to the caller, as `GET /v1/wakes` gives them: no other claim gets a device's wake
    until the lease ends or the device's plan moves on (its fetch results recorded), whatever `now`
    another claim names.

    Args:
        body (ClaimWakesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClaimWakesResponse200 | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ClaimWakesBody,
) -> ClaimWakesResponse200 | Error | None:
    """Leases due wakes to the caller, as `GET /v1/wakes` gives them: no other claim gets a device's wake
    until the lease ends or the device's plan moves on (its fetch results recorded), whatever `now`
    another claim names.

    Args:
        body (ClaimWakesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClaimWakesResponse200 | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
