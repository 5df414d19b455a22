"""The store's append hook: a tournament game that ends records its result on its board,
in the transaction that ends it (with the standings' news in its players' feeds)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathable import Event
from mathable.core.ruleset import AnyState
from mathable_server.store.tournaments import record_results
from mathable_server.tournaments.service import result_of


class TournamentHook:
    """Registered after the ratings' hook: its ``after_all`` takes the tournaments' rows
    (and the feed's lock) after the ratings' lock, the order every writer takes them in."""

    def __init__(self, dialect: Any) -> None:
        self.dialect = dialect

    def concerns(self, events: Sequence[Event], state: AnyState) -> bool:
        return any(e.type == "game_ended" for e in events)

    def __call__(
        self, conn: Any, game_id: str, events: Sequence[Event], state: AnyState, at: int
    ) -> None:
        return None

    def after_all(
        self, conn: Any, done: Sequence[tuple[str, Sequence[Event], AnyState, int]]
    ) -> None:
        ended = [
            (game_id, result_of(state), at)
            for game_id, events, state, at in done
            if state.status == "ended" and any(e.type == "game_ended" for e in events)
        ]
        if ended:
            record_results(conn, self.dialect, ended)
