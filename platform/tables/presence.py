"""Which players have a table open right now, across web processes (a Redis sorted set per table).

A table socket of a signed-in user is a member ``<user id>:<channel>`` scored by
when it was last seen; a member whose process died stops counting after ``TTL``.
Read by the sweeper that ends tables only bots are still playing.
"""

from __future__ import annotations

import time
from typing import Any, cast

from django.conf import settings

from core.redis_client import redis_client
from core.throttle import SOCKET_TTL

TTL = SOCKET_TTL


#: two platforms sharing a Redis database (REDIS_PREFIX apart) keep their own
_PREFIX = f"{settings.REDIS_PREFIX}:table-present:"


def _key(table_id: int) -> str:
    return f"{_PREFIX}{table_id}"


def presence_add(table_id: int, user_id: int, channel: str) -> None:
    client, key = redis_client(), _key(table_id)
    pipe = client.pipeline()
    pipe.zadd(key, {f"{user_id}:{channel}": time.time()})
    pipe.expire(key, TTL)
    pipe.execute()


def presence_seen_into(pipe: Any, table_id: int, user_id: int, channel: str, now: float) -> None:
    """Renew an open socket's entry (with every socket of its process: ``core.throttle.renew_with``)."""
    key = _key(table_id)
    pipe.zadd(key, {f"{user_id}:{channel}": now}, xx=True)  # not one taken out since (the socket closed)
    pipe.expire(key, TTL)


def presence_remove(table_id: int, user_id: int, channel: str) -> None:
    redis_client().zrem(_key(table_id), f"{user_id}:{channel}")


def present_users(table_id: int) -> set[int]:
    # redis-py types a reply for its sync and async clients at once (Awaitable | Any)
    members = cast("list[bytes]", redis_client().zrangebyscore(_key(table_id), time.time() - TTL, "+inf"))
    return {int(m.split(b":", 1)[0]) for m in members}
