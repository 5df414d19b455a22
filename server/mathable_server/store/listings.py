"""Lists of games and their members, from the projections."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import (
    and_,
    case,
    func,
    select,
)

from mathable_server.store.base import Recorder
from mathable_server.store.engine import (
    events,
    game_members,
    games,
    players,
)
from mathable_server.store.rows import (
    Member,
    MemberGame,
)


def _created_by(game_id: Any, creator_id: str) -> Any:
    """Whether ``creator_id`` created game ``game_id`` (a column): its ``game_created``
    names them. Not "seat 0": a rematch's creator sits where the rotation puts them."""
    named = '"creator":' + json.dumps(creator_id)
    return (
        select(events.c.game_id)
        .where(
            and_(
                events.c.game_id == game_id,
                events.c.version == 1,
                events.c.type == "game_created",
                events.c.data.contains(named, autoescape=True),
            )
        )
        .exists()
    )


class ListingRecorder(Recorder):
    """Who is in which game: lists of a player's games, invitations and members."""

    def open_invitations_to(self, player_id: str) -> int:
        """Games still waiting for players that ``player_id`` is invited to and has not joined."""
        query = (
            select(func.count())
            .select_from(game_members.join(games, games.c.id == game_members.c.game_id))
            .where(
                and_(
                    game_members.c.player_id == player_id,
                    game_members.c.seat.is_(None),
                    games.c.status == "waiting",
                )
            )
        )
        with self._reader.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def open_invitations_from(self, creator_id: str, player_id: str) -> int:
        """Games still waiting for players that ``creator_id`` made (seat 0, or where a
        rematch seats them) and invited
        ``player_id`` to, who has not joined."""
        creator = game_members.alias("creator")
        invitee = game_members.alias("invitee")
        query = (
            select(func.count())
            .select_from(
                invitee.join(games, games.c.id == invitee.c.game_id).join(
                    creator, creator.c.game_id == games.c.id
                )
            )
            .where(
                and_(
                    invitee.c.player_id == player_id,
                    invitee.c.seat.is_(None),
                    creator.c.player_id == creator_id,
                    creator.c.seat.is_not(None),
                    _created_by(games.c.id, creator_id),
                    games.c.status == "waiting",
                )
            )
        )
        with self._reader.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def waiting_games_of(self, player_id: str) -> int:
        """Games created by ``player_id`` (seat 0, or where a rematch seats them) that are
        still waiting for players."""
        query = (
            select(func.count())
            .select_from(game_members.join(games, games.c.id == game_members.c.game_id))
            .where(
                and_(
                    game_members.c.player_id == player_id,
                    game_members.c.seat.is_not(None),
                    _created_by(games.c.id, player_id),
                    games.c.status == "waiting",
                )
            )
        )
        with self._reader.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def games_of(self, player_id: str, limit: int, offset: int) -> list[MemberGame]:
        """The games ``player_id`` sits in or is invited to: those waiting on their move first.

        Then the invitations to games still waiting for players (so that a flood of
        invitations never pushes a game waiting on a move down the list), then the
        rest; within each group the nearest deadline first, then the most recently
        changed.
        """
        waiting_on_me = case(
            (games.c.to_move == player_id, 0),
            (and_(game_members.c.seat.is_(None), games.c.status == "waiting"), 1),
            else_=2,
        )
        query = (
            select(
                games.c.id,
                games.c.status,
                games.c.players,
                games.c.referee,
                games.c.ruleset,
                games.c.version,
                games.c.to_move,
                game_members.c.seat,
                games.c.created_at,
                games.c.updated_at,
                games.c.deadline,
            )
            .join(games, games.c.id == game_members.c.game_id)
            .where(game_members.c.player_id == player_id)
            .order_by(
                waiting_on_me,
                case((games.c.deadline.is_(None), 1), else_=0),
                games.c.deadline,
                games.c.updated_at.desc(),
                games.c.id,
            )
            .limit(limit)
            .offset(offset)
        )
        with self._reader.connect() as conn:
            rows = conn.execute(query).all()
        return [MemberGame(**row._mapping) for row in rows]

    def finished_games_of(
        self, player_id: str, limit: int, before: str | None = None
    ) -> list[tuple[str, str, int]]:
        """``(id, ended_at, version)`` of the finished games ``player_id`` sat in, the last
        ended first (then by id), after the game ``before`` in that order; at most
        ``limit``."""
        seated = and_(
            game_members.c.player_id == player_id,
            game_members.c.seat.is_not(None),
            games.c.status == "ended",
        )
        query = select(games.c.id, games.c.updated_at, games.c.version).join(
            game_members, games.c.id == game_members.c.game_id
        )
        if before is not None:
            at = select(games.c.updated_at).where(games.c.id == before).scalar_subquery()
            query = query.where(
                (games.c.updated_at < at) | and_(games.c.updated_at == at, games.c.id < before)
            )
        query = query.where(seated).order_by(games.c.updated_at.desc(), games.c.id.desc())
        with self._reader.connect() as conn:
            found = conn.execute(query.limit(limit))
            return [(row.id, row.updated_at, int(row.version)) for row in found]

    def playing_games(self, player_id: str) -> list[str]:
        """The games in play where ``player_id`` has a seat."""
        query = (
            select(games.c.id)
            .join(game_members, games.c.id == game_members.c.game_id)
            .where(
                and_(
                    game_members.c.player_id == player_id,
                    game_members.c.seat.is_not(None),
                    games.c.status == "playing",
                )
            )
            .order_by(games.c.id)
        )
        with self._reader.connect() as conn:
            return [row.id for row in conn.execute(query)]

    def members(self, game_ids: Iterable[str]) -> list[Member]:
        ids = sorted(set(game_ids))
        if not ids:
            return []
        query = (
            select(game_members.c.game_id, players.c.id, players.c.name, game_members.c.seat)
            .join(players, players.c.id == game_members.c.player_id)
            .where(game_members.c.game_id.in_(ids))
        )
        with self._reader.connect() as conn:
            return [Member(*row) for row in conn.execute(query)]

    def order_shared_with_running(self, game_id: str) -> bool:
        """Another game not finished yet (waiting or playing) draws the bag order of
        ``game_id`` (the same seed, or the same given order: ``events.order_key``)."""
        other = games.alias("other")
        query = select(
            select(other.c.id)
            .join(games, games.c.order_key == other.c.order_key)
            .where(
                and_(
                    games.c.id == game_id,
                    other.c.id != game_id,
                    other.c.status.in_(("new", "waiting", "playing")),
                )
            )
            .exists()
        )
        with self._reader.connect() as conn:
            return bool(conn.execute(query).scalar())
