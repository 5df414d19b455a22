"""What every answer's headers tell a browser (``http/headers.py``): no sniffing, no
framing, and a Content-Security-Policy fitted to what the answer is (a page, a picture,
JSON); a 304 keeps the policy of what was stored.

Pinned since the second security review (issue 27), the HTTP edge's finding 1: pages and
pictures had no Content-Security-Policy, framing or sniffing headers.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

from flask import Flask

from tests.server.apps import make_app
from tests.server.helpers import Table


def _app(tmp_path: Path, **settings: Any) -> Flask:
    return make_app(f"sqlite:///{tmp_path / 'review2.db'}", **settings)


def test_pages_and_pictures_carry_a_content_policy_no_framing_and_nosniff(
    tmp_path: Path,
) -> None:
    """Second security review (issue 27), the HTTP edge's finding 1: pages and pictures had
    no Content-Security-Policy, framing or sniffing headers."""
    client = _app(tmp_path).test_client()
    table = Table(client)
    answers = {
        "home": client.get("/"),
        "page": client.get(f"/games/{table.id}"),
        "missing": client.get("/games/gnosuchgame"),
        "svg": client.get(f"/v1/games/{table.id}/board.svg"),
        "json": client.get(f"/v1/games/{table.id}"),
        "error": client.get("/v1/games/gnosuchgame"),
        "health": client.get("/v1/health"),
    }
    for name, answer in answers.items():
        assert answer.headers["X-Content-Type-Options"] == "nosniff", name
        assert answer.headers["X-Frame-Options"] == "DENY", name
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"], name
    page = answers["page"]
    policy = dict(
        part.strip().split(" ", 1) for part in page.headers["Content-Security-Policy"].split(";")
    )
    # The game page's one script runs by its hash; no other inline script would. 'self':
    # the play page's own script file (issue 28); nothing else this server answers is a
    # script (nosniff: a JSON body is never run as one).
    script = re.search(r"<script>(.*?)</script>", page.get_data(True), re.S)
    assert script is not None
    digest = base64.b64encode(hashlib.sha256(script[1].encode()).digest()).decode()
    assert policy["script-src"] == f"'self' 'sha256-{digest}'"
    assert policy["default-src"] == "'none'" and policy["connect-src"] == "'self'"
    assert policy["base-uri"] == "'none'" and policy["form-action"] == "'self'"
    assert answers["svg"].headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert "script-src" not in answers["svg"].headers["Content-Security-Policy"]


def test_a_not_modified_answer_keeps_the_stored_policy(table: Table) -> None:
    """A 304 carries no Content-Security-Policy (it would replace the stored page's or
    view's), but still nosniff and no framing; a held long-poll answers the same.

    Second security review (issue 27), the HTTP edge's finding 1."""
    client = table.client
    url = f"/v1/games/{table.id}"
    first = client.get(url, headers=table.ada.auth)
    again = client.get(url, headers={**table.ada.auth, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert "Content-Security-Policy" not in again.headers
    assert again.headers["X-Content-Type-Options"] == "nosniff"
    assert again.headers["X-Frame-Options"] == "DENY"
    assert first.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
