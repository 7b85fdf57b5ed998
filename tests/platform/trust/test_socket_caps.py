"""Every socket kind counts toward its owner's cap: a visitor's address, a signed-in user."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from core.sockets import CLOSE_TOO_MANY
from measure.sessions import session_cookie_for
from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def socket(path: str, cookie: str | None = None) -> tuple[WebsocketCommunicator, bool, int | None]:
    headers = [(b"origin", b"http://testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=10)
    return comm, connected, code


async def test_a_visitor_cannot_hold_more_event_sockets_than_the_cap(settings):
    settings.SOCKETS_PER_USER = 4
    tournament = await sync_to_async(lambda: event(organizer()))()
    path = f"/ws/tournaments/{tournament.pk}/"
    held = []
    for _ in range(4):
        comm, ok, _code = await socket(path)
        assert ok
        held.append(comm)
    _comm, ok, code = await socket(path)
    assert not ok and code == CLOSE_TOO_MANY
    # the lobby chat shares the same address's count
    _comm, ok, code = await socket("/ws/chat/lobby/?format=json")
    assert not ok and code == CLOSE_TOO_MANY
    await held.pop().disconnect()  # a closed socket frees its place
    again, ok, _code = await socket(path)
    assert ok
    for comm in [*held, again]:
        await comm.disconnect()


async def test_a_players_presence_event_and_chat_sockets_share_one_cap(settings):
    settings.SOCKETS_PER_USER = 3
    tournament = await sync_to_async(lambda: event(organizer()))()
    (player,) = await sync_to_async(make_players)(1, prefix="cap")
    cookie = await sync_to_async(session_cookie_for)(player)
    presence, ok, _ = await socket("/ws/presence/?at=/events/", cookie)
    assert ok
    watching, ok, _ = await socket(f"/ws/tournaments/{tournament.pk}/", cookie)
    assert ok
    lobby, ok, _ = await socket("/ws/chat/lobby/?format=json", cookie)
    assert ok
    for path in (f"/ws/tournaments/{tournament.pk}/", "/ws/presence/?at=/play/", "/ws/chat/lobby/?format=json"):
        _comm, ok, code = await socket(path, cookie)
        assert not ok and code == CLOSE_TOO_MANY, path
    for comm in (presence, watching, lobby):
        await comm.disconnect()
