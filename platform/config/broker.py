"""kombu's Redis transport, made to survive Redis going away while tasks are reserved.

When the broker connection drops, Celery (5.6+) closes the broken connection,
and closing a channel first puts its unacknowledged messages (our turn timers,
held by the worker until their ETA) back in the queue. By then the connection
is released, so the Redis transport fails building a client with
``AttributeError: 'NoneType' object has no attribute 'hostname'``, an error
Celery does not expect there: the worker logs "Unrecoverable error" and exits
instead of reconnecting. Here that case is a connection error, which Celery
ignores while closing; the messages stay in Redis's unacked set and come back
after the visibility timeout, and the beat sweeper acts on overdue turns long before.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import TRANSPORT_ALIASES
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        if self.connection.client is None:
            raise RedisConnectionError("the broker connection is already closed")
        # private in kombu, so its stubs leave it out
        return super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]


class Transport(kombu_redis.Transport):
    Channel = Channel


def install() -> None:
    """Use this transport for redis://, rediss:// and redis+socket:// broker URLs."""
    for scheme in ("redis", "rediss"):
        TRANSPORT_ALIASES[scheme] = "config.broker:Transport"
