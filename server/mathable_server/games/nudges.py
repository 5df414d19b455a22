"""Nudges: a seat tells the seat to move that it is waited for, once per 24 hours a game and
only after the turn has lasted 24 hours (``too_early`` otherwise); by push, else by mail.

The nudge and its rows are written in one transaction (``store.push.PushRecorder.nudge``):
two nudges at once send one.
"""

from __future__ import annotations

from dataclasses import dataclass

from mathable.core.ruleset import AnyState, ruleset_of
from mathable_i18n import _, speaking
from mathable_server.games.errors import Forbidden, Refused
from mathable_server.games.notifications import turn_changes
from mathable_server.games.service import Games
from mathable_server.games.timesource import iso_ms
from mathable_server.store.outbox import Notification, new_message_id
from mathable_server.store.push import NUDGE_MS


@dataclass(frozen=True, slots=True)
class Nudged:
    """Who was nudged (their name) and how: ``push``, ``mail`` or ``none`` (no way to
    reach them: the nudge counts all the same)."""

    to: str
    by: str


def turn_started(games: Games, game_id: str) -> int:
    """When the turn under way began (ms): the last event that may have changed it."""
    state = games.state(game_id)
    changes = turn_changes(state) | {"game_started", "joined"}
    started = 0
    for stored in games.store.events_after(game_id, 0):
        if stored.event.type in changes or started == 0:
            started = stored.at
    return started


def nudge(games: Games, game_id: str, player_id: str, public_url: str | None) -> Nudged:
    """``player_id`` (a seat) nudges the seat to move of ``game_id``."""
    state = games.state(game_id)
    seat = state.seat_of(player_id)
    if seat is None:
        raise Forbidden("not_seated", _("only the players seated in this game nudge"))
    if state.status != "playing" or state.turn is None:
        raise Refused("game_not_playing", _("this game is not being played: nobody to nudge"))
    if state.turn.seat == seat:
        raise Refused("nudge_own_turn", _("it is your turn: nobody to nudge"))
    to = state.seats[state.turn.seat].player
    if to is None:
        raise Refused("game_not_playing", _("this game is not being played: nobody to nudge"))
    now = games.now()
    store = games.store
    hours = NUDGE_MS // 3_600_000
    since = turn_started(games, game_id)
    if now - since < NUDGE_MS:
        raise Refused(
            "too_early",
            _("a nudge waits until the turn has lasted {hours} hours", hours=hours),
            details={"retry_at": iso_ms(since + NUDGE_MS)},
        )
    last = store.last_nudge(game_id)
    if last is not None and now - last < NUDGE_MS:
        raise Refused(
            "too_early",
            _("this game was nudged less than {hours} hours ago", hours=hours),
            details={"retry_at": iso_ms(last + NUDGE_MS)},
        )
    payload = {"game_id": game_id, "version": state.version, "from": player_id}
    stem = f"{game_id}.n{now}"
    rows = store.nudge_rows(game_id, to, payload, stem)
    by = "push" if rows else "none"
    if not rows and store.channels(to)["nudge"] in ("mail", "both"):
        rows = [_mail(games, game_id, state, player_id, to, public_url, stem)]
        by = "mail"
    if not store.nudge(game_id, player_id, now, rows):
        raise Refused("too_early", _("this game was nudged less than {hours} hours ago",
                                     hours=hours))  # fmt: skip
    return Nudged(store.names([to]).get(to, "?"), by)


def _mail(
    games: Games, game_id: str, state: AnyState, by: str, to: str, public_url: str | None, stem: str
) -> Notification:
    """The mail of a nudge, written now in its reader's language (a plain answer mail)."""
    store = games.store
    name = store.names([by]).get(by, "?")
    game = ruleset_of(state).display_name
    seat = state.seat_of(to)
    with speaking(store.language(to)):
        subject = _("[mathable] {name} is waiting for you in {game} {game_id}", name=name,
                    game=game, game_id=game_id)  # fmt: skip
        text = _("{name} is waiting for your move in {game} {game_id}: it has been your turn "
                 "for over a day.", name=name, game=game, game_id=game_id)  # fmt: skip
        if public_url:
            text += "\n\n" + f"{public_url}/play/{game_id}"
    payload = {"subject": subject, "text": text + "\n", "game_id": game_id, "seat": seat}
    return Notification("email", "answer", to, payload, new_message_id(f"nudge.{stem}"))
