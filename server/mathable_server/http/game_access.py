"""Who may read a game, decided once for every route that names one (``<game_id>``):
a sealed game (a duplicate round's table while a table of its order still plays:
``tournaments.sealed``) is, to anyone but its seats, a game that does not exist (404,
as for an unknown id: the API's ``game_not_found``, the pages' missing page).

Registered before every view, so that no view (the game, its events, stream, picture,
record, messages, spectator, play and review pages, and any added later) can forget it.
"""

from __future__ import annotations

from flask import Response, render_template, request

from mathable_server.games.service import GameNotFound, plausible_game_id
from mathable_server.http.web import Services, optional_player, services
from mathable_server.tournaments.sealed import SealedGames

HTML_TYPE = "text/html; charset=utf-8"


def sealed_games(svc: Services) -> SealedGames:
    """The process's ``SealedGames``."""
    assert svc.sealed is not None, "create_app makes it"
    return svc.sealed


def readable(game_id: str, player_id: str | None) -> bool:
    """``player_id`` (None: a visitor) may read ``game_id``, or know it exists."""
    return sealed_games(services()).readable(game_id, player_id)


def refuse_sealed() -> Response | None:
    """The ``before_request`` hook: 404 for a sealed game read by someone not seated."""
    game_id = (request.view_args or {}).get("game_id")
    if not isinstance(game_id, str) or not plausible_game_id(game_id):
        return None  # no game has such an id: the view answers it, no read made here
    seats = sealed_games(services()).seats(game_id)
    if seats is None:
        return None
    player = optional_player()
    if player is not None and player.id in seats:
        return None
    if request.path.startswith("/v1/"):
        raise GameNotFound(game_id)
    missing = render_template("missing.html", game_id=game_id)
    return Response(missing, status=404, content_type=HTML_TYPE)
