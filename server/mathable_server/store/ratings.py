"""Ratings and records: whether a game is rated, each seat's outcome, each rating.

The functions taking a ``Connection`` run inside the transaction that ends a game
(the ratings hook, ``games.ratings``) or rebuilds them all; ``RatingRecorder``
reads what the API shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Connection, and_, delete, func, insert, select

from mathable_server.store.archive import datas_of_types, ended_times
from mathable_server.store.base import Recorder
from mathable_server.store.dialects import dialect_of
from mathable_server.store.schema import (
    game_results,
    players,
    rated_games,
    rating_history,
    ratings,
)


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one ruleset: openskill's ``mu`` and ``sigma``, the
    conservative ``rating`` (``mu - 3 sigma``) and the rated games it counts."""

    player_id: str
    ruleset: str
    mu: float
    sigma: float
    rating: float
    games: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """A seat's outcome of a finished game."""

    player_id: str
    won: bool
    winners: int


#: Whether each game is rated, as this process read it (it never changes once made).
_RATED: dict[str, bool] = {}
_RATED_SIZE = 100_000


#: The advisory lock every transaction that changes ratings takes (``lock_ratings``).
RATINGS_LOCK_ID = 0x72617465


def lock_ratings(conn: Connection) -> None:
    """Serialise the transactions that change ratings, until the commit (PostgreSQL's
    advisory lock; SQLite's write lock does it already): the second reads what the first
    wrote, a player's first rating is inserted once."""
    dialect_of(conn.engine).lock_transaction(conn, RATINGS_LOCK_ID)


def mark_rated(conn: Connection, game_id: str, ruleset: str, rated: bool) -> None:
    conn.execute(insert(rated_games).values(game_id=game_id, ruleset=ruleset, rated=int(rated)))


def is_rated(conn: Connection, game_id: str) -> bool:
    found = conn.execute(
        select(rated_games.c.rated).where(rated_games.c.game_id == game_id)
    ).scalar()
    return bool(found)


def seats_that_acted(conn: Connection, game_id: str, acts: Iterable[str]) -> set[int]:
    """The seats of ``game_id`` with an event of a type among ``acts`` in its log (read in
    the caller's transaction, the events being appended included; a compacted log too,
    ``store.archive``: the ratings' rebuild reads finished games)."""
    seats = set()
    for data in datas_of_types(conn, game_id, acts):
        seat = json.loads(data).get("seat")
        if isinstance(seat, int):
            seats.add(seat)
    return seats


def write_results(
    conn: Connection, game_id: str, ruleset: str, outcomes: Sequence[Outcome], at: int
) -> None:
    conn.execute(delete(game_results).where(game_results.c.game_id == game_id))
    conn.execute(
        insert(game_results),
        [
            {"game_id": game_id, "player_id": o.player_id, "ruleset": ruleset,
             "won": int(o.won), "winners": o.winners, "at": at}
            for o in outcomes
        ],
    )  # fmt: skip


def read_ratings(conn: Connection, ruleset: str, player_ids: Iterable[str]) -> dict[str, Rating]:
    rows = conn.execute(
        select(ratings).where(
            and_(ratings.c.ruleset == ruleset, ratings.c.player_id.in_(list(player_ids)))
        )
    ).all()
    return {r.player_id: _rating(r) for r in rows}


def write_ratings(conn: Connection, updated: Sequence[Rating]) -> None:
    for r in updated:
        conn.execute(
            delete(ratings).where(
                and_(ratings.c.player_id == r.player_id, ratings.c.ruleset == r.ruleset)
            )
        )
    conn.execute(
        insert(ratings),
        [
            {"player_id": r.player_id, "ruleset": r.ruleset, "mu": r.mu, "sigma": r.sigma,
             "rating": r.rating, "games": r.games}
            for r in updated
        ],
    )  # fmt: skip


def write_history(conn: Connection, game_id: str, at: int, updated: Sequence[Rating]) -> None:
    """The ratings ``game_id`` (ended at ``at``) left its players with, for their history."""
    conn.execute(
        insert(rating_history),
        [
            {"player_id": r.player_id, "ruleset": r.ruleset, "game_id": game_id, "at": at,
             "rating": r.rating}
            for r in updated
        ],
    )  # fmt: skip


def _rating(r: object) -> Rating:
    row = r  # a Row of ``ratings``
    return Rating(
        row.player_id, row.ruleset, float(row.mu), float(row.sigma),  # type: ignore[attr-defined]
        float(row.rating), int(row.games),  # type: ignore[attr-defined]
    )  # fmt: skip


def ended_games(conn: Connection) -> list[tuple[str, int]]:
    """Every game that ended (id, when), in the order they ended: what a rebuild replays
    (a compacted game's time kept with its archive, ``store.archive``)."""
    return ended_times(conn)


def clear(conn: Connection) -> None:
    """Forget every rating and result (a rebuild writes them again)."""
    conn.execute(delete(ratings))
    conn.execute(delete(rating_history))
    conn.execute(delete(game_results))


class RatingRecorder(Recorder):
    """What the API reads of ratings and records."""

    def ratings_of(self, player_id: str) -> list[Rating]:
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(ratings).where(ratings.c.player_id == player_id).order_by(ratings.c.ruleset)
            ).all()
        return [_rating(r) for r in rows]

    def all_ratings(self) -> list[Rating]:
        """Every rating (a rebuild is checked against them)."""
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(ratings).order_by(ratings.c.ruleset, ratings.c.player_id)
            ).all()
        return [_rating(r) for r in rows]

    def leaderboard(self, ruleset: str, limit: int) -> list[tuple[str, Rating]]:
        """The best rated players of ``ruleset`` (name, rating), best first."""
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(ratings, players.c.name)
                .join(players, players.c.id == ratings.c.player_id)
                .where(ratings.c.ruleset == ruleset)
                .order_by(ratings.c.rating.desc(), players.c.name_key)
                .limit(limit)
            ).all()
        return [(r.name, _rating(r)) for r in rows]

    def rating_history(self, player_id: str) -> dict[str, list[float]]:
        """Each ruleset's ratings of ``player_id`` after each rated game, oldest first."""
        query = (
            select(rating_history.c.ruleset, rating_history.c.rating)
            .where(rating_history.c.player_id == player_id)
            .order_by(rating_history.c.ruleset, rating_history.c.at, rating_history.c.game_id)
        )
        history: dict[str, list[float]] = {}
        with self._reader.connect() as conn:
            for row in conn.execute(query):
                history.setdefault(row.ruleset, []).append(float(row.rating))
        return history

    def record(self, player_id: str, other_id: str) -> tuple[int, int, int]:
        """(wins, losses, draws) of ``player_id`` in the finished games both sat in: a win
        when only they of the two won, a draw when both or neither did."""
        mine, theirs = game_results.alias("mine"), game_results.alias("theirs")
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(mine.c.won, theirs.c.won.label("other"), func.count().label("n"))
                .join(theirs, theirs.c.game_id == mine.c.game_id)
                .where(and_(mine.c.player_id == player_id, theirs.c.player_id == other_id))
                .group_by(mine.c.won, theirs.c.won)
            ).all()
        wins = sum(r.n for r in rows if r.won and not r.other)
        losses = sum(r.n for r in rows if r.other and not r.won)
        draws = sum(r.n for r in rows if bool(r.won) == bool(r.other))
        return int(wins), int(losses), int(draws)

    @contextmanager
    def rebuilding(self) -> Iterator[Connection]:
        """One write transaction in which every rating and record is forgotten (``clear``)
        and written again (``rebuild-ratings``): readers see the old or the new, whole."""
        with self._writer() as conn, conn.begin():
            clear(conn)
            yield conn

    def rated(self, game_id: str) -> bool:
        """Whether a game is rated: chosen when it was made and never changed, so each
        process reads it once a game (a move's answer makes no read of it)."""
        known = _RATED.get(game_id)
        if known is None:
            with self._reader.connect() as conn:
                known = is_rated(conn, game_id)
            if len(_RATED) >= _RATED_SIZE:
                _RATED.clear()
            _RATED[game_id] = known
        return known
