from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.freshness import Freshness
from ...models.freshness_scope import FreshnessScope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: str,
    to: str,
    device: str | Unset = UNSET,
    app: str | Unset = UNSET,
    scope: FreshnessScope | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["from"] = from_

    params["to"] = to

    params["device"] = device

    params["app"] = app

    json_scope: str | Unset = UNSET
    if not isinstance(scope, Unset):
        json_scope = scope.value

    params["scope"] = json_scope

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/freshness",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Freshness | None:
    if response.status_code == 200:
        response_200 = Freshness.from_dict(response.json())

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

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | Freshness]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    from_: str,
    to: str,
    device: str | Unset = UNSET,
    app: str | Unset = UNSET,
    scope: FreshnessScope | Unset = UNSET,
) -> Response[Error | Freshness]:
    """Did the wakes pay? The fresh cold launches of the fetches the tenant sent, over days, beside
    fetching every 30, 60 and 120 minutes and the oracle over the same cold launches; what `fetchpredict
    freshness` prints. A cold launch (none of the app in the 30 minutes before) is fresh when a fetch of
    the app that did not fail began in the 30 minutes before it, at least a minute before it. Of one
    device, scored from its events; of every device of the tenant, the sums of the days the freshness
    pass keeps as events arrive (`pendingDevices` says how many devices it has still to keep; a device
    with no time zone has no local days and is in none).

    Args:
        from_ (str):
        to (str):
        device (str | Unset):
        app (str | Unset):
        scope (FreshnessScope | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Freshness]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        device=device,
        app=app,
        scope=scope,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    from_: str,
    to: str,
    device: str | Unset = UNSET,
    app: str | Unset = UNSET,
    scope: FreshnessScope | Unset = UNSET,
) -> Error | Freshness | None:
    """Did the wakes pay? The fresh cold launches of the fetches the tenant sent, over days, beside
    fetching every 30, 60 and 120 minutes and the oracle over the same cold launches; what `fetchpredict
    freshness` prints. A cold launch (none of the app in the 30 minutes before) is fresh when a fetch of
    the app that did not fail began in the 30 minutes before it, at least a minute before it. Of one
    device, scored from its events; of every device of the tenant, the sums of the days the freshness
    pass keeps as events arrive (`pendingDevices` says how many devices it has still to keep; a device
    with no time zone has no local days and is in none).

    Args:
        from_ (str):
        to (str):
        device (str | Unset):
        app (str | Unset):
        scope (FreshnessScope | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Freshness
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        device=device,
        app=app,
        scope=scope,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    from_: str,
    to: str,
    device: str | Unset = UNSET,
    app: str | Unset = UNSET,
    scope: FreshnessScope | Unset = UNSET,
) -> Response[Error | Freshness]:
    """Did the wakes pay? The fresh cold launches of the fetches the tenant sent, over days, beside
    fetching every 30, 60 and 120 minutes and the oracle over the same cold launches; what `fetchpredict
    freshness` prints. A cold launch (none of the app in the 30 minutes before) is fresh when a fetch of
    the app that did not fail began in the 30 minutes before it, at least a minute before it. Of one
    device, scored from its events; of every device of the tenant, the sums of the days the freshness
    pass keeps as events arrive (`pendingDevices` says how many devices it has still to keep; a device
    with no time zone has no local days and is in none).

    Args:
        from_ (str):
        to (str):
        device (str | Unset):
        app (str | Unset):
        scope (FreshnessScope | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Freshness]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        device=device,
        app=app,
        scope=scope,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    from_: str,
    to: str,
    device: str | Unset = UNSET,
    app: str | Unset = UNSET,
    scope: FreshnessScope | Unset = UNSET,
) -> Error | Freshness | None:
    """Did the wakes pay? The fresh cold launches of the fetches the tenant sent, over days, beside
    fetching every 30, 60 and 120 minutes and the oracle over the same cold launches; what `fetchpredict
    freshness` prints. A cold launch (none of the app in the 30 minutes before) is fresh when a fetch of
    the app that did not fail began in the 30 minutes before it, at least a minute before it. Of one
    device, scored from its events; of every device of the tenant, the sums of the days the freshness
    pass keeps as events arrive (`pendingDevices` says how many devices it has still to keep; a device
    with no time zone has no local days and is in none).

    Args:
        from_ (str):
        to (str):
        device (str | Unset):
        app (str | Unset):
        scope (FreshnessScope | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Freshness
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            device=device,
            app=app,
            scope=scope,
        )
    ).parsed
