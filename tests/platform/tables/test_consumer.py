"""The table socket: each seat gets its own view only; errors reach only the sender."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from measure.sessions import session_cookie_for
from tables.models import Game
from tables.selectors import seat_view
from tests.platform.tables.factories import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
CARD = re.compile(r"\b(?:[2-9TJQKA][SCDH]|X[12])\b")


async def connect(table, user=None, *, json_mode=False, origin=b"http://testserver", query=""):
    headers = [(b"origin", origin)]
    if user is not None:
        headers.append((b"cookie", (await sync_to_async(session_cookie_for)(user)).encode()))
    params = "&".join(p for p in ("format=json" if json_mode else "", query) if p)
    path = f"/ws/tables/{table.pk}/" + (f"?{params}" if params else "")
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    return comm, connected


def hidden_from(game, seat):
    """Cards this seat may not see: every other hand, minus what a spectator sees now or saw played (a
    Durak bout's cards are taken into a hand after everyone saw them; the log names them)."""
    public = set(CARD.findall(json.dumps(seat_view(game, None)["view"])))
    public |= set(CARD.findall(json.dumps(list(game.moves.values_list("public", flat=True)))))
    others = set()
    for s in range(game.table.seats_count):
        if s != seat:
            others |= set(seat_view(game, s)["view"].get("hand", []))
    return others - public


async def test_each_seat_and_a_spectator_get_only_their_own_view():
    table, players, game = await sync_to_async(started_table)("biznes", 4)
    socks = [await connect(table, u) for u in players]
    spectator, ok = await connect(table, None)
    assert ok and all(c for _, c in socks)
    frames = [await comm.receive_from(timeout=5) for comm, _ in socks]
    spectator_frame = await spectator.receive_from(timeout=5)
    for seat, frame in enumerate(frames):
        hand = (await sync_to_async(seat_view)(game, seat))["view"]["hand"]
        assert all(f'data-card="{c}"' in frame for c in hand)
        leaked = set(CARD.findall(frame)) & await sync_to_async(hidden_from)(game, seat)
        assert not leaked, f"seat {seat} saw {leaked}"
    assert not set(CARD.findall(spectator_frame)) & await sync_to_async(hidden_from)(game, None)
    assert 'name="cards"' not in spectator_frame and "You are watching" in spectator_frame

    # a move by the player to act reaches every socket, each rendered for its own seat
    view = (await sync_to_async(seat_view)(game, None))["view"]
    mover = view["to_act"][0]
    await socks[mover][0].send_to(text_data=json.dumps({"move": 0, "action": {"type": "pass"}}))
    for seat, (comm, _) in enumerate(socks):
        frame = await comm.receive_from(timeout=5)
        assert "move 1" in frame
        g = await sync_to_async(Game.objects.get)(pk=game.pk)
        assert not set(CARD.findall(frame)) & await sync_to_async(hidden_from)(g, seat)
    await spectator.receive_from(timeout=5)
    for comm, _ in [*socks, (spectator, True)]:
        await comm.disconnect()


async def test_errors_go_to_the_sender_only_and_change_nothing():
    table, players, game = await sync_to_async(started_table)("durak", 2)
    a, _ = await connect(table, players[0], json_mode=True)
    b, _ = await connect(table, players[1], json_mode=True)
    first_a = json.loads(await a.receive_from(timeout=5))
    await b.receive_from(timeout=5)
    assert first_a["type"] == "state" and first_a["seat"] == 0 and first_a["move"] == 0
    mover = first_a["view"]["to_act"][0]
    idle = a if mover == 1 else b
    other = b if idle is a else a
    bad_frames = [
        "not json",
        json.dumps([1, 2]),
        json.dumps({"move": 0}),
        json.dumps({"move": 0, "action": {"type": "take"}}),  # not the defender's turn yet
        json.dumps({"move": 99, "action": {"type": "done"}}),
        "x" * 5000,
    ]
    for raw in bad_frames:
        await idle.send_to(text_data=raw)
        reply = json.loads(await idle.receive_from(timeout=5))
        assert reply["type"] == "error" and reply["message"]
    assert await other.receive_nothing(timeout=0.3)
    g = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert g.move_number == 0
    await a.disconnect()
    await b.disconnect()


async def test_flooding_a_socket_is_rate_limited():
    table, players, _ = await sync_to_async(started_table)("verish", 3)
    comm, _ = await connect(table, players[0], json_mode=True)
    await comm.receive_from(timeout=5)
    for _ in range(30):
        await comm.send_to(text_data=json.dumps({"move": 50, "action": {"type": "believe"}}))
    codes = [json.loads(await comm.receive_from(timeout=5))["code"] for _ in range(30)]
    assert "rate" in codes and codes.count("stale") <= 10
    await comm.disconnect()


async def test_html_buttons_send_actions_the_server_accepts():
    """A frame shaped like htmx's ws-send (form fields + HEADERS) plays a legal move."""
    table, players, game = await sync_to_async(started_table)("durak", 2)
    view = (await sync_to_async(seat_view)(game, None))["view"]
    mover = view["to_act"][0]
    comm, _ = await connect(table, players[mover])
    html = await comm.receive_from(timeout=5)
    assert "Attack the selected cards" in html and "ws-send" in html
    hand = (await sync_to_async(seat_view)(game, mover))["view"]["hand"]
    legal = (await sync_to_async(seat_view)(game, mover))["legal"]
    single = next(a for a in legal if len(a["cards"]) == 1)
    frame = {"move": "0", "cards": single["cards"][0], "action": '{"type":"attack"}', "HEADERS": {"HX-Request": "true"}}
    await comm.send_to(text_data=json.dumps(frame))
    html = await comm.receive_from(timeout=5)
    assert "move 1" in html and single["cards"][0] in hand
    await comm.disconnect()


async def test_private_tables_and_foreign_origins_are_refused():
    table, players, _ = await sync_to_async(started_table)("durak", 2, private=True)
    _, ok = await connect(table, None)
    assert not ok
    comm, ok = await connect(table, None, query=f"invite={table.invite_token}")
    assert ok
    await comm.disconnect()
    comm, ok = await connect(table, players[0])
    assert ok
    await comm.disconnect()
    _, ok = await connect(table, players[0], origin=b"http://evil.example")
    assert not ok


async def group_size(group):
    """How many connections Redis pushes the table's events to (its layer is pub/sub: one per subscribed process)."""
    from channels.layers import get_channel_layer

    from core.redis_client import redis_client
    from tables import relay

    name = get_channel_layer(relay.LAYER)._get_layer()._get_group_channel_name(group)
    return dict(await sync_to_async(redis_client().pubsub_numsub)(name))[name.encode()]


async def test_a_move_reaches_every_socket_of_a_process_through_one_subscription():
    from tables import relay

    table, players, game = await sync_to_async(started_table)("durak", 2)
    socks = [(await connect(table, u))[0] for u in players]
    watchers = [(await connect(table, None))[0] for _ in range(3)]
    first = [await comm.receive_from(timeout=5) for comm in [*socks, *watchers]]
    assert all('data-move="0"' in frame for frame in first)
    # five sockets here, one copy of each event in Redis: watchers cost no more traffic
    assert relay.members(table.group_name) == 5
    assert await group_size(table.group_name) == 1

    await watchers.pop().disconnect()  # one watcher leaving takes nobody else with it
    view = (await sync_to_async(seat_view)(game, None))["view"]
    mover = view["to_act"][0]
    legal = (await sync_to_async(seat_view)(game, mover))["legal"]
    await socks[mover].send_to(text_data=json.dumps({"move": 0, "action": legal[0]}))
    for comm in [*socks, *watchers]:
        assert 'data-move="1"' in await comm.receive_from(timeout=5)

    for comm in [*socks, *watchers]:
        await comm.disconnect()
    assert relay.members(table.group_name) == 0
    assert await group_size(table.group_name) == 0
