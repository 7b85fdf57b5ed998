"""Redis gone for a while (a restart, a crash): pages and sockets keep working, nothing is half done.

Each test runs the platform in this process against a Redis server of its own,
which it kills (SIGKILL, as a crash) or stops and starts again: a real outage of
the cache, the limits, presence and both channel layers at once (``core.outage``,
``core.cache``, ``core.outbox``, ``tables.relay``).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings
from django.urls import reverse

from config.asgi import application
from core import redis_client as redis_clients
from core import throttle
from core.embedded import start_redis
from core.outage import CLOSE_UNAVAILABLE, redis_seen_down
from social import presence
from tables.selectors import seat_view
from tables.services import table_apply_action
from tests.platform.sockets import connect
from tests.platform.tables.factories import make_players, started_table

pytestmark = pytest.mark.django_db(transaction=True)


class OwnRedis:
    def __init__(self, folder: Path) -> None:
        self.socket = folder / "r.sock"  # a short path: a unix socket's is at most 107 bytes
        self.proc = start_redis(self.socket, persist=True)

    def kill(self) -> None:
        """A crash: the data written since the last second may be lost."""
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        """A clean shutdown, as an administrator's restart: everything is kept."""
        self.proc.terminate()
        self.proc.wait(30)

    def start(self) -> None:
        self.proc = start_redis(self.socket, persist=True)


def _forget_clients() -> None:
    # the clients a process keeps for REDIS_URL (the cache and the channel layers are reset by override_settings)
    redis_clients._client.cache_clear()
    throttle._BUDGETS.clear()


@pytest.fixture
def own_redis(settings):
    folder = Path(tempfile.mkdtemp(prefix="rd", dir="/tmp"))
    server = OwnRedis(folder)
    url = f"unix://{server.socket}"
    layers = {
        alias: {**conf, "CONFIG": {**conf["CONFIG"], "hosts": [url]}} for alias, conf in settings.CHANNEL_LAYERS.items()
    }
    cache = {"default": {**settings.CACHES["default"], "LOCATION": url}}
    try:
        with override_settings(REDIS_URL=url, CACHES=cache, CHANNEL_LAYERS=layers):
            _forget_clients()
            yield server
    finally:
        _forget_clients()
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


async def next_frame(comm: WebsocketCommunicator, seconds: float = 10) -> dict:
    return json.loads(await comm.receive_from(timeout=seconds))


async def state_after(comm: WebsocketCommunicator, move: int, seconds: float = 30) -> dict:
    """The first state of move ``move`` or later the socket is sent within ``seconds``."""
    async with asyncio.timeout(seconds):
        while True:
            frame = await next_frame(comm, seconds)
            if frame.get("type") == "state" and frame["move"] >= move:
                return frame


@pytest.mark.asyncio
async def test_a_move_while_redis_is_down_is_refused_clearly_and_goes_through_once_it_is_back(own_redis):
    table, players, game = await sync_to_async(started_table)("durak", 2)
    mover = (await sync_to_async(seat_view)(game, None))["view"]["to_act"][0]
    comm = await connect(f"/ws/tables/{table.pk}/?format=json", players[mover], timeout=10)
    first = await next_frame(comm)
    click = json.dumps({"move": first["move"], "action": first["legal"][0]})

    own_redis.kill()
    # the process sees Redis gone as its pub/sub connections drop (a frame's budget asks Redis only by batches)
    async with asyncio.timeout(10):
        while not redis_seen_down():
            await asyncio.sleep(0.01)
    await comm.send_to(text_data=click)
    reply = await next_frame(comm)
    assert reply["type"] == "error" and reply["code"] == "unavailable", reply
    assert "unavailable" in reply["message"]
    await game.arefresh_from_db()
    assert game.move_number == first["move"]  # nothing changed
    # a second socket is turned away with "try again later", not an error; the open one stays open
    path, origin = f"/ws/tables/{table.pk}/?format=json", [(b"origin", b"http://testserver")]
    refused = WebsocketCommunicator(application, path, headers=origin)
    connected, code = await refused.connect(timeout=10)
    assert not connected and code == CLOSE_UNAVAILABLE
    probe = WebsocketCommunicator(application, "/ws/health/", headers=origin)  # a monitor's socket says so too
    connected, code = await probe.connect(timeout=10)
    assert not connected and code == CLOSE_UNAVAILABLE

    own_redis.start()
    # the page's own click again, as a player would: once Redis answers it is played and shown
    async with asyncio.timeout(30):
        await comm.send_to(text_data=click)
        while (frame := await next_frame(comm))["type"] != "state" or frame["move"] == first["move"]:
            if frame["type"] == "error":
                assert frame["code"] == "unavailable", frame  # Redis still coming back
                await asyncio.sleep(0.2)
                await comm.send_to(text_data=click)
    assert frame["move"] == first["move"] + 1
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_move_made_while_the_pages_could_not_hear_it_is_shown_when_redis_is_back(own_redis):
    table, _players, game = await sync_to_async(started_table)("durak", 2)
    watcher = (await sync_to_async(make_players)(1, prefix="outw"))[0]
    page = await connect(f"/ws/tables/{table.pk}/?format=json", watcher, timeout=10)
    first = await next_frame(page)

    own_redis.kill()
    view = await sync_to_async(seat_view)(game, None)
    seat = view["view"]["to_act"][0]
    legal = (await sync_to_async(seat_view)(game, seat))["legal"]
    # a move that commits while Redis is gone (here from a plain thread, as a Celery task or a view would):
    # it stands, and its event is lost, not its move
    await sync_to_async(table_apply_action)(game.pk, seat, first["move"], legal[0])
    await game.arefresh_from_db()
    assert game.move_number == first["move"] + 1
    assert await page.receive_nothing(timeout=1)

    own_redis.start()
    # no other event comes: the page is sent the move because its process subscribed again
    shown = await state_after(page, first["move"] + 1)
    assert shown["move"] == first["move"] + 1
    await page.disconnect()


@pytest.mark.asyncio
async def test_the_presence_socket_outlives_redis_and_counts_the_tab_again_after(own_redis):
    player = (await sync_to_async(make_players)(1, prefix="outp"))[0]
    tab = await connect("/ws/presence/?at=/play/", player, timeout=10)
    assert (await next_frame(tab))["type"] == "hello"

    own_redis.kill()
    await tab.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await next_frame(tab))["type"] == "pong"
    assert not await sync_to_async(presence.is_online)(player.pk)  # unknown: shown offline, not an error

    own_redis.start()  # back, with whatever the crash kept: a heartbeat records the tab again
    async with asyncio.timeout(30):
        while not await sync_to_async(presence.is_online)(player.pk):
            await tab.send_to(text_data=json.dumps({"type": "ping"}))
            assert (await next_frame(tab))["type"] == "pong"
    await tab.disconnect()


def test_pages_answer_while_redis_is_down_and_a_logout_made_then_holds_after(own_redis, settings):
    player = make_players(1, prefix="outh")[0]
    client = Client()
    client.force_login(player)
    assert client.get(reverse("friends")).status_code == 200  # the session is cached in Redis now

    own_redis.stop()
    assert client.get(reverse("friends")).status_code == 200  # read from the database
    name = settings.SESSION_COOKIE_NAME
    ended = client.cookies[name].value
    client.post(reverse("account_logout"))
    assert client.get(reverse("friends")).status_code == 302  # signed out (the sign-in page)

    own_redis.start()  # a clean restart: Redis comes back with everything it held, the ended session too
    stale = Client()
    stale.cookies[name] = ended
    assert stale.get(reverse("friends")).status_code == 302, "the session ended during the outage came back"


@pytest.mark.asyncio
async def test_a_ban_made_while_redis_was_gone_closes_the_players_sockets_when_it_is_back(own_redis):
    from moderation.services import user_ban

    table, players, _game = await sync_to_async(started_table)("durak", 2)
    banned, moderator = players[0], (await sync_to_async(make_players)(1, prefix="outmod"))[0]
    page = await connect(f"/ws/tables/{table.pk}/?format=json", banned, timeout=10)
    tab = await connect("/ws/presence/?at=/play/", banned, timeout=10)
    await next_frame(page)
    await next_frame(tab)

    own_redis.kill()
    # its "close your sockets" event cannot be sent: the ban stands, the sockets do not hear of it
    await sync_to_async(user_ban)(banned, by=moderator, reason="cheating")
    assert await tab.receive_nothing(timeout=0.5)

    own_redis.start()
    async with asyncio.timeout(30):
        while (frame := await next_frame(page))["type"] != "error":
            pass  # the table read afresh first, maybe
        assert frame["code"] == "removed" and "banned" in frame["message"]
        assert await page.receive_output(30) == {"type": "websocket.close", "code": 4403}
        while (output := await tab.receive_output(30))["type"] != "websocket.close":
            pass
        assert output["code"] == 4403


@pytest.mark.asyncio
async def test_a_notification_made_while_redis_was_gone_reaches_the_open_tab_when_it_is_back(own_redis):
    from social.services import friend_request_send

    a, b = await sync_to_async(make_players)(2, prefix="outn")
    tab = await connect("/ws/presence/?at=/play/", a, timeout=10)
    assert (await next_frame(tab))["unread"] == 0

    own_redis.kill()
    await sync_to_async(friend_request_send)(b, a)  # stored; its push to the tab is lost
    assert await tab.receive_nothing(timeout=0.5)

    own_redis.start()
    async with asyncio.timeout(30):
        while (frame := await next_frame(tab))["type"] != "hello":
            pass
    assert frame["unread"] == 1 and frame["notifications"]
    await tab.disconnect()
