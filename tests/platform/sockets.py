"""A page's socket opened in this process (Channels' communicator), as a signed-in user or a visitor."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from measure.sessions import session_cookie_for


async def connect(path: str, user=None, timeout: float = 1) -> WebsocketCommunicator:
    """The socket at ``path``, from the site's own origin, accepted (asserted)."""
    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        headers.append((b"cookie", (await sync_to_async(session_cookie_for)(user)).encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect(timeout=timeout)
    assert connected
    return comm


async def table_page(table, user, lang: str) -> WebsocketCommunicator:
    """``user``'s socket of ``table``'s page read in ``lang`` (his browser's Accept-Language), its first state read."""
    cookie = (await sync_to_async(session_cookie_for)(user)).encode()
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie), (b"accept-language", lang.encode())]
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await comm.receive_from(timeout=5)
    return comm
