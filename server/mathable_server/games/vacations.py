"""Vacations: days off each player's clocks, an allowance per calendar year.

A vacation is recorded once for the player (the allowance is counted there) and
as an event in each game in play where they have a seat: the clock of a game
is derived from its events alone, so the game must say when its player left
and came back. A vacation covers the games in play when it starts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mathable import Command, EndVacation, StartVacation
from mathable.core.clock import DAY
from mathable_i18n import _
from mathable_server.games.errors import Refused
from mathable_server.games.service import Games, Timed, year_bounds


@dataclass(frozen=True, slots=True)
class VacationAnswer:
    """What a vacation request did: its times (ms), days taken, days left this year."""

    starts_at: int
    ends_at: int
    days: int
    days_left: int
    games: list[str]


def days_left(games: Games, player_id: str, now: int) -> int:
    start, end = year_bounds(now)
    return games.vacation_days - games.store.vacation_days_used(player_id, start, end)


def start_vacation(games: Games, player_id: str, days: int) -> VacationAnswer:
    """Go on vacation for ``days`` from now; 422 when one is under way or too few days are left."""
    now = games.now()
    left = days_left(games, player_id, now)
    if games.store.current_vacation(player_id, now) is not None:
        raise Refused("on_vacation", _("you are on vacation already: end it first"))
    start, end = year_bounds(now)
    recorded = games.store.add_vacation(player_id, now, days, (games.vacation_days, start, end))
    if recorded is None:
        # Checked again under a lock: a concurrent request may have taken the days.
        if games.store.current_vacation(player_id, now) is not None:
            raise Refused("on_vacation", _("you are on vacation already: end it first"))
        raise Refused(
            "vacation_allowance",
            _("you have {left} vacation days left this year, not {days}", left=left, days=days),
            days_left=left,
        )
    touched = _in_each_game(games, player_id, lambda seat: StartVacation(seat, days))
    return VacationAnswer(now, recorded.ends_at, days, left - days, touched)


def end_vacation(games: Games, player_id: str) -> VacationAnswer:
    """Come back now: the days not begun come back to the allowance."""
    now = games.now()
    current = games.store.current_vacation(player_id, now)
    if current is None:
        raise Refused("not_on_vacation", _("you are not on vacation"))
    used = max(1, -(-(now - current.starts_at) // DAY))  # a day begun is a day used
    games.store.end_vacation(current.id, now, min(used, current.days))
    touched = _in_each_game(games, player_id, EndVacation)
    return VacationAnswer(
        current.starts_at, now, min(used, current.days), days_left(games, player_id, now), touched
    )


def _in_each_game(games: Games, player_id: str, make: Callable[[int], Command]) -> list[str]:
    """Append the vacation event ``make(seat)`` to each clocked game in play of the player."""

    def command(game: Timed) -> Command | None:
        state = game.state
        seat = state.seat_of(player_id)
        if seat is None or state.options.clock is None or state.seats[seat].resigned:
            return None
        return make(seat)

    return [
        game_id
        for game_id in games.store.playing_games(player_id)
        if games.run_anyhow(game_id, command)
    ]
