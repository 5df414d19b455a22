"""Game records (``mathable.core.record``) as the server gives them: what the caller may see.

A running game's record is written as anyone may see it: no racks (they are never in
a record), no bag order, no salt, exchanged and discarded tiles as ``?``. A finished
game's record holds its revealed order, salt and final scores, unless the order is
withheld (``games.orders``: another unfinished game draws it); then it is written
like a running game's. The players are named by their names, not their ids.
"""

from __future__ import annotations

from collections.abc import Mapping

from mathable.core.record import write_record
from mathable.core.ruleset import AnyState
from mathable_server.games.orders import order_withheld
from mathable_server.store import Store

#: How many finished games one read of the archive lists unless asked (``max``), and at most.
PAGE = 100
MAX_PAGE = 1000


def seat_names(state: AnyState, names: Mapping[str, str]) -> list[str]:
    """Each seat's player by name (``seatN`` for a seat still free)."""
    return [
        names.get(seat.player, seat.player) if seat.player is not None else f"seat{index + 1}"
        for index, seat in enumerate(state.seats)
    ]


def record_text(store: Store, game_id: str, state: AnyState, names: Mapping[str, str]) -> str:
    """The record of ``game_id`` (in ``state``, read before its events) as anyone may see it."""
    stored = store.events_after(game_id, 0)
    events = [s.event for s in stored]
    # The state is read before the events: if it says revealed, every event read is after.
    revealed = state.draws_revealed and not order_withheld(store, game_id, state)
    headers = {"Date": stored[0].created_at[:10], "Id": game_id} if stored else {}
    return write_record(
        events, names=seat_names(state, names), revealed=revealed, headers=headers
    ).text()


def finished_games(
    store: Store, player_id: str, limit: int, before: str | None = None
) -> list[tuple[str, str, int]]:
    """``(id, ended_at, version)`` of up to ``limit`` finished games ``player_id`` sat in,
    the last ended first, after the game ``before`` (the last of the page before)."""
    return store.finished_games_of(player_id, limit, before)


__all__ = ["MAX_PAGE", "PAGE", "finished_games", "record_text", "seat_names"]
