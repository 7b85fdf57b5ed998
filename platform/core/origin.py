"""WebSocket origin check: a socket is accepted only from the site's own origins.

Channels' ``AllowedHostsOriginValidator`` compares host names only, so a page
on another port of the same host (``http://127.0.0.1:9999``) could open
sockets with the player's cookies. Here scheme, host and port must all match
the origin the browser reached the site at (the Host header and the socket's
scheme), or one of ``CSRF_TRUSTED_ORIGINS`` (a proxy terminating TLS).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import SplitResult, urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import validate_host

from core.proxy import ASGIApp

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_tuple(parts: SplitResult) -> tuple[str, str, int] | None:
    try:
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def site_origin(scope: dict) -> tuple[str, str, int] | None:
    """The origin this socket was opened at: http(s) by its scheme, and its Host header."""
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    host = next((value for name, value in scope.get("headers", []) if name == b"host"), None)
    if host is None:
        server = scope.get("server")
        host = f"{server[0]}:{server[1]}".encode() if server else b"testserver"
    try:
        return _origin_tuple(urlsplit(f"{scheme}://{host.decode('ascii')}"))
    except (UnicodeDecodeError, ValueError):
        return None


def origin_allowed(scope: dict) -> bool:
    raw = next((value for name, value in scope.get("headers", []) if name == b"origin"), None)
    if raw is None:
        return False
    try:
        origin = _origin_tuple(urlsplit(raw.decode("ascii")))
    except (UnicodeDecodeError, ValueError):
        return False
    if origin is None:
        return False
    trusted = {_origin_tuple(urlsplit(o)) for o in settings.CSRF_TRUSTED_ORIGINS}
    if origin in trusted:
        return True
    host = f"[{origin[1]}]" if ":" in origin[1] else origin[1]  # an IPv6 address, as ALLOWED_HOSTS spells it
    return origin == site_origin(scope) and validate_host(host, settings.ALLOWED_HOSTS)


class SameOriginValidator:
    def __init__(self, application: ASGIApp) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
