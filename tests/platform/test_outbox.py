"""core.outbox: a service's group sends, called from a socket, go out from its event loop after the commit."""

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.db import transaction

from core import outbox
from core.sockets import database_sync_to_async
from tables.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _service(group: str, fail: bool) -> list[int]:
    """Writes, tells ``group`` after commit; returns how many sends were waiting when it was done."""
    with transaction.atomic():
        Game.objects.exists()  # a query on this thread's own connection
        transaction.on_commit(lambda: outbox.group_send(group, {"type": "table.changed", "move": 1}))
        if fail:
            raise ValueError("refused")
    return [len(outbox._OUTBOX.get() or [])]


async def _listen(group: str) -> tuple[object, str]:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return layer, channel


async def test_a_committed_change_is_sent_once_the_thread_returns():
    layer, channel = await _listen("outbox-a")
    waiting = await outbox.run(_service, "outbox-a", False)
    assert waiting == [1]  # held back while the thread ran: nothing went out from it
    event = await asyncio.wait_for(layer.receive(channel), 5)
    assert event == {"type": "table.changed", "move": 1}


async def test_a_rolled_back_change_sends_nothing():
    layer, channel = await _listen("outbox-b")
    with pytest.raises(ValueError):
        await outbox.run(_service, "outbox-b", True)
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.5)


async def test_without_an_outbox_the_send_is_made_at_once():
    """A Celery task or a view calls the service plainly: the event goes out from its own thread."""
    layer, channel = await _listen("outbox-c")
    assert await database_sync_to_async(_service)("outbox-c", False) == [0]
    assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "table.changed", "move": 1}


async def test_a_send_from_a_thread_without_an_event_loop_reaches_either_layer():
    """A Celery task or a shell (no event loop anywhere) publishes on the layer's own channel and in its format:
    the table's and the users' listeners get the event as the layer's own send would give it."""
    import threading

    tables = get_channel_layer("tables")
    table_channel = await tables.new_channel()
    await tables.group_add("outbox-d", table_channel)
    layer, channel = await _listen("outbox-e")
    event = {"type": "table.changed", "move": 2, "text": "Козырь ♠", "seats": [0, 1]}
    sender = threading.Thread(
        target=lambda: (outbox.group_send("outbox-d", event, "tables"), outbox.group_send("outbox-e", event))
    )
    sender.start()
    await asyncio.get_running_loop().run_in_executor(None, sender.join)
    assert await asyncio.wait_for(tables.receive(table_channel), 5) == event
    assert await asyncio.wait_for(layer.receive(channel), 5) == event
