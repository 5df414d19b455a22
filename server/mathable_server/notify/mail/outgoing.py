"""The outbox's email channel: a row becomes a mail, rendered now, sent through the relay.

A game mail is rendered from the game at the version its row names, so a
retry sends the same text under the same Message-ID. It goes to the verified
address the player has now, and only while they still hold the seat.

Every mail is written in its recipient's language (``store.language`` of the row's
recipient; English when they chose none). The recipient of an invitation's row is the
player who invites: a mail inviting an address is written in the inviter's language (the
address's own reader may have no account, and has chosen no language).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from email.message import EmailMessage

from mathable import replay_timed
from mathable.core.ruleset import AnyState
from mathable_i18n import _, speaking
from mathable_server.games.messages import last_act, mail_messages
from mathable_server.games.orders import order_withheld
from mathable_server.notify.mail.codes import link_secret, verification_code
from mathable_server.notify.mail.compose import (
    MailContext,
    address_change_mail,
    answer_mail,
    code_mail,
    confirm_mail,
    digest_mail,
    game_mail,
    invitation_mail,
    lasting,
    reminder_mail,
    signin_mail,
    signup_mail,
    tournament_mail,
)
from mathable_server.notify.mail.games import game_mail_for, mail_time
from mathable_server.notify.mail.picture import board_png
from mathable_server.notify.mail.play_addresses import play_address, play_secret
from mathable_server.notify.worker import Entry, Undeliverable, reminder_due
from mathable_server.store import Store
from mathable_server.store.email_addresses import EmailAddressRecorder
from mathable_server.store.outbox import Obsolete
from mathable_server.store.play_addresses import PlayAddressRecorder, secret_hash

GAME_KINDS = ("turn", "moved", "finished")
#: A row asking for a sign-in link to an address, whoever's it is (``POST /signin``): the
#: worker makes the link and mails it only if a player has that verified address.
SIGNIN_REQUEST = "signin_request"
#: A row asking to sign up with an address (``POST /signup``): a sign-up link if no player
#: has that verified address, else a sign-in link (the same page either way).
SIGNUP_REQUEST = "signup_request"
#: A digest names the deadlines within this long (ms).
DAY_MS = 24 * 3600 * 1000


def seat_names(store: Store, state: AnyState) -> list[str]:
    ids = [s.player for s in state.seats if s.player is not None]
    names = store.names(ids)
    return [
        names.get(s.player or "", _("seat {number}", number=i)) for i, s in enumerate(state.seats)
    ]


class MailChannel:
    """Renders and sends the ``email`` rows of the outbox."""

    def __init__(
        self,
        store: Store,
        ctx: Callable[[], MailContext],
        send: Callable[[EmailMessage], None],
        pictures: bool = False,
        now: Callable[[], int] | None = None,
        signin_mail_limit: int = 10,
    ) -> None:
        self.store = store
        self.email_addresses = EmailAddressRecorder(store.engine)
        self.play_addresses = PlayAddressRecorder(store.engine)
        self.ctx = ctx
        self.send = send
        #: Turn mails carry the board as a picture (where the PNG converter is installed).
        self.pictures = pictures
        #: The worker's clock (ms since 1970 UTC): a reminder tells the time left when sent.
        self.now = now or (lambda: int(time.time() * 1000))
        #: Mailed sign-in links a player may hold unused (``Settings.signin_mail_limit``).
        self.signin_mail_limit = signin_mail_limit

    def __call__(self, entry: Entry) -> None:
        self.send(self.compose(entry))

    def compose(self, entry: Entry) -> EmailMessage:
        """The mail of ``entry``, in its recipient's language."""
        if entry.kind == SIGNIN_REQUEST:
            entry = self._signin_link(entry)
        elif entry.kind == SIGNUP_REQUEST:
            entry = self._signup_link(entry)
        with speaking(self.store.language(entry.recipient)):
            return self._compose(entry)

    def _compose(self, entry: Entry) -> EmailMessage:
        ctx = self.ctx()
        payload = entry.payload
        if entry.kind == "verify":
            code = payload.get("code")  # rows written before codes were made from a nonce
            if payload.get("nonce"):
                code = verification_code(ctx.server_secret, entry.recipient, payload["nonce"])
            if not payload.get("to") or not code:
                raise Undeliverable("the code was withdrawn")
            return code_mail(ctx, payload["to"], code, entry.message_id)
        if entry.kind in ("signup", "confirm"):
            return self._account_mail(ctx, entry)
        if entry.kind in ("invite", "signin"):
            return self._link_mail(ctx, entry)
        if entry.kind == "address_change":  # to the address the account had
            name = self.store.names([entry.recipient]).get(entry.recipient, "?")
            return address_change_mail(ctx, str(payload["to"]), name, str(payload["new"]),
                                       entry.message_id)  # fmt: skip
        to = self.email_addresses.verified_address(entry.recipient)
        if to is None:
            raise Undeliverable("no verified address")
        if entry.kind == "answer":
            reply_to = None
            if payload.get("game_id") and payload.get("seat") is not None:
                game_id, seat = str(payload["game_id"]), int(payload["seat"])
                reply_to = self._reply_to(ctx, game_id, seat, entry.recipient)
            return answer_mail(
                ctx,
                to=to,
                subject=str(payload.get("subject", "")),
                text=str(payload["text"]),
                stable_id=entry.message_id,
                game_id=payload.get("game_id"),
                in_reply_to=payload.get("in_reply_to"),
                reply_to=reply_to,
            )
        if entry.kind == "digest":
            return self._digest(ctx, to, entry)
        if entry.kind == "reminder":
            return self._reminder(ctx, to, entry)
        if entry.kind == "tournament":
            return tournament_mail(ctx, to, payload, entry.message_id)
        if entry.kind not in GAME_KINDS:
            raise Undeliverable(f"unknown kind {entry.kind}")
        game_id, version, seat = payload["game_id"], int(payload["version"]), int(payload["seat"])
        stored = self.store.events_after(game_id, 0, limit=version)
        state, clock = replay_timed((s.at, s.event) for s in stored)
        if seat >= len(state.seats) or state.seats[seat].player != entry.recipient:
            raise Undeliverable("the player no longer holds that seat")
        reply_to = None
        if entry.kind == "turn":
            reply_to = self._reply_to(ctx, game_id, seat, entry.recipient)
        # What the other seats wrote since the seat's previous game mail (a message is no
        # event); the first mail of a seat tells those since its last own act.
        since = last_act(((s.version, s.event) for s in stored), seat, state)
        written = self.store.messages_for_mail(entry.id, game_id, seat, entry.recipient, since)
        writers = self.store.names({m.player_id for m in written}) if written else {}
        return game_mail(
            ctx,
            kind=entry.kind,
            to=to,
            player_id=entry.recipient,
            game_id=game_id,
            state=state,
            clock=clock,
            seat=seat,
            names=seat_names(self.store, state),
            reply_to=reply_to,
            stable_id=entry.message_id,
            words_of=game_mail_for(state),
            picture=board_png(state, seat) if self.pictures and entry.kind == "turn" else None,
            withheld=entry.kind == "finished" and order_withheld(self.store, game_id, state),
            messages=mail_messages(written, writers),
            zone=self.store.time_zone(entry.recipient),
        )

    def _signin_link(self, entry: Entry) -> Entry:
        """A request for a sign-in link (``POST /signin``) as the ``signin`` row it becomes:
        to the player whose verified address it names, with its link stored now (once:
        a retry finds it). ``Obsolete``, nothing sent, when the address is no player's or
        the player holds ``signin_mail_limit`` mailed links still usable (a stranger's
        requests fill their mailbox with links they can use, and no more; links withdrawn
        by "sign out everywhere", used or expired count no more). The requester saw the
        same page either way, and a stranger spent nothing of anyone's."""
        payload = entry.payload
        holders = self.email_addresses.players_at(str(payload.get("to") or ""))
        if not holders or not payload.get("nonce"):
            raise Obsolete("no player has this address")
        player_id = holders[0]
        digest = secret_hash(link_secret(self.ctx().server_secret, str(payload["nonce"])))
        if self.store.link(digest) is None:
            now = self.now()
            expires_at = now + int(payload["minutes"]) * 60_000
            if not self.store.add_mailed_signin_link(
                digest, player_id, str(payload["to"]), now=now, expires_at=expires_at,
                most=self.signin_mail_limit,
            ):  # fmt: skip
                raise Obsolete("the player holds enough sign-in links not used yet")
        return replace(entry, kind="signin", recipient=player_id)

    def _signup_link(self, entry: Entry) -> Entry:
        """A request to sign up (``POST /signup``) as the row it becomes: a sign-in link
        for an address a player has (``_signin_link``); else a sign-up link, stored now
        (once: a retry finds it), unless the address holds ``signin_mail_limit`` sign-up
        links not used yet (``Obsolete``: a stranger fills no mailbox)."""
        payload = entry.payload
        address = str(payload.get("to") or "")
        if self.email_addresses.players_at(address):
            return self._signin_link(entry)
        if not payload.get("nonce"):
            raise Obsolete("no nonce")
        digest = secret_hash(link_secret(self.ctx().server_secret, str(payload["nonce"])))
        if self.store.link(digest) is None:
            now = self.now()
            expires_at = now + int(payload["minutes"]) * 60_000
            if not self.store.add_signup_link(
                digest, address, now=now, expires_at=expires_at, most=self.signin_mail_limit
            ):
                raise Obsolete("the address holds enough sign-up links not used yet")
        return replace(entry, kind="signup")

    def _account_mail(self, ctx: MailContext, entry: Entry) -> EmailMessage:
        """A sign-up link, or the link confirming a registered player's address."""
        payload = entry.payload
        if not payload.get("to") or not payload.get("nonce") or not ctx.public_url:
            raise Undeliverable("no link to send (no MATHABLE_PUBLIC_URL?)")
        secret = link_secret(ctx.server_secret, str(payload["nonce"]))
        if entry.kind == "signup":
            link = f"{ctx.public_url}/signup/{secret}"
            return signup_mail(ctx, payload["to"], link, int(payload["minutes"]),
                               entry.message_id)  # fmt: skip
        name = self.store.names([entry.recipient]).get(entry.recipient, "?")
        link = f"{ctx.public_url}/confirm/{secret}"
        return confirm_mail(ctx, payload["to"], link, name, int(payload["hours"]),
                            entry.message_id)  # fmt: skip

    def _link_mail(self, ctx: MailContext, entry: Entry) -> EmailMessage:
        """An invitation or a sign-in link: the link made again from the row's nonce."""
        payload = entry.payload
        if not payload.get("to") or not payload.get("nonce") or not ctx.public_url:
            raise Undeliverable("no link to send (no MATHABLE_PUBLIC_URL?)")
        secret = link_secret(ctx.server_secret, str(payload["nonce"]))
        if entry.kind == "signin":
            link = f"{ctx.public_url}/signin/{secret}"
            return signin_mail(ctx, payload["to"], link, int(payload["minutes"]), entry.message_id)
        link = f"{ctx.public_url}/join/{secret}"
        return invitation_mail(
            ctx,
            payload["to"],
            link,
            str(payload["inviter"]),
            str(payload["game"]),
            str(payload["game_id"]),
            int(payload["hours"]),
            entry.message_id,
        )

    def _reply_to(self, ctx: MailContext, game_id: str, seat: int, player_id: str) -> str:
        """The seat's play address, recorded: a new one if its player closed the last."""

        def hash_of(generation: int) -> str:
            return secret_hash(play_secret(ctx.server_secret, game_id, seat, player_id, generation))

        generation = self.play_addresses.open_play_address(game_id, seat, player_id, hash_of)
        secret = play_secret(ctx.server_secret, game_id, seat, player_id, generation)
        return play_address(game_id, seat, secret, ctx.domain)

    def _reminder(self, ctx: MailContext, to: str, entry: Entry) -> EmailMessage:
        """A reminder, unless the player moved since it was written (then none is sent:
        ``Obsolete``, the row skipped). The time left is counted when it is sent: a row
        that waited (the relay away, the worker stopped) tells no more than is left, and
        one whose deadline passed meanwhile is not sent."""
        now = self.now()
        state, clock, seat = reminder_due(self.store, entry, now)
        deadline = int(entry.payload["deadline"])
        left_ms = deadline - now
        game_id = str(entry.payload["game_id"])
        names = seat_names(self.store, state)
        zone = self.store.time_zone(entry.recipient)
        hours = round(left_ms / 3_600_000)
        about = f"about {hours} hour{'s' if hours != 1 else ''}"
        left = lasting(hours * 3600, about) if hours else _("less than an hour")
        return reminder_mail(
            ctx,
            to=to,
            player_id=entry.recipient,
            game_id=game_id,
            game=game_mail_for(state).game_name,
            others=", ".join(n for i, n in enumerate(names) if i != seat),
            deadline=mail_time(deadline, zone),
            left=left,
            stable_id=entry.message_id,
            reply_to=None,
        )

    def _digest(self, ctx: MailContext, to: str, entry: Entry) -> EmailMessage:
        waiting = [g for g in self.store.games_of(entry.recipient, 100, 0)
                   if g.to_move == entry.recipient]  # fmt: skip
        zone = self.store.time_zone(entry.recipient)
        soon = entry.next_try + DAY_MS  # from the hour the digest is due: within a day
        lines = {
            g.id: _("version {version}, due {when}", version=g.version,
                    when=mail_time(g.deadline, zone))
            if g.deadline and g.deadline <= soon
            else _("version {version}", version=g.version)
            for g in waiting
        }  # fmt: skip
        return digest_mail(ctx, to, entry.recipient, lines, entry.message_id)
