"""The Redis cache, kept out of the way of every request while Redis cannot be reached.

Sessions (``cached_db``), moderation standings and the per-user limits of chat,
social actions and allauth's logins all go through this cache. Django's own
Redis cache raises when Redis is gone, so a Redis restart would answer every
signed-in page with a 500. Here a failed call is logged and answered as if the
cache were empty: sessions and standings are read from PostgreSQL (where they
live), and the limits counted here let the request through until Redis is back
(fail open: the sockets' own per-socket limits still hold). After a failure the
cache is not asked again for ``PAUSE`` seconds, so a Redis host that stopped
answering (no refusal, only timeouts) costs a request one timeout, not one per
cache call.

A write that failed may have left an older value behind (a session since
changed or ended, a standing since a ban): its key is remembered and deleted
first thing when Redis answers again, so a logout or a ban made during the
outage holds once Redis is back, even a Redis that kept its data. Django makes
one cache object per thread; what they know of Redis is kept per process.

Django's Redis client opens a connection pool per cache object, and each request and socket call runs in a context
of its own, so every request opened a new connection to Redis (a TCP connect and its handshake, the largest
share of a small request's Redis time). Here the pools are the process's, shared by every cache object.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import redis
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

from core.outage import REDIS_DOWN

log = logging.getLogger(__name__)

#: seconds without asking Redis after a call failed
PAUSE = 1.0
#: keys to delete once Redis is back; past this many the oldest are given up (and logged)
MAX_UNSURE = 10_000

T = TypeVar("T")
Key = tuple[Any, int | None]  # (key, version) as the caller gave them


class _Health:
    """What every thread's instance of one cache knows of Redis (Django makes a cache object per thread)."""

    def __init__(self) -> None:
        self.down_until = 0.0
        self.unsure: dict[Key, None] = {}  # insertion-ordered set
        self.lock = threading.Lock()


#: per cache location and key prefix, shared by the threads of this process
_HEALTH: dict[tuple[Any, ...], _Health] = {}
_HEALTH_LOCK = threading.Lock()


#: the process's connection pools and their clients, per server and options (redis-py's pools are thread-safe and
#: start afresh in a forked child)
_POOLS: dict[tuple[Any, ...], Any] = {}
_POOLS_LOCK = threading.Lock()


class SharedPoolClient(RedisCacheClient):
    """Django's client, its pools (and a client on each) the process's instead of its own."""

    def _shared(self, write: bool) -> Any:
        django: Any = self  # the stubs declare none of Django's private fields
        index = django._get_connection_pool_index(write)
        server, options = django._servers[index], django._pool_options
        key = (server, tuple(sorted(options.items(), key=lambda item: item[0])))
        found = _POOLS.get(key)
        if found is None:
            with _POOLS_LOCK:
                found = _POOLS.get(key)
                if found is None:
                    pool = django._pool_class.from_url(server, **options)
                    found = _POOLS[key] = django._client(connection_pool=pool)
        return found

    def _get_connection_pool(self, write: bool) -> Any:
        return self._shared(write).connection_pool

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        return self._shared(write)


class ResilientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedPoolClient
        with _HEALTH_LOCK:
            self._health = _HEALTH.setdefault((server, self.key_prefix), _Health())

    def _call(
        self, name: str, call: Callable[[], T], fallback: T, unsure: Iterable[Key] = (), *, strict: bool = False
    ) -> T:
        health = self._health
        if time.monotonic() >= health.down_until:
            try:
                if health.unsure:
                    self._forget_unsure()
                return call()
            except REDIS_DOWN as exc:
                log.warning("cache %s failed, answering as if empty for %.0f s (%s)", name, PAUSE, exc)
                health.down_until = time.monotonic() + PAUSE
                if strict:
                    raise
        elif strict:
            raise redis.ConnectionError("the cache's Redis failed a moment ago")
        with health.lock:
            for key in unsure:
                health.unsure[key] = None
            while len(health.unsure) > MAX_UNSURE:
                log.error("cache key %r may keep a stale value: too many writes failed", next(iter(health.unsure)))
                del health.unsure[next(iter(health.unsure))]
        return fallback

    def _forget_unsure(self) -> None:
        health = self._health
        with health.lock:
            keys, health.unsure = list(health.unsure), {}
        by_version: dict[int | None, list[Any]] = {}
        for key, version in keys:
            by_version.setdefault(version, []).append(key)
        try:
            for version, names in by_version.items():  # one round trip a version (nearly always one)
                RedisCache.delete_many(self, names, version)
        except REDIS_DOWN:
            with health.lock:
                health.unsure = {**dict.fromkeys(keys), **health.unsure}
            raise
        log.warning("cache: %d key(s) written during the outage deleted", len(keys))

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        # as if stored: a lock or a first hit goes ahead
        return self._call("add", lambda: RedisCache.add(self, key, value, timeout, version), True)

    def add_or_raise(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        """``add`` for a lock that must not be taken on faith (``lock_add``): raises ``REDIS_DOWN`` while Redis
        cannot be reached, without asking it again within ``PAUSE`` of a failure."""
        call = lambda: RedisCache.add(self, key, value, timeout, version)  # noqa: E731
        return self._call("add", call, False, strict=True)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._call("get", lambda: RedisCache.get(self, key, default, version), default)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        call = lambda: RedisCache.set(self, key, value, timeout, version)  # noqa: E731
        self._call("set", call, None, [(key, version)])

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._call("touch", lambda: RedisCache.touch(self, key, timeout, version), False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._call("delete", lambda: RedisCache.delete(self, key, version), False, [(key, version)])

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._call("get_many", lambda: RedisCache.get_many(self, keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._call("has_key", lambda: RedisCache.has_key(self, key, version), False)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # as if counting from nothing: a limit lets it through
        return self._call("incr", lambda: RedisCache.incr(self, key, delta, version), delta)

    def set_many(self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        call = lambda: RedisCache.set_many(self, data, timeout, version)  # noqa: E731
        return self._call("set_many", call, list(data), [(key, version) for key in data])

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        keys = list(keys)
        call = lambda: RedisCache.delete_many(self, keys, version)  # noqa: E731
        self._call("delete_many", call, None, [(key, version) for key in keys])


def lock_add(key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, alias: str = "default") -> bool:
    """Take a lock in the cache (``add``), or raise ``REDIS_DOWN`` while Redis cannot be reached.

    The cache's own ``add`` answers "stored" then, so a first hit of a limit goes ahead; a lock that bounds work
    (one scan queued however often it is asked for) would let every caller through, and must be refused instead.
    """
    cache = caches[alias]
    if isinstance(cache, ResilientRedisCache):
        return cache.add_or_raise(key, value, timeout)
    return cache.add(key, value, timeout)
