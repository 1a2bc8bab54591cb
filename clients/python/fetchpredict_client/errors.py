"""What the client raises: every failure is a `FetchPredictorError`, whose text is one line."""

from __future__ import annotations

import json


class FetchPredictorError(Exception):
    """Any failure of a call to the service; `str()` of it is one line a program can print."""


class APIError(FetchPredictorError):
    """An answer that is not a success: its status, the service's sentence and the field at fault.

    The service answers every failure with `{"error": "a sentence", "field": "the field"}`;
    `field` is None where no one field is at fault (a missing key, an unknown device).

        try:
            fleet.put_device("phone", time_zone="Mars/Base")
        except APIError as error:
            error.status, error.field   # 400, "timeZone"
    """

    status: int
    error: str
    field: str | None
    retry_after: float | None

    def __init__(
        self, status: int, error: str, field: str | None = None, retry_after: float | None = None
    ) -> None:
        self.status, self.error, self.field, self.retry_after = status, error, field, retry_after
        super().__init__(self._describe())

    @classmethod
    def from_answer(cls, status: int, body: bytes, retry_after: float | None = None) -> APIError:
        """The error an answer's status and body describe; a body that is not the service's JSON
        (a proxy's page, say) is kept as its first line."""
        text = body.decode("utf-8", "replace").strip()
        error, field = text.splitlines()[0][:200] if text else "no reason given", None
        try:
            detail = json.loads(text)
        except ValueError:
            detail = None
        if isinstance(detail, dict) and isinstance(detail.get("error"), str):
            error = detail["error"]
            field = detail["field"] if isinstance(detail.get("field"), str) else None
        return cls(status, error, field, retry_after)

    def _describe(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"HTTP {self.status}: {where}{self.error}"


class RetriesExhausted(APIError):
    """The service answered 503 or 429 to every attempt: the last answer, and how many were made."""

    attempts: int

    def __init__(
        self,
        status: int,
        error: str,
        field: str | None = None,
        retry_after: float | None = None,
        attempts: int = 1,
    ) -> None:
        self.attempts = attempts
        super().__init__(status, error, field, retry_after)

    @classmethod
    def after(cls, last: APIError, attempts: int) -> RetriesExhausted:
        """The error to raise when `last` was the answer to the last of `attempts` attempts."""
        return cls(last.status, last.error, last.field, last.retry_after, attempts)

    def _describe(self) -> str:
        return f"{super()._describe()} (gave up after {self.attempts} attempts)"


class Unreachable(FetchPredictorError):
    """The service did not answer: its URL and why (refused, timed out, not a URL)."""


class BadAnswer(FetchPredictorError):
    """The service answered a success with a body that is not what the OpenAPI document says."""
