"""Building the delivery side from the settings: the outbox, its channels, the worker."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from mathable_server.notify.mail.compose import MailContext
from mathable_server.notify.mail.outgoing import MailChannel
from mathable_server.notify.mail.smtp import Relay
from mathable_server.notify.webhooks import WebhookChannel
from mathable_server.notify.worker import Deliverer, Outbox, Sender
from mathable_server.store import Store
from mathable_server.store.addresses import AddressBook


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


@dataclass(frozen=True)
class Mailroom:
    """Everything that tells players things, for one process."""

    settings: MailSettings
    store: Store
    book: AddressBook
    outbox: Outbox
    #: The deployment's secret, read (or made) on first use.
    secret: Callable[[], str]

    def context(self) -> MailContext:
        return MailContext(
            self.settings.sender_address,
            self.settings.mail_domain,
            self.secret(),
            self.settings.public_url,
        )

    def deliverer(self, now: Callable[[], int]) -> Deliverer:
        senders: dict[str, Sender] = {
            "webhook": WebhookChannel(self.store, self.book, self.settings.webhook_allow_private)
        }
        if self.settings.smtp_url:
            relay = Relay.parse(self.settings.smtp_url)
            senders["email"] = MailChannel(
                self.store, self.book, self.context, relay.send, self.settings.mail_pictures
            )
        return Deliverer(self.outbox, senders, now)


def mailroom(settings: MailSettings, store: Store, secret: Callable[[], str]) -> Mailroom:
    box = Outbox(
        store.engine,
        max_attempts=settings.outbox_max_attempts,
        base_delay=settings.outbox_base_delay,
        max_delay=settings.outbox_max_delay,
        lease=settings.outbox_lease,
    )
    return Mailroom(settings, store, AddressBook(store.engine), box, secret)
