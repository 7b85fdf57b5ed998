"""The process's own Redis client, for what the platform keeps in Redis itself: socket counts and a table's
present players (``core.throttle``, ``tables.presence``), who is online (``social.presence``) and the turns'
deadlines (``tables.deadlines``).

One client, so one connection pool, per process and ``REDIS_URL`` (a test that points the process at a Redis
of its own gets a client for it). Django's cache, the channel layers and Celery connect by themselves.
"""

from __future__ import annotations

import asyncio
import weakref
from functools import lru_cache

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


#: per event loop (an asyncio client belongs to the loop it was made on), the clients by URL
_ASYNC: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, aioredis.Redis]] = weakref.WeakKeyDictionary()


def async_redis_at(url: str) -> aioredis.Redis:
    """The running event loop's asyncio client for the Redis at ``url`` (one pool per loop and URL)."""
    clients = _ASYNC.setdefault(asyncio.get_running_loop(), {})
    client = clients.get(url)
    if client is None:
        client = clients[url] = aioredis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    return client
