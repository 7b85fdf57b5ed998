"""The process's own Redis client, for what the platform keeps in Redis itself: socket counts and a table's
present players (``core.throttle``, ``tables.presence``), who is online (``social.presence``) and the turns'
deadlines (``tables.deadlines``).

One client, so one connection pool, per process and ``REDIS_URL`` (a test that points the process at a Redis
of its own gets a client for it). Django's cache, the channel layers and Celery connect by themselves.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings


@lru_cache(maxsize=4)
def _client(url: str) -> redis.Redis:
    # short timeouts: a request or a socket waiting on a Redis that is gone gets its answer (core.outage) soon
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)


def redis_client() -> redis.Redis:
    return _client(settings.REDIS_URL)


def redis_at(url: str) -> redis.Redis:
    """The process's client for the Redis at ``url`` (a channel layer's, nearly always ``REDIS_URL``'s)."""
    return _client(url)


def send_together(client: redis.Redis, commands: Sequence[tuple[Any, ...]]) -> list[Any]:
    """``commands`` written at once on one of ``client``'s pooled connections and their replies read: what its
    pipeline (``transaction=False``) does, without the pipeline object, its command stack, its retry wrapper and
    its replies' callbacks (a turn's deadline, two commands: 78 -> 52 us of CPU, in a shell). The commands must be
    safe to send twice: a failed connection (Redis restarted, a timeout) is dropped and they are sent once more on
    another, as the client itself retries; a second failure raises (``redis.RedisError``)."""
    pool = client.connection_pool
    for attempt in range(2):
        conn = pool.get_connection()  # (connected, with nothing unread: the pool checks)
        try:
            conn.send_packed_command(conn.pack_commands(commands), check_health=False)
            return [conn.read_response() for _ in commands]
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            conn.disconnect()
            if attempt:
                raise
        except BaseException:
            conn.disconnect()  # (an error reply: the replies after it are left unread)
            raise
        finally:
            pool.release(conn)
    raise AssertionError("unreachable")


#: seconds a publisher's whole exchange (connecting, writing every command, reading every reply) may take
PUBLISH_TIMEOUT = 2.0


class Publisher:
    """Kept connections to one Redis for commands written together whose replies only say they were taken (a socket's
    publishes after its move, ``core.outbox``).

    Each use takes an idle connection (or opens one), writes all its commands at once and reads their replies under
    one timeout. The client's pipeline cost several times that for the same round trip: a pipeline object, the
    pool's lock and its check that the connection has nothing unread, its retry wrapper, and a timer per read and a
    task per write (``socket_timeout``): 80-90 us of CPU for a move's two PUBLISHes, 35 us this way (in a shell,
    uvloop). A connection that fails in any way is closed and dropped; one that had sat idle (Redis may have
    restarted meanwhile) is tried once more on a new connection, and only if the failure came before any reply.
    """

    def __init__(self, url: str) -> None:
        # no socket_timeout: the exchange's one timeout bounds it (the connection's own would wrap each write in a task)
        self.pool = aioredis.ConnectionPool.from_url(url, socket_connect_timeout=PUBLISH_TIMEOUT)
        self.idle: list[Any] = []

    async def execute(self, commands: Sequence[tuple[Any, ...]]) -> list[Any]:
        reused = bool(self.idle)
        try:
            return await self._exchange(self.idle.pop() if reused else self.pool.make_connection(), commands)
        except _Unanswered:
            if not reused:
                raise
            return await self._exchange(self.pool.make_connection(), commands)

    async def _exchange(self, conn: Any, commands: Sequence[tuple[Any, ...]]) -> list[Any]:
        replies: list[Any] = []
        try:
            async with asyncio.timeout(PUBLISH_TIMEOUT):
                if not conn.is_connected:
                    await conn.connect()
                await conn.send_packed_command(conn.pack_commands(commands), check_health=False)
                for _ in commands:
                    replies.append(await conn.read_response())
        except BaseException as exc:
            await conn.disconnect(nowait=True)
            # (a timeout is not retried: Redis may have taken the commands, only slowly)
            if not replies and isinstance(exc, (redis.ConnectionError, OSError)) and not isinstance(exc, TimeoutError):
                raise _Unanswered(str(exc)) from exc
            raise
        self.idle.append(conn)
        return replies


class _Unanswered(redis.ConnectionError):
    """A connection failed before Redis answered any of the commands written to it."""


_PUBLISHERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Publisher]] = weakref.WeakKeyDictionary()


def publisher_at(url: str) -> Publisher:
    """The running event loop's publisher to the Redis at ``url`` (its connections belong to the loop)."""
    publishers = _PUBLISHERS.setdefault(asyncio.get_running_loop(), {})
    found = publishers.get(url)
    if found is None:
        found = publishers[url] = Publisher(url)
    return found
