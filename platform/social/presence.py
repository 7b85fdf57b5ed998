"""Who is online, kept in Redis so every web process sees every tab.

Each open tab holds one presence socket. Per user, a sorted set maps the
socket's channel name to the moment it stops counting (now + ``PRESENCE_TTL``); the
tab refreshes it with a heartbeat (``heartbeat()`` seconds), and a closing
socket removes itself. A user is online while any of his sockets has not
expired, so a crashed web process (whose sockets never say goodbye) lets its
users go offline within ``PRESENCE_TTL`` seconds. A hash beside it says where each tab is.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Any

import redis
from asgiref.sync import sync_to_async
from django.conf import settings

from core.outage import tolerate
from core.redis_client import redis_client

log = logging.getLogger(__name__)

PREFIX = f"{settings.REDIS_PREFIX}:presence"


def _conns(user_id: int) -> str:
    return f"{PREFIX}:conns:{user_id}"


def _where(user_id: int) -> str:
    return f"{PREFIX}:where:{user_id}"


def _left(user_id: int) -> str:
    return f"{PREFIX}:left:{user_id}"


def ttl() -> int:
    """Seconds a socket counts past its last heartbeat (``settings.PRESENCE_TTL``)."""
    return settings.PRESENCE_TTL


def heartbeat() -> int:
    """Seconds between a page's heartbeats: well inside the TTL."""
    return max(1, min(20, ttl() // 2))


def presence_touch(user_id: int, channel: str, where: str = "") -> None:
    """A socket of ``user_id`` is alive (it opened, or Redis came back), at ``where``."""
    pipe = redis_client().pipeline()
    _touch_into(pipe, user_id, channel, where, time.time(), ttl())
    pipe.execute()


def _touch_into(pipe: Any, user_id: int, channel: str, where: str, now: float, seconds: int) -> None:
    pipe.zadd(_conns(user_id), {channel: now + seconds})
    pipe.zremrangebyscore(_conns(user_id), "-inf", now)  # tabs of a dead process
    pipe.hset(_where(user_id), channel, where)
    pipe.delete(_left(user_id))
    pipe.expire(_conns(user_id), seconds)
    pipe.expire(_where(user_id), seconds)


#: heartbeats a process hears within this long of the first are written to Redis together
HEARD_SECONDS = 0.5


class _Heard:
    """One event loop's heartbeats: those waiting to be written, those being written, and the task writing."""

    __slots__ = ("pending", "task", "writing")

    def __init__(self) -> None:
        self.pending: dict[tuple[int, str], str] = {}
        self.writing: dict[tuple[int, str], str] = {}
        self.task: asyncio.Task | None = None


_HEARD: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Heard] = weakref.WeakKeyDictionary()


def presence_heard(user_id: int, channel: str, where: str) -> None:
    """A tab's heartbeat (called on the event loop): written with every other one this process hears within
    ``HEARD_SECONDS``, in one pipeline from one thread. One thread hop and round trip each had made the
    heartbeats of tabs opened together (every page after a restart) hold a process's moves up: measured under
    the load test, 50 heartbeats falling together stalled the moves of that moment for 30-45 ms."""
    loop = asyncio.get_running_loop()
    heard = _HEARD.get(loop)
    if heard is None:
        heard = _HEARD[loop] = _Heard()
    heard.pending[(user_id, channel)] = where
    if heard.task is None:
        heard.task = loop.create_task(_write_heard(heard))


async def _write_heard(heard: _Heard) -> None:
    try:
        await asyncio.sleep(HEARD_SECONDS)
        heard.writing, heard.pending = heard.pending, {}
        # the tabs are alive whether or not Redis could record it: their next heartbeats record it again
        await tolerate(sync_to_async(_write, thread_sensitive=False)(heard.writing), "heartbeats")
    except Exception:
        log.exception("writing the heartbeats failed")
    finally:
        heard.writing, heard.task = {}, None
        if heard.pending:  # heard while these were written
            heard.task = asyncio.get_running_loop().create_task(_write_heard(heard))


def _write(heard: dict[tuple[int, str], str]) -> None:
    if not heard:
        return
    now, seconds = time.time(), ttl()
    pipe = redis_client().pipeline(transaction=False)
    for (user_id, channel), where in heard.items():
        _touch_into(pipe, user_id, channel, where, now, seconds)
    pipe.execute()


async def presence_heard_settle(user_id: int, channel: str) -> None:
    """Before a socket's ``presence_leave``: its heartbeat not yet written is dropped, one being written is waited
    for (written after the leave, it would show the closed tab online for ``PRESENCE_TTL`` more)."""
    heard = _HEARD.get(asyncio.get_running_loop())
    if heard is None:
        return
    heard.pending.pop((user_id, channel), None)
    if (user_id, channel) in heard.writing and heard.task is not None:
        await asyncio.shield(heard.task)


def presence_leave(user_id: int, channel: str) -> None:
    """A socket closed; when it was the user's last, the moment is kept (``left_since``)."""
    now = time.time()
    pipe = redis_client().pipeline()
    pipe.zrem(_conns(user_id), channel)
    pipe.hdel(_where(user_id), channel)
    pipe.zcount(_conns(user_id), now, "+inf")
    if pipe.execute()[2] == 0:
        redis_client().set(_left(user_id), now, ex=LEFT_KEPT_SECONDS)


#: how long the moment a user closed his last tab is kept
LEFT_KEPT_SECONDS = 3600


def offline_since(user_ids: list[int]) -> dict[int, float | None] | None:
    """For each offline user among ``user_ids``: when he closed his last tab (None: unknown, e.g. his web process
    died); online users are left out. None when Redis cannot tell (then nobody should be treated as gone)."""
    if not user_ids:
        return {}
    now = time.time()
    pipe = redis_client().pipeline()
    for uid in user_ids:
        pipe.zcount(_conns(uid), now, "+inf")
        pipe.get(_left(uid))
    try:
        replies = pipe.execute()
    except redis.RedisError as exc:
        log.warning("presence unknown (%s)", exc)
        return None
    found: dict[int, float | None] = {}
    for i, uid in enumerate(user_ids):
        live, left = replies[2 * i], replies[2 * i + 1]
        if not live:
            found[uid] = float(left) if left is not None else None
    return found


def online_where(user_ids: list[int]) -> dict[int, list[str]]:
    """For each online user among ``user_ids``: where his live tabs are ("" for an ordinary page)."""
    if not user_ids:
        return {}
    now = time.time()
    pipe = redis_client().pipeline()
    for uid in user_ids:
        pipe.zrangebyscore(_conns(uid), now, "+inf")
        pipe.hgetall(_where(uid))
    try:
        replies = pipe.execute()
    except redis.RedisError as exc:  # a page still shows: everyone offline until Redis is back
        log.warning("presence unknown (%s)", exc)
        return {}
    found: dict[int, list[str]] = {}
    for i, uid in enumerate(user_ids):
        live, where = replies[2 * i], replies[2 * i + 1]
        if live:
            found[uid] = sorted({where.get(ch, b"").decode() for ch in live})
    return found


def is_online(user_id: int) -> bool:
    return user_id in online_where([user_id])
