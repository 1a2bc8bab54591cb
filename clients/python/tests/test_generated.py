"""The generated layer: a module for every operation of the document the live service serves."""

from __future__ import annotations

import importlib
import re

from fetchpredict_client import FetchPredictor
from fetchpredict_client.generated.api.default import health, metrics, open_api_document


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def test_every_operation_of_the_served_document_has_a_module(fleet: FetchPredictor) -> None:
    document = open_api_document.sync(client=fleet.api)
    assert isinstance(document, str) and document.startswith("openapi: 3.1")
    operations = re.findall(r"^\s+operationId: (\w+)$", document, flags=re.MULTILINE)
    assert {"postEvents", "nextWake", "dueWakes", "claimWakes"} <= set(operations)
    for operation in operations:
        module = importlib.import_module(f"fetchpredict_client.generated.api.default.{snake(operation)}")
        assert callable(module.sync_detailed), operation


def test_the_routes_without_a_key(fleet: FetchPredictor) -> None:
    status = health.sync(client=fleet.api)
    assert status is not None and status.status
    text = metrics.sync(client=fleet.api)
    assert isinstance(text, str) and "# TYPE" in text
