"""A live `fetchpredict serve` for the tests, on a scratch SQLite store in a temporary folder.

The tool is `$FETCHPREDICT_BIN`, else `fetchpredict` on the PATH. The service listens on a port
the system picks (`--listen 127.0.0.1:0`; its ready line names the port), is ready when `/readyz`
answers 200, and is stopped with SIGTERM after the last test. Each test that asks for `fleet` gets
a tenant of its own, with a key from `fetchpredict keys create`, so that no test sees another's
devices in the feed or in claims.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from fetchpredict_client import FetchPredictor


@dataclass(frozen=True)
class Service:
    """A running service: its URL, the tool that runs it, and the store it serves."""

    url: str
    tool: str
    db: Path

    def new_key(self, tenant: str) -> str:
        """A new key of `tenant`: the last word of what `fetchpredict keys create` prints."""
        made = subprocess.run(
            [self.tool, "keys", "create", "--tenant", tenant, "--db", str(self.db)],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        return made.stdout.split()[-1]


def find_tool() -> str:
    tool = os.environ.get("FETCHPREDICT_BIN") or shutil.which("fetchpredict")
    if not tool or not os.access(tool, os.X_OK):
        pytest.fail(
            f"no fetchpredict to run ({tool or 'none on the PATH'}): "
            "build it and set FETCHPREDICT_BIN to its path",
            pytrace=False,
        )
    return tool


def wait_until_ready(process: subprocess.Popen[bytes], log: Path, seconds: float = 30) -> str:
    """The service's URL once its ready line names its port and /readyz answers 200."""
    deadline = time.monotonic() + seconds
    url = None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"fetchpredict serve exited {process.returncode}: {log.read_text()}")
        if url is None:
            found = re.search(r"address=127\.0\.0\.1:(\d+)", log.read_text())
            url = f"http://127.0.0.1:{found.group(1)}" if found else None
        if url is not None:
            try:
                with urllib.request.urlopen(f"{url}/readyz", timeout=2) as answer:
                    if answer.status == 200:
                        return url
            except OSError:
                pass
        time.sleep(0.1)
    raise RuntimeError(f"fetchpredict serve was not ready in {seconds:g} s: {log.read_text()}")


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    tool = find_tool()
    folder = tmp_path_factory.mktemp("store")
    db, log = folder / "events.sqlite", folder / "serve.log"
    environment = dict(os.environ, FETCHPREDICT_DB=str(db))
    with log.open("wb") as errors:
        process = subprocess.Popen(
            [tool, "serve", "--db", str(db), "--listen", "127.0.0.1:0", "--log-level", "notice"],
            stdout=subprocess.DEVNULL,
            stderr=errors,
            env=environment,
        )
    try:
        url = wait_until_ready(process, log)
        yield Service(url=url, tool=tool, db=db)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


_tenants = itertools.count(1)


@pytest.fixture
def tenant_key(service: Service) -> str:
    """A key of a tenant no other test uses."""
    return service.new_key(f"acme-{next(_tenants)}")


@pytest.fixture
def fleet(service: Service, tenant_key: str) -> Iterator[FetchPredictor]:
    """A client of the live service for a tenant of this test's own."""
    with FetchPredictor(service.url, tenant_key) as client:
        yield client


def pytest_report_header() -> list[str]:
    import fetchpredict_client

    tool = os.environ.get("FETCHPREDICT_BIN") or shutil.which("fetchpredict") or "none"
    return [f"fetchpredict_client: {Path(fetchpredict_client.__file__).parent}", f"fetchpredict: {tool}"]
