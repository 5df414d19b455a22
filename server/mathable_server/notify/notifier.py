"""The store's append hook: the outbox rows of each append, in its transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mathable import Event
from mathable.core.ruleset import AnyState, ruleset_of
from mathable_server.games.notifications import (
    by_channels,
    mover,
    notifications,
    turn_changes,
)
from mathable_server.store import outbox
from mathable_server.store.notification_settings import contacts_in
from mathable_server.store.outbox import Notification
from mathable_server.store.push import channels_in, push_rows

if TYPE_CHECKING:
    from sqlalchemy import Connection


class Notifier:
    """The store's append hook: writes the outbox rows of each append in its transaction."""

    def concerns(self, events: Sequence[Event], state: AnyState) -> bool:
        """Whether an append may tell anybody anything (most, a tile placed, do not; a game
        played elsewhere and brought in whole tells nobody: nothing happened here)."""
        if state.options.imported:
            return False
        types = {e.type for e in events}
        if "game_created" in types and state.options.invited:
            return True  # the players invited may want it pushed
        return bool(types & turn_changes(state)) or bool(types & {"game_ended", "game_cancelled"})

    def __call__(
        self, conn: Connection, game_id: str, events: Sequence[Event], state: AnyState, at: int
    ) -> None:
        if not self.concerns(events, state):
            return  # most appends (a tile placed) tell nobody anything: no read at all
        players = [s.player for s in state.seats if s.player is not None]
        contacts = contacts_in(conn, players)
        rows = notifications(game_id, events, state, contacts, at) if contacts else []
        if rows:
            rows = by_channels(rows, channels_in(conn, {n.recipient for n in rows}))
        rows += push_notifications(conn, game_id, events, state)
        digests = {n.recipient for n in rows if n.kind == "digest"}
        if digests:  # one pending digest per player is enough
            waiting = outbox.pending_digests(conn, digests)
            rows = [n for n in rows if not (n.kind == "digest" and n.recipient in waiting)]
        outbox.add(conn, rows, at)


def push_notifications(
    conn: Connection, game_id: str, events: Sequence[Event], state: AnyState
) -> list[Notification]:
    """The pushes ``events`` call for: your turn to the seat to move, the game's end to the
    seats but the one whose move ended it, an invitation to the players a new game invites."""
    types = {e.type for e in events}
    payload = {"game_id": game_id, "version": state.version}
    stem = f"{game_id}.v{state.version}"
    rows: list[Notification] = []
    if "game_ended" in types or "game_cancelled" in types:
        acted = mover(events, ruleset_of(state).own_acts)
        told = [s.player for i, s in enumerate(state.seats)
                if s.player is not None and i != acted]  # fmt: skip
        rows += push_rows(conn, "game_over", told, payload, stem)
    elif types & turn_changes(state) and state.status == "playing" and state.turn is not None:
        player = state.seats[state.turn.seat].player
        if player is not None:
            rows += push_rows(conn, "your_turn", [player], payload, stem)
    if "game_created" in types and state.options.invited:
        creator = state.seats[0].player if state.seats else None
        invited = list(state.options.invited)
        rows += push_rows(conn, "invitation", invited, {**payload, "from": creator}, stem)
    return rows
