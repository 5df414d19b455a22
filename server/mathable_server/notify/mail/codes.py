"""The 6-digit codes that prove an email address, made so that the outbox never holds one.

A code is an HMAC of a random nonce under the server's secret: the outbox row
of the code mail keeps the nonce, and the delivery worker makes the code again
when it writes the mail. What the row shows (``mathable-server outbox``, a
dump of the table) is not the code; whoever holds both the database and the
server's secret (kept in the database unless ``MATHABLE_SECRET_KEY`` is set)
could make it, as they could read the code's SHA-256 and try the million
codes. A code works for an hour and for a few tries only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def new_nonce() -> str:
    return secrets.token_hex(16)


def verification_code(server_secret: str, player_id: str, nonce: str) -> str:
    """The code for ``player_id`` made from ``nonce``: six digits.

    >>> code = verification_code("k", "p1", "00" * 16)
    >>> len(code), code.isdigit(), code == verification_code("k", "p1", "00" * 16)
    (6, True, True)
    >>> code == verification_code("k", "p2", "00" * 16)
    False
    """
    message = f"code:{player_id}:{nonce}".encode()
    digest = hmac.new(server_secret.encode(), message, hashlib.sha256).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 1_000_000:06d}"


def link_secret(server_secret: str, nonce: str) -> str:
    """The secret of a one-time link (an invitation, a sign-in) made from ``nonce``: the
    outbox row of its mail keeps the nonce, never the link; 256 bits, URL-safe.

    >>> secret = link_secret("k", "00" * 16)
    >>> len(secret), secret == link_secret("k", "00" * 16), secret == link_secret("j", "00" * 16)
    (43, True, False)
    """
    digest = hmac.new(server_secret.encode(), f"link:{nonce}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")
