"""Histories to post: the same daily launches of one app, day after day."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

FIRST_DAY = datetime(2024, 1, 1, tzinfo=UTC)


def daily_launches(
    app: str, times: list[timedelta], days: int = 21, first_day: datetime = FIRST_DAY
) -> list[dict[str, Any]]:
    """A launch of `app` at each of `times` (from midnight UTC) on each of `days` days."""
    return [
        {"timestamp": first_day + timedelta(days=day) + offset, "app": app, "event": "launch"}
        for day in range(days)
        for offset in times
    ]


def news_reader(shift_minutes: int = 0, days: int = 21) -> list[dict[str, Any]]:
    """A person who reads the news at 07:00 and 20:00 UTC, `shift_minutes` later, every day."""
    shift = timedelta(minutes=shift_minutes)
    return daily_launches("com.example.news", [timedelta(hours=7) + shift, timedelta(hours=20) + shift], days)
