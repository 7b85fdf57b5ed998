"""Channel-layer group sends of a service, made by the socket that called it once its thread returns.

Services tell sockets about a change after their transaction commits
(``transaction.on_commit`` calling ``group_send``). Called from a socket's
event loop on a worker thread (``outbox.run``), those sends are collected and
made from the event loop when the thread is done: there all of them are one
Redis round trip (on the platform's layers, their PUBLISHes written together
on a kept connection, ``core.redis_client.Publisher``), while ``async_to_sync``
from the worker thread hops to the event loop and back
with the thread waiting (measured under the HTML load test at 100
tables: 9 ms at the median and 60 ms at p99 of every move, all of it on the way
to the other seats). Anywhere else (a Celery task, a view, a shell) a send is
made at once. On the platform's layers (Redis pub/sub on one Redis) that is
the PUBLISH the layer would make, from this thread on the process's Redis
client: ``async_to_sync`` would hop to the web process's event loop and back,
and in a Celery task or a shell (no loop running) make an event loop, and the
layer a Redis connection, for each send. Either way nothing is sent before the
commit.

Other Redis commands of such a service whose replies only say Redis took them (a turn's deadline, ``redis_send``)
go in the same round trip, so its thread does not wait for one of its own.

A send that fails (Redis unreachable) is logged and never fails the change that
committed before it: a view answers as usual, a task does not retry what it did,
and a socket is told by ``Undelivered`` so it can refresh its own pages
(``core.outage``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import get_channel_layer
from django.conf import settings

from core.redis_client import publisher_at, redis_at
from core.sockets import database_sync_to_async

log = logging.getLogger(__name__)

T = TypeVar("T")

Send = tuple[str, str, dict[str, Any]]  # (channel layer alias, group, event)
#: commands for a Redis, written with the sends: (its URL, the commands, what to do if they fail)
Commands = tuple[str, list[tuple[Any, ...]], Callable[[BaseException], None]]


class _Box(list[Send]):
    """A socket's collected sends, and the Redis commands to write in their round trip (``redis_send``)."""

    def __init__(self) -> None:
        super().__init__()
        self.commands: list[Commands] = []


#: per channel layer alias, what the event loop does to each event of a socket's service just before sending it
#: (``on_send``)
_PREPARE: dict[str, Callable[[str, dict[str, Any]], None]] = {}

#: the sends collected for the socket whose thread is running (the list is shared with the thread's context copy)
_OUTBOX: ContextVar[_Box | None] = ContextVar("outbox", default=None)


def group_send(group: str, event: dict[str, Any], alias: str = DEFAULT_CHANNEL_LAYER) -> None:
    """Send ``event`` to ``group`` of the channel layer ``alias``: now, or when the socket's thread that is
    running this returns."""
    box = _OUTBOX.get()
    if box is not None:
        box.append((alias, group, event))
        return
    layer = get_channel_layer(alias)
    if layer is not None:
        try:
            published = _published(layer, alias, group, event)
            if not published:
                async_to_sync(layer.group_send)(group, event)
        except Exception as exc:  # committed: the change stands, only its notice is lost
            _lost(group, event, exc)


def redis_send(url: str, commands: list[tuple[Any, ...]], failed: Callable[[BaseException], None]) -> bool:
    """Have ``commands``, whose replies only say Redis took them, written to the Redis at ``url`` from the event loop
    with the sends of the socket whose thread is running this, in their round trip when it is the same Redis: True.
    ``failed(exc)`` is called there if they could not be. False: no socket's thread runs this; the caller sends them.
    """
    box = _OUTBOX.get()
    if box is None:
        return False
    box.commands.append((url, commands, failed))
    return True


#: the layer whose group send is one PUBLISH to one Redis (channels_redis' ``RedisPubSubLoopLayer.group_send``)
PUBSUB = "channels_redis.pubsub.RedisPubSubChannelLayer"


def _pubsub(alias: str) -> tuple[str, str] | None:
    """(Redis URL, prefix) of a layer that is one Redis's pub/sub, else None."""
    layers: dict[str, Any] = settings.CHANNEL_LAYERS
    config: dict[str, Any] = layers.get(alias) or {}
    hosts = config.get("CONFIG", {}).get("hosts") or []
    if config.get("BACKEND") != PUBSUB or len(hosts) != 1 or not isinstance(hosts[0], str):
        return None
    return hosts[0], config["CONFIG"].get("prefix", "asgi")


def _channel(prefix: str, group: str) -> str:
    """The group's channel on a pub/sub layer (``RedisPubSubLoopLayer._get_group_channel_name``)."""
    return f"{prefix}__group__{group}"


def _published(layer: Any, alias: str, group: str, event: dict[str, Any]) -> bool:
    """The layer's group send made here, as the layer makes it (the group's channel name, the layer's own
    serializer); False if this layer is not one Redis's pub/sub (its own way then)."""
    target = _pubsub(alias)
    if target is None:
        return False
    redis_at(target[0]).publish(_channel(target[1], group), layer.serialize(event))
    return True


def on_send(alias: str, prepare: Callable[[str, dict[str, Any]], None]) -> None:
    """Have ``prepare(group, event)`` called on the event loop for each event a socket's service sends on
    ``alias``, before it is sent: it may add to the event what every receiver would otherwise make alike.
    Its failure is logged and the event sent as it was."""
    _PREPARE[alias] = prepare


class Undelivered(Exception):
    """The service ran and committed, but some of its events could not be sent (``run``)."""

    def __init__(self, result: Any, groups: list[str]) -> None:
        super().__init__(f"events not sent to {', '.join(groups)}")
        self.result, self.groups = result, groups


def _lost(group: str, event: dict[str, Any], exc: BaseException) -> None:
    log.warning("%s event to %s not sent (%s): its pages catch up on the next one", event.get("type"), group, exc)


#: each service's hop to a thread, made once: a ``SyncToAsync`` is set up (6-8 us of CPU, in a shell) to be called any
#: number of times, from any task (callers pass a few module functions; anything else is not kept long)
_hop: Callable[[Callable[..., Any]], Callable[..., Any]] = functools.lru_cache(maxsize=64)(database_sync_to_async)


async def run(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``func`` on a worker thread with its own database connection; its group sends made from here after.

    They are made whether ``func`` returns or raises: a send is only ever collected
    once its transaction committed. Each group gets its events in order; groups are
    sent to at once (a move's table event does not wait behind its "your turn").
    Raises ``Undelivered`` (with ``func``'s result) when ``func`` returned but a send failed.
    """
    box = _Box()
    token = _OUTBOX.set(box)
    try:
        result = await _hop(func)(*args, **kwargs)
    finally:
        _OUTBOX.reset(token)
        lost = await _send_all(box) if box or box.commands else []
    if lost:
        raise Undelivered(result, lost)
    return result


async def _send_all(box: _Box) -> list[str]:
    """Make the collected sends and write the commands; the groups some event could not be sent to."""
    targets = {alias: _pubsub(alias) for alias, _group, _event in box}
    urls = {target[0] for target in targets.values() if target is not None} | {url for url, _, _ in box.commands}
    if len(urls) == 1 and all(targets.values()):
        return await _publish_all(box, targets, urls.pop())
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for alias, group, event in box:
        groups.setdefault((alias, group), []).append(event)
    written = asyncio.gather(*(_write(*commands) for commands in box.commands))
    sent = await asyncio.gather(*(_send(alias, group, events) for (alias, group), events in groups.items()))
    await written
    return [group for (_alias, group), ok in zip(groups, sent, strict=True) if not ok]


async def _write(url: str, commands: list[tuple[Any, ...]], failed: Callable[[BaseException], None]) -> None:
    try:
        await publisher_at(url).execute(commands)
    except Exception as exc:
        failed(exc)


async def _publish_all(box: _Box, targets: dict[str, Any], url: str) -> list[str]:
    """Every send as the pub/sub layers would make it, all in one round trip to their one Redis, in order, after
    the collected commands.

    Each through its layer's own ``group_send`` cost a round trip of its own, made one at a time behind
    a lock per layer; a move sends two (its table's event, and "your turn" to the next player)."""
    commands = [command for _url, written, _failed in box.commands for command in written]
    for alias, group, event in box:
        _prepare(alias, group, event)
        commands.append(("PUBLISH", _channel(targets[alias][1], group), get_channel_layer(alias).serialize(event)))
    try:
        await publisher_at(url).execute(commands)
    except Exception as exc:
        for _url, _written, failed in box.commands:
            failed(exc)
        for _alias, group, event in box:
            _lost(group, event, exc)
        return list(dict.fromkeys(group for _alias, group, _event in box))
    return []


def _prepare(alias: str, group: str, event: dict[str, Any]) -> None:
    prepare = _PREPARE.get(alias)
    if prepare is not None:
        try:
            prepare(group, event)
        except Exception:
            log.exception("%s event to %s: preparing it failed; sent as it was", event.get("type"), group)


async def _send(alias: str, group: str, events: list[dict[str, Any]]) -> bool:
    layer = get_channel_layer(alias)
    if layer is None:
        return True
    for event in events:
        _prepare(alias, group, event)
        try:
            await layer.group_send(group, event)
        except Exception as exc:
            _lost(group, event, exc)
            return False  # the group's later events would only arrive out of order
    return True
