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
        async def execute(self, commands):
            raise ConnectionError("gone")

    monkeypatch.setattr(outbox, "publisher_at", lambda url: Refusing())

    def service() -> int:
        with transaction.atomic():
            transaction.on_commit(lambda: outbox.group_send("outbox-h", {"type": "t"}, "tables"))
            transaction.on_commit(lambda: outbox.group_send("outbox-i", {"type": "u"}))
        return 7

    with pytest.raises(outbox.Undelivered) as refused:
        await outbox.run(service)
    assert refused.value.result == 7 and refused.value.groups == ["outbox-h", "outbox-i"]


async def _subscribed(channel: str):
    import redis.asyncio as aioredis
    from django.conf import settings

    client = aioredis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub()
    await pubsub.subscribe(channel)
    await pubsub.get_message(timeout=1)  # the subscription's confirmation
    return client, pubsub


async def _published(pubsub) -> list[bytes]:
    got = []
    while (message := await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)) is not None:
        got.append(message["data"])
    return got


async def test_a_publisher_writes_its_commands_together_and_keeps_its_connection():
    from django.conf import settings

    from core.redis_client import publisher_at

    client, pubsub = await _subscribed("outbox-pub-a")
    publisher = publisher_at(settings.REDIS_URL)
    assert await publisher.execute([("PUBLISH", "outbox-pub-a", b"1"), ("PUBLISH", "outbox-pub-none", b"2")]) == [1, 0]
    kept = list(publisher.idle)
    await publisher.execute([("PUBLISH", "outbox-pub-a", b"3")])
    assert publisher.idle == kept  # the same connection, used again
    assert await _published(pubsub) == [b"1", b"3"]
    await client.aclose()


async def test_a_kept_connection_that_redis_closed_is_replaced_and_the_commands_sent_once():
    import redis
    from django.conf import settings

    from core.redis_client import publisher_at

    client, pubsub = await _subscribed("outbox-pub-b")
    publisher = publisher_at(settings.REDIS_URL)
    await publisher.execute([("PUBLISH", "outbox-pub-b", b"before")])
    [kept] = publisher.idle
    await kept.send_command("CLIENT", "ID")
    redis.Redis.from_url(settings.REDIS_URL).client_kill_filter(_id=await kept.read_response())  # as a restart would
    assert await publisher.execute([("PUBLISH", "outbox-pub-b", b"after")]) == [1]
    assert kept not in publisher.idle
    assert await _published(pubsub) == [b"before", b"after"]
    await client.aclose()


async def test_an_error_reply_is_raised_and_its_connection_dropped():
    import redis
    from django.conf import settings

    from core.redis_client import publisher_at

    publisher = publisher_at(settings.REDIS_URL)
    await publisher.execute([("PUBLISH", "outbox-pub-c", b"x")])
    [kept] = publisher.idle
    with pytest.raises(redis.ResponseError):
        await publisher.execute([("PUBLISH", "outbox-pub-c"), ("PUBLISH", "outbox-pub-c", b"y")])
    assert kept not in publisher.idle  # its second reply was never read: the connection is out of step


async def test_a_sockets_redis_commands_are_written_from_its_event_loop_after_its_thread(monkeypatch):
    """A turn's deadline set by a socket's move goes to Redis with the move's events, not from its thread; a service
    called plainly writes it at once, and a failed write is told to its caller's callback."""
    from django.conf import settings
    from django.utils import timezone

    from core.redis_client import redis_client
    from tables import deadlines

    client = redis_client()
    failures: list[BaseException] = []

    def service() -> list[float | None]:
        with transaction.atomic():
            transaction.on_commit(lambda: deadlines.deadline_set(987001, 5, timezone.now()))
            transaction.on_commit(lambda: outbox.group_send("outbox-j", {"type": "t"}, "tables"))
        return [client.zscore(deadlines.KEY, deadlines.member(987001, 5))]

    try:
        assert await outbox.run(service) == [None]  # not yet while the thread ran
        assert client.zscore(deadlines.KEY, deadlines.member(987001, 5)) is not None
        assert await database_sync_to_async(service)() != [None]  # no socket: at once
        assert not outbox.redis_send(settings.REDIS_URL, [("PING",)], failures.append)
    finally:
        client.zrem(deadlines.KEY, deadlines.member(987001, 5))

    class Refusing:
        async def execute(self, commands):
            raise ConnectionError("gone")

    monkeypatch.setattr(outbox, "publisher_at", lambda url: Refusing())

    def refused() -> None:
        assert outbox.redis_send(settings.REDIS_URL, [("PING",)], failures.append)

    await outbox.run(refused)
    assert [str(exc) for exc in failures] == ["gone"]
