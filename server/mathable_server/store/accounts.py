"""A player's account as a whole: everything the server keeps about them (to download),
and forgetting them (the account deleted).

Forgetting keeps only the anonymous seat: the ``players`` row, renamed to an anonymous
name, with no address, token or settings, so that the finished games they sat in still
read (their logs name the player's id, never their name); their seats
(``game_members``) and results (``game_results``) in those games. Every other row that
names them goes: addresses, settings, sessions and links, blocks and mutes either way,
their messages, vacations, ratings, reminders, mail not sent, their feed, invitations
not taken, push subscriptions, pages seen, nudges, tournament entries (left), and the
tournaments they made that nobody began; the kept views of their finished games
(``finished_games``) are written again under the anonymous name. Running games are
resigned and waiting ones left before (``games``' job).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update

from mathable_server.store import feed
from mathable_server.store.base import Recorder
from mathable_server.store.names import name_key
from mathable_server.store.schema import (
    blocks,
    bot_accounts,
    browser_links,
    browser_sessions,
    email_addresses,
    finished_games,
    game_members,
    game_messages,
    game_results,
    idempotency_keys,
    message_mutes,
    notification_settings,
    nudges,
    outbox,
    page_views,
    play_addresses,
    player_feed,
    player_settings,
    players,
    push_subscriptions,
    rating_history,
    ratings,
    registration_keys,
    reminders,
    tournament_players,
    tournaments,
    vacations,
)

#: Tables whose rows naming the player (``player_id``) go with the account.
_OWN = (
    email_addresses,
    notification_settings,
    play_addresses,
    player_feed,
    game_messages,
    player_settings,
    bot_accounts,
    reminders,
    ratings,
    rating_history,
    browser_links,
    browser_sessions,
    vacations,
    idempotency_keys,
    registration_keys,
    push_subscriptions,
    page_views,
    nudges,
)

#: What a download holds of each table (secrets and hashes left out).
_EXPORTED = {
    "email_addresses": (email_addresses, ("address", "verified_at")),
    "notification_settings": (notification_settings, ("email", "webhook_url")),
    "player_settings": (player_settings, ("time_zone", "remind_before", "language")),
    "browser_sessions": (browser_sessions, ("id", "created_at", "expires_at", "user_agent")),
    "vacations": (vacations, None),
    "ratings": (ratings, ("ruleset", "mu", "sigma", "rating", "games")),
    "game_results": (game_results, ("game_id", "ruleset", "won", "winners", "at")),
    "game_members": (game_members, ("game_id", "seat")),
    "messages": (game_messages, ("game_id", "seat", "text", "version", "at")),
    "reminders": (reminders, ("game_id", "deadline", "at")),
    "push_subscriptions": (push_subscriptions, ("id", "endpoint", "created_at")),
    "tournament_players": (tournament_players, ("tournament_id", "joined_at", "left_at")),
}


def _plain(value: Any) -> Any:
    return value if value is None or isinstance(value, (int, float, str, bool)) else str(value)


class AccountRecorder(Recorder):
    """A player's data, downloaded or forgotten."""

    def player_data(self, player_id: str) -> dict[str, Any]:
        """Everything kept about ``player_id`` outside the game logs, table by table."""
        out: dict[str, Any] = {}
        with self._reader.connect() as conn:
            row = conn.execute(
                select(players.c.id, players.c.name, players.c.email, players.c.created_at)
                .where(players.c.id == player_id)
            ).first()  # fmt: skip
            out["player"] = None if row is None else {k: _plain(v) for k, v in row._mapping.items()}
            for key, (table, columns) in _EXPORTED.items():
                chosen = [table.c[c] for c in columns] if columns else [table]
                rows = conn.execute(select(*chosen).where(table.c.player_id == player_id))
                out[key] = [
                    {k: _plain(v) for k, v in r._mapping.items() if k != "player_id"} for r in rows
                ]
            blocked = select(blocks.c.blocked_id).where(blocks.c.player_id == player_id)
            out["blocks"] = [r.blocked_id for r in conn.execute(blocked)]
            out["mutes"] = [
                {"game_id": r.game_id, "muted": r.muted_id}
                for r in conn.execute(
                    select(message_mutes.c.game_id, message_mutes.c.muted_id)
                    .where(message_mutes.c.player_id == player_id)
                )
            ]  # fmt: skip
            out["mail_queued"] = [
                {"kind": r.kind, "state": r.state, "created_at": r.created_at,
                 "payload": {k: v for k, v in json.loads(r.payload).items() if k != "nonce"}}
                for r in conn.execute(
                    select(outbox.c.kind, outbox.c.state, outbox.c.created_at, outbox.c.payload)
                    .where(outbox.c.recipient == player_id)
                )
            ]  # fmt: skip
        return out

    def forget_player(self, player_id: str, anonymous: str, now: int = 0) -> bool:
        """Delete the account: keep its id under the name ``anonymous`` and its seats of
        games; drop everything else (module doc). False for no such player."""
        with self._writer() as conn, conn.begin():
            row = conn.execute(
                select(players.c.name, players.c.email).where(players.c.id == player_id)
            ).first()
            if row is None:
                return False
            addresses = {a.lower() for a in conn.execute(
                select(email_addresses.c.address).where(email_addresses.c.player_id == player_id)
            ).scalars()} | ({row.email.lower()} if row.email else set())  # fmt: skip
            for address in addresses:
                # Mail to the address, whoever's row it is (a sign-up or sign-in request,
                # an invitation), and the links mailed to it.
                to = '"to":' + json.dumps(address)
                conn.execute(delete(outbox).where(
                    func.lower(outbox.c.payload).contains(to, autoescape=True)))
                conn.execute(delete(browser_links).where(
                    func.lower(browser_links.c.address) == address))
            done = conn.execute(
                update(players)
                .where(players.c.id == player_id)
                .values(name=anonymous, name_key=anonymous.casefold(),
                        name_skeleton=name_key(anonymous), email=None, token_hash="")
            )  # fmt: skip
            if done.rowcount != 1:
                return False
            for table in _OWN:
                conn.execute(delete(table).where(table.c.player_id == player_id))
            conn.execute(delete(blocks).where(
                or_(blocks.c.player_id == player_id, blocks.c.blocked_id == player_id)))
            conn.execute(delete(message_mutes).where(
                or_(message_mutes.c.player_id == player_id, message_mutes.c.muted_id == player_id)))
            conn.execute(delete(outbox).where(outbox.c.recipient == player_id))
            # Answers kept for other players' retries that name the player: a retry of
            # one after this runs again (and finds the game moved on).
            named = '"name":' + json.dumps(row.name)
            conn.execute(delete(idempotency_keys).where(
                idempotency_keys.c.body.contains(named, autoescape=True)))
            # Invitations never taken: not a seat.
            conn.execute(delete(game_members).where(
                and_(game_members.c.player_id == player_id, game_members.c.seat.is_(None))))
            # Their finished games' kept views name them: written again with the new name.
            seated = select(game_members.c.game_id).where(game_members.c.player_id == player_id)
            conn.execute(delete(finished_games).where(finished_games.c.game_id.in_(seated)))
            # Tournaments: out of those not begun, gone from those running (paired no more;
            # their games there are resigned already); those they made and nobody began
            # are called off, the others run on with no organiser.
            opened = select(tournaments.c.id).where(tournaments.c.status == "open")
            called_off = select(tournaments.c.id).where(and_(
                tournaments.c.creator == player_id, tournaments.c.status == "open"))
            conn.execute(delete(tournament_players).where(or_(
                tournament_players.c.tournament_id.in_(called_off),
                and_(tournament_players.c.player_id == player_id,
                     tournament_players.c.tournament_id.in_(opened)))))
            conn.execute(update(tournament_players).where(and_(
                tournament_players.c.player_id == player_id,
                tournament_players.c.left_at.is_(None))).values(left_at=now))
            conn.execute(delete(tournaments).where(and_(
                tournaments.c.creator == player_id, tournaments.c.status == "open")))
            conn.execute(update(tournaments).where(tournaments.c.creator == player_id)
                         .values(creator=None))
            # Last: the row that makes every process forget the player and end the
            # streams and held long-polls they opened (as a token revoked does); an id,
            # a kind and a time, nothing of the person.
            feed.write(conn, self.dialect, [feed.revocation(player_id, now)])
        for callback in self.on_commit:
            callback()
        return True
