"""The store's append hook: the outbox rows of each append, in its transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mathable import Event
from mathable.core.ruleset import AnyState
from mathable_server.games.notifications import (
    by_channels,
    notifications,
    push_notifications,
    turn_changes,
)
from mathable_server.store import outbox
from mathable_server.store.notification_settings import contacts_in
from mathable_server.store.push import channels_in

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
