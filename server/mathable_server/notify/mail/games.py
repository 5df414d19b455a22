"""What a game's mail says in the words of its ruleset: the board or table as text, the
last turn, how to write a move in a reply, and reading that move back.

One module per ruleset (``mail/mathable.py``, ``mail/summy.py``) behind the
``GameMail`` interface; ``mail/rulesets.py``'s ``game_mail_for`` finds the one of a
game by the name its state records, so the rest of the mail code never asks which
game it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from mathable import ClockState
from mathable_server.games.timesource import iso_ms


class NoMove(ValueError):
    """The body holds no move that can be read."""


class GameMail(Protocol):
    """A ruleset's mail."""

    #: How to reply with a move, for the turn mail and the answers.
    how_to_reply: str

    def last_turn(self, state: Any, names: Sequence[str]) -> str | None:
        """The turn before this one, in words (None if there is none to tell)."""

    def text(
        self, game_id: str, state: Any, clock: ClockState | None, seat: int, names: Sequence[str]
    ) -> str:
        """The board or table, scores, ``seat``'s own tiles (no other seat's), the deadline."""

    def points(self, state: Any) -> str:
        """`` for N points`` (and any bonus) of the last turn, if it scored, else ``""``."""

    def cli_command(self, game_id: str) -> str:
        """The command-line client's command to play this game."""

    def parse(self, line: str, seat: int, state: Any) -> Any:
        """The command a reply's move line asks of ``seat``; NoMove if it is no move."""


def deadline_line(clock: ClockState | None) -> list[str]:
    if clock is not None and clock.deadline is not None:
        return [f"Deadline: {iso_ms(clock.deadline)}"]
    return []
