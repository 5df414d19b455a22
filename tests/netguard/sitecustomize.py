"""Name lookups stay on this machine in the tests: every Python process the tests start
(the live servers, the CLI, pytest's workers) finds this module first on PYTHONPATH
(the root conftest.py puts it there), and pytest's own process loads it too.

``socket.getaddrinfo`` answers for numeric addresses and for ``localhost`` as before;
any other name is refused as a name that does not resolve (``EAI_NONAME``) without
asking a name server, so that a fuzzed webhook or push endpoint (``http://a.example``)
sends no query off the machine. Tests that need a name to resolve patch
``socket.getaddrinfo`` themselves (tests/server/notify/test_webhooks.py).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

_real_getaddrinfo = socket.getaddrinfo


def _local(host: Any) -> bool:
    if host is None:
        return True
    name = host.decode("ascii", "replace") if isinstance(host, bytes) else str(host)
    name = name.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return False
    return True  # a numeric address: no name server is asked


def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if not _local(host):
        raise socket.gaierror(
            socket.EAI_NONAME, f"{host!r}: the tests look up no name beyond this machine"
        )
    return _real_getaddrinfo(host, *args, **kwargs)


if not getattr(socket.getaddrinfo, "mathable_netguard", False):
    getaddrinfo.mathable_netguard = True  # type: ignore[attr-defined]
    socket.getaddrinfo = getaddrinfo
