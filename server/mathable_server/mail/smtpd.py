"""``mathable-server smtpd``: an SMTP listener (aiosmtpd) for replies to play addresses.

Point the MX of ``MATHABLE_MAIL_DOMAIN`` (or a relay) at it. A recipient that
is not a valid play address (or an unsubscribe address) is refused at ``RCPT
TO`` with 550, so no mail for it is ever taken. A taken mail is read and
played as ``mail-in`` does; if the database is down the sender is told to try
again later (451).
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from mathable_server.mail.inbound import TAKEN, TRY_LATER, Inbox

#: Mail larger than this is refused at the SMTP level; the inbox answers anything over its
#: own cap with a short "too large" mail.
DATA_SIZE_LIMIT = 4 * 1024 * 1024


class PlayHandler:
    """aiosmtpd handler: refuse unknown recipients, play what the others receive."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: Any
    ) -> str:
        loop = asyncio.get_running_loop()
        accepted = await loop.run_in_executor(None, self.inbox.accepts, address)
        if not accepted:
            return "550 5.1.1 no such play address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or envelope.content or b""
        raw = content if isinstance(content, bytes) else content.encode()
        loop = asyncio.get_running_loop()
        outcome = await loop.run_in_executor(None, self.inbox.receive, raw, list(envelope.rcpt_tos))
        if outcome.code == TAKEN:
            return "250 OK"
        if outcome.code == TRY_LATER:
            return "451 4.3.0 try again later"
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
