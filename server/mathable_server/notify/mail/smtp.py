"""The SMTP relay mail goes out through: ``smtp://user:pass@host:port``, ``smtps://...``,
``?starttls=1``; sent with the standard library's ``smtplib``."""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

from mathable_server.notify.worker import ChannelDown

#: Seconds to wait for each answer of the relay once connected.
SMTP_TIMEOUT = 20.0
#: Seconds to wait for a connection and the relay's greeting: a relay that cannot be
#: reached is known soon, and the rows behind this one wait without trying.
CONNECT_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class Relay:
    """Where and how to send.

    >>> relay = Relay.parse("smtp://u:p%40ss@mail.example:2525?starttls=1")
    >>> relay.host, relay.port, relay.user, relay.password, relay.tls, relay.starttls
    ('mail.example', 2525, 'u', 'p@ss', False, True)
    >>> Relay.parse("smtps://mail.example").port
    465
    """

    host: str
    port: int
    user: str | None
    password: str | None
    tls: bool
    starttls: bool
    connect_timeout: float = CONNECT_TIMEOUT
    timeout: float = SMTP_TIMEOUT

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
        """Hand ``message`` to the relay; any failure raises (the outbox tries again).

        ChannelDown when the relay cannot be reached, goes away or stops
        answering (no connection, no greeting in ``connect_timeout``, the
        connection dropped, 421): the trouble is the relay's, not this mail's.
        """
        try:
            client = self._connect()
        except smtplib.SMTPResponseException as err:
            raise ChannelDown(f"the relay refused the connection: {err.smtp_code}") from err
        except (smtplib.SMTPServerDisconnected, OSError) as err:
            raise ChannelDown(f"cannot reach the relay: {type(err).__name__}: {err}") from err
        try:
            try:
                if self.starttls:
                    client.starttls(context=ssl.create_default_context())
                if self.user is not None:
                    client.login(self.user, self.password or "")
                client.send_message(message)
            finally:
                _quit(client)
        except smtplib.SMTPResponseException as err:
            if err.smtp_code == 421:  # service not available: the relay is closing
                raise ChannelDown(f"the relay is closing: {err}") from err
            raise
        except smtplib.SMTPServerDisconnected as err:
            raise ChannelDown(f"the relay went away: {err}") from err
        except smtplib.SMTPException:
            raise
        except OSError as err:  # a reset or a silent relay (timeout)
            raise ChannelDown(f"the relay went away: {type(err).__name__}: {err}") from err

    def _connect(self) -> smtplib.SMTP:
        """A connected client (greeted) within ``connect_timeout``, then ``timeout`` per answer."""
        # The constructors connect and read the greeting (SMTPConnectError if it is not 220).
        client: smtplib.SMTP
        if self.tls:
            client = smtplib.SMTP_SSL(
                self.host,
                self.port,
                timeout=self.connect_timeout,
                context=ssl.create_default_context(),
            )
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=self.connect_timeout)
        client.timeout = self.timeout
        if client.sock is not None:
            client.sock.settimeout(self.timeout)
        return client


def _quit(client: smtplib.SMTP) -> None:
    """Say goodbye and close, whatever the relay answers: once it has taken the mail, a
    bad answer to QUIT must not make the mail count as failed (it would go twice)."""
    try:
        client.quit()
    except (smtplib.SMTPException, OSError):
        client.close()
