"""The presence socket: online while a tab is open, notifications pushed live and kept for a reconnect."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from accounts.sockets import user_sockets_close
from config.asgi import application
from core.redis_client import redis_client
from core.sockets import CLOSE_SIGNED_OUT, CLOSE_TOO_MANY
from measure.sessions import session_cookie_for
from notifications.services import notification_mark_read
from social import presence, services
from social.selectors import friends_of
from tables.selectors import seat_view
from tables.services import table_apply_action
from tests.platform.tables.factories import make_players, started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(user=None, at: str = "/"):
    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        headers.append((b"cookie", (await sync_to_async(session_cookie_for)(user)).encode()))
    comm = WebsocketCommunicator(application, f"/ws/presence/?at={at}", headers=headers)
    connected, code = await comm.connect()
    return comm, connected, code


async def frame(comm) -> dict:
    return json.loads(await comm.receive_from(timeout=5))


async def test_online_while_a_tab_is_open_and_offline_when_the_last_closes():
    a, b = await sync_to_async(make_players)(2, prefix="pres")
    await sync_to_async(services.friend_request_send)(a, b)
    await sync_to_async(services.friend_request_accept)(b, a)
    assert not await sync_to_async(presence.is_online)(b.pk)

    tab1, ok1, _ = await connect(b, at="/play/")
    tab2, ok2, _ = await connect(b, at="/u/x/")
    assert ok1 and ok2
    hello = await frame(tab1)
    await frame(tab2)
    assert hello["type"] == "hello" and hello["heartbeat"] >= 1
    rows = await sync_to_async(friends_of)(a)
    assert rows[0].online and rows[0].where == "in the lobby"

    await tab1.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await frame(tab1))["type"] == "pong"
    await tab1.disconnect()
    assert await sync_to_async(presence.is_online)(b.pk)  # one tab is still open
    await tab2.disconnect()
    assert not await sync_to_async(presence.is_online)(b.pk)


async def renewed_until(user_id: int) -> dict[str, float]:
    """The user's tabs and until when each counts, read from Redis."""
    rows = await sync_to_async(redis_client().zrange)(presence._conns(user_id), 0, -1, withscores=True)
    return {member.decode(): score for member, score in rows}


async def test_heartbeats_renew_their_tab_and_never_a_closed_one():
    (b,) = await sync_to_async(make_players)(1, prefix="beat")
    kept, _, _ = await connect(b, at="/play/")
    await frame(kept)
    (channel, until) = (await renewed_until(b.pk)).popitem()

    # a heartbeat is answered at once and renews the tab (written with the process's others, shortly)
    await kept.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await frame(kept))["type"] == "pong"
    async with asyncio.timeout(5):
        while (await renewed_until(b.pk)).get(channel, 0) <= until:
            await asyncio.sleep(0.05)

    # a tab that beats and closes at once: offline at once, and its heartbeat written after would not bring it back
    closing, _, _ = await connect(b, at="/u/x/")
    await frame(closing)
    assert len(await renewed_until(b.pk)) == 2
    await closing.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await frame(closing))["type"] == "pong"
    await closing.disconnect()
    assert list(await renewed_until(b.pk)) == [channel]
    until = (await renewed_until(b.pk))[channel]
    await kept.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await frame(kept))["type"] == "pong"
    async with asyncio.timeout(5):  # this one written, every heartbeat heard before it is
        while (await renewed_until(b.pk)).get(channel, 0) <= until:
            await asyncio.sleep(0.05)
    assert list(await renewed_until(b.pk)) == [channel]
    await kept.disconnect()
    assert not await sync_to_async(presence.is_online)(b.pk)


async def test_where_says_at_a_table_or_watching():
    table, players, _ = await sync_to_async(started_table)("durak", 2)
    watcher = (await sync_to_async(make_players)(1, prefix="watch"))[0]
    seated, _, _ = await connect(players[0], at=f"/tables/{table.pk}/")
    watching, _, _ = await connect(watcher, at=f"/tables/{table.pk}/")
    await frame(seated)
    await frame(watching)
    where = await sync_to_async(presence.online_where)([players[0].pk, watcher.pk])
    assert where == {players[0].pk: [f"table:{table.pk}"], watcher.pk: [f"watching:{table.pk}"]}
    await seated.disconnect()
    await watching.disconnect()


async def test_anonymous_and_bots_are_never_online():
    _comm, connected, code = await connect(None)
    assert not connected and code == CLOSE_SIGNED_OUT
    bot = (await sync_to_async(make_players)(1, prefix="botty"))[0]
    bot.is_bot = True
    await sync_to_async(bot.save)()
    _comm, connected, _ = await connect(bot)
    assert not connected
    assert not await sync_to_async(presence.is_online)(bot.pk)


async def test_notifications_are_pushed_live_and_delivered_after_a_reconnect():
    a, b = await sync_to_async(make_players)(2, prefix="note")
    tab, _, _ = await connect(b)
    assert (await frame(tab))["unread"] == 0
    await sync_to_async(services.friend_request_send)(a, b)
    pushed = await frame(tab)
    assert pushed["type"] == "notification" and pushed["kind"] == "friend_request" and pushed["unread"] == 1
    assert a.name in pushed["text"] and pushed["url"] == "/friends/"
    await tab.disconnect()

    # while b is away: a challenge; nothing is lost
    await sync_to_async(services.challenge_send)(
        a,
        b,
        "durak",
        {"options": {}, "seats": 2, "rated": False, "match_options": {"fool_rule": "under"}},
    )
    tab, _, _ = await connect(b)
    hello = await frame(tab)
    assert hello["unread"] == 2
    assert [n["kind"] for n in hello["notifications"]] == ["challenge", "friend_request"]
    await sync_to_async(notification_mark_read)(b)
    assert await frame(tab) == {"type": "unread", "unread": 0}
    await tab.disconnect()


async def test_your_turn_reaches_the_player_to_act_on_any_page():
    table, players, game = await sync_to_async(started_table)("durak", 2)
    view = (await sync_to_async(seat_view)(game, None))["view"]
    mover = view["to_act"][0]
    other = 1 - mover
    tab, _, _ = await connect(players[other], at="/play/")
    await frame(tab)
    legal = (await sync_to_async(seat_view)(game, mover))["legal"]
    # lead a card: the defender is to act next
    lead = next(a for a in legal if a["type"] != "pass")
    await sync_to_async(table_apply_action)(game.pk, mover, 0, lead)
    turn = await frame(tab)
    assert turn == {"type": "turn", "table": table.pk, "url": f"/tables/{table.pk}/", "game": "Durak"}
    await tab.disconnect()


async def test_the_tab_showing_the_table_is_not_told_its_own_turn():
    """Its page shows the turn itself (its script drops such a push): only another table's turn is sent to it."""
    user = (await sync_to_async(make_players)(1, prefix="here"))[0]
    tab, _, _ = await connect(user, at="/tables/7/")
    await frame(tab)
    for table in (7, 8):
        turn = {"type": "social.turn", "table": table, "url": f"/tables/{table}/", "game": "Durak"}
        await get_channel_layer().group_send(services.social_group(user.pk), turn)
    assert await frame(tab) == {"type": "turn", "table": 8, "url": "/tables/8/", "game": "Durak"}
    await tab.disconnect()


async def test_your_turn_is_pushed_while_the_shared_database_thread_is_busy():
    """A tab's messages do not wait for Channels' one shared thread (busy with another socket's work)."""
    user = (await sync_to_async(make_players)(1, prefix="busy"))[0]
    tab, _, _ = await connect(user, at="/play/")
    await frame(tab)
    busy, release = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        release.wait(30)

    holder = asyncio.ensure_future(sync_to_async(hold, thread_sensitive=True)())
    try:
        assert await sync_to_async(busy.wait, thread_sensitive=False)(10)
        turn = {"type": "social.turn", "table": 7, "url": "/tables/7/", "game": "Durak"}
        await get_channel_layer().group_send(services.social_group(user.pk), turn)
        assert await frame(tab) == {"type": "turn", "table": 7, "url": "/tables/7/", "game": "Durak"}
    finally:
        release.set()
        await holder
    await tab.disconnect()


async def test_bad_frames_get_an_error_and_a_logout_closes_the_socket():
    user = (await sync_to_async(make_players)(1, prefix="bad"))[0]
    tab, _, _ = await connect(user)
    await frame(tab)
    for bad in ("not json", json.dumps([1]), json.dumps({"type": "read"}), "x" * 5000):
        await tab.send_to(text_data=bad)
        reply = await frame(tab)
        assert reply["type"] == "error"
    await sync_to_async(user_sockets_close)(user.pk)
    assert (await tab.receive_output(timeout=5))["type"] == "websocket.close"
    assert not await sync_to_async(presence.is_online)(user.pk)


async def test_a_private_table_is_not_named_and_tabs_per_player_are_capped(settings):
    table, players, _ = await sync_to_async(started_table)("durak", 2, private=True)
    tab, _, _ = await connect(players[0], at=f"/tables/{table.pk}/")
    await frame(tab)
    assert await sync_to_async(presence.online_where)([players[0].pk]) == {players[0].pk: ["private"]}
    settings.SOCKETS_PER_USER = 1  # a tab's presence socket counts toward his cap of open sockets
    _extra, connected, code = await connect(players[0])
    assert not connected and code == CLOSE_TOO_MANY
    await tab.disconnect()


async def test_a_play_now_summons_is_sent_from_its_event_without_a_database_read(monkeypatch):
    """The page that hears "your table is ready" goes there: one hop from the pairing to the browser."""
    from lobbies.services import seek_join
    from social import consumers

    a, b = await sync_to_async(make_players)(2, prefix="summons")
    tab, _, _ = await connect(b)
    await frame(tab)

    def no_read(*args, **kwargs):
        raise AssertionError("a summons was read from the database")

    monkeypatch.setattr(consumers.PresenceConsumer, "_notification", no_read)
    await sync_to_async(seek_join)(user=b, game="durak", seats=2, rated=False)
    table = await sync_to_async(seek_join)(user=a, game="durak", seats=2, rated=False)
    pushed = await frame(tab)
    while pushed["type"] == "turn":  # his turn at the new table may be told first
        pushed = await frame(tab)
    assert pushed["type"] == "notification" and pushed["kind"] == "play_now" and pushed["go"] is True
    assert pushed["url"] == f"/tables/{table.pk}/" and f"#{table.pk}" in pushed["text"] and "unread" not in pushed
    await tab.disconnect()
