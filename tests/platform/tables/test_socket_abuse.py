"""The table socket under abuse: limits per user across sockets, logout closes sockets,
the origin's port counts, and odd frames get an error frame instead of a crash."""

import asyncio
import json
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client

from config.asgi import application
from core.redis_client import redis_client
from core.sockets import CLOSE_SIGNED_OUT, CLOSE_TOO_MANY
from measure.sessions import session_cookie_for
from tables.models import Game
from tables.selectors import seat_view
from tests.platform.helpers import wait_until
from tests.platform.tables.factories import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def open_socket(table, user=None, *, origin=b"http://testserver", host=None, cookie=None):
    headers = [(b"origin", origin)]
    if host is not None:
        headers.append((b"host", host))
    if user is not None or cookie is not None:
        cookie = cookie or await sync_to_async(session_cookie_for)(user)
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/?format=json", headers=headers)
    connected, code = await comm.connect(timeout=10)
    return comm, connected, code


async def open_sockets(table, user, count: int) -> list[WebsocketCommunicator]:
    """``count`` open sockets of ``user``, each past its first state."""
    socks = []
    for _ in range(count):
        comm, ok, _ = await open_socket(table, user)
        assert ok
        await comm.receive_from(timeout=5)
        socks.append(comm)
    return socks


async def test_a_user_cannot_hold_more_sockets_than_the_cap(settings):
    settings.SOCKETS_PER_USER = 3
    table, players, _ = await sync_to_async(started_table)("durak", 2)
    socks = await open_sockets(table, players[0], 3)
    _, ok, code = await open_socket(table, players[0])
    assert not ok and code == CLOSE_TOO_MANY
    # another user is not affected, and a closed socket frees its place
    other, ok, _ = await open_socket(table, players[1])
    assert ok
    await socks.pop().disconnect()
    again, ok, _ = await open_socket(table, players[0])
    assert ok
    for comm in [*socks, other, again]:
        await comm.disconnect()


async def test_the_frame_budget_is_per_user_across_all_his_sockets(settings):
    settings.SOCKET_FRAME_LIMITS = "10/minute"
    table, players, _ = await sync_to_async(started_table)("durak", 2)
    socks = []
    for _ in range(3):
        comm, ok, _ = await open_socket(table, players[0])
        assert ok
        await comm.receive_from(timeout=5)
        socks.append(comm)
    codes = []
    for comm in socks:  # 6 frames per socket: inside each socket's own burst of 8
        for _ in range(6):
            await comm.send_to(text_data=json.dumps({"move": 99, "action": {"type": "done"}}))
        codes += [json.loads(await comm.receive_from(timeout=5))["code"] for _ in range(6)]
    assert codes.count("stale") == 10 and codes.count("rate") == 8
    # the other player's budget is his own
    mine, _, _ = await open_socket(table, players[1])
    await mine.receive_from(timeout=5)
    await mine.send_to(text_data=json.dumps({"move": 99, "action": {"type": "done"}}))
    assert json.loads(await mine.receive_from(timeout=5))["code"] == "stale"
    for comm in [*socks, mine]:
        await comm.disconnect()


async def test_a_stale_move_is_refused_without_waiting_for_the_write_lock():
    table, players, game = await sync_to_async(started_table)("durak", 2)
    comm, ok, _ = await open_socket(table, players[0])
    assert ok
    await comm.receive_from(timeout=5)
    locked, release = threading.Event(), threading.Event()

    def hold_lock() -> None:
        # another move's transaction holding the game row (on SQLite: the database write lock)
        with transaction.atomic():
            Game.objects.select_for_update().get(pk=game.pk)
            Game.objects.filter(pk=game.pk).update(deadline=None)
            locked.set()
            release.wait(30)

    holder = threading.Thread(target=hold_lock)
    holder.start()
    try:
        assert await sync_to_async(locked.wait)(10)
        await comm.send_to(text_data=json.dumps({"move": 7, "action": {"type": "done"}}))
        reply = json.loads(await comm.receive_from(timeout=3))
        assert reply["code"] == "stale"
    finally:
        release.set()
        await sync_to_async(holder.join)(30)
    await comm.disconnect()


async def test_logging_out_closes_the_users_open_sockets():
    table, players, _ = await sync_to_async(started_table)("durak", 2)
    cookie = await sync_to_async(session_cookie_for)(players[0])
    tab1, ok1, _ = await open_socket(table, cookie=cookie)
    tab2, ok2, _ = await open_socket(table, cookie=cookie)
    other, ok3, _ = await open_socket(table, players[1])
    assert ok1 and ok2 and ok3
    for comm in (tab1, tab2, other):
        await comm.receive_from(timeout=5)

    def logout() -> int:
        client = Client()
        name, value = cookie.split("=", 1)
        client.cookies[name] = value
        return client.post("/accounts/logout/").status_code

    assert await sync_to_async(logout)() == 302
    for comm in (tab1, tab2):
        said = await comm.receive_output(timeout=5)  # the page is told why before the socket closes
        assert said["type"] == "websocket.send" and '"signed out"' in said["text"]
        assert (await comm.receive_output(timeout=5)) == {"type": "websocket.close", "code": CLOSE_SIGNED_OUT}
    assert await other.receive_nothing(timeout=0.5)
    await other.disconnect()


async def test_an_origin_on_another_port_or_scheme_is_refused():
    table, players, _ = await sync_to_async(started_table)("durak", 2)
    host = b"127.0.0.1:8000"
    for origin in (b"http://127.0.0.1:9999", b"https://127.0.0.1:8000", b"http://localhost:8000", b"null"):
        _, ok, _ = await open_socket(table, players[0], origin=origin, host=host)
        assert not ok, origin
    comm, ok, _ = await open_socket(table, players[0], origin=b"http://127.0.0.1:8000", host=host)
    assert ok
    await comm.disconnect()


async def test_odd_frames_get_an_error_frame_and_the_socket_stays_open():
    table, players, game = await sync_to_async(started_table)("biznes", 4)
    mover = (await sync_to_async(seat_view)(game, None))["view"]["to_act"][0]
    comm, ok, _ = await open_socket(table, players[mover])
    assert ok
    first = json.loads(await comm.receive_from(timeout=5))
    odd = [
        json.dumps({"move": "²", "action": {"type": "pass"}}),
        json.dumps({"move": "0", "action": '{"type": "bid"}', "tricks": "²"}),
        "[" * 3000 + "]" * 1000,
        json.dumps({"move": 0, "action": {"type": "pass", "x": "é" * 2100}}),  # 2.1k characters, 4.2 kB
    ]
    for raw in odd:
        await comm.send_to(text_data=raw)
        reply = json.loads(await comm.receive_from(timeout=5))
        assert reply["type"] == "error" and reply["message"], raw[:40]
    assert "bytes" in reply["message"]
    # still open, and a real move still works
    await comm.send_to(text_data=json.dumps({"move": first["move"], "action": first["legal"][0]}))
    state = json.loads(await comm.receive_from(timeout=5))
    assert state["type"] == "state" and state["move"] == first["move"] + 1
    await comm.disconnect()


async def test_a_socket_that_ignores_slow_down_is_closed():
    table, players, _ = await sync_to_async(started_table)("durak", 2)
    comm, ok, _ = await open_socket(table, players[0])
    assert ok
    await comm.receive_from(timeout=5)
    for _ in range(80):
        await comm.send_to(text_data=json.dumps({"move": 99, "action": {"type": "done"}}))
    for _ in range(80):
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
    assert output == {"type": "websocket.close", "code": CLOSE_TOO_MANY}
    # his other sockets (and a new one) still work
    again, ok, _ = await open_socket(table, players[0])
    assert ok
    await again.disconnect()


async def test_the_lobby_chat_socket_shares_the_cap_and_closes_on_logout(settings):
    settings.SOCKETS_PER_USER = 2
    table, players, _ = await sync_to_async(started_table)("durak", 2)
    cookie = await sync_to_async(session_cookie_for)(players[0])
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]
    lobby = WebsocketCommunicator(application, "/ws/chat/lobby/?format=json", headers=headers)
    assert (await lobby.connect(timeout=10))[0]
    tab, ok, _ = await open_socket(table, cookie=cookie)
    assert ok
    await tab.receive_from(timeout=5)
    # a third socket of any kind is one too many
    extra = WebsocketCommunicator(application, "/ws/chat/lobby/?format=json", headers=headers)
    assert await extra.connect(timeout=10) == (False, CLOSE_TOO_MANY)

    def logout() -> int:
        client = Client()
        name, value = cookie.split("=", 1)
        client.cookies[name] = value
        return client.post("/accounts/logout/").status_code

    assert await sync_to_async(logout)() == 302
    assert (await lobby.receive_output(timeout=5)) == {"type": "websocket.close", "code": CLOSE_SIGNED_OUT}
    await tab.disconnect()


async def test_idle_sockets_keep_counting_towards_the_cap_and_their_table(settings):
    """An open socket counts however long it sits idle: entries older than the TTL are a dead process's."""
    from tables.presence import TTL, present_users

    settings.SOCKETS_PER_USER = 2
    settings.SOCKET_RENEW_SECONDS = 0.2
    table, players, _ = await sync_to_async(started_table)("durak", 2)
    idle = await open_sockets(table, players[0], 2)
    # both last seen a moment before they would stop counting, as after ten idle minutes
    prefix = settings.REDIS_PREFIX  # the keys as the platform names them, whatever prefix this run was given
    client, counted = redis_client(), f"{prefix}:sockets:user:{players[0].pk}"
    present = f"{prefix}:table-present:{table.pk}"
    for key in (counted, present):
        client.zadd(key, {member: time.time() - TTL + 1 for member in client.zrange(key, 0, -1)})

    def renewed() -> bool:
        fresh = time.time() - 30
        return all(min(s for _m, s in client.zrange(k, 0, -1, withscores=True)) > fresh for k in (counted, present))

    assert await sync_to_async(wait_until)(renewed, 10), "the idle sockets' entries were not renewed"
    await asyncio.sleep(1.5)  # past the moment the old entries would have expired
    _, ok, code = await open_socket(table, players[0])
    assert not ok and code == CLOSE_TOO_MANY  # still two open
    assert players[0].pk in await sync_to_async(present_users)(table.pk)
    for comm in idle:
        await comm.disconnect()
