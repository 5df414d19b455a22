"""Behind a reverse proxy: the real client address, from proxies we were told to trust.

``MATHABLE_TRUSTED_PROXIES`` says which ``X-Forwarded-*`` headers to believe:

- unset, empty, ``0`` or ``off`` (the default): none. Anyone can send the
  header, so believing it would let any client pick the address its limits
  count against.
- a number N: exactly N proxies stand in front of the server (werkzeug's
  ``ProxyFix``): the N-th address from the right of ``X-Forwarded-For`` is the
  client's, and so on for the protocol, host and port.
- addresses or networks, comma-separated (``127.0.0.1, 10.0.0.0/8``): a
  request that comes from one of them has its ``X-Forwarded-For`` read from
  the right, skipping trusted addresses; the first other address is the
  client's. A request from any other address is taken as it came.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


@dataclass(frozen=True)
class TrustedProxies:
    """How many proxies, or which addresses, may tell us the client's address."""

    count: int = 0
    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, text: str) -> TrustedProxies | None:
        """Read ``MATHABLE_TRUSTED_PROXIES``; None when no proxy is trusted.

        >>> TrustedProxies.parse("2")
        TrustedProxies(count=2, networks=())
        >>> TrustedProxies.parse("127.0.0.1, 10.0.0.0/8").networks
        (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'))
        >>> TrustedProxies.parse("off") is None
        True
        """
        text = text.strip()
        if text.lower() in ("", "off", "none"):
            return None
        if text.isdecimal():
            if int(text) > 16:
                raise ValueError("MATHABLE_TRUSTED_PROXIES: at most 16 proxies in a chain")
            return cls(count=int(text)) if int(text) else None
        networks = []
        for part in text.split(","):
            try:
                network = ipaddress.ip_network(part.strip(), strict=False)
            except ValueError:
                raise ValueError(
                    "MATHABLE_TRUSTED_PROXIES must be a number of proxies or addresses and "
                    f"networks separated by commas, not {part.strip()!r}"
                ) from None
            if network.prefixlen == 0:
                raise ValueError(
                    f"MATHABLE_TRUSTED_PROXIES: {part.strip()} would trust every client to "
                    "name its own address; name the proxies' addresses"
                )
            networks.append(network)
        return cls(networks=tuple(networks))

    def trusts(self, address: str | None) -> bool:
        try:
            ip = ipaddress.ip_address(address or "")
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def wrap(self, app: WsgiApp) -> WsgiApp:
        """``app`` seeing the client's address (and scheme) as the trusted proxies tell it."""
        if self.count:
            # Imported here: this module is read by the settings, which the CLI-only
            # install (no werkzeug) loads to say that the server extra is missing.
            from werkzeug.middleware.proxy_fix import ProxyFix

            fixed: WsgiApp = ProxyFix(
                app, x_for=self.count, x_proto=self.count, x_host=self.count, x_port=self.count
            )
            return fixed
        return _ByAddress(app, self)


class _ByAddress:
    def __init__(self, app: WsgiApp, proxies: TrustedProxies) -> None:
        self.app, self.proxies = app, proxies

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        remote = environ.get("REMOTE_ADDR")
        if self.proxies.trusts(remote):
            chain = [a.strip() for a in environ.get("HTTP_X_FORWARDED_FOR", "").split(",")]
            for address in reversed([a for a in chain if a]):
                if not self.proxies.trusts(address):
                    try:
                        ipaddress.ip_address(address)
                    except ValueError:
                        break  # a garbled entry: stop believing the chain here
                    environ["mathable.proxied_from"] = remote
                    environ["REMOTE_ADDR"] = address
                    break
            proto = environ.get("HTTP_X_FORWARDED_PROTO", "").split(",")[-1].strip().lower()
            if proto in ("http", "https"):
                environ["wsgi.url_scheme"] = proto
        return self.app(environ, start_response)
