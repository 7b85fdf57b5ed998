"""Every socket of a user joins one channel group, so a logout or a ban can close them all.

Consumers use ``UserSocketMixin``: it joins ``user_group(user.pk)``, counts the
socket towards its owner's cap, and handles the ``user.disconnect`` event by
closing with ``CLOSE_SIGNED_OUT`` (or the code the event carries).
``user_sockets_close`` is called from a service, after commit. That event is lost
if Redis is gone when it is sent, so every signed-in socket is checked against the
database again when the channel layer reconnects (``recheck_all``).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import TYPE_CHECKING, Any

from asgiref.sync import sync_to_async
from channels import DEFAULT_CHANNEL_LAYER

from accounts import blocks, standing
from core import outbox
from core.outage import on_reconnect
from core.sockets import CLOSE_BANNED, CLOSE_SIGNED_OUT, CLOSE_TOO_MANY, database_sync_to_async, user_group

log = logging.getLogger(__name__)


def user_sockets_close(user_id: int, code: int = CLOSE_SIGNED_OUT, reason: str = "") -> None:
    """Close every open socket of a user, in every web process (Redis channel layer)."""
    outbox.group_send(user_group(user_id), {"type": "user.disconnect", "code": code, "reason": reason})


def standing_now(scope: dict[str, Any]) -> tuple[int, str] | None:
    """Why a signed-in user's socket must close now (his session ended, his account gone or banned), or None."""
    from accounts.models import User

    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    if session is None or key is None or not session.exists(key):
        return CLOSE_SIGNED_OUT, ""
    if not User.objects.filter(pk=user.pk, is_active=True).exists():
        return CLOSE_SIGNED_OUT, ""
    banned = standing.ban_message(user.pk)
    return (CLOSE_BANNED, banned) if banned else None


#: per event loop, the open sockets of signed-in users (``watch``)
_WATCHED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, weakref.WeakSet] = weakref.WeakKeyDictionary()


def watch(consumer: Any) -> None:
    """Check this socket again when the channel layer is back after Redis was gone (``recheck_all``)."""
    _WATCHED.setdefault(asyncio.get_running_loop(), weakref.WeakSet()).add(consumer)
    on_reconnect(DEFAULT_CHANNEL_LAYER, recheck_all)


def unwatch(consumer: Any) -> None:
    _WATCHED.get(asyncio.get_running_loop(), weakref.WeakSet()).discard(consumer)


async def recheck_all() -> None:
    """The "close your sockets" of a logout or a ban is an event: one sent while Redis was gone never arrived,
    so each signed-in socket of this process asks the database again (``user_recheck``), one at a time."""
    for consumer in list(_WATCHED.get(asyncio.get_running_loop(), ())):
        try:
            await consumer.user_recheck()
        except Exception:
            log.exception("rechecking a socket after a reconnect failed")  # the others are still checked


async def recheck(consumer: Any) -> bool:
    """Close ``consumer`` as a logout or a ban would if its user may no longer hold it; True if it stays."""
    why = await database_sync_to_async(standing_now)(consumer.scope)
    if why is None:
        return True
    code, reason = why
    await consumer.user_disconnect({"type": "user.disconnect", "code": code, "reason": reason})
    return False


async def hidden_senders_load(socket: Any) -> None:
    """Whose chat lines this socket's user does not want to see (the players he blocked)."""
    user = socket.scope.get("user")
    if user is None or not user.is_authenticated:
        socket.hidden_senders = frozenset()
        return
    socket.hidden_senders = await database_sync_to_async(blocks.blocked_ids)(user.pk)


class UserSocketMixin:
    """What every socket of the site does, for a consumer to call from connect / receive / disconnect.

    It counts towards its owner's cap of open sockets (the user, or the address
    for a visitor: ``core.throttle``), joins the owner's group so a logout or a
    ban closes it at once in every process, and draws frames from the owner's
    budget shared by all his sockets.
    """

    client: str
    _counted: bool = False
    _blocked_until: float = 0.0
    # the consumer's own, from channels' AsyncWebsocketConsumer
    scope: dict[str, Any]
    channel_name: str
    channel_layer: Any
    user_group: str

    if TYPE_CHECKING:

        async def close(self, code: int | bool | None = None, reason: str | None = None) -> None: ...

    async def user_socket_open(self) -> bool:
        """Count and group this socket; False (already closed with 4429) when its owner holds too many."""
        from core import throttle

        self.client = throttle.client_key(self.scope)
        if not await sync_to_async(throttle.socket_open, thread_sensitive=False)(self.client, self.channel_name):
            await self.close(code=CLOSE_TOO_MANY)
            return False
        self._counted = True
        throttle.renew_with(self)  # counted as long as it is open, idle or not
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.user_group = user_group(user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
            watch(self)
        return True

    async def user_recheck(self) -> None:
        await recheck(self)

    async def user_blocks(self, event: dict) -> None:
        """His blocks changed: a socket that shows chat reads whom it hides again and tells its page
        (``on_blocks_changed``, set by the chat)."""
        changed = getattr(self, "on_blocks_changed", None)
        if changed is not None:
            await changed(self)

    def renew_into(self, pipe: Any, now: float) -> None:
        """This socket's entries to renew (``core.throttle.renew_with``): its place in its owner's count."""
        from core import throttle

        if self._counted:
            throttle.socket_seen_into(pipe, self.client, self.channel_name, now)

    async def user_frame_allowed(self) -> bool:
        """One frame from the owner's budget across all his sockets and processes; once spent, this socket
        refuses for a second without asking Redis."""
        from core import throttle

        if time.monotonic() < self._blocked_until:
            return False
        if not await throttle.frame_allowed(self.client):
            self._blocked_until = time.monotonic() + 1.0
            return False
        return True

    async def user_socket_close(self) -> None:
        from core import throttle

        unwatch(self)
        throttle.renew_forget(self)
        if hasattr(self, "user_group"):
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
        if self._counted:
            self._counted = False
            await sync_to_async(throttle.socket_closed, thread_sensitive=False)(self.client, self.channel_name)

    async def user_disconnect(self, event: dict) -> None:
        """A logout or a ban, from any process: close (a consumer may say why first)."""
        await self.close(code=event.get("code") or CLOSE_SIGNED_OUT)
