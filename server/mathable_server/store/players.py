"""Players and their tokens."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import (
    Connection,
    and_,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from mathable_server.store import feed
from mathable_server.store.base import Recorder
from mathable_server.store.engine import (
    blocks,
    players,
    registration_keys,
)
from mathable_server.store.names import name_key
from mathable_server.store.play_addresses import close_player_addresses
from mathable_server.store.rows import (
    KeyTaken,
    NameLooksAlike,
    NameTaken,
    PlayerRecord,
    Registration,
    now_iso,
    now_ms,
)
from mathable_server.store.schema import player_settings


class PlayerRecorder(Recorder):
    """Players: registration (with its Idempotency-Key), tokens, names, blocks."""

    def create_player(
        self,
        player_id: str,
        name: str,
        email: str | None,
        token_hash: str,
        *,
        key: tuple[str, str] | None = None,
    ) -> None:
        """Store a new player; NameTaken if the name (in any case) is in use, NameLooksAlike
        if a player's name has its look-alike key (``names.name_key``).

        ``key`` = (hash of the Idempotency-Key, fingerprint) is stored in the same
        transaction; KeyTaken if another registration stored that key first.
        """
        now = now_iso()
        with self._writer() as conn, conn.begin():
            taken = conn.execute(
                select(players.c.id).where(players.c.name_key == name.casefold())
            ).first()
            if taken is not None:
                raise NameTaken(name)
            skeleton = name_key(name)
            self._refuse_look_alike(conn, name, skeleton)
            try:
                conn.execute(
                    insert(players).values(
                        id=player_id,
                        name=name,
                        name_key=name.casefold(),
                        name_skeleton=skeleton,
                        email=email,
                        token_hash=token_hash,
                        created_at=now,
                        token_issued_at=now_ms(),
                    )
                )
            except IntegrityError:
                # Another registration got there first, with this name or one like it
                # (``name_alike`` tells which).
                raise NameTaken(name) from None
            if key is not None:
                try:
                    conn.execute(
                        insert(registration_keys).values(
                            key_hash=key[0], player_id=player_id, fingerprint=key[1], created_at=now
                        )
                    )
                except IntegrityError:
                    raise KeyTaken(key[0]) from None

    @staticmethod
    def _refuse_look_alike(conn: Connection, name: str, skeleton: str) -> None:
        alike = conn.execute(
            select(players.c.name).where(players.c.name_skeleton == skeleton)
        ).first()
        if alike is not None:
            raise NameLooksAlike(name, alike.name)

    def name_alike(self, name: str) -> str | None:
        """The name of the player whose name ``name`` looks like (or is), if any."""
        with self._reader.connect() as conn:
            return conn.execute(
                select(players.c.name).where(players.c.name_skeleton == name_key(name))
            ).scalar()

    def registration(self, key_hash: str) -> Registration | None:
        """The registration made with the Idempotency-Key of this hash, if any."""
        with self._reader.connect() as conn:
            row = conn.execute(
                select(
                    registration_keys.c.player_id,
                    registration_keys.c.fingerprint,
                    registration_keys.c.created_at,
                ).where(registration_keys.c.key_hash == key_hash)
            ).first()
        return None if row is None else Registration(*row)

    def replace_token(
        self, player_id: str, token_hash: str, *, old_hash: str | None = None
    ) -> bool:
        """Give a player a new token (an empty hash: none): the old one stops working.

        With ``old_hash``, only if the token is still that one (a rotation racing
        another loses); True when the token was replaced. In the same transaction the
        player's play addresses close (a mail to one plays nothing), and the feed gets
        a ``revocation`` row: every process forgets the old token and ends the
        streams and held long-polls it opened, at once.
        """
        where = players.c.id == player_id
        if old_hash is not None:
            where = and_(where, players.c.token_hash == old_hash)
        now = now_ms()
        with self._writer() as conn, conn.begin():
            done = conn.execute(
                update(players).where(where).values(token_hash=token_hash, token_issued_at=now)
            )
            replaced = done.rowcount == 1
            if replaced:
                close_player_addresses(conn, player_id, now)
                feed.write(conn, self.dialect, [feed.revocation(player_id, now)])
        if replaced:
            for callback in self.on_commit:
                callback()  # this process's follower reads the row now
        return bool(replaced)

    def player(self, player_id: str) -> PlayerRecord | None:
        """The player, with the language they chose (one read: a request speaks it)."""
        with self._reader.connect() as conn:
            row = conn.execute(
                select(
                    players.c.id,
                    players.c.name,
                    players.c.token_hash,
                    players.c.token_issued_at,
                    player_settings.c.language,
                )
                .select_from(
                    players.outerjoin(
                        player_settings, player_settings.c.player_id == players.c.id
                    )
                )
                .where(players.c.id == player_id)
            ).first()
        return None if row is None else PlayerRecord(*row)

    def players_named(self, names: Iterable[str]) -> dict[str, PlayerRecord]:
        """The players with these names, keyed by the folded name."""
        keys = sorted({n.casefold() for n in names})
        if not keys:
            return {}
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(
                    players.c.id,
                    players.c.name,
                    players.c.token_hash,
                    players.c.token_issued_at,
                    players.c.name_key,
                ).where(players.c.name_key.in_(keys))
            ).all()
        return {
            r.name_key: PlayerRecord(r.id, r.name, r.token_hash, r.token_issued_at) for r in rows
        }

    def names(self, player_ids: Iterable[str]) -> dict[str, str]:
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        with self._reader.connect() as conn:
            rows = conn.execute(select(players.c.id, players.c.name).where(players.c.id.in_(ids)))
            return {r.id: r.name for r in rows}

    def block(self, player_id: str, blocked_id: str) -> bool:
        """``player_id`` blocks ``blocked_id``; False if they had already."""
        with self._writer() as conn, conn.begin():
            known = conn.execute(
                select(blocks.c.at).where(
                    and_(blocks.c.player_id == player_id, blocks.c.blocked_id == blocked_id)
                )
            ).first()
            if known is not None:
                return False
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(blocks).values(
                            player_id=player_id, blocked_id=blocked_id, at=now_ms()
                        )
                    )
            except IntegrityError:
                return False  # a block sent twice at once
        return True

    def unblock(self, player_id: str, blocked_id: str) -> bool:
        """``player_id`` lifts a block of ``blocked_id``; False if there was none."""
        with self._writer() as conn, conn.begin():
            done = conn.execute(
                delete(blocks).where(
                    and_(blocks.c.player_id == player_id, blocks.c.blocked_id == blocked_id)
                )
            )
        return bool(done.rowcount)

    def blocked_players(self, player_id: str) -> list[tuple[str, str, int]]:
        """Whom ``player_id`` blocked: (id, name, when), the latest first."""
        query = (
            select(players.c.id, players.c.name, blocks.c.at)
            .join(players, players.c.id == blocks.c.blocked_id)
            .where(blocks.c.player_id == player_id)
            .order_by(blocks.c.at.desc(), players.c.id)
        )
        with self._reader.connect() as conn:
            return [(row.id, row.name, row.at) for row in conn.execute(query)]

    def blocked_by_any(self, player_id: str, others: Iterable[str]) -> bool:
        """One of ``others`` blocked ``player_id``."""
        ids = sorted(set(others) - {player_id})
        if not ids:
            return False
        query = select(
            select(blocks.c.player_id)
            .where(and_(blocks.c.blocked_id == player_id, blocks.c.player_id.in_(ids)))
            .exists()
        )
        with self._reader.connect() as conn:
            return bool(conn.execute(query).scalar())
