"""Access logs without secrets: the unsubscribe link's signature and the one-time links'
secrets (``/join/<secret>``, ``/signin/<secret>``) never reach a log line.

The one-click unsubscribe link (``/v1/unsubscribe/<player>.<signature>``, RFC 8058)
must carry its secret in the URL: a mail client ``POST``s to that URL with nothing
else. The servers' access lines show it as ``/v1/unsubscribe/<player>.[redacted]``, in
the request line, the path, the query and the ``Referer``: ``run``'s (werkzeug's lines)
and ``serve``'s (gunicorn writes no access line unless one adds ``accesslog``; its
``logger_class``, ``gunicorn_app.RedactingLogger``, redacts them). A proxy in front logs
on its own: docs/server.md shows nginx's redaction.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

#: The unsubscribe route's secret segment (the player id before its dot stays).
_UNSUBSCRIBE = re.compile(r"(/v1/+unsubscribe/+)([a-z0-9]{1,32}\.)?[^/?#\s\"]*", re.I)
#: The one-time links' secret segment (an invitation, a sign-in): all of it.
_LINKS = re.compile(r"(/+(?:join|signin)/+)(?!\[redacted\])[^/?#\s\"]+", re.I)
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with any unsubscribe secret in it replaced, however it was %-encoded.

    >>> redact("POST /v1/unsubscribe/p1a2.0123abcd HTTP/1.1")
    'POST /v1/unsubscribe/p1a2.[redacted] HTTP/1.1'
    >>> redact("GET /v1%2Funsubscribe/p1a2%2E0123abcd?x=1 HTTP/1.1")
    'GET /v1/unsubscribe/p1a2.[redacted]?x=1 HTTP/1.1'
    >>> redact("GET /v1/games/g1 HTTP/1.1")
    'GET /v1/games/g1 HTTP/1.1'
    >>> redact("POST /join/Zm9vYmFy-_1/refuse HTTP/1.1"), redact("GET /signin/abc HTTP/1.1")
    ('POST /join/[redacted]/refuse HTTP/1.1', 'GET /signin/[redacted] HTTP/1.1')
    >>> redact("POST /signin HTTP/1.1")
    'POST /signin HTTP/1.1'
    """
    lowered = text.lower()
    if "unsubscribe" not in lowered and "join" not in lowered and "signin" not in lowered:
        return text
    decoded = unquote(text)
    if _UNSUBSCRIBE.search(decoded) is None and _LINKS.search(decoded) is None:
        return text
    decoded = _UNSUBSCRIBE.sub(lambda m: m.group(1) + (m.group(2) or "") + REDACTED, decoded)
    return _LINKS.sub(lambda m: m.group(1) + REDACTED, decoded)
