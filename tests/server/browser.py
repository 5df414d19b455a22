"""What the browser tests share: Debian's Chromium (or one named by ``MATHABLE_CHROMIUM``;
never a downloaded browser) driven by Playwright, and players registered on a live server.

Importing this module skips the importing test module when Playwright or Chromium is
missing (``.ci/run`` installs Chromium where apt works), saying which.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import requests

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')"
)

CHROMIUM = (
    os.environ.get("MATHABLE_CHROMIUM")
    or shutil.which("chromium")
    or shutil.which("chromium-browser")
)
if CHROMIUM is None:
    pytest.skip(
        "no Chromium here: apt-get install chromium (.ci/run installs it where apt works)",
        allow_module_level=True,
    )

#: A phone's screen, as the pages are checked on one.
PHONE = {"width": 390, "height": 844}


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium, closed at the end (a module's ``browser`` fixture holds one)."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield launched
        finally:
            launched.close()


def register(base: str, prefix: str, *, exact: bool = False) -> dict[str, str]:
    """A player registered on the server at ``base``: named ``prefix`` and six random hex
    digits (``exact``: ``prefix`` alone); its id, name and token."""
    name = prefix if exact else f"{prefix}{secrets.token_hex(3)}"
    response = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
    assert response.status_code == 201, response.text
    body: dict[str, str] = response.json()
    return body


def auth(player: dict[str, str]) -> dict[str, str]:
    """The ``Authorization`` header of a player ``register`` made."""
    return {"Authorization": f"Bearer {player['token']}"}
