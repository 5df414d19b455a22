"""Finished games as the lists show them, kept when they end (``finished_games``, issue 47).

A finished (ended or cancelled) game never changes: what the archive
(``GET /v1/players/{name}/games``) and ``GET /v1/me?details=true`` show of it is
written once, from its events, into one row (``body``, JSON):

- ``ruleset``, ``status``, ``imported``; ``players`` (each seat's player id or None),
  ``scores`` (each seat's), ``names`` (each seat as its record names it);
- ``progress``: what anyone may see of its end (``seats`` with their scores,
  ``last_turn``, ``result``), as the ruleset's view for no seat shows it;
- ``revealed``: it revealed its bag order at its end;
- ``shares_order``: its bag order is a seed's or a given one, so it may be withheld
  while another game draws it (``games.orders``): then ``record_withheld`` is its
  record written without the order, and the lists show that one;
- ``record`` (as anyone may see it once the order is revealed), or ``record_error``
  (``reason`` and ``code``) where its rules write none.

The body is JSON compressed with zlib (a 144-event game's: 2.2 KB of JSON, 1.1 KB
kept). Names never change (``http.web.NameBook``), so a record written with them stays true.
The row is written when the game ends (``Games``), for the games ended before
migration 0015 by ``backfill`` (run by ``upgrade`` after that migration, in batches
of their own transactions: a server still running goes on meanwhile), and by a list
that finds a game without one (``keep_finished``): no list replays a finished game
twice.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Engine, and_, bindparam, select

from mathable import RuleError, ruleset
from mathable.core.record import write_record
from mathable.core.ruleset import AnyState, replay_any
from mathable_server.store.archive import has_archive, stored_logs
from mathable_server.store.base import Recorder
from mathable_server.store.dialects import dialect_of
from mathable_server.store.engine import write_transaction
from mathable_server.store.rows import StoredEvent
from mathable_server.store.schema import finished_games, games, players

log = logging.getLogger(__name__)

#: The statuses of a finished game.
FINISHED = ("ended", "cancelled")
#: Games written by one transaction of ``backfill``.
BATCH = 200

_KEPT = select(finished_games.c.game_id, finished_games.c.version, finished_games.c.body).where(
    finished_games.c.game_id.in_(bindparam("ids", expanding=True))
)


def seat_names(state: AnyState, names: Mapping[str, str]) -> list[str]:
    """Each seat's player by name (``seatN`` for a seat still free)."""
    return [
        names.get(seat.player, seat.player) if seat.player is not None else f"seat{index + 1}"
        for index, seat in enumerate(state.seats)
    ]


def shares_order(state: AnyState) -> bool:
    """Whether other games may draw the game's bag order (``games.orders.may_share_order``)."""
    return state.options.seed is not None or state.options.tiles is not None


def finished_body(
    game_id: str, stored: Sequence[StoredEvent], state: AnyState, names: Mapping[str, str]
) -> dict[str, Any]:
    """What the lists show of the finished game ``game_id``: ``state`` after ``stored``."""
    public = ruleset(state.ruleset).view(state, None)
    seated = seat_names(state, names)
    body: dict[str, Any] = {
        "ruleset": state.ruleset,
        "status": state.status,
        "imported": bool(state.options.imported),
        "players": [seat.player for seat in state.seats],
        "scores": [seat.score for seat in state.seats],
        "names": seated,
        "shares_order": shares_order(state),
        "revealed": bool(state.draws_revealed),
        "progress": {
            "seats": [{"seat": s["seat"], "score": s["score"]} for s in public["seats"]],
            "last_turn": public.get("last_turn"),
            "result": public.get("result"),
        },
    }
    events_only = [s.event for s in stored]
    headers = {"Date": stored[0].created_at[:10], "Id": game_id} if stored else {}
    try:
        body["record"] = write_record(
            events_only, names=seated, revealed=state.draws_revealed, headers=headers
        ).text()
        if state.draws_revealed and body["shares_order"]:
            body["record_withheld"] = write_record(
                events_only, names=seated, revealed=False, headers=headers
            ).text()
    except RuleError as err:
        body["record"] = None
        body["record_error"] = {"reason": str(err.message), "code": err.code}
    return body


class FinishedRecorder(Recorder):
    """The ``finished_games`` rows: read a page's at once, keep one."""

    def finished(self, game_ids: Iterable[str]) -> dict[str, tuple[int, dict[str, Any]]]:
        """``(version, body)`` of each of ``game_ids`` kept, by id (one read)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        with self._reader.connect() as conn:
            rows = conn.execute(_KEPT, {"ids": ids}).all()
        return {r.game_id: (int(r.version), json.loads(zlib.decompress(r.body))) for r in rows}

    def keep_finished(self, game_id: str, version: int, body: dict[str, Any]) -> None:
        """Keep ``body`` for ``game_id`` at ``version`` (replacing another version's)."""
        with write_transaction(self.engine) as conn:
            _keep(conn, self.dialect.insert_on_conflict(finished_games), game_id, version, body)


def _keep(conn: Connection, insert: Any, game_id: str, version: int, body: dict[str, Any]) -> None:
    text = zlib.compress(json.dumps(body, separators=(",", ":")).encode(), 9)
    conn.execute(
        insert.values(game_id=game_id, version=version, body=text).on_conflict_do_update(
            index_elements=[finished_games.c.game_id],
            set_={"version": version, "body": text},
        )
    )


def backfill(engine: Engine, batch: int = BATCH) -> int:
    """Write the row of every finished game without one, ``batch`` games a transaction;
    how many were written. A game whose events cannot be replayed is logged and left
    (a list then shows it as before)."""
    insert = dialect_of(engine).insert_on_conflict(finished_games)
    written = 0
    failed: set[str] = set()
    with engine.connect() as conn:
        archived = has_archive(conn)
    while True:
        with write_transaction(engine) as conn:
            query = (
                select(games.c.id, games.c.version)
                .outerjoin(finished_games, finished_games.c.game_id == games.c.id)
                .where(and_(games.c.status.in_(FINISHED), finished_games.c.game_id.is_(None)))
                .order_by(games.c.id)
                .limit(batch + len(failed))
            )
            todo = [(r.id, int(r.version)) for r in conn.execute(query) if r.id not in failed]
            todo = todo[:batch]
            if not todo:
                return written
            ids = [game_id for game_id, _ in todo]
            # Compacted or not (``store.archive``; none before revision 0020).
            logs: dict[str, list[StoredEvent]] = stored_logs(conn, ids, archived)
            states = {}
            for game_id in ids:
                try:
                    states[game_id] = replay_any(s.event for s in logs[game_id])
                except Exception:  # a log this server cannot replay: left for the lists
                    log.exception("finished games: game %s could not be replayed", game_id)
                    failed.add(game_id)
            wanted = {seat.player for s in states.values() for seat in s.seats if seat.player}
            names = {
                r.id: r.name
                for r in conn.execute(select(players.c.id, players.c.name).where(
                    players.c.id.in_(sorted(wanted))))
            }  # fmt: skip
            for game_id, version in todo:
                state = states.get(game_id)
                if state is None:
                    continue
                try:
                    body = finished_body(game_id, logs[game_id], state, names)
                except Exception:
                    log.exception("finished games: game %s could not be written", game_id)
                    failed.add(game_id)
                    continue
                _keep(conn, insert, game_id, version, body)
                written += 1
