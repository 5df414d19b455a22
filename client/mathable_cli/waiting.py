"""Waiting on the server: until a game waits on me (or ends), in one game or in any of mine.

One game is long-polled; any game follows the server's event stream, or polls
the game list against an older server.
"""

from __future__ import annotations

from typing import Any

from mathable_cli import api as api_module
from mathable_cli.api import ApiClient
from mathable_cli.events import EventStream, StreamUnsupported
from mathable_cli.exits import CliError
from mathable_cli.game import is_my_turn
from mathable_cli.listing import game_entries, waits_on_me
from mathable_i18n import _

#: The longest the server holds a long-poll (DESIGN: up to 60 s).
LONG_POLL = 60


def game_done(view: dict[str, Any]) -> bool:
    """Nothing to wait for: my turn, or the game is over (or I have no seat and it goes on)."""
    if view.get("status") == "ended":
        return True
    return is_my_turn(view)


def wait_for_game(
    api: ApiClient, game: str, view: dict[str, Any], *, deadline: float | None, interval: float
) -> dict[str, Any]:
    """Long-poll ``game`` until it waits on me or ends; the view then (or at the deadline)."""
    while not game_done(view):
        poll = LONG_POLL
        if deadline is not None:
            remaining = deadline - api_module._clock()
            if remaining <= 0:
                break
            poll = max(1, min(LONG_POLL, int(remaining)))
        started = api_module._clock()
        version = view.get("version")
        view = api.game(game, wait=poll, since=int(version or 0))
        if view.get("version") == version and api_module._clock() - started < poll / 2:
            # The server answered at once without news: do not hammer it.
            api_module._sleep(interval)
    return view


def wait_for_any(
    api: ApiClient, *, deadline: float | None, interval: float
) -> list[dict[str, Any]] | None:
    """Wait until some game waits on me; those games, or None at the deadline.

    Follows the server's event stream (one open request, woken by the server);
    against an older server without one, polls the game list every ``interval``.
    """
    stream: EventStream | None = EventStream(api)
    try:
        while True:
            entries = game_entries({"games": api.my_games()})
            ready = [e for e in entries if waits_on_me(e)]
            if ready:
                return ready
            if not any(e.get("status") in ("playing", "waiting") for e in entries):
                raise CliError(
                    _("you have no game in play to wait for"),
                    hint=_(
                        "start one with `mathable-cli new` or join one with `mathable-cli join`"
                    ),
                )
            remaining = None if deadline is None else deadline - api_module._clock()
            if remaining is not None and remaining <= 0:
                return None
            if stream is not None:
                try:
                    if _next_turn(stream, remaining) is None:
                        return None
                    continue  # my turn somewhere: the list says where
                except StreamUnsupported:
                    stream.close()
                    stream = None
            api_module._sleep(interval if remaining is None else min(interval, remaining))
    finally:
        if stream is not None:
            stream.close()


def _next_turn(stream: EventStream, timeout: float | None) -> dict[str, Any] | None:
    """The next ``your_turn`` or ``game_finished`` event; None when ``timeout`` runs out."""
    deadline = None if timeout is None else api_module._clock() + timeout
    while True:
        left = None if deadline is None else deadline - api_module._clock()
        event = stream.next_event(left)
        if event is None or event.get("type") in ("your_turn", "game_finished"):
            return event
