"""What the game service refuses: the http error handler turns each into its JSON answer."""

from __future__ import annotations

from typing import Any


class GameNotFound(Exception):
    """There is no game with this id."""


class KeyReused(Exception):
    """An ``Idempotency-Key`` was used before for a different request."""


class Refused(Exception):
    """A request the service turns down (422) with a stable ``code``, a message and details."""

    #: The HTTP status the answer carries.
    status = 422

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


class Forbidden(Refused):
    """A request the caller may not make (403): not theirs to make in this game."""

    status = 403
