"""What a socket does while Redis cannot be reached (a restart, a network blip).

Redis carries the sockets' shared state (limits per user, presence, the channel
layers), PostgreSQL the games. While Redis is gone nothing a player did is lost
and no socket breaks: a socket being opened is turned away with
``CLOSE_UNAVAILABLE`` (the page opens it again by itself); an open one stays open
and answers a frame it cannot serve with a clear error that changed nothing
(the consumers catch ``REDIS_DOWN``); a closing one skips its bookkeeping, which
expires by itself. A change already committed is never reported as failed
because its event could not be sent (``core.outbox``). When a channel layer is
connected again, what was missed meanwhile is made good (``on_reconnect``): each
process reads its open tables afresh (``tables.relay``) and checks its signed-in
sockets against the database (``accounts.sockets``).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import redis
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from django.utils.translation import gettext_lazy as _

log = logging.getLogger(__name__)

#: what Redis being unreachable raises, from redis-py (directly, or inside ``limits`` and channels_redis)
REDIS_DOWN: tuple[type[Exception], ...] = (redis.RedisError,)

#: RFC 6455 "try again later"
CLOSE_UNAVAILABLE = 1013

#: the error frame's message for a frame refused because Redis is gone (its code: "unavailable")
UNAVAILABLE = _("The server is briefly unavailable: try again in a moment.")


class OutageSafeMixin:
    """For a consumer: an outage while a socket opens or closes is neither a crash nor a traceback."""

    if TYPE_CHECKING:  # the consumer's own, from channels' AsyncWebsocketConsumer

        async def close(self, code: int | bool | None = None, reason: str | None = None) -> None: ...

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]  # the consumer's, after this mixin
        except REDIS_DOWN as exc:
            # the layer could not give the socket its channel, before any handler ran: refuse the handshake
            log.warning("%s: socket turned away, Redis unreachable (%s)", type(self).__name__, exc)
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_connect(message)  # type: ignore[misc]  # the consumer's, after this mixin
        except REDIS_DOWN as exc:
            log.warning("%s: socket turned away, Redis unreachable (%s)", type(self).__name__, exc)
            await self.close(code=CLOSE_UNAVAILABLE)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_disconnect(message)  # type: ignore[misc]  # the consumer's, after this mixin
        except REDIS_DOWN as exc:
            # its place in the groups, the cap and presence expires on its own
            log.warning("%s: socket closed without its bookkeeping, Redis unreachable (%s)", type(self).__name__, exc)
            raise StopConsumer() from None


async def tolerate(step: Awaitable[Any], what: str) -> None:
    """Await a step of a closing socket's Redis bookkeeping; if Redis is gone, log it and go on to the next."""
    try:
        await step
    except REDIS_DOWN as exc:
        log.warning("%s skipped, Redis unreachable (%s)", what, exc)


class _Reconnects:
    """The callbacks of one channel layer on one event loop, run each time its pub/sub connection comes back.

    redis-py subscribes a pub/sub connection again when it reconnects, then calls the
    connection's callbacks in the order they were registered: this hook runs after the
    subscriptions are renewed, so what a callback reads then misses nothing sent from
    then on. (channels_redis 4.3 takes an ``on_reconnect`` argument but never calls it,
    hence the connection's own hook.)
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.callbacks: list[Callable[[], Awaitable[None]]] = []
        self.tasks: set[asyncio.Task] = set()  # held until done (the loop keeps only weak references)

    def on_connect(self, connection: Any) -> None:
        for callback in self.callbacks:
            task = self.loop.create_task(self._run(callback))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    @staticmethod
    async def _run(callback: Callable[[], Awaitable[None]]) -> None:
        try:
            await callback()
        except Exception:
            log.exception("after a reconnect: %r failed", callback)


#: per event loop, per channel layer alias; the connections hold the hooks weakly
_RECONNECTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Reconnects]] = weakref.WeakKeyDictionary()


def on_reconnect(alias: str, callback: Callable[[], Awaitable[None]]) -> None:
    """Run ``callback`` on this event loop whenever the channel layer ``alias`` is connected to Redis again.

    Call it once this process holds a subscription on the layer (a socket's channel, a
    group joined); calling it again costs a look at the connection and adds nothing.
    """
    loop = asyncio.get_running_loop()
    hooks = _RECONNECTS.setdefault(loop, {})
    hook = hooks.get(alias)
    if hook is None:
        hook = hooks[alias] = _Reconnects(loop)
    if callback not in hook.callbacks:
        hook.callbacks.append(callback)
    for shard in getattr(get_channel_layer(alias), "_shards", ()):
        connection = getattr(getattr(shard, "_pubsub", None), "connection", None)
        if connection is not None:
            connection.register_connect_callback(hook.on_connect)  # once: a second registration is ignored


def redis_seen_down() -> bool:
    """Whether this process knows Redis is gone, without asking it: a pub/sub connection of one of its channel
    layers (they read their sockets all the time, so a dropped connection is seen at once) is down until it
    connects again. A frame a socket serves without Redis (the frame budget counted in the process,
    ``core.throttle``) is refused then, as one that asked Redis would be."""
    for alias in _LAYERS:
        for shard in getattr(get_channel_layer(alias), "_shards", ()):
            connection = getattr(getattr(shard, "_pubsub", None), "connection", None)
            if connection is not None and not connection.is_connected:
                return True
    return False


#: the channel layers whose connections tell that Redis is gone (``redis_seen_down``)
_LAYERS = ("default", "tables")
