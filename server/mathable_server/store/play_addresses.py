"""The play addresses of seats: one a seat and game, which of its generations is open, and
who closed it (the seat, for good; or its player, until the seat's next mail).

A mail's ``Reply-To`` is a seat's play address (``notify.mail.play_addresses``); a reply to
it plays the seat's move (``mailin.inbound``). Only the SHA-256 of an address's secret
is stored (``secret_hash``), compared in constant time by the reader.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from mathable_server.store.engine import play_addresses, reader, write_transaction


def secret_hash(secret: str) -> str:
    """What the store keeps of a play address's secret: its SHA-256, hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class PlayAddress:
    game_id: str
    seat: int
    player_id: str
    secret_hash: str
    revoked: bool
    #: Which of the seat's addresses this is (``notify.mail.play_addresses.play_secret``).
    generation: int = 0
    #: ``seat`` (closed for good), ``player`` (closed by its player) or None.
    closed_by: str | None = None


def close_play_addresses(conn: Connection, game_id: str, seats: dict[int, str], now: int) -> None:
    """Close the play addresses of ``seats`` (seat: player) in the caller's transaction.

    A seat that never had a mail gets a closed row with no hash, so that no
    later mail opens it (``open_play_address`` leaves a seat closed for good as it is).
    An address its player closed before is now closed for good too.
    """
    if not seats:
        return
    known = {
        r.seat
        for r in conn.execute(
            select(play_addresses.c.seat).where(
                and_(play_addresses.c.game_id == game_id, play_addresses.c.seat.in_(sorted(seats)))
            )
        )
    }
    conn.execute(
        update(play_addresses)
        .where(
            and_(
                play_addresses.c.game_id == game_id,
                play_addresses.c.seat.in_(sorted(seats)),
                play_addresses.c.revoked_at.is_(None),
            )
        )
        .values(revoked_at=now, closed_by="seat")
    )
    conn.execute(
        update(play_addresses)
        .where(
            and_(
                play_addresses.c.game_id == game_id,
                play_addresses.c.seat.in_(sorted(seats)),
                play_addresses.c.closed_by == "player",
            )
        )
        .values(closed_by="seat")
    )
    missing = [
        {"game_id": game_id, "seat": seat, "player_id": player, "secret_hash": "",
         "revoked_at": now, "closed_by": "seat"}
        for seat, player in sorted(seats.items())
        if seat not in known
    ]  # fmt: skip
    if missing:
        conn.execute(insert(play_addresses), missing)


def close_player_addresses(conn: Connection, player_id: str, now: int) -> int:
    """Close every open play address of ``player_id`` in the caller's transaction: their
    token was replaced, their mail turned off or moved, or they asked. A mail to one is
    refused as a closed address's is; the seat's next mail opens a new address (the next
    generation, a new secret). How many were open."""
    done = conn.execute(
        update(play_addresses)
        .where(
            and_(play_addresses.c.player_id == player_id, play_addresses.c.revoked_at.is_(None))
        )
        .values(revoked_at=now, closed_by="player")
    )
    return int(done.rowcount or 0)


class PlayAddressRecorder:
    """The play addresses of seats on ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reader = reader(engine)

    def open_play_address(
        self, game_id: str, seat: int, player_id: str, hash_of: Callable[[int], str]
    ) -> int:
        """The generation of the seat's play address to write into a mail, recorded.

        The first mail records generation 0 (``hash_of(0)``: the SHA-256 of its
        secret). An address closed by its player (``close_player_addresses``) is
        followed by the next generation, open; one closed for good (the seat moves no
        more) stays closed, and its generation is given.
        """
        for _ in range(3):  # another worker may record it first: read theirs
            try:
                with write_transaction(self.engine) as conn:
                    where = and_(
                        play_addresses.c.game_id == game_id, play_addresses.c.seat == seat
                    )
                    known = conn.execute(select(play_addresses).where(where)).first()
                    if known is None:
                        conn.execute(
                            insert(play_addresses).values(
                                game_id=game_id,
                                seat=seat,
                                player_id=player_id,
                                secret_hash=hash_of(0),
                                generation=0,
                            )
                        )
                        return 0
                    if known.revoked_at is None or known.closed_by != "player":
                        return int(known.generation)
                    generation = int(known.generation) + 1
                    conn.execute(
                        update(play_addresses)
                        .where(and_(where, play_addresses.c.closed_by == "player"))
                        .values(
                            secret_hash=hash_of(generation),
                            generation=generation,
                            revoked_at=None,
                            closed_by=None,
                        )
                    )
                    return generation
            except IntegrityError:
                continue
        raise RuntimeError(f"the play address of {game_id} seat {seat} could not be recorded")

    def close_play_addresses_of(self, player_id: str, now: int) -> int:
        """Close every open play address of the player (``close_player_addresses``)."""
        with write_transaction(self.engine) as conn:
            return close_player_addresses(conn, player_id, now)

    def play_address(self, game_id: str, seat: int) -> PlayAddress | None:
        with self._reader.connect() as conn:
            row = conn.execute(
                select(play_addresses).where(
                    and_(play_addresses.c.game_id == game_id, play_addresses.c.seat == seat)
                )
            ).first()
        if row is None:
            return None
        return PlayAddress(
            row.game_id,
            row.seat,
            row.player_id,
            row.secret_hash,
            row.revoked_at is not None,
            int(row.generation),
            row.closed_by,
        )

    def revoke_play_address(self, game_id: str, seat: int, now: int) -> None:
        """Close the seat's address for good (the seat moves no more)."""
        with write_transaction(self.engine) as conn:
            conn.execute(
                update(play_addresses)
                .where(
                    and_(
                        play_addresses.c.game_id == game_id,
                        play_addresses.c.seat == seat,
                        or_(
                            play_addresses.c.revoked_at.is_(None),
                            play_addresses.c.closed_by == "player",
                        ),
                    )
                )
                .values(revoked_at=func.coalesce(play_addresses.c.revoked_at, now),
                        closed_by="seat")
            )
