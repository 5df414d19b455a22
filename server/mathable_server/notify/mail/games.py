"""What a game's mail says, in the words of its ruleset: the board or table as text, the
last turn, how to write a move in a reply, and reading that move back.

One implementation for every game: each word that differs between games comes
from the game's ruleset (``Ruleset.table_text``, ``tiles_line``, ``pool``,
``last_turn_words``, ``points_words``, ``reply_help``, ``read_reply``,
``move_usage``), always over the game's view for the seat the mail goes to, so no
other seat's tiles are ever at hand here and the mail code never asks which game
it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathable import ClockState, RuleError
from mathable.core.ruleset import AnyState, Ruleset, ruleset_of
from mathable_server.games.timesource import iso_ms, local_time


class NoMove(ValueError):
    """The body holds no move that can be read."""


class GameMail:
    """A game's mail, in the words of its ruleset."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules

    @property
    def game_name(self) -> str:
        """The game's name as people write it, for subjects ("Summy")."""
        return self.rules.display_name

    @property
    def how_to_reply(self) -> str:
        """How to reply with a move, for the turn mail and the answers."""
        return self.rules.reply_help()

    def last_turn(self, state: AnyState, names: Sequence[str]) -> str | None:
        """The turn before this one, in words (None if there is none to tell)."""
        return self.rules.last_turn_words(self.rules.view(state, None), names)

    def text(
        self,
        game_id: str,
        state: AnyState,
        clock: ClockState | None,
        seat: int,
        names: Sequence[str],
        before_end: bool = False,
        zone: str | None = None,
    ) -> str:
        """The board or table, scores, ``seat``'s own tiles (no other seat's), the tiles
        left to draw and the deadline (in ``zone``, the reader's IANA time zone; None:
        UTC). ``before_end``: a finished game's scores as they were before the end took
        the tiles left off them."""
        view = self.rules.view(state, seat)
        taken = state.result.deductions if before_end and state.result is not None else ()
        scores = ", ".join(
            f"{names[s['seat']]} {s['score'] + (taken[s['seat']] if taken else 0)}"
            for s in view["seats"]
        )
        label = "Scores before the end" if taken else "Scores"
        lines = [self.rules.table_text(view), "", f"{label}: {scores}"]
        tiles = self.rules.tiles_line(view)
        if tiles:
            lines.append(tiles)
        pool = self.rules.pool(view)
        if pool is not None:
            lines.append(f"Tiles in the {pool[0]}: {pool[1]}")
        return "\n".join(lines + deadline_line(clock, zone))

    def points(self, state: AnyState) -> str:
        """`` for N points`` (and any bonus) of the last turn, if it scored, else ``""``."""
        return self.rules.points_words(self.rules.view(state, None))

    def cli_command(self, game_id: str) -> str:
        """The command-line client's command to play this game."""
        return f"mathable-cli move {game_id}{self.rules.move_usage()}"

    def parse(self, line: str, seat: int, state: AnyState) -> Any:
        """The command a reply's move line asks of ``seat``; NoMove if it is no move."""
        try:
            body = self.rules.read_reply(line, self.rules.view(state, seat))
            return self.rules.command(seat, body)
        except RuleError as err:
            raise NoMove(err.message) from None


def game_mail_for(state: AnyState) -> GameMail:
    """The mail of ``state``'s ruleset."""
    return GameMail(ruleset_of(state))


def deadline_line(clock: ClockState | None, zone: str | None = None) -> list[str]:
    """The deadline, in the reader's time zone (named) and in UTC as the API gives it."""
    if clock is not None and clock.deadline is not None:
        if zone is None:
            return [f"Deadline: {local_time(clock.deadline, None)} ({iso_ms(clock.deadline)})"]
        return [f"Deadline: {local_time(clock.deadline, zone)}"]
    return []
