"""Access logs without secrets: the unsubscribe link's signature never reaches a log line.

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
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with any unsubscribe secret in it replaced, however it was %-encoded.

    >>> redact("POST /v1/unsubscribe/p1a2.0123abcd HTTP/1.1")
    'POST /v1/unsubscribe/p1a2.[redacted] HTTP/1.1'
    >>> redact("GET /v1%2Funsubscribe/p1a2%2E0123abcd?x=1 HTTP/1.1")
    'GET /v1/unsubscribe/p1a2.[redacted]?x=1 HTTP/1.1'
    >>> redact("GET /v1/games/g1 HTTP/1.1")
    'GET /v1/games/g1 HTTP/1.1'
    """
    if "unsubscribe" not in text.lower():
        return text
    decoded = unquote(text)
    if _UNSUBSCRIBE.search(decoded) is None:
        return text
    return _UNSUBSCRIBE.sub(lambda m: m.group(1) + (m.group(2) or "") + REDACTED, decoded)
