"""``mathable-server smtpd``: an SMTP listener (aiosmtpd) for replies to play addresses.

Point the MX of ``MATHABLE_MAIL_DOMAIN`` (or a relay) at it. A recipient that
is not a valid play address (or an unsubscribe address) is refused at ``RCPT
TO`` with 550, so no mail for it is ever taken. A taken mail is read and
played as ``mail-in`` does; if the database is down the sender is told to try
again later (451).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from mathable_server.mailin.inbound import BAD_DATA, CLOSED, TAKEN, TRY_LATER, Inbox

log = logging.getLogger("mathable_server.smtpd")

#: Mail larger than this is refused at the SMTP level; the inbox answers anything over its
#: own cap with a short "too large" mail.
DATA_SIZE_LIMIT = 4 * 1024 * 1024


def is_postmaster(address: str, domain: str) -> bool:
    """``postmaster`` (RFC 5321 4.5.1: every domain takes it), bare or at ``domain``.

    >>> is_postmaster("<Postmaster@Play.Example>", "play.example"), is_postmaster("postmaster", "x")
    (True, True)
    """
    local, _, at = address.strip().strip("<>").lower().partition("@")
    return local == "postmaster" and at in ("", domain.lower())


class PlayHandler:
    """aiosmtpd handler: refuse unknown recipients, play what the others receive.

    ``postmaster`` is taken as RFC 5321 requires, logged and dropped: it is
    never read as a move.
    """

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox

    def _postmaster(self, address: str) -> bool:
        return is_postmaster(address, self.inbox.room.settings.mail_domain)

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: Any
    ) -> str:
        if self._postmaster(address):
            envelope.rcpt_tos.append(address)
            return "250 OK"
        loop = asyncio.get_running_loop()
        accepted = await loop.run_in_executor(None, self.inbox.accepts, address)
        if not accepted:
            closed = await loop.run_in_executor(None, self.inbox.closed, address)
            if closed:
                return f"550 5.1.1 {CLOSED}"
            return "550 5.1.1 no such play address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or envelope.content or b""
        raw = content if isinstance(content, bytes) else content.encode()
        recipients = [a for a in envelope.rcpt_tos if not self._postmaster(a)]
        if len(recipients) < len(envelope.rcpt_tos):
            log.warning(
                "mail for postmaster from %s (%d bytes) dropped", envelope.mail_from, len(raw)
            )
        if not recipients:
            return "250 OK"
        loop = asyncio.get_running_loop()
        outcome = await loop.run_in_executor(
            None, self.inbox.receive, raw, recipients, envelope.mail_from or ""
        )
        if outcome.code == TAKEN:
            return "250 OK"
        if outcome.code == TRY_LATER:
            return "451 4.3.0 try again later"
        if outcome.code == BAD_DATA:  # one line: nothing of a traceback reaches a bounce
            return f"554 5.6.0 {outcome.note}"
        if outcome.note == CLOSED:
            return f"550 5.1.1 {CLOSED}"
        return "550 5.1.1 no such play address"


def controller(inbox: Inbox, host: str, port: int) -> Controller:
    """A listener on ``host:port`` (started with ``.start()``, in a thread of its own)."""
    return Controller(
        PlayHandler(inbox),
        hostname=host,
        port=port,
        data_size_limit=DATA_SIZE_LIMIT,
        decode_data=False,
    )
