"""The event socket: each player is sent only to his own table; an invite-only event refuses outsiders."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from measure.sessions import session_cookie_for
from tables.models import Table
from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer
from tournaments import services
from tournaments.models import Board

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(tournament, user):
    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        headers.append((b"cookie", (await sync_to_async(session_cookie_for)(user)).encode()))
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{tournament.pk}/", headers=headers)
    connected, _ = await comm.connect()
    return comm, connected


async def round_frame(comm) -> dict:
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        if frame["type"] == "round":
            return frame


def setup(private=False):
    owner = organizer()
    t = event(owner, private=private)
    players = make_players(8, prefix=f"sock{private}")
    for p in players:
        services.registration_join(tournament_id=t.pk, user=p, token=t.invite_token)
    return owner, t, players


async def test_a_round_start_sends_each_player_to_his_own_table():
    owner, t, players = await sync_to_async(setup)()
    socks = [await connect(t, p) for p in players[:2]]
    watcher, ok = await connect(t, None)
    assert ok and all(c for _, c in socks)
    await sync_to_async(services.tournament_next_round)(tournament_id=t.pk, user=owner)

    def table_of(user):
        board = next(b for b in Board.objects.filter(round__tournament=t) if user.pk in b.players)
        return Table.objects.get(pk=board.table_id).get_absolute_url()

    for (comm, _), player in zip(socks, players, strict=False):
        assert (await round_frame(comm))["goto"] == await sync_to_async(table_of)(player)
    assert (await round_frame(watcher))["goto"] is None  # a spectator goes nowhere
    for comm, _ in [*socks, (watcher, True)]:
        await comm.disconnect()


async def test_invite_only_event_socket_refuses_outsiders():
    _, t, players = await sync_to_async(setup)(private=True)
    outsider = (await sync_to_async(make_players)(1, prefix="outside"))[0]
    _, ok = await connect(t, outsider)
    assert not ok
    comm, ok = await connect(t, players[0])
    assert ok
    await comm.disconnect()


async def test_an_announcement_reaches_every_table_socket():
    owner, t, _players = await sync_to_async(setup)()
    await sync_to_async(services.tournament_next_round)(tournament_id=t.pk, user=owner)
    boards = await sync_to_async(lambda: list(Board.objects.filter(round__tournament=t)))()
    socks = []
    for board in boards:
        comm = WebsocketCommunicator(
            application, f"/ws/tables/{board.table_id}/", headers=[(b"origin", b"http://testserver")]
        )
        assert (await comm.connect())[0]
        await comm.receive_from(timeout=10)  # the table's state
        socks.append(comm)
    await sync_to_async(services.announcement_post)(tournament_id=t.pk, user=owner, text="Round 2 <b>at 9</b>")
    for comm in socks:
        while True:
            frame = await comm.receive_from(timeout=10)
            if "table-announcement" in frame:
                break
        assert "Round 2 &lt;b&gt;at 9&lt;/b&gt;" in frame and t.name in frame  # escaped, with the event's name
        await comm.disconnect()


async def presence(user, at: str):
    headers = [(b"origin", b"http://testserver"), (b"cookie", (await sync_to_async(session_cookie_for)(user)).encode())]
    comm = WebsocketCommunicator(application, f"/ws/presence/?at={at}", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    assert json.loads(await comm.receive_from(timeout=10))["type"] == "hello"
    return comm


async def test_a_round_start_calls_each_player_to_his_table_on_any_page():
    owner, t, players = await sync_to_async(setup)()
    elsewhere = await presence(players[0], "/u/someone/")  # not on the event page
    await sync_to_async(services.tournament_next_round)(tournament_id=t.pk, user=owner)
    table_id = await sync_to_async(
        lambda: next(b.table_id for b in Board.objects.filter(round__tournament=t) if players[0].pk in b.players)
    )()
    frame = json.loads(await elsewhere.receive_from(timeout=10))
    while frame["type"] == "turn":  # his turn may already be called at the new table
        frame = json.loads(await elsewhere.receive_from(timeout=10))
    assert frame["type"] == "notification" and frame["kind"] == "tournament"
    assert frame["url"] == f"/tables/{table_id}/" and frame["go"] is True
    assert t.name in frame["text"]
    await elsewhere.disconnect()
    # on a reconnect the call is only a notice in the list (the hello), still flagged, for the page to toast
    again = WebsocketCommunicator(
        application,
        "/ws/presence/?at=/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"cookie", (await sync_to_async(session_cookie_for)(players[0])).encode()),
        ],
    )
    await again.connect()
    hello = json.loads(await again.receive_from(timeout=10))
    assert [n["url"] for n in hello["notifications"] if n["go"]] == [f"/tables/{table_id}/"]
    await again.disconnect()
