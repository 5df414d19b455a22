"""The SMTP relay mail goes out through: ``smtp://user:pass@host:port``, ``smtps://...``,
``?starttls=1``; sent with the standard library's ``smtplib``."""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

#: Seconds to wait for the relay before the try counts as failed.
SMTP_TIMEOUT = 20.0


@dataclass(frozen=True, slots=True)
class Relay:
    """Where and how to send.

    >>> Relay.parse("smtp://u:p%40ss@mail.example:2525?starttls=1")
    Relay(host='mail.example', port=2525, user='u', password='p@ss', tls=False, starttls=True)
    >>> Relay.parse("smtps://mail.example").port
    465
    """

    host: str
    port: int
    user: str | None
    password: str | None
    tls: bool
    starttls: bool

    @classmethod
    def parse(cls, url: str) -> Relay:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(
                "MATHABLE_SMTP_URL must read smtp://[user:pass@]host[:port] or smtps://..."
            )
        query = parse_qs(parts.query)
        starttls = query.get("starttls", ["0"])[0].lower() in ("1", "true", "yes", "on")
        tls = parts.scheme == "smtps"
        return cls(
            parts.hostname,
            parts.port or (465 if tls else 587 if starttls else 25),
            unquote(parts.username) if parts.username else None,
            unquote(parts.password) if parts.password else None,
            tls,
            starttls,
        )

    def send(self, message: EmailMessage) -> None:
        """Hand ``message`` to the relay; any failure raises (the outbox tries again)."""
        client: smtplib.SMTP
        if self.tls:
            client = smtplib.SMTP_SSL(
                self.host, self.port, timeout=SMTP_TIMEOUT, context=ssl.create_default_context()
            )
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=SMTP_TIMEOUT)
        with client:
            if self.starttls:
                client.starttls(context=ssl.create_default_context())
            if self.user is not None:
                client.login(self.user, self.password or "")
            client.send_message(message)
