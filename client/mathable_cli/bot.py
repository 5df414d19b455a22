"""The bot: plays one identity's seats, each game through its screen's ``bot_turn``."""

from __future__ import annotations

from typing import Any

from mathable_cli.api import ApiClient
from mathable_cli.game import game_id, is_my_turn, seat_name
from mathable_cli.output import Output
from mathable_cli.screens import BotOptions, Turn, screen_for
from mathable_i18n import _


class Bot:
    """Plays one identity's seats, one decision at a time, reporting on stderr."""

    def __init__(self, api: ApiClient, output: Output, engine: object, *, draw_extra: bool) -> None:
        self.api = api
        self.out = output
        #: What each game's screen is handed (``engine``: the runner ``--engine`` made).
        self.options = BotOptions(engine, draw_extra)
        self.turns = 0

    def act(self, game: str, view: dict[str, Any]) -> dict[str, Any]:
        """Play one decision in ``game`` if it is my turn; the view afterwards."""
        if not is_my_turn(view):
            return view
        new = screen_for(view).bot_turn(self.options, Turn(self.api, self.out, game, view))
        if new is None:  # the game moved on: look again
            return self.api.game(game)
        self.turns += 1
        return new

    def finished(self, game: str, view: dict[str, Any]) -> None:
        result = view.get("result") or {}
        scores = result.get("scores") or [s.get("score", 0) for s in view.get("seats") or []]
        winners = [seat_name(view, s) for s in result.get("winners") or []]
        standing = ", ".join(f"{seat_name(view, i)} {s}" for i, s in enumerate(scores))
        won = _(" and ").join(winners) or "-"
        self.out.data(
            _(
                "{game}: {scores}; won by {winners}",
                game=game_id(view, game),
                scores=standing,
                winners=won,
            )
        )
