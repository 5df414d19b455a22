"""What a waiting request keeps while it waits: its answer's needs, not Flask's request.

A worker holds thousands of long-polls and streams; a stream used to keep the
whole request and app context (Flask's request, with its parsed arguments and
headers) for its ten minutes. ``bench/bench_held_memory.py`` measures what one
costs; these pin that neither a held long-poll nor a stream keeps Flask's
request, and that the leases a wait holds are given back once however often
they are closed.
"""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

import pytest
from flask import Flask, request, request_started
from werkzeug.test import EnvironBuilder

from mathable_server.http.waiting import Holds
from tests.server.helpers import EXAMPLE_TILES, move, register, started_game


def _requests_of(app: Flask) -> tuple[list[weakref.ref[Any]], Any]:
    """Weak references to each Flask request ``app`` starts; the receiver to disconnect."""
    seen: list[weakref.ref[Any]] = []

    def note(sender: Flask, **extra: Any) -> None:
        seen.append(weakref.ref(request._get_current_object()))  # type: ignore[attr-defined]

    request_started.connect(note, app)
    return seen, note


def test_a_held_long_poll_lets_flasks_request_go_while_it_waits(app: Flask) -> None:
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    environ = EnvironBuilder(
        path=f"/v1/games/{game['id']}", query_string="wait=10&since=3", headers=bob.auth
    ).get_environ()
    seen, note = _requests_of(app)
    try:
        body = app(environ, lambda status, headers: None)
    finally:
        request_started.disconnect(note, app)
    gc.collect()
    assert len(seen) == 1 and seen[0]() is None  # held, and Flask's request is gone
    threading.Timer(0.2, lambda: move(app.test_client(), ada, game["id"], 3, type="pass")).start()
    assert b'"version":4' in b"".join(body)  # answered all the same
    getattr(body, "close", lambda: None)()


@pytest.mark.parametrize("kind", ["game", "me"])
def test_an_open_stream_lets_flasks_request_go(app: Flask, kind: str) -> None:
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    path = f"/v1/games/{game['id']}/stream" if kind == "game" else "/v1/me/stream"
    environ = EnvironBuilder(path=path, headers=bob.auth).get_environ()
    seen, note = _requests_of(app)
    try:
        body = app(environ, lambda status, headers: None)
    finally:
        request_started.disconnect(note, app)
    lines = iter(body)
    try:
        assert next(lines) == b"\n"  # the stream is open
        gc.collect()
        assert len(seen) == 1 and seen[0]() is None
    finally:
        getattr(body, "close", lambda: None)()
    assert app.extensions["mathable"].long_polls._held == 0  # its leases were given back


def test_holds_closed_twice_give_back_once(app: Flask) -> None:
    svc = app.extensions["mathable"]
    first = Holds.take(svc, "player:p1", 60)
    second = Holds.take(svc, "player:p1", 60)
    assert isinstance(first, Holds) and isinstance(second, Holds)
    waiter = first.watch(games=("g1",), owner="p1")
    assert svc.long_polls._held == 2 and svc.wakeups.concerns(["g1"], [])
    first.close()
    first.close()
    assert svc.long_polls._held == 1  # the other's slot is still taken
    assert not svc.wakeups.concerns(["g1"], []) and not waiter.wait(0)
    with second:
        pass
    assert svc.long_polls._held == 0
