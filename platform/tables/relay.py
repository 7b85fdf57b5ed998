"""One channel-layer subscription per table per web process, handed on to that process's sockets here.

A table's group events (a move with its delta, a chat line, an announcement)
would otherwise be written to Redis, popped and decoded once per socket: ten
spectators on a table cost ten copies of every move, and a final with five
hundred watchers five hundred. Instead the first socket of a table in this
process opens one channel and joins the table's group with it; a reader task
receives each event once and gives it to every local socket in turn, in the
order the group sent them. The last socket to leave takes the channel out of
the group.

Table events travel on a channel layer of their own (``LAYER``, Redis pub/sub):
a move is one PUBLISH that Redis pushes to every process subscribed to the
table. On channels_redis' core layer each process popped its events one at a time
with a few round trips each, all through one loop per process: under the HTML load
test at 100 tables an event spent 115 ms there at the median and 800 ms at p99.
Pub/sub keeps nothing for a process that is not listening, which costs nothing
here: a process subscribes before its first socket reads the table, and one
that missed a move sees the gap in the next one and reads the table afresh
(``tables.live``).

Each socket still decides what to send from its own seat's view
(``TableConsumer.relay_event``): the event itself is never sent to a browser.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.layers import get_channel_layer

from core import outage, outbox

log = logging.getLogger(__name__)

#: the channel layer alias of table groups (``settings.CHANNEL_LAYERS``)
LAYER = "tables"


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


def table_of(group: str) -> int | None:
    """The table whose group ``group`` is (None: not a table's)."""
    prefix, _, number = group.partition("-")
    return int(number) if prefix == "table" and number.isdecimal() else None


def table_send(table_id: int, event: dict[str, Any]) -> None:
    """Send ``event`` to every socket of the table (from a service: after its commit, ``core.outbox``)."""
    outbox.group_send(group_name(table_id), event, alias=LAYER)


class Member(Protocol):
    #: served before the others (a seated player's page: the table waits on him, not on its watchers)
    relay_first: bool

    async def relay_event(self, event: dict[str, Any]) -> None: ...


@dataclass(eq=False)
class _Group:
    loop: asyncio.AbstractEventLoop
    members: set[Member] = field(default_factory=set)
    channel: str = ""
    #: the channel opened, the group joined and the reader started: every join waits for it
    ready: asyncio.Future | None = None
    reader: asyncio.Task | None = None


#: the groups this process's sockets are in; only touched from the event loop
_GROUPS: dict[str, _Group] = {}


async def join(group: str, member: Member) -> None:
    """Hand ``group``'s events to ``member`` from now on (subscribed when this returns)."""
    layer = get_channel_layer(LAYER)
    loop = asyncio.get_running_loop()
    entry = _GROUPS.get(group)
    opening = entry is None or entry.loop is not loop  # (a new event loop, as in tests: the old one's tasks are gone)
    if opening:
        entry = _GROUPS[group] = _Group(loop)
        entry.ready = asyncio.ensure_future(_open(layer, group, entry))
    assert entry is not None and entry.ready is not None
    entry.members.add(member)
    try:
        await asyncio.shield(entry.ready)
    except Exception:
        entry.members.discard(member)
        if _GROUPS.get(group) is entry:
            del _GROUPS[group]  # the next socket tries again
        raise
    if not opening:
        # a later socket renews the membership, so a table kept open past the layer's group expiry stays in
        await layer.group_add(group, entry.channel)


async def leave(group: str, member: Member) -> None:
    layer = get_channel_layer(LAYER)
    entry = _GROUPS.get(group)
    if entry is None or member not in entry.members:
        return
    entry.members.discard(member)
    if entry.members:
        return
    del _GROUPS[group]  # a socket joining from now on opens a new channel
    assert entry.ready is not None
    try:
        await asyncio.shield(entry.ready)
    except Exception:
        return  # never joined
    if entry.reader is not None:
        entry.reader.cancel()
    await layer.group_discard(group, entry.channel)


async def _open(layer: Any, group: str, entry: _Group) -> None:
    entry.channel = await layer.new_channel()
    await layer.group_add(group, entry.channel)
    entry.reader = asyncio.ensure_future(_read(layer, group, entry))
    # pub/sub keeps nothing for a process that is not subscribed: a move made while Redis restarted, or before
    # this process subscribed again, never reaches its pages, and a player could wait for a move he was never
    # shown until his own turn timed out; so every table open here is read afresh when the layer is back
    outage.on_reconnect(LAYER, _refresh_all)


async def _refresh_all() -> None:
    loop = asyncio.get_running_loop()
    groups = [group for group, entry in list(_GROUPS.items()) if entry.loop is loop]
    log.warning("the table layer reconnected: %d table(s) open here read afresh", len(groups))
    for group in groups:
        await refresh(group)


async def _read(layer: Any, group: str, entry: _Group) -> None:
    while True:
        try:
            event = await layer.receive(entry.channel)
        except asyncio.CancelledError:
            raise
        except Exception:
            # the layer's server gone for a moment: keep the sockets, listen again shortly
            log.exception("%s: receiving the group's events failed", group)
            await asyncio.sleep(1.0)
            continue
        members = list(entry.members)
        for member in members:
            if member.relay_first:
                await _hand(group, member, event)
        watchers = [m for m in members if not m.relay_first]
        if watchers:
            _watchers_queue().put_nowait((group, entry, watchers, event))


async def _hand(group: str, member: Member, event: dict[str, Any]) -> None:
    try:
        await member.relay_event(event)
    except asyncio.CancelledError:
        raise
    except Exception:
        # one socket's failure is its own: the others still get the event
        log.exception("%s: a socket failed on %s", group, event.get("type"))


#: per event loop, the watchers' share of every table's events and the task that hands it on
_WATCHERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[asyncio.Queue, asyncio.Task]] = (
    weakref.WeakKeyDictionary()
)


def _watchers_queue() -> asyncio.Queue:
    """Watchers are served after the seated players of every table, not only of their own: a move's event
    is handed to its players at once, and to its watchers by one task per process that lets any other
    table's event waiting for its players go first between two watchers (measured: 10 watchers on each of
    50 tables had raised the players' p99 by over half; docs/performance.md)."""
    loop = asyncio.get_running_loop()
    held = _WATCHERS.get(loop)
    if held is None or held[1].done():
        queue: asyncio.Queue = asyncio.Queue()
        held = _WATCHERS[loop] = (queue, loop.create_task(_serve_watchers(queue)))
    return held[0]


async def _serve_watchers(queue: asyncio.Queue) -> None:
    while True:
        group, entry, watchers, event = await queue.get()
        for member in watchers:
            await asyncio.sleep(0)  # a player's event that came in meanwhile is handed on first
            if member in entry.members:  # not a socket closed since
                await _hand(group, member, event)


async def refresh(group: str) -> None:
    """Every socket of ``group`` in this process reads its table afresh, for an event the layer will not
    bring: one that could not be sent (``core.outbox.Undelivered``), or one sent while the layer was gone."""
    entry = _GROUPS.get(group)
    if entry is None:
        return
    members = sorted(entry.members, key=lambda m: not m.relay_first)
    for member in members:
        await _hand(group, member, {"type": "table.changed"})


def members(group: str) -> int:
    """How many of this process's sockets hear ``group`` (tests, diagnostics)."""
    entry = _GROUPS.get(group)
    return len(entry.members) if entry is not None else 0
