"""Deleting an account: its games first (running ones resigned, invitations declined,
games it created still waiting called off), then the store forgets the player
(``store.accounts``), keeping only an anonymous seat in the games they played."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from mathable import Decline
from mathable.core.lifecycle.creation import creator_of
from mathable.core.lifecycle.turns import Resign
from mathable_server.games.service import Games, Timed


def anonymous_name() -> str:
    """The name a deleted player's seats show: anonymous, and unlike any other."""
    return f"anonymous-{secrets.token_hex(4)}"


def _resign(seat: int) -> Callable[[Timed], Resign]:
    return lambda _timed: Resign(seat)


def delete_account(games: Games, player_id: str) -> str:
    """Resign, decline and call off what the player has running, then forget them; the
    anonymous name their finished games now show."""
    store = games.store
    # First the keys: the token and every browser's session stop opening the account
    # (each writes a revocation row: every process ends the streams and held long-polls
    # they opened now, before the resignations below wake them with a view).
    store.replace_token(player_id, "")
    store.end_sessions(player_id, games.now())
    offset = 0
    rows = []
    while True:
        page = store.games_of(player_id, 500, offset)
        rows.extend(page)
        if len(page) < 500:
            break
        offset += 500
    for row in rows:
        if row.status == "playing" and row.seat is not None:
            games.run_anyhow(row.id, _resign(row.seat))
        elif row.status == "waiting":

            def decline(timed: Timed) -> Decline | None:
                state = timed.state
                mine = state.seat_of(player_id) is None or creator_of(state) == player_id
                return Decline(player_id) if mine else None

            games.run_anyhow(row.id, decline)
    name = anonymous_name()
    store.forget_player(player_id, name, games.now())
    return name
