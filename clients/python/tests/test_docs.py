"""The Python examples of docs/service.md and of the package's README run as written, against the
live service, and print what their comments say."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from conftest import Service

ROOT = Path(__file__).resolve().parents[3]


def python_blocks(page: Path) -> list[str]:
    return [part.split("```")[0] for part in page.read_text(encoding="utf-8").split("```python\n")[1:]]


def run(block: str, service: Service, key: str) -> list[str]:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(block.replace("http://127.0.0.1:8080", service.url), {"key": key, "__name__": "example"})
    return printed.getvalue().splitlines()


@pytest.mark.parametrize("page", ["docs/service.md", "clients/python/README.md"])
def test_the_example_runs_as_written(page: str, service: Service, tenant_key: str) -> None:
    blocks = [block for block in python_blocks(ROOT / page) if "FetchPredictor(" in block]
    assert len(blocks) == 1
    printed = run(blocks[0], service, tenant_key)
    # Each print whose line ends with a comment prints that comment (up to its "...").
    said = [line.split("  # ", 1)[1] for line in blocks[0].splitlines() if "print(" in line and "  # " in line]
    assert len(printed) == len(said) or not said, printed
    for line, comment in zip(printed, said):
        assert line.startswith(comment.removesuffix("...")), (line, comment)
