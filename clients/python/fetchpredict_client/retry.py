"""When to ask again: 503 (the store is busy, or a model is being learned) and 429 (the tenant's
learns are at their limit) mean nothing was changed, and say after how long with `Retry-After`."""

from __future__ import annotations

import email.utils
import math
from dataclasses import dataclass
from datetime import UTC, datetime

# The statuses whose request may be sent again as it is: the service changed nothing.
RETRIED = frozenset({429, 503})


@dataclass(frozen=True)
class Retry:
    """How many times a call is made at most, and how long it waits between two.

    The wait is the answer's `Retry-After` (seconds, or an HTTP date), else `backoff` doubled at
    each attempt; never more than `max_wait` seconds.

        FetchPredictor(url, key, retry=Retry(attempts=10, max_wait=5))
        FetchPredictor(url, key, retry=Retry(attempts=1))   # never again
    """

    attempts: int = 5
    backoff: float = 0.5
    max_wait: float = 30.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"attempts must be 1 or more, not {self.attempts}")
        if not (self.backoff >= 0 and self.max_wait >= 0):
            raise ValueError("backoff and max_wait must be 0 or more seconds")

    def wait(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait after the `attempt`-th attempt (1 for the first) failed."""
        if retry_after is None:
            retry_after = self.backoff * 2 ** (attempt - 1)
        return min(max(retry_after, 0.0), self.max_wait)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds a `Retry-After` header asks to wait: delta-seconds or an HTTP date; None when absent
    or not either."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        seconds = None
    if seconds is not None:
        return seconds if math.isfinite(seconds) and seconds >= 0 else None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - (now or datetime.now(UTC))).total_seconds(), 0.0)
