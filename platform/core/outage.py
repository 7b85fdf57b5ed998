"""What a socket does while Redis cannot be reached (a restart, a network blip).

Redis carries the sockets' shared state (limits per user, presence, the channel
layers), PostgreSQL the games. While Redis is gone nothing a player did is lost
and no socket breaks: a socket being opened is turned away with
``CLOSE_UNAVAILABLE`` (the page opens it again by itself); an open one stays open
and answers a frame it cannot serve with a clear error that changed nothing
(the consumers catch ``REDIS_DOWN``); a closing one skips its bookkeeping, which
expires by itself. A change already committed is never reported as failed
because its event could not be sent (``core.outbox``): the pages catch up on the
next event of their table or on a reload.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any

import redis
from channels.exceptions import StopConsumer
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

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]
        except REDIS_DOWN as exc:
            # the layer could not give the socket its channel, before any handler ran: refuse the handshake
            log.warning("%s: socket turned away, Redis unreachable (%s)", type(self).__name__, exc)
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_connect(message)  # type: ignore[misc]
        except REDIS_DOWN as exc:
            log.warning("%s: socket turned away, Redis unreachable (%s)", type(self).__name__, exc)
            await self.close(code=CLOSE_UNAVAILABLE)  # type: ignore[attr-defined]

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_disconnect(message)  # type: ignore[misc]
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
