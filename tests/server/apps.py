"""The apps the server tests make: on a database URL, every answer checked against the spec.

``make_app`` and ``close_app`` are what a test calls (the fixtures of
``tests.server.conftest`` are built on them); every app made and not closed is closed
after its test (the conftest's ``_close_apps`` calls ``close_open_apps``).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from mathable_server import Settings, create_app
from tests.server.contract import check_response


class ContractClient(FlaskClient):
    """A test client that checks every answer against openapi.yaml."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        request = response.request
        check_response(
            request.method,
            request.path,
            response.status_code,
            response.get_data(),
            response.content_type,
        )
        return response


#: The apps a test made and has not closed: ``close_open_apps`` closes them after it.
_OPEN_APPS: list[Flask] = []


def make_app(database_url: str, **settings: Any) -> Flask:
    # Most tests set up games with a given bag order: the server must allow it.
    settings.setdefault("allow_given_tiles", True)
    settings.setdefault("allow_seeds", True)
    # Fewer connections than a server's default: the test workers share PostgreSQL's 100.
    settings.setdefault("pool_size", 4)
    app = create_app(Settings(database_url=database_url, **settings))
    app.test_client_class = ContractClient
    _OPEN_APPS.append(app)
    return app


def close_app(app: Flask) -> None:
    """End what an app runs in the background, then its engine: the feed follower first
    (on PostgreSQL it would go on reading a dropped schema), and the held polls' flusher
    (it would go on writing leases into it); connections left open fail the suite."""
    if app in _OPEN_APPS:
        _OPEN_APPS.remove(app)
    services = app.extensions["mathable"]
    services.follower.stop()
    for worker in app.extensions.get("mathable_workers", []):
        worker.stop()
    services.held_polls.stop()
    services.store.engine.dispose()


def close_open_apps() -> None:
    """Close every app made and not closed yet, the last made first."""
    while _OPEN_APPS:
        close_app(_OPEN_APPS[-1])
