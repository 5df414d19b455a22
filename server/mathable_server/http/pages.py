"""Web pages for people: ``/`` (what this server is) and ``/games/{id}`` (a game to follow).

The game page is what a spectator may see, whoever asks: the board, names,
scores, whose turn and the move list, rendered on the server (the board shows
without JavaScript) and cached by version. A few lines of JavaScript follow the
game through the long-poll of ``GET /v1/games/{id}`` and swap in the new page.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, render_template, request
from markupsafe import Markup

import mathable
from mathable.core.errors import RuleError
from mathable.core.ruleset import Ruleset
from mathable_server.games.orders import order_withheld
from mathable_server.games.pictures.board_svg import rules_of
from mathable_server.games.service import GameNotFound
from mathable_server.games.turn_list import turn_lines
from mathable_server.http.render import (
    game_body,
    player_ids,
    same_at_version,
    withhold_end,
)
from mathable_server.http.web import etag, if_none_match_version, services

bp = Blueprint("pages", __name__)

HTML_TYPE = "text/html; charset=utf-8"


#: What the home page shows for the server's address when it knows none it can trust.
UNKNOWN_URL = "https://<this server's address>"


@bp.get("/")
def home() -> Response:
    url = server_url()
    page = render_template("home.html", server_url=url, url_known=url != UNKNOWN_URL)
    return Response(page, content_type=HTML_TYPE)


def server_url() -> str:
    """The address the home page tells players to use, never one a caller made up.

    ``MATHABLE_PUBLIC_URL`` if set. Without it the request's ``Host`` only if it names
    this machine (``localhost``, a loopback address: a development server, where nobody
    else's page is at stake), rebuilt from its name and port; else ``UNKNOWN_URL``: a
    ``Host: evil.example`` must not put its address in a page (or a cache) others read.
    """
    public = services().settings.public_url
    if public:
        return public
    try:
        parts = urlsplit(f"//{request.host}")
        name, port = parts.hostname, parts.port
    except ValueError:  # a port that is no number
        return UNKNOWN_URL
    if name is None or not _loopback(name) or parts.username is not None:
        return UNKNOWN_URL
    shown = f"[{name}]" if ":" in name else name
    return f"{request.scheme}://{shown}" + (f":{port}" if port else "")


def _loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@bp.get("/games/<game_id>")
def game_page(game_id: str) -> Response:
    svc = services()
    try:
        state = svc.games.state(game_id)
    except GameNotFound:
        missing = render_template("missing.html", game_id=game_id)
        return Response(missing, status=404, content_type=HTML_TYPE)
    headers = {"ETag": etag(state.version), "Cache-Control": "no-cache"}
    if if_none_match_version() == state.version and same_at_version(state):
        return Response(status=304, headers=headers)
    key = (game_id, state.version, None)
    # A finished game whose order another game still draws: its scores before the end,
    # no winners (render.withhold_end), rendered each time (it shows more once revealed).
    withheld = order_withheld(svc.store, game_id, state)
    cached = None if withheld else svc.pages.get(key)
    if cached is None:
        view = game_body(game_id, state, None, svc.names.lookup(player_ids(state)))
        if withheld:
            withhold_end(view, None)
        events = [stored.event for stored in svc.store.events_after(game_id, 0)]
        cached = render_template("game.html", **page_context(view, events))
        if not withheld:
            svc.pages.put(key, cached)
    return Response(cached, status=200, headers=headers, content_type=HTML_TYPE)


def seat_names(view: Mapping[str, Any]) -> list[str]:
    return [
        str(entry.get("name") or f"seat {entry['seat'] + 1}") for entry in view.get("seats") or []
    ]


def status_words(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """Where the game stands, in one sentence."""
    status = view.get("status")
    if status == "ended":
        result = view.get("result") or {}
        reason = rules_of(view).end_words(str(result.get("reason")))
        winners = [names[s] for s in result.get("winners") or [] if s < len(names)]
        if not winners:
            return f"Game over: {reason}."
        verb = "share the win" if len(winners) > 1 else "wins"
        return f"Game over ({reason}): {' and '.join(winners)} {verb}."
    if status == "playing":
        turn = view.get("turn") or {}
        seat = turn.get("seat")
        who = names[seat] if isinstance(seat, int) and seat < len(names) else "?"
        return f"{who} to play."
    seated = sum(1 for entry in view.get("seats") or [] if entry.get("player"))
    return f"Waiting for players: {seated} of {view.get('players')} seats taken."


def page_context(view: Mapping[str, Any], events: Sequence[mathable.Event]) -> dict[str, Any]:
    """What the game page shows: a spectator's view, never a rack or a hand (even if
    ``view`` has one). Any game: its ruleset draws the board or table as text."""
    rules = rules_of(view)
    view = {**view, "you": None, "rack": None, "hand": None}
    names = seat_names(view)
    turn = view.get("turn") or {}
    clock = view.get("clock") if isinstance(view.get("clock"), Mapping) else None
    pool = rules.pool(view)
    picture = _picture(rules, view)
    return {
        "game": view,
        "title": f"{rules.display_name} game",
        "drawing": rules.drawing_name,
        "names": names,
        # Tiles each seat holds, and those left to draw (a rack and the bag, a hand and
        # the supply), as the game's ruleset reads them from its view.
        "held": [rules.held(s) for s in view.get("seats") or []],
        "pool": pool[1] if pool is not None else None,
        "pool_name": pool[0] if pool is not None else "supply",
        "to_play": turn.get("seat") if view.get("status") == "playing" else None,
        "status": status_words(view, names),
        "deadline": clock.get("deadline") if clock else None,
        # Built from numbers and names only (the ruleset escapes its text); a game that
        # draws no picture is shown as text alone.
        "board_svg": Markup(picture) if picture is not None else "",
        "board_text": rules.draw(dict(view)),
        "turns": turn_lines(events, names, rules.name),
    }


def _picture(rules: Ruleset, view: dict[str, Any]) -> str | None:
    """The game's picture of a view, or None for a game that draws none."""
    try:
        return rules.svg(view)
    except RuleError:
        return None
