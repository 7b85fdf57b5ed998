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


async def test_a_services_sends_to_both_layers_go_out_together_in_order():
    """A move's table event and its "your turn": one pipeline to their one Redis, each on its layer's channel in
    the layer's format, a group's events in the order they were sent."""
    tables = get_channel_layer("tables")
    table_channel = await tables.new_channel()
    await tables.group_add("outbox-f", table_channel)
    layer, channel = await _listen("outbox-g")

    def service() -> None:
        with transaction.atomic():
            for n in (1, 2):
                transaction.on_commit(lambda n=n: outbox.group_send("outbox-f", {"type": "t", "n": n}, "tables"))
            transaction.on_commit(lambda: outbox.group_send("outbox-g", {"type": "u", "text": "Ход ♠"}))

    await outbox.run(service)
    assert [await asyncio.wait_for(tables.receive(table_channel), 5) for _ in range(2)] == [
        {"type": "t", "n": 1},
        {"type": "t", "n": 2},
    ]
    assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "u", "text": "Ход ♠"}


async def test_when_redis_refuses_the_pipeline_every_group_is_reported_undelivered(monkeypatch):
    class Refusing:
        def pipeline(self, transaction):
            return self

        def publish(self, channel, data):
            pass

        async def execute(self):
            raise ConnectionError("gone")

    monkeypatch.setattr(outbox, "async_redis_at", lambda url: Refusing())

    def service() -> int:
        with transaction.atomic():
            transaction.on_commit(lambda: outbox.group_send("outbox-h", {"type": "t"}, "tables"))
            transaction.on_commit(lambda: outbox.group_send("outbox-i", {"type": "u"}))
        return 7

    with pytest.raises(outbox.Undelivered) as refused:
        await outbox.run(service)
    assert refused.value.result == 7 and refused.value.groups == ["outbox-h", "outbox-i"]
