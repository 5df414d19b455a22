"""Playing in the browser: one-time links (an invitation, a sign-in) and the browser
sessions they open.

Only hashes of the secrets are stored (``secret_hash``: SHA-256, hex): the link in a
mail and the cookie in a browser are the secrets. A link is spent once, by one atomic
``UPDATE ... WHERE used_at IS NULL AND expires_at > now``: two clicks racing, one wins.
A session is ended by deleting its row; ending a player's sessions writes a feed
``revocation`` as replacing their token does, so that requests waiting in any process
(a long-poll, a stream) ask again whether their caller is still signed in. Ending all
of them also withdraws every sign-in link of the player not used yet (``revoked``), as
replacing or revoking the token does: a spare link in a thief's hands would sign them
in again.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from mathable_server.store import feed
from mathable_server.store.base import Recorder
from mathable_server.store.schema import browser_links, browser_sessions


@dataclass(frozen=True, slots=True)
class Link:
    """A one-time link as stored (never its secret)."""

    kind: str
    player_id: str
    game_id: str | None
    address: str | None
    created_at: int
    expires_at: int
    used_at: int | None
    outcome: str | None


@dataclass(frozen=True, slots=True)
class Session:
    """A browser session as listed (never its secret)."""

    id: str
    player_id: str
    created_at: int
    expires_at: int
    user_agent: str | None
    #: When a request last came with it (ms), if it was written since it opened.
    last_used_at: int | None = None


_LINK = (
    browser_links.c.kind,
    browser_links.c.player_id,
    browser_links.c.game_id,
    browser_links.c.address,
    browser_links.c.created_at,
    browser_links.c.expires_at,
    browser_links.c.used_at,
    browser_links.c.outcome,
)
_SESSION = (
    browser_sessions.c.id,
    browser_sessions.c.player_id,
    browser_sessions.c.created_at,
    browser_sessions.c.expires_at,
    browser_sessions.c.user_agent,
    browser_sessions.c.last_used_at,
)


class BrowserSessionRecorder(Recorder):
    """One-time links and browser sessions."""

    def add_link(
        self,
        secret_hash: str,
        kind: str,
        player_id: str,
        *,
        now: int,
        expires_at: int,
        game_id: str | None = None,
        address: str | None = None,
    ) -> None:
        with self._writer() as conn, conn.begin():
            conn.execute(
                insert(browser_links).values(
                    secret_hash=secret_hash,
                    kind=kind,
                    player_id=player_id,
                    game_id=game_id,
                    address=address,
                    created_at=now,
                    expires_at=expires_at,
                )
            )

    def link(self, secret_hash: str) -> Link | None:
        """The link of this hash, spent or not, or None."""
        with self._reader.connect() as conn:
            row = conn.execute(
                select(*_LINK).where(browser_links.c.secret_hash == secret_hash)
            ).first()
        return None if row is None else Link(*row)

    def spend_link(self, secret_hash: str, kind: str, now: int, outcome: str = "used") -> bool:
        """Mark the link spent (``outcome``: "used" or "refused"); True for the one caller
        that did, False when it was spent already, expired, of another kind, or none."""
        where = and_(
            browser_links.c.secret_hash == secret_hash,
            browser_links.c.kind == kind,
            browser_links.c.used_at.is_(None),
            browser_links.c.expires_at > now,
        )
        with self._writer() as conn, conn.begin():
            done = conn.execute(update(browser_links).where(where).values(used_at=now,
                                                                          outcome=outcome))
        return bool(done.rowcount == 1)

    def unspend_link(self, secret_hash: str) -> None:
        """Give a link back (what it was spent for failed: the name was taken, say)."""
        with self._writer() as conn, conn.begin():
            conn.execute(
                update(browser_links)
                .where(browser_links.c.secret_hash == secret_hash)
                .values(used_at=None, outcome=None)
            )

    def withdraw_signin_links(self, player_id: str, now: int) -> int:
        """Spend every sign-in link of the player not used yet (outcome ``revoked``): their
        token was replaced or revoked. How many there were."""
        with self._writer() as conn, conn.begin():
            return self._withdraw_signin_links(conn, player_id, now)

    @staticmethod
    def _withdraw_signin_links(conn: Connection, player_id: str, now: int) -> int:
        where = and_(
            browser_links.c.player_id == player_id,
            browser_links.c.kind.in_(("signin", "confirm")),  # a confirmation: fourth review
            browser_links.c.used_at.is_(None),
        )
        done = conn.execute(update(browser_links).where(where).values(used_at=now,
                                                                      outcome="revoked"))
        return int(done.rowcount or 0)

    def add_mailed_signin_link(
        self, secret_hash: str, player_id: str, address: str, *, now: int, expires_at: int,
        most: int,
    ) -> bool:  # fmt: skip
        """Store a sign-in link mailed to ``address`` unless the player holds ``most``
        mailed ones still usable (not used, withdrawn or expired): False then, nothing
        stored. Counted and written in one transaction (on SQLite, under the one writer;
        two delivery workers on PostgreSQL may each add one over the count)."""
        usable = and_(
            browser_links.c.player_id == player_id,
            browser_links.c.kind == "signin",
            browser_links.c.address.is_not(None),
            browser_links.c.used_at.is_(None),
            browser_links.c.expires_at > now,
        )
        with self._writer() as conn, conn.begin():
            held = conn.execute(select(func.count()).select_from(browser_links).where(usable))
            if int(held.scalar_one()) >= most:
                return False
            conn.execute(
                insert(browser_links).values(
                    secret_hash=secret_hash,
                    kind="signin",
                    player_id=player_id,
                    address=address,
                    created_at=now,
                    expires_at=expires_at,
                )
            )
        return True

    def add_signup_link(
        self, secret_hash: str, address: str, *, now: int, expires_at: int, most: int
    ) -> bool:
        """Store a sign-up link mailed to ``address`` (no player yet: ``player_id`` is
        empty) unless the address holds ``most`` such links still usable: False then."""
        usable = and_(
            browser_links.c.kind == "signup",
            func.lower(browser_links.c.address) == address.lower(),
            browser_links.c.used_at.is_(None),
            browser_links.c.expires_at > now,
        )
        with self._writer() as conn, conn.begin():
            held = conn.execute(select(func.count()).select_from(browser_links).where(usable))
            if int(held.scalar_one()) >= most:
                return False
            conn.execute(
                insert(browser_links).values(
                    secret_hash=secret_hash, kind="signup", player_id="", address=address,
                    created_at=now, expires_at=expires_at,
                )
            )  # fmt: skip
        return True

    def invitations_mailed_to(self, address: str, now: int) -> list[tuple[str, str]]:
        """(game id, inviting player) of the invitations mailed to ``address`` that may
        still be taken (unspent, unexpired), the newest first."""
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(browser_links.c.game_id, browser_links.c.player_id)
                .where(
                    browser_links.c.kind == "invite",
                    func.lower(browser_links.c.address) == address.lower(),
                    browser_links.c.used_at.is_(None),
                    browser_links.c.expires_at > now,
                )
                .order_by(browser_links.c.created_at.desc())
            ).all()
        return [(str(r.game_id), r.player_id) for r in rows if r.game_id]

    def open_links_to(self, game_id: str) -> int:
        """How many invitations to ``game_id`` may still be taken (any time: unspent)."""
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(browser_links.c.secret_hash).where(
                    browser_links.c.game_id == game_id,
                    browser_links.c.kind == "invite",
                    browser_links.c.used_at.is_(None),
                )
            ).all()
        return len(rows)

    def open_session(
        self,
        session_id: str,
        secret_hash: str,
        player_id: str,
        *,
        now: int,
        expires_at: int,
        user_agent: str | None,
    ) -> None:
        with self._writer() as conn, conn.begin():
            conn.execute(
                insert(browser_sessions).values(
                    id=session_id,
                    secret_hash=secret_hash,
                    player_id=player_id,
                    created_at=now,
                    expires_at=expires_at,
                    user_agent=(user_agent or "")[:200] or None,
                )
            )

    def session(self, secret_hash: str) -> Session | None:
        """The session whose cookie hashes to ``secret_hash`` (expired or not), or None."""
        with self._reader.connect() as conn:
            row = conn.execute(
                select(*_SESSION).where(browser_sessions.c.secret_hash == secret_hash)
            ).first()
        return None if row is None else Session(*row)

    def touch_session(self, session_id: str, now: int, every_ms: int = 300_000) -> None:
        """Record that the session was used at ``now``, unless it was within ``every_ms``
        (a page and its requests write it once, not each)."""
        stale = or_(
            browser_sessions.c.last_used_at.is_(None),
            browser_sessions.c.last_used_at < now - every_ms,
        )
        with self._writer() as conn, conn.begin():
            conn.execute(
                update(browser_sessions)
                .where(and_(browser_sessions.c.id == session_id, stale))
                .values(last_used_at=now)
            )

    def sessions_of(self, player_id: str) -> list[Session]:
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(*_SESSION)
                .where(browser_sessions.c.player_id == player_id)
                .order_by(browser_sessions.c.created_at, browser_sessions.c.id)
            ).all()
        return [Session(*row) for row in rows]

    def end_sessions(self, player_id: str, now: int, session_id: str | None = None) -> int:
        """End one of a player's sessions (``session_id``) or all of them; how many ended.

        The feed gets a ``revocation`` row in the same transaction: waiting requests
        of the player, in every process, check their caller again."""
        where = browser_sessions.c.player_id == player_id
        if session_id is not None:
            where = and_(where, browser_sessions.c.id == session_id)
        with self._writer() as conn, conn.begin():
            ended = int(conn.execute(delete(browser_sessions).where(where)).rowcount or 0)
            if session_id is None:
                self._withdraw_signin_links(conn, player_id, now)
            if ended:
                feed.write(conn, self.dialect, [feed.revocation(player_id, now)])
        if ended:
            for callback in self.on_commit:
                callback()
        return ended
