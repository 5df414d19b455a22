"""Messages between the seats of a game, and whose messages a player muted.

A message is kept with its game in a table of its own, never in the event log:
it is no part of the rules' state and a replay never sees it. Posting one
writes, in one transaction, the message and a ``message`` row of the player
feed for each seat to be told (``/v1/me/stream`` shows it as a line as it shows
a move). A retried request (an Idempotency-Key, a mail's Message-ID) writes once:
the seat's ``request_key`` is unique.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from mathable_server.store import feed
from mathable_server.store.base import Recorder
from mathable_server.store.outbox import add as add_rows
from mathable_server.store.push import push_rows
from mathable_server.store.schema import blocks, game_messages, message_mutes, outbox

#: The feed's kind of a message row.
MESSAGE = "message"
#: The outbox kinds of a game mail (``notify.mail.outgoing``): each carries the messages since
#: the seat's previous one.
_GAME_MAIL_KINDS = ("turn", "moved", "finished")


@dataclass(frozen=True, slots=True)
class Message:
    """One message: who wrote it (seat and player), what, when (ms), at which version."""

    id: int
    game_id: str
    seat: int
    player_id: str
    text: str
    version: int
    at: int


class TooManyMessages(Exception):
    """The seat wrote as many messages in this game as one may."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"at most {limit} messages a seat in a game")
        self.limit = limit


_COLUMNS = (
    game_messages.c.id,
    game_messages.c.game_id,
    game_messages.c.seat,
    game_messages.c.player_id,
    game_messages.c.text,
    game_messages.c.version,
    game_messages.c.at,
)


def _message(r: Any) -> Message:
    return Message(
        int(r.id), r.game_id, int(r.seat), r.player_id, r.text, int(r.version), int(r.at)
    )


class MessageRecorder(Recorder):
    """The game_messages and message_mutes tables."""

    def post_message(
        self,
        game_id: str,
        seat: int,
        player_id: str,
        text: str,
        *,
        version: int,
        at: int,
        readers: Sequence[str],
        limit: int,
        key: str | None = None,
    ) -> tuple[Message, bool]:
        """Store a message of ``seat`` and tell ``readers`` (a ``message`` feed row each,
        but not those who muted it: ``muting``); (the message, whether it is new).

        With ``key``, a second post of the same key answers the first message. At most
        ``limit`` messages a seat in a game: TooManyMessages past it.
        """
        try:
            return self._post(game_id, seat, player_id, text, version, at, readers, limit, key)
        except IntegrityError:  # the same key, written at the same moment: the first stands
            with self._reader.connect() as conn:
                first = self._keyed(conn, player_id, key or "")
            if first is None:
                raise
            return first, False

    def _post(
        self,
        game_id: str,
        seat: int,
        player_id: str,
        text: str,
        version: int,
        at: int,
        readers: Sequence[str],
        limit: int,
        key: str | None,
    ) -> tuple[Message, bool]:
        with self._writer() as conn, conn.begin():
            if key is not None:
                first = self._keyed(conn, player_id, key)
                if first is not None:
                    return first, False
            written = conn.execute(
                select(func.count())
                .select_from(game_messages)
                .where(and_(game_messages.c.game_id == game_id, game_messages.c.seat == seat))
            ).scalar()
            if int(written or 0) >= limit:
                raise TooManyMessages(limit)
            new_id = conn.execute(
                insert(game_messages)
                .values(
                    game_id=game_id,
                    seat=seat,
                    player_id=player_id,
                    text=text,
                    version=version,
                    at=at,
                    request_key=key,
                )
                .returning(game_messages.c.id)
            ).scalar_one()
            muted = _muting(conn, game_id, player_id, readers)
            told = [
                {"player_id": p, "game_id": game_id, "version": version, "kinds": MESSAGE,
                 "at": at}
                for p in readers
                if p not in muted
            ]  # fmt: skip
            pushed = [p for p in readers if p not in muted]
            add_rows(conn, push_rows(
                conn, "message", pushed,
                {"game_id": game_id, "version": version, "from": player_id, "text": text[:200]},
                f"{game_id}.m{new_id}",
            ), at)  # fmt: skip
            feed.write(conn, self.dialect, told)  # last: it locks the feed until the commit
        for callback in self.on_commit:  # this process's waiters read the feed now
            callback()
        return Message(int(new_id), game_id, seat, player_id, text, version, at), True

    @staticmethod
    def _keyed(conn: Connection, player_id: str, key: str) -> Message | None:
        row = conn.execute(
            select(*_COLUMNS).where(
                and_(game_messages.c.player_id == player_id, game_messages.c.request_key == key)
            )
        ).first()
        return None if row is None else _message(row)

    def messages(
        self, game_id: str, since: int = 0, limit: int = 500, reader: str | None = None
    ) -> list[Message]:
        """The game's messages after id ``since``, oldest first; for ``reader``, without
        those they muted (the game, or their writer) or whose writer they blocked.

        Everything a game's record exports (``reader`` None: all of them)."""
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(*_COLUMNS)
                .where(and_(game_messages.c.game_id == game_id, game_messages.c.id > since))
                .order_by(game_messages.c.id)
                .limit(limit)
            ).all()
            found = [_message(r) for r in rows]
            if reader is None or not found:
                return found
            unwanted = _unwanted(conn, game_id, reader)
        if "" in unwanted:
            return [m for m in found if m.player_id == reader]
        return [m for m in found if m.player_id not in unwanted]

    def messages_for_mail(
        self, entry_id: int, game_id: str, seat: int, reader: str, first_version: int
    ) -> list[Message]:
        """The messages other seats wrote that game mail ``entry_id`` (an outbox row for
        ``reader`` at ``seat``) carries: those written since the previous game mail sent to
        that seat of that game (its row records how far it carried, ``mailed_upto``), so
        each message reaches a mail player once; without such a mail, those written since
        the game was at ``first_version`` (the seat's last own act). Muted and blocked
        writers' are left out. The row being sent records how far it carries."""
        prefixes = [f"{kind}.{game_id}.v" for kind in _GAME_MAIL_KINDS]
        with self._reader.connect() as conn:
            earlier = conn.execute(
                select(outbox.c.payload)
                .where(
                    and_(
                        outbox.c.channel == "email",
                        outbox.c.recipient == reader,
                        outbox.c.state == "sent",
                        outbox.c.id < entry_id,
                        outbox.c.kind.in_(_GAME_MAIL_KINDS),
                        or_(*(outbox.c.message_id.startswith(p, autoescape=True)
                              for p in prefixes)),  # fmt: skip
                    )
                )
                .order_by(outbox.c.id.desc())
                .limit(50)
            ).all()
            after: int | None = None
            for row in earlier:
                payload = json.loads(row.payload or "{}")
                if payload.get("game_id") == game_id and payload.get("seat") == seat:
                    if "mailed_upto" in payload:
                        after = int(payload["mailed_upto"])
                    break
            since = (
                game_messages.c.id > after
                if after is not None
                else game_messages.c.version >= first_version
            )
            rows = conn.execute(
                select(*_COLUMNS)
                .where(and_(game_messages.c.game_id == game_id, since))
                .order_by(game_messages.c.id)
            ).all()
            found = [_message(r) for r in rows]
            unwanted = _unwanted(conn, game_id, reader) if found else set()
        upto = max([m.id for m in found], default=after if after is not None else 0)
        if after is None and not found:
            with self._reader.connect() as conn:
                upto = int(
                    conn.execute(
                        select(func.coalesce(func.max(game_messages.c.id), 0)).where(
                            game_messages.c.game_id == game_id
                        )
                    ).scalar_one()
                )
        with self._writer() as conn, conn.begin():
            held = conn.execute(select(outbox.c.payload).where(outbox.c.id == entry_id)).first()
            if held is not None:
                payload = json.loads(held.payload or "{}")
                payload["mailed_upto"] = upto
                conn.execute(
                    update(outbox)
                    .where(outbox.c.id == entry_id)
                    .values(payload=json.dumps(payload, separators=(",", ":"), sort_keys=True))
                )
        if "" in unwanted:
            return []
        return [m for m in found if m.player_id != reader and m.player_id not in unwanted]

    def mute(self, player_id: str, *, game_id: str = "", muted_id: str = "", at: int) -> None:
        """Mute a game's messages (``game_id``) or a player's (``muted_id``); twice is once."""
        with self._writer() as conn, conn.begin():
            exists = conn.execute(
                select(message_mutes.c.at).where(_mute_key(player_id, game_id, muted_id))
            ).first()
            if exists is None:
                conn.execute(
                    insert(message_mutes).values(
                        player_id=player_id, game_id=game_id, muted_id=muted_id, at=at
                    )
                )

    def unmute(self, player_id: str, *, game_id: str = "", muted_id: str = "") -> None:
        with self._writer() as conn, conn.begin():
            conn.execute(delete(message_mutes).where(_mute_key(player_id, game_id, muted_id)))

    def mutes_of(self, player_id: str) -> list[tuple[str, str, int]]:
        """(game id or "", muted player id or "", when) of each of ``player_id``'s mutes."""
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(message_mutes.c.game_id, message_mutes.c.muted_id, message_mutes.c.at)
                .where(message_mutes.c.player_id == player_id)
                .order_by(message_mutes.c.at.desc())
            ).all()
        return [(r.game_id, r.muted_id, int(r.at)) for r in rows]


def _mute_key(player_id: str, game_id: str, muted_id: str) -> Any:
    return and_(
        message_mutes.c.player_id == player_id,
        message_mutes.c.game_id == game_id,
        message_mutes.c.muted_id == muted_id,
    )


def _unwanted(conn: Connection, game_id: str, reader: str) -> set[str]:
    """Whose messages in ``game_id`` ``reader`` does not want: the players they muted or
    blocked, and "" when they muted the game."""
    mutes = conn.execute(
        select(message_mutes.c.game_id, message_mutes.c.muted_id).where(
            and_(
                message_mutes.c.player_id == reader,
                or_(message_mutes.c.game_id == game_id, message_mutes.c.game_id == ""),
            )
        )
    ).all()
    found = {r.muted_id if r.game_id == "" else "" for r in mutes}
    blocked = conn.execute(select(blocks.c.blocked_id).where(blocks.c.player_id == reader))
    return found | {r.blocked_id for r in blocked}


def _muting(conn: Connection, game_id: str, writer: str, readers: Iterable[str]) -> set[str]:
    """Those of ``readers`` who do not want ``writer``'s messages in ``game_id``."""
    readers = list(readers)
    if not readers:
        return set()
    muted = conn.execute(
        select(message_mutes.c.player_id).where(
            and_(
                message_mutes.c.player_id.in_(readers),
                or_(
                    and_(message_mutes.c.game_id == game_id, message_mutes.c.muted_id == ""),
                    and_(message_mutes.c.game_id == "", message_mutes.c.muted_id == writer),
                ),
            )
        )
    ).all()
    blocking = conn.execute(
        select(blocks.c.player_id).where(
            and_(blocks.c.player_id.in_(readers), blocks.c.blocked_id == writer)
        )
    ).all()
    return {r.player_id for r in muted} | {r.player_id for r in blocking}
