"""The client's address behind a reverse proxy, believed only from the proxies we run.

daphne's ``--proxy-headers`` takes ``X-Forwarded-For`` from anybody, so a visitor
could name any address and escape every per-address limit. This ASGI
middleware rewrites ``scope["client"]`` (Django's ``REMOTE_ADDR``, the sockets'
limits) from ``X-Forwarded-For`` only when the connection comes from one of
``TRUSTED_PROXIES``; the address taken is the right-most one not itself a
trusted proxy, the one our own proxy saw. With ``TRUSTED_PROXIES`` empty (``make
run``) the header is ignored.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

Networks = list[ipaddress.IPv4Network | ipaddress.IPv6Network]
#: an ASGI application: (scope, receive, send)
ASGIApp = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


def _networks(entries: list[str]) -> Networks:
    return [ipaddress.ip_network(entry, strict=False) for entry in entries]


def _trusted(address: str, networks: Networks) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_address(peer: str, forwarded_for: str, networks: Networks) -> str:
    """The real client: walk X-Forwarded-For from the right while the hops are our proxies."""
    if not networks or not _trusted(peer, networks):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return peer  # a malformed header: keep what we know for sure
        if not _trusted(hop, networks):
            return hop
    return hops[0] if hops else peer


class TrustedProxyMiddleware:
    def __init__(self, application: ASGIApp) -> None:
        self.application = application
        self.networks = _networks(settings.TRUSTED_PROXIES)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self.networks and scope["type"] in ("http", "websocket") and scope.get("client"):
            header = b",".join(v for k, v in scope.get("headers", []) if k == b"x-forwarded-for")
            peer, port = scope["client"][0], scope["client"][1]
            real = client_address(peer, header.decode("latin-1"), self.networks)
            if real != peer:
                scope = {**scope, "client": [real, port]}
        return await self.application(scope, receive, send)
