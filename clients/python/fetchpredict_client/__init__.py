"""A Python client of FetchPredictor's HTTP service (`fetchpredict serve`).

`FetchPredictor` is the layer of our own: the routes a scheduler uses, the feed's pages, claims
and retries. `fetchpredict_client.generated` is made from the service's OpenAPI document by
`scripts/make-python-client.sh` and covers every route; it is never edited by hand.
"""

from .client import FetchPredictor, Instant, instant
from .errors import APIError, BadAnswer, FetchPredictorError, RetriesExhausted, Unreachable
from .generated.models import DeviceWake, Event
from .generated.types import UNSET, Unset
from .retry import Retry

__all__ = [
    "APIError",
    "BadAnswer",
    "DeviceWake",
    "Event",
    "FetchPredictor",
    "FetchPredictorError",
    "Instant",
    "RetriesExhausted",
    "Retry",
    "UNSET",
    "Unreachable",
    "Unset",
    "instant",
]
