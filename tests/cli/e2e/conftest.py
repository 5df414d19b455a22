"""End to end: the real ``mathable-cli`` executable (``tests.cli.players``) against a real
server process. ``server``: one server a test module (a module may start its own)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.live import live_server


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with live_server() as url:
        yield url
