"""Finished games as the lists show them: kept when they end, read a page at once.

``store.finished`` says what is kept (``finished_body``). Here: keeping it when a
game ends (``keep``, called by ``Games`` after the append that ends it), and the
kept rows of a page of games, each missing or stale one written first (``of``): a
game that a server before issue 47 ended, or whose row failed to be written, is
replayed once, by the first list that shows it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from mathable.core.ruleset import AnyState
from mathable_server.store import Store
from mathable_server.store.finished import FINISHED, finished_body

log = logging.getLogger(__name__)


def keep(store: Store, game_id: str, state: AnyState) -> dict[str, Any]:
    """Write what the lists show of ``game_id``, finished in ``state``; that body."""
    stored = store.events_after(game_id, 0)
    ids = [seat.player for seat in state.seats if seat.player is not None]
    body = finished_body(game_id, stored, state, store.names(ids))
    store.keep_finished(game_id, state.version, body)
    return body


def keep_quietly(store: Store, game_id: str, state: AnyState) -> None:
    """``keep``, a failure logged (the first list to show the game writes it then)."""
    if state.status not in FINISHED:
        return
    try:
        keep(store, game_id, state)
    except Exception:
        log.exception("finished games: the row of %s was not written", game_id)


def of(
    store: Store, state_at: Callable[[str, int], AnyState], rows: Sequence[tuple[str, int]]
) -> dict[str, dict[str, Any]]:
    """The kept bodies of the finished games ``rows`` (``(id, version)`` each), by id:
    one read; a game without one (or of another version) is written first, from the
    game ``state_at`` gives (``Games.state_at``)."""
    if not rows:
        return {}
    kept = store.finished(game_id for game_id, _ in rows)
    found: dict[str, dict[str, Any]] = {}
    for game_id, version in rows:
        row = kept.get(game_id)
        if row is not None and row[0] == version:
            found[game_id] = row[1]
            continue
        try:
            state = state_at(game_id, version)
            if state.status in FINISHED:
                found[game_id] = keep(store, game_id, state)
        except Exception:  # the list shows this one as it can (a replay of its own)
            log.exception("finished games: the row of %s could not be written", game_id)
    return found


def shown_record(store: Store, game_id: str, body: dict[str, Any]) -> str | None:
    """The record of a kept game as anyone may see it now: without its bag order while
    another unfinished game draws that order (``games.orders``)."""
    withheld = body.get("record_withheld")
    if withheld is not None and store.order_shared_with_running(game_id):
        return str(withheld)
    record = body.get("record")
    return None if record is None else str(record)


__all__ = ["keep", "keep_quietly", "of", "shown_record"]
