"""Limits per user (per address for visitors), shared by every socket and web process through Redis.

A socket's own token bucket (``TokenBucket``, kept by the consumer) stops a single socket cheaply;
these stop one person spreading a flood over many sockets or processes: a
budget of frames per user across all his sockets (fixed windows, counted in each process and
told to Redis in batches: ``FrameBudget``), and a cap on how many sockets he may hold open.
Each open socket is a member of a per-user sorted set scored by when it was
last seen, so a socket whose process died stops counting after ``SOCKET_TTL``;
each process renews its own sockets' entries every ``SOCKET_RENEW_SECONDS`` in one
pipeline (``renew_with``), so an idle socket keeps counting as long as it is open.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import weakref
from typing import Any, Protocol

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from limits import parse_many
from redis import asyncio as aioredis

from core.outage import redis_seen_down, tolerate
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


#: a process tells Redis of a user's frames in a window in batches of this share of the window's limit (at least
#: two frames, so a frame a second never asks Redis about the per-second window)
BATCH_SHARE = 20

#: per window of ``SOCKET_FRAME_LIMITS``: how many frames, and the batches reported to Redis together with the
#: time the shared window has left (a window starts at its first frame, counted from any process)
_REPORT = """
local out = {}
for i, name in ipairs(KEYS) do
    local count = redis.call('INCRBY', name, ARGV[2 * i - 1])
    local left = redis.call('PTTL', name)
    if left < 0 then
        left = tonumber(ARGV[2 * i])
        redis.call('PEXPIRE', name, left)
    end
    out[i] = {count, left}
end
return out
"""


@functools.lru_cache(maxsize=8)
def frame_windows(spec: str) -> tuple[tuple[int, int, int], ...]:
    """(frames allowed, seconds, batch) of each window of a ``SOCKET_FRAME_LIMITS`` value."""
    return tuple(
        (item.amount, item.get_expiry(), max(min(2, item.amount), item.amount // BATCH_SHARE))
        for item in parse_many(spec)
    )


class _Window:
    __slots__ = ("count", "ends", "reported", "spent")

    def __init__(self, ends: float) -> None:
        self.ends, self.count, self.reported, self.spent = ends, 0, 0, False


class FrameBudget:
    """One process's count of each user's frames against his budget across all his sockets and processes.

    Asking Redis for every frame was one round trip per frame on the event loop. Each window (10 a second,
    240 a minute) is counted here, and a process tells Redis of a user's frames only once it holds a batch of
    them unreported (``frame_windows``: 2 for the second, 12 for the minute), learning the total of every
    process and when the shared window ends. A user whose sockets sit on one process is held to the budget
    exactly; on several, each process may let through at most a batch less one of his frames that Redis has
    not heard of yet: with two processes 12 frames a second and 262 a minute at most, instead of 10 and 240.
    """

    def __init__(self, client: Any) -> None:
        self.client = client
        self.report = client.register_script(_REPORT)
        #: (user key, window seconds) -> his window as this process counts it
        self.windows: dict[tuple[str, int], _Window] = {}
        self.checks = 0

    async def allow(self, key: str) -> bool:
        """One frame of ``key``'s budget; False once a window is spent. Raises ``REDIS_DOWN`` while Redis is
        gone, even for a frame counted here alone: such a frame is refused as "unavailable", as it always was."""
        if redis_seen_down():
            raise redis.ConnectionError("Redis unreachable: a channel layer's connection is down")
        now = time.monotonic()
        self.checks += 1
        if self.checks % 4096 == 0:
            self._forget(now)
        allowed, due = True, []
        for amount, seconds, batch in frame_windows(settings.SOCKET_FRAME_LIMITS):
            window = self.windows.get((key, seconds))
            if window is None or now >= window.ends:
                window = self.windows[key, seconds] = _Window(now + seconds)
            window.count += 1
            if window.spent or window.count > amount:
                allowed = False
            elif window.count - window.reported >= batch:
                due.append((window, amount, seconds, window.count - window.reported))
        if not allowed or not due:
            return allowed
        for window, _, _, frames in due:  # counted as told before the wait: a frame meanwhile does not tell them twice
            window.reported += frames
        names = [f"{settings.REDIS_PREFIX}:frames:{key}:{seconds}" for _, _, seconds, _ in due]
        try:
            replies = await self.report(keys=names, args=[x for d in due for x in (d[3], d[2] * 1000)])
        except BaseException:
            for window, _, _, frames in due:
                window.reported -= frames
            raise
        now = time.monotonic()
        for (window, amount, _, _), (total, left) in zip(due, replies, strict=True):
            window.ends = now + int(left) / 1000  # the shared window's end, the same for every process
            if int(total) > amount:
                window.spent, allowed = True, False
        return allowed

    def _forget(self, now: float) -> None:
        for name in [name for name, window in self.windows.items() if now >= window.ends]:
            del self.windows[name]


#: per event loop (a web process has one; tests open many): an asyncio Redis client belongs to its loop
_BUDGETS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, FrameBudget] = weakref.WeakKeyDictionary()


async def frame_allowed(key: str) -> bool:
    """One frame of ``key``'s budget across all his sockets; False once it is spent (``FrameBudget``).

    Counted on the socket's event loop with an asyncio Redis client, no hop to a worker
    thread (a hop there and back cost a move 5 ms at the median, 45 ms at p99 under load)."""
    loop = asyncio.get_running_loop()
    budget = _BUDGETS.get(loop)
    if budget is None:
        client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
        budget = _BUDGETS[loop] = FrameBudget(client)
    return await budget.allow(key)


def _sockets_key(key: str) -> str:
    return f"{settings.REDIS_PREFIX}:sockets:{key}"


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
