"""Mathable's mail: the board as text, the rack, the last turn, and replies in the CLI's
notation (``I8=12 J8=16+``, ``exchange 3 7 12``, ``pass``, ``resign``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathable import (
    ClockState,
    Command,
    Exchange,
    GameState,
    Pass,
    Play,
    PlayTurn,
    Resign,
    RuleError,
    TurnPlacement,
    parse_square,
)
from mathable_server.notify.mail.compose import (
    HOW_TO_REPLY,
    game_text,
    last_turn_words,
    points_words,
)
from mathable_server.notify.mail.games import NoMove


def parse_move(line: str, seat: int) -> Command:
    """A command from the CLI's notation: placements, ``exchange 3 7``, ``pass``, ``resign``.

    >>> parse_move("exchange 3 7 12", 1)
    Exchange(seat=1, tiles=(3, 7, 12))
    >>> parse_move("PASS", 0)
    Pass(seat=0)
    >>> parse_move("I8=12 J8=16+", 0).placements[1].draw_extra
    True
    """
    words = line.replace(",", " ").split()
    if not words:
        raise NoMove("the mail holds no move")
    head = words[0].lower()
    if head == "pass" and len(words) == 1:
        return Pass(seat)
    if head == "resign" and len(words) == 1:
        return Resign(seat)
    if head == "exchange":
        tiles = words[1:]
        if not tiles or not all(t.isdigit() and len(t) <= 3 for t in tiles):
            raise NoMove("write an exchange as: exchange 3 7 12")
        return Exchange(seat, tuple(int(t) for t in tiles))
    try:
        play = Play.parse(" ".join(words))
    except RuleError as err:
        raise NoMove(err.message) from None
    placements = []
    for word, placement in zip(words, play.placements, strict=True):
        placements.append(
            TurnPlacement(parse_square(placement.square), placement.tile, word.endswith("+"), None)
        )
    return PlayTurn(seat, tuple(placements))


class MathableMail:
    how_to_reply = HOW_TO_REPLY

    def last_turn(self, state: Any, names: Sequence[str]) -> str | None:
        assert isinstance(state, GameState)
        return last_turn_words(state, names)

    def text(
        self, game_id: str, state: Any, clock: ClockState | None, seat: int, names: Sequence[str]
    ) -> str:
        assert isinstance(state, GameState)
        return game_text(game_id, state, clock, seat, names)

    def points(self, state: Any) -> str:
        assert isinstance(state, GameState)
        return points_words(state)

    def cli_command(self, game_id: str) -> str:
        return f"mathable-cli move {game_id}"

    def parse(self, line: str, seat: int, state: Any) -> Any:
        return parse_move(line, seat)


MAIL = MathableMail()
