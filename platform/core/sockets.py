"""What every socket of the site shares, below the apps that open sockets: close codes and a user's group.

A page's script reads the close code (``static/js/presence.js``, ``tournament.js``): it opens the socket again
unless the code says the user signed out or was banned.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.db import DatabaseSyncToAsync

#: the session ended (logout, password change, account gone)
CLOSE_SIGNED_OUT = 4401
#: a moderator banned the user
CLOSE_BANNED = 4403
#: over its owner's cap of open sockets, or kept flooding after being told to slow down
CLOSE_TOO_MANY = 4429


def database_sync_to_async(func: Callable[..., Any]) -> DatabaseSyncToAsync:
    """``func`` run on a thread of its own, with its database connection handled as Channels does.

    Channels' default runs every socket's database work on one shared thread, so a socket waiting on a
    database round trip holds up all the others; each call here may take its own thread (and connection)
    instead. Nothing that goes through it relies on thread identity.
    """
    return DatabaseSyncToAsync(func, thread_sensitive=False)


def user_group(user_id: int) -> str:
    """The channel group every open socket of a user joins, so a logout or a ban can close them all."""
    return f"user-{user_id}"
