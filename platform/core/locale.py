"""A socket speaks its page's language: the switcher's cookie, else the browser's Accept-Language.

``LocaleMiddleware`` only sees HTTP requests; without this, every fragment a
socket renders (the table's board, chat errors) would come in English into a
Russian page. The language is chosen once, when the socket opens, exactly as
``LocaleMiddleware`` chooses it for the page, and stays active for the
socket's whole life (handlers, and the threads they call through
``database_sync_to_async``, inherit it).
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.utils import translation


class _Headers:
    """The two things ``get_language_from_request`` reads of a request."""

    def __init__(self, scope: dict[str, Any]) -> None:
        headers = {name.lower(): value for name, value in scope.get("headers", [])}
        cookies = scope.get("cookies")
        if cookies is None:
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(headers.get(b"cookie", b"").decode("latin-1"))
            except Exception:  # a malformed Cookie header picks no language, it never closes the socket
                jar = SimpleCookie()
            cookies = {key: morsel.value for key, morsel in jar.items()}
        self.COOKIES = cookies
        self.META = {"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")}
        self.path_info = scope.get("path", "/")


def socket_language(scope: dict[str, Any]) -> str:
    if not settings.USE_I18N:
        return settings.LANGUAGE_CODE
    return translation.get_language_from_request(_Headers(scope))  # type: ignore[arg-type]  # reads only these


class SocketLocaleMiddleware:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        with translation.override(socket_language(scope)):
            return await self.inner(scope, receive, send)
