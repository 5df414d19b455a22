"""Play addresses close when their seat can no longer move: the game ended or was called
off, the seat resigned or ran out of time.

An append hook of the store, like the outbox's: the addresses close in the
transaction of the events that closed the seats. Mail to a closed address is
refused (550 at ``RCPT TO`` by ``smtpd``, exit 67 from ``mail-in``) with a
line saying so; it is never answered, so no mail loop can start from it.

A player's own addresses also close when they leave them (a token replaced or
revoked, mail off or moved, or asked: ``store.play_addresses.close_player_addresses``);
those are followed by new ones, these stay closed for good.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection

from mathable import Event
from mathable.core.ruleset import AnyState
from mathable_server.store.play_addresses import close_play_addresses

#: Events after which no seat of the game moves again.
GAME_CLOSED = frozenset({"game_ended", "game_cancelled"})
#: Events after which their ``seat`` moves no more.
SEAT_CLOSED = frozenset({"resigned", "timed_out"})


class CloseAddresses:
    """The store's append hook that closes play addresses."""

    def concerns(self, events: Sequence[Event], state: AnyState) -> bool:
        """Whether an append closes a seat (most do not)."""
        return any(e.type in GAME_CLOSED or e.type in SEAT_CLOSED for e in events)

    def __call__(
        self, conn: Connection, game_id: str, events: Sequence[Event], state: AnyState, at: int
    ) -> None:
        types = {e.type for e in events}
        if types & GAME_CLOSED:
            seats = set(range(len(state.seats)))
        else:
            seats = {
                seat
                for e in events
                if e.type in SEAT_CLOSED and isinstance(seat := getattr(e, "seat", None), int)
            }
        players = {s: state.seats[s].player for s in seats if s < len(state.seats)}
        close_play_addresses(
            conn, game_id, {s: p for s, p in players.items() if p is not None}, at
        )
