"""Limits per user (per address for visitors), shared by every socket and web process through Redis.

A socket's own token bucket (``TokenBucket``, kept by the consumer) stops a single socket cheaply;
these stop one person spreading a flood over many sockets or processes: a
budget of frames per user across all his sockets (the ``limits`` library's
fixed windows in Redis), and a cap on how many sockets he may hold open.
Each open socket is a member of a per-user sorted set scored by when it was
last seen, so a socket whose process died stops counting after ``SOCKET_TTL``;
each process renews its own sockets' entries every ``SOCKET_RENEW_SECONDS`` in one
pipeline (``renew_with``), so an idle socket keeps counting as long as it is open.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Any, Protocol

from asgiref.sync import sync_to_async
from django.conf import settings
from limits import parse_many
from limits.aio.strategies import FixedWindowRateLimiter
from limits.storage import storage_from_string

from core.outage import tolerate
from core.redis_client import redis_client

log = logging.getLogger(__name__)


class TokenBucket:
    """One socket's own frame budget, counted in the process: a burst of ``burst`` frames, refilled at
    ``rate`` a second."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, burst: float, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> bool:
        """Spend a frame's token; False (nothing spent) when the budget is used up."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


#: a socket not seen for this long (its process died) no longer counts towards the cap
SOCKET_TTL = 600


def client_key(scope: dict) -> str:
    """Who a socket belongs to: the user, or for a visitor the address daphne saw."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    client = scope.get("client") or ("unknown", 0)
    return f"ip:{client[0]}"


def _storage_url() -> str:
    url = settings.REDIS_URL
    return "redis+unix://" + url[len("unix://") :] if url.startswith("unix://") else url


#: per event loop (a web process has one; tests open many): an asyncio Redis client belongs to its loop
_LIMITERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, FixedWindowRateLimiter] = weakref.WeakKeyDictionary()


async def frame_allowed(key: str) -> bool:
    """One frame of ``key``'s budget across all his sockets; False once it is spent.

    Counted from the socket's event loop with an asyncio Redis client, no hop to a worker
    thread (a hop there and back cost a move 5 ms at the median, 45 ms at p99 under load)."""
    loop = asyncio.get_running_loop()
    limiter = _LIMITERS.get(loop)
    if limiter is None:
        storage = storage_from_string("async+" + _storage_url(), implementation="redispy")
        limiter = _LIMITERS[loop] = FixedWindowRateLimiter(storage)
    # every window counted at once: one round trip's wait, not one per window
    hits = await asyncio.gather(
        *(limiter.hit(item, "frames", key) for item in parse_many(settings.SOCKET_FRAME_LIMITS))
    )
    return all(hits)


def _sockets_key(key: str) -> str:
    return f"cards:sockets:{key}"


def socket_open(key: str, channel: str) -> bool:
    """Count a new socket of ``key``; False (not counted) when he already holds the most allowed."""
    client, now, name = redis_client(), time.time(), _sockets_key(key)
    pipe = client.pipeline()
    pipe.zremrangebyscore(name, 0, now - SOCKET_TTL)
    pipe.zadd(name, {channel: now})
    pipe.expire(name, SOCKET_TTL)
    pipe.zcard(name)
    count = pipe.execute()[-1]
    # counted first, checked after: two sockets racing for the last place cannot both get it
    if count > settings.SOCKETS_PER_USER:
        client.zrem(name, channel)
        return False
    return True


def socket_seen_into(pipe: Any, key: str, channel: str, now: float) -> None:
    """A socket still alive: keep it counted (and the set alive); not one already taken out (closed)."""
    name = _sockets_key(key)
    pipe.zadd(name, {channel: now}, xx=True)
    pipe.expire(name, SOCKET_TTL)


class Renewable(Protocol):
    def renew_into(self, pipe: Any, now: float) -> None:
        """Add the commands that renew this socket's entries to ``pipe``."""


#: per event loop: the sockets whose entries it renews, and the task that does it
_RENEWED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[weakref.WeakSet, asyncio.Task]] = (
    weakref.WeakKeyDictionary()
)


def renew_with(member: Renewable) -> None:
    """Renew ``member``'s entries with the others of this process until ``renew_forget``."""
    loop = asyncio.get_running_loop()
    held = _RENEWED.get(loop)
    if held is None:  # the task runs as long as its loop (it survives any error of a round)
        members: weakref.WeakSet = weakref.WeakSet()
        held = _RENEWED[loop] = (members, loop.create_task(_renew_forever(members)))
    held[0].add(member)


def renew_forget(member: Renewable) -> None:
    held = _RENEWED.get(asyncio.get_running_loop())
    if held is not None:
        held[0].discard(member)


async def _renew_forever(members: weakref.WeakSet) -> None:
    while True:
        await asyncio.sleep(settings.SOCKET_RENEW_SECONDS)
        if not members:
            continue
        try:
            pipe, now = redis_client().pipeline(transaction=False), time.time()
            for member in list(members):
                member.renew_into(pipe, now)
            await tolerate(sync_to_async(pipe.execute, thread_sensitive=False)(), "renewing the open sockets")
        except Exception:
            log.exception("renewing the open sockets failed")  # tried again next time


def socket_closed(key: str, channel: str) -> None:
    redis_client().zrem(_sockets_key(key), channel)
