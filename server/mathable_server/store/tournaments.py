"""Tournaments, their players and their games (``mathable_server.tournaments``).

A round begins in one transaction: the tournament's round moves on only if it still is
the one the caller read (compare and set), with the round's boards written beside it;
of two processes beginning the same round, one writes it and the other finds it done.
Each board's game has an id fixed by the tournament, round and board, so creating the
games of a round is safe to repeat (a second creation is a version conflict).

A tournament game's result is written in the transaction that ends the game
(``record_results``, from the tournaments' append hook), with a ``standings`` row in
the feed of each of its seats; a round's start and a tournament's end write one in the
feed of every player (the streams' news).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from mathable_server.store import feed
from mathable_server.store.base import Recorder
from mathable_server.store.notification_settings import contacts_in
from mathable_server.store.outbox import Notification, add
from mathable_server.store.ratings import read_ratings
from mathable_server.store.schema import (
    games,
    tournament_games,
    tournament_players,
    tournaments,
)

#: The kind of the feed row that says a tournament's standings may have changed.
STANDINGS = "standings"


def _row(row: Any) -> dict[str, Any]:
    return dict(row._mapping)


class TournamentRecorder(Recorder):
    """The tournaments tables."""

    def create_tournament(self, row: dict[str, Any]) -> None:
        with self._writer() as conn, conn.begin():
            conn.execute(insert(tournaments).values(**row))

    def tournament(self, tournament_id: str) -> dict[str, Any] | None:
        with self._reader.connect() as conn:
            found = conn.execute(
                select(tournaments).where(tournaments.c.id == tournament_id)
            ).first()
        return None if found is None else _row(found)

    def tournament_list(self, status: str | None = None, limit: int = 200) -> list[dict[str, Any]]:
        """Tournaments newest first (of ``status`` if given), without their secret."""
        query = select(*[c for c in tournaments.c if c.name != "secret"])
        if status is not None:
            query = query.where(tournaments.c.status == status)
        query = query.order_by(tournaments.c.created_at.desc(), tournaments.c.id).limit(limit)
        with self._reader.connect() as conn:
            return [_row(r) for r in conn.execute(query)]

    def tournament_counts(self, ids: Sequence[str]) -> dict[str, int]:
        """How many players (not gone) each of ``ids`` has."""
        if not ids:
            return {}
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(tournament_players.c.tournament_id, func.count())
                .where(
                    and_(
                        tournament_players.c.tournament_id.in_(ids),
                        tournament_players.c.left_at.is_(None),
                    )
                )
                .group_by(tournament_players.c.tournament_id)
            )
            return {str(r[0]): int(r[1]) for r in rows}

    def open_tournaments_of(self, creator: str) -> int:
        """How many tournaments ``creator`` made that have not finished."""
        with self._reader.connect() as conn:
            found = conn.execute(
                select(func.count()).where(
                    and_(tournaments.c.creator == creator, tournaments.c.status != "finished")
                )
            ).scalar()
        return int(found or 0)

    def entrants(self, tournament_id: str) -> list[dict[str, Any]]:
        """Every player who joined (those who left too), in the order they joined."""
        with self._reader.connect() as conn:
            return [
                _row(r)
                for r in conn.execute(
                    select(tournament_players)
                    .where(tournament_players.c.tournament_id == tournament_id)
                    .order_by(tournament_players.c.joined_at, tournament_players.c.player_id)
                )
            ]

    def enter(
        self, tournament_id: str, player_id: str, at: int, cap: int, statuses: Sequence[str]
    ) -> bool:
        """Seat ``player_id`` in the tournament (again, if they had left) while its status
        is one of ``statuses``; False when it is full (``cap`` players) or not so."""
        with self._writer() as conn, conn.begin():
            self.dialect.lock_player(conn, "tournament:" + tournament_id)
            status = conn.execute(
                select(tournaments.c.status).where(tournaments.c.id == tournament_id)
            ).scalar()
            if status not in statuses:
                return False
            count = conn.execute(
                select(func.count()).where(
                    and_(
                        tournament_players.c.tournament_id == tournament_id,
                        tournament_players.c.left_at.is_(None),
                        tournament_players.c.player_id != player_id,
                    )
                )
            ).scalar()
            if int(count or 0) >= cap:
                return False
            done = conn.execute(
                update(tournament_players)
                .where(
                    and_(
                        tournament_players.c.tournament_id == tournament_id,
                        tournament_players.c.player_id == player_id,
                    )
                )
                .values(left_at=None)
            )
            if not done.rowcount:
                conn.execute(
                    insert(tournament_players).values(
                        tournament_id=tournament_id,
                        player_id=player_id,
                        joined_at=at,
                        left_at=None,
                        division=0,
                    )
                )
            self._bump(conn, tournament_id)
        return True

    def leave(self, tournament_id: str, player_id: str, at: int) -> bool:
        """Mark ``player_id`` gone; False if they were not in it."""
        with self._writer() as conn, conn.begin():
            done = conn.execute(
                update(tournament_players)
                .where(
                    and_(
                        tournament_players.c.tournament_id == tournament_id,
                        tournament_players.c.player_id == player_id,
                        tournament_players.c.left_at.is_(None),
                    )
                )
                .values(left_at=at)
            )
            if done.rowcount:
                self._bump(conn, tournament_id)
            return bool(done.rowcount)

    def boards(self, tournament_id: str) -> list[dict[str, Any]]:
        """Every board of every round, in order."""
        with self._reader.connect() as conn:
            return [
                _row(r)
                for r in conn.execute(
                    select(tournament_games)
                    .where(tournament_games.c.tournament_id == tournament_id)
                    .order_by(tournament_games.c.round, tournament_games.c.board)
                )
            ]

    def begin_round(
        self,
        tournament_id: str,
        current: int,
        boards: Sequence[dict[str, Any]],
        changes: dict[str, Any],
        divisions: dict[str, int] | None = None,
        notifications: Sequence[Notification] = (),
        at: int = 0,
    ) -> bool:
        """Move the tournament from round ``current`` to ``current + 1`` with its
        ``boards`` (and ``changes`` to its row, ``divisions`` of its players), if it is
        still at ``current``; False if another process did first."""
        try:
            with self._writer() as conn, conn.begin():
                moved = conn.execute(
                    update(tournaments)
                    .where(and_(tournaments.c.id == tournament_id, tournaments.c.round == current))
                    .values(round=current + 1, version=tournaments.c.version + 1, **changes)
                )
                if not moved.rowcount:
                    return False
                for player, division in (divisions or {}).items():
                    conn.execute(
                        update(tournament_players)
                        .where(
                            and_(
                                tournament_players.c.tournament_id == tournament_id,
                                tournament_players.c.player_id == player,
                            )
                        )
                        .values(division=division)
                    )
                if boards:
                    conn.execute(insert(tournament_games), list(boards))
                add(conn, _wanted(conn, notifications), at)
                self._tell(conn, tournament_id, at)
        except IntegrityError:
            return False  # the round's boards were written by another process meanwhile
        return True

    def mark_created(self, tournament_id: str, round_: int, board: int) -> None:
        with self._writer() as conn, conn.begin():
            conn.execute(
                update(tournament_games)
                .where(
                    and_(
                        tournament_games.c.tournament_id == tournament_id,
                        tournament_games.c.round == round_,
                        tournament_games.c.board == board,
                    )
                )
                .values(created=1)
            )

    def update_tournament(
        self,
        tournament_id: str,
        changes: dict[str, Any],
        expected: dict[str, Any],
        notifications: Sequence[Notification] = (),
        at: int = 0,
    ) -> bool:
        """Change the tournament's row if its columns still hold ``expected`` (and write
        ``notifications`` with it)."""
        conditions = [tournaments.c.id == tournament_id]
        conditions += [tournaments.c[k] == v for k, v in expected.items()]
        with self._writer() as conn, conn.begin():
            done = conn.execute(
                update(tournaments)
                .where(and_(*conditions))
                .values(version=tournaments.c.version + 1, **changes)
            )
            if done.rowcount:
                add(conn, _wanted(conn, notifications), at)
                self._tell(conn, tournament_id, at)
            return bool(done.rowcount)

    def settle_board(self, game_id: str, result: dict[str, Any], at: int) -> bool:
        """Give a board still unfinished the ``result`` of a closed round."""
        with self._writer() as conn, conn.begin():
            return bool(record_results(conn, self.dialect, [(game_id, result, at)]))

    def running_tournaments(self, now: int) -> list[dict[str, Any]]:
        """Tournaments the sweep looks at: open ones due to start, running ones."""
        with self._reader.connect() as conn:
            return [
                _row(r)
                for r in conn.execute(
                    select(tournaments).where(
                        (tournaments.c.status == "running")
                        | and_(
                            tournaments.c.status == "open",
                            tournaments.c.starts_at.is_not(None),
                            tournaments.c.starts_at <= now,
                        )
                    )
                )
            ]

    def sealed_seats(self, game_id: str) -> tuple[bool, frozenset[str] | None]:
        """Whether ``game_id`` exists, and the players who alone may read it while it is
        sealed (None: anyone may): the seats of a duplicate round's table while a table
        of that round (one tile order) has no result yet. One read, by primary keys."""
        with self._reader.connect() as conn:
            row = conn.execute(
                select(
                    games.c.id,
                    tournament_games.c.tournament_id,
                    tournament_games.c.round,
                    tournament_games.c.players,
                    tournaments.c.format,
                )
                .select_from(games)
                .outerjoin(tournament_games, tournament_games.c.game_id == games.c.id)
                .outerjoin(tournaments, tournaments.c.id == tournament_games.c.tournament_id)
                .where(games.c.id == game_id)
            ).first()
            if row is None:
                return False, None
            if row.format != "duplicate":
                return True, None
            open_table = conn.execute(
                select(
                    select(tournament_games.c.board)
                    .where(
                        and_(
                            tournament_games.c.tournament_id == row.tournament_id,
                            tournament_games.c.round == row.round,
                            tournament_games.c.game_id.is_not(None),
                            tournament_games.c.result.is_(None),
                        )
                    )
                    .exists()
                )
            ).scalar()
        return True, (frozenset(str(row.players).split()) if open_table else None)

    def tournaments_of_games(self, game_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """The tournament (id, name) of each of ``game_ids`` that has one."""
        if not game_ids:
            return {}
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(tournament_games.c.game_id, tournaments.c.id, tournaments.c.name)
                .join(tournaments, tournaments.c.id == tournament_games.c.tournament_id)
                .where(tournament_games.c.game_id.in_(list(game_ids)))
            )
            return {str(r[0]): (str(r[1]), str(r[2])) for r in rows}

    def tournaments_of_player(self, player_id: str) -> list[str]:
        """The tournaments ``player_id`` is in and has not left."""
        with self._reader.connect() as conn:
            return [
                str(r[0])
                for r in conn.execute(
                    select(tournament_players.c.tournament_id).where(
                        and_(
                            tournament_players.c.player_id == player_id,
                            tournament_players.c.left_at.is_(None),
                        )
                    )
                )
            ]

    def ratings_for(self, ruleset: str, player_ids: Sequence[str]) -> dict[str, float]:
        """The rating (``mu - 3 sigma``) of each of ``player_ids`` who has one in ``ruleset``."""
        with self._reader.connect() as conn:
            found = read_ratings(conn, ruleset, player_ids)
        return {p: r.rating for p, r in found.items()}

    def _bump(self, conn: Connection, tournament_id: str) -> None:
        conn.execute(
            update(tournaments)
            .where(tournaments.c.id == tournament_id)
            .values(version=tournaments.c.version + 1)
        )

    def _tell(self, conn: Connection, tournament_id: str, at: int) -> None:
        tell(conn, self.dialect, [tournament_id], at)


def _wanted(conn: Connection, notifications: Sequence[Notification]) -> list[Notification]:
    """The mails of ``notifications`` whose player has a verified address and takes mail."""
    if not notifications:
        return []
    contacts = contacts_in(conn, [n.recipient for n in notifications])
    return [
        n
        for n in notifications
        if (c := contacts.get(n.recipient)) is not None and c.address and c.email != "off"
    ]


def record_results(
    conn: Connection,
    dialect: Any,
    results: Iterable[tuple[str, dict[str, Any], int]],
) -> int:
    """Write each (game, result, time) of a tournament game not yet given one; the boards
    written. The tournaments concerned get a new version and a ``standings`` feed row for
    each of their players (locks taken in the order of the tournaments' ids)."""
    touched: dict[str, set[str]] = {}
    written = 0
    results = list(results)
    for game_id, result, at in sorted(results, key=lambda item: item[0]):
        found = conn.execute(
            select(tournament_games.c.tournament_id, tournament_games.c.players).where(
                and_(tournament_games.c.game_id == game_id, tournament_games.c.result.is_(None))
            )
        ).first()
        if found is None:
            continue
        owner = str(found[0])
        conn.execute(
            update(tournament_games)
            .where(tournament_games.c.game_id == game_id)
            .values(result=json.dumps(result, separators=(",", ":")), ended_at=at)
        )
        touched.setdefault(owner, set()).update(str(found[1]).split())
        written += 1
    if touched:
        for tournament_id in sorted(touched):
            conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id)
                .values(version=tournaments.c.version + 1)
            )
        tell(conn, dialect, sorted(touched), max(at for _g, _r, at in results), touched)
    return written


def tell(
    conn: Connection,
    dialect: Any,
    tournament_ids: Sequence[str],
    at: int,
    only: dict[str, set[str]] | None = None,
) -> None:
    """A ``standings`` row in the feed of every player of ``tournament_ids`` (the game id
    column holds the tournament's id; the version, its version), or only of the players
    ``only`` names for a tournament (a game's result tells its seats: a tournament of
    1,000 would otherwise write 1,000 rows for every game that ends)."""
    told: list[dict[str, Any]] = []
    for tournament_id in tournament_ids:
        version = conn.execute(
            select(tournaments.c.version).where(tournaments.c.id == tournament_id)
        ).scalar()
        if only is not None and tournament_id in only:
            players: Any = [(p,) for p in sorted(only[tournament_id])]
        else:
            players = conn.execute(
                select(tournament_players.c.player_id).where(
                    and_(
                        tournament_players.c.tournament_id == tournament_id,
                        tournament_players.c.left_at.is_(None),
                    )
                )
            )
        for (player,) in players:
            told.append(
                {
                    "player_id": player,
                    "game_id": tournament_id,
                    "version": int(version or 0),
                    "kinds": STANDINGS,
                    "at": at,
                }
            )
    feed.write(conn, dialect, told)
