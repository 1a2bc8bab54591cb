"""Retries on 503 and 429 after `Retry-After`, against a stub of the service that answers what
each test says, since a live service answers 503 only when its store is down."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from fetchpredict_client import APIError, FetchPredictor, RetriesExhausted, Retry
from fetchpredict_client.retry import parse_retry_after

Answer = tuple[int, dict[str, str], object]
SETTINGS: Answer = (200, {}, {"device": "phone", "timeZone": "Europe/Warsaw", "defaultInterval": "minimum",
                                  "wakesPerHour": None, "wakesPerHourFrom": "none", "forecaster": "hazard",
                                  "forecasterFrom": "service"})
BUSY: Answer = (503, {"Retry-After": "2"}, {"error": "the store is busy; try again"})
LEARNING: Answer = (429, {"Retry-After": "1"}, {"error": "this tenant's learns are at their limit", "field": "device"})


class Stub:
    """An HTTP server on 127.0.0.1 that answers each request with the next of `answers`
    (status, headers, JSON body) and keeps the requests' methods and paths."""

    def __init__(self) -> None:
        self.answers: list[Answer] = []
        self.requests: list[str] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                stub.requests.append(f"{self.command} {self.path}")
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                status, headers, body = stub.answers.pop(0) if stub.answers else (500, {}, {"error": "no answer left"})
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_PUT = do_POST = answer

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stub() -> Iterator[Stub]:
    server = Stub()
    yield server
    server.close()


def client(stub: Stub, waits: list[float], attempts: int = 5) -> FetchPredictor:
    return FetchPredictor(stub.url, "k", retry=Retry(attempts=attempts), sleep=waits.append)


def test_503_and_429_are_asked_again_after_retry_after(stub: Stub) -> None:
    stub.answers = [BUSY, LEARNING, SETTINGS]
    waits: list[float] = []
    settings = client(stub, waits).device("phone")
    assert settings.time_zone == "Europe/Warsaw"
    assert waits == [2.0, 1.0]
    assert stub.requests == ["GET /v1/devices/phone"] * 3


def test_a_post_is_sent_again_whole(stub: Stub) -> None:
    claimed = {"wakes": [{"device": "phone", "time": "2024-01-22T05:31:00Z", "apps": []}]}
    stub.answers = [BUSY, (200, {}, claimed)]
    waits: list[float] = []
    wakes = client(stub, waits).claim("2024-01-22T06:00:00Z", limit=10, lease_seconds=60)
    assert [wake.device for wake in wakes] == ["phone"]
    assert stub.requests == ["POST /v1/wakes/claim"] * 2


def test_it_gives_up_after_its_attempts_naming_the_last_answer(stub: Stub) -> None:
    stub.answers = [BUSY, BUSY, LEARNING, SETTINGS]
    waits: list[float] = []
    with pytest.raises(RetriesExhausted) as gave_up:
        client(stub, waits, attempts=3).device("phone")
    error = gave_up.value
    assert (error.status, error.field, error.attempts) == (429, "device", 3)
    assert str(error) == "HTTP 429: device: this tenant's learns are at their limit (gave up after 3 attempts)"
    assert waits == [2.0, 2.0]
    assert len(stub.requests) == 3


def test_a_4xx_is_not_asked_again(stub: Stub) -> None:
    stub.answers = [(400, {}, {"error": "'x' is not a timestamp", "field": "now"}), SETTINGS]
    waits: list[float] = []
    with pytest.raises(APIError) as refused:
        client(stub, waits).next_wake("phone", now="x")
    assert (refused.value.status, refused.value.field) == (400, "now")
    assert waits == [] and len(stub.requests) == 1


def test_without_retry_after_it_backs_off_doubling_up_to_max_wait(stub: Stub) -> None:
    stub.answers = [(503, {}, {"error": "busy"})] * 4 + [SETTINGS]
    waits: list[float] = []
    fleet = FetchPredictor(stub.url, "k", retry=Retry(attempts=5, backoff=0.5, max_wait=1.5), sleep=waits.append)
    fleet.device("phone")
    assert waits == [0.5, 1.0, 1.5, 1.5]


def test_a_body_that_is_not_the_services_json_is_kept_as_its_first_line() -> None:
    error = APIError.from_answer(502, b"<html>Bad gateway</html>\n<body>...</body>")
    assert str(error) == "HTTP 502: <html>Bad gateway</html>"
    assert error.field is None


def test_retry_after_in_seconds_or_as_a_date() -> None:
    now = datetime(2024, 1, 22, 5, tzinfo=UTC)
    assert parse_retry_after("3", now) == 3.0
    assert parse_retry_after("Mon, 22 Jan 2024 05:00:30 GMT", now) == 30.0
    assert parse_retry_after("Mon, 22 Jan 2024 04:00:00 GMT", now) == 0.0
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after("-1", now) is None
    assert parse_retry_after(None, now) is None
