"""Building the delivery side from the settings: the outbox, its channels, the worker."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

from mathable_server.notify.mail.compose import MailContext
from mathable_server.notify.mail.outgoing import MailChannel
from mathable_server.notify.mail.smtp import Relay
from mathable_server.notify.push import PushChannel, vapid_secret
from mathable_server.notify.webhooks import WebhookChannel, busy_recipients
from mathable_server.notify.worker import BATCH, Deliverer, Lane, Outbox, Sender
from mathable_server.store import Store
from mathable_server.store.email_addresses import EmailAddressRecorder
from mathable_server.store.notification_settings import Breaker, NotificationSettingsRecorder
from mathable_server.store.play_addresses import PlayAddressRecorder

#: The channels of the mail lane: every one but webhooks.
MAIL_CHANNELS = ("email",)


class MailSettings(Protocol):
    """What the delivery side reads of the settings (``mathable_server.http.settings``)."""

    @property
    def sender_address(self) -> str: ...
    @property
    def mail_domain(self) -> str: ...
    @property
    def public_url(self) -> str | None: ...
    @property
    def smtp_url(self) -> str | None: ...
    @property
    def email_enabled(self) -> bool: ...
    @property
    def mail_pictures(self) -> bool: ...
    @property
    def webhook_allow_private(self) -> bool: ...
    @property
    def outbox_max_attempts(self) -> int: ...
    @property
    def outbox_base_delay(self) -> float: ...
    @property
    def outbox_max_delay(self) -> float: ...
    @property
    def outbox_lease(self) -> float: ...
    @property
    def webhook_deadline(self) -> float: ...
    @property
    def webhook_workers(self) -> int: ...
    @property
    def webhook_breaker_failures(self) -> int: ...
    @property
    def webhook_breaker_seconds(self) -> float: ...
    @property
    def webhook_legacy_signature(self) -> bool: ...
    @property
    def signin_mail_limit(self) -> int: ...
    @property
    def push_allow_private(self) -> bool: ...


@dataclass(frozen=True)
class Mailroom:
    """Everything that tells players things, for one process."""

    settings: MailSettings
    store: Store
    outbox: Outbox
    #: The deployment's secret, read (or made) on first use.
    secret: Callable[[], str]
    #: Players' email addresses and their codes.
    email_addresses: EmailAddressRecorder
    #: How each player is told (mail preference, webhook and its breaker).
    notification_settings: NotificationSettingsRecorder
    #: The seats' play addresses.
    play_addresses: PlayAddressRecorder

    def context(self) -> MailContext:
        return MailContext(
            self.settings.sender_address,
            self.settings.mail_domain,
            self.secret(),
            self.settings.public_url,
        )

    def webhooks(self, now: Callable[[], int]) -> WebhookChannel:
        settings = self.settings
        return WebhookChannel(
            self.store,
            settings.webhook_allow_private,
            settings.webhook_deadline,
            breaker=Breaker(
                settings.webhook_breaker_failures,
                settings.webhook_breaker_seconds,
                max(settings.outbox_max_delay, settings.webhook_breaker_seconds),
            ),
            now=now,
            legacy_signature=settings.webhook_legacy_signature,
        )

    def push(self, now: Callable[[], int]) -> PushChannel:
        settings = self.settings
        return PushChannel(
            self.store,
            lambda: vapid_secret(self.store),
            allow_private=settings.push_allow_private,
            public_url=settings.public_url,
            subject=f"mailto:{settings.sender_address}",
            timeout=settings.webhook_deadline,
            breaker=Breaker(
                settings.webhook_breaker_failures,
                settings.webhook_breaker_seconds,
                max(settings.outbox_max_delay, settings.webhook_breaker_seconds),
            ),
            now=now,
        )

    def senders(self, now: Callable[[], int]) -> dict[str, Sender]:
        senders: dict[str, Sender] = {"webhook": self.webhooks(now), "push": self.push(now)}
        if self.settings.smtp_url:
            relay = Relay.parse(self.settings.smtp_url)
            senders["email"] = MailChannel(
                self.store, self.context, relay.send, self.settings.mail_pictures,
                now=now, signin_mail_limit=self.settings.signin_mail_limit,
            )
        return senders

    def deliverer(self, now: Callable[[], int], channels: Collection[str] | None = None,
                  batch: int = BATCH) -> Deliverer:  # fmt: skip
        """A deliverer of ``channels`` (None: every channel, one row after another).

        Rows waiting for a webhook receiver this process is calling are left out of
        its claims until the call is over (``webhooks.busy_recipients``)."""
        skip = {"webhook": busy_recipients}
        return Deliverer(self.outbox, self.senders(now), now, channels, batch, skip)

    def lanes(self, now: Callable[[], int]) -> list[Lane]:
        """Mail in one thread; webhooks in ``webhook_workers`` threads of their own, each
        taking one row at a time: a slow receiver never holds mail, and holds one
        webhook thread for at most the deadline."""
        webhook_threads = max(1, self.settings.webhook_workers)
        return [
            Lane("mail", (self.deliverer(now, MAIL_CHANNELS),)),
            Lane(
                "webhooks",
                tuple(self.deliverer(now, ("webhook",), 1) for _ in range(webhook_threads)),
            ),
            # Pushes: threads of their own, one row at a time, at most CALLS_PER_SERVICE
            # calls at once to one push service: one that hangs holds no mail, no webhook
            # and no other push service.
            Lane(
                "push",
                tuple(self.deliverer(now, ("push",), 1) for _ in range(webhook_threads)),
            ),
        ]


def mailroom(settings: MailSettings, store: Store, secret: Callable[[], str]) -> Mailroom:
    box = Outbox(
        store.engine,
        max_attempts=settings.outbox_max_attempts,
        base_delay=settings.outbox_base_delay,
        max_delay=settings.outbox_max_delay,
        lease=settings.outbox_lease,
    )
    engine = store.engine
    return Mailroom(
        settings,
        store,
        box,
        secret,
        EmailAddressRecorder(engine),
        NotificationSettingsRecorder(engine),
        PlayAddressRecorder(engine),
    )
