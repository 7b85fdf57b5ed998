"""What every socket of the site shares, below the apps that open sockets: close codes and a user's group.

A page's script reads the close code (``static/js/presence.js``, ``tournament.js``): it opens the socket again
unless the code says the user signed out or was banned.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import SyncToAsync
from channels.auth import AuthMiddleware
from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.db import close_old_connections

from core import dbpool

#: the session ended (logout, password change, account gone)
CLOSE_SIGNED_OUT = 4401
#: a moderator banned the user
CLOSE_BANNED = 4403
#: over its owner's cap of open sockets, or kept flooding after being told to slow down
CLOSE_TOO_MANY = 4429


class _SocketDatabaseWork(DatabaseSyncToAsync):
    """Channels' database call, which also marks the connections it leaves sound as having just answered, so the
    pool hands them to the next call without its check (``core.dbpool``)."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        try:
            return SyncToAsync.thread_handler(self, loop, *args, **kwargs)
        finally:
            dbpool.answered()
            close_old_connections()


def database_sync_to_async(func: Callable[..., Any]) -> DatabaseSyncToAsync:
    """``func`` run on a thread of its own, with its database connection handled as Channels does.

    Channels' default runs every socket's database work on one shared thread, so a socket waiting on a
    database round trip holds up all the others; each call here may take its own thread (and connection)
    instead. Nothing that goes through it relies on thread identity.
    """
    return _SocketDatabaseWork(func, thread_sensitive=False)


def user_group(user_id: int) -> str:
    """The channel group every open socket of a user joins, so a logout or a ban can close them all."""
    return f"user-{user_id}"


class LoopDispatchMixin:
    """For a consumer whose every query runs through ``database_sync_to_async``: its messages are handled with no
    hop to Channels' one shared thread.

    Channels' own dispatch hops there to close stale database connections before every message a socket gets
    (each frame, each group event: a presence socket's "your turn" after every move). ``DatabaseSyncToAsync``
    does that on its own thread around each call, and nothing here uses a connection on the event loop.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' session middleware with the socket's own ``send``.

    Channels wraps ``send`` to save a changed session when an HTTP response starts, which a socket never sends;
    its wrapper still looked the lazy session up twice (changed? empty?) for every frame a socket sent: about 1%
    of a web process's time under the HTML load test, and 4% with ten watchers a table. A socket that changes the
    session saves it itself, as it had to before.
    """

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def SocketAuthMiddlewareStack(inner: Any) -> Any:
    """Channels' ``AuthMiddlewareStack`` with ``SocketSessionMiddleware``: the user and session in the scope."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
