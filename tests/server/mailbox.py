"""A real SMTP relay for the tests: aiosmtpd on a free local port, keeping every mail."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Any

from aiosmtpd.controller import Controller

from tests.server.live import free_port


class _Keep:
    def __init__(self, box: Mailbox) -> None:
        self.box = box

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        message = BytesParser(policy=policy.default).parsebytes(raw)
        assert isinstance(message, EmailMessage)
        with self.box.lock:
            self.box.messages.append(message)
            self.box.envelopes.append(list(envelope.rcpt_tos))
            self.box.times.append(time.time())
        return "250 OK"


class Mailbox:
    """The relay the server sends to; ``stop()`` and ``start()`` take it down and up."""

    def __init__(self) -> None:
        self.port = free_port()
        self.messages: list[EmailMessage] = []
        self.envelopes: list[list[str]] = []
        #: When each mail came (seconds since 1970), beside ``messages``.
        self.times: list[float] = []
        self.lock = threading.RLock()
        self._controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._controller = Controller(_Keep(self), hostname="127.0.0.1", port=self.port)
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]

    def wait_for(
        self, found: Callable[[EmailMessage], bool], timeout: float = 30.0
    ) -> EmailMessage:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for message in self.messages:
                    if found(message):
                        return message
            time.sleep(0.05)
        raise AssertionError("no such mail came")


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    content = part.get_content()
    assert isinstance(content, str)
    return content.replace("\r\n", "\n")
