"""Closing his last tab takes a player out of the "Play now" queue; a reload (a tab closed and opened again within
the grace) or another tab still open does not; a player whose web process died leaves once his presence ran out."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from lobbies.models import Seek
from lobbies.services import seek_join
from measure.sessions import session_cookie_for
from social import presence
from social.services import SEEK_OFFLINE_GRACE, seek_drop_offline
from tests.platform.tables.factories import make_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def tab(user):
    cookie = await sync_to_async(session_cookie_for)(user)
    comm = WebsocketCommunicator(
        application,
        "/ws/presence/?at=/play/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())],
    )
    connected, _ = await comm.connect()
    assert connected
    assert json.loads(await comm.receive_from(timeout=5))["type"] == "hello"
    return comm


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


async def waiting(user) -> bool:
    return await sync_to_async(Seek.objects.filter(user=user).exists)()


async def test_closing_the_last_tab_leaves_the_queue_after_the_grace():
    (player,) = await sync_to_async(make_players)(1, prefix="seektab")
    first, second = await tab(player), await tab(player)
    await sync_to_async(seek_join)(user=player, game="durak", seats=3)

    await first.disconnect()
    assert await sync_to_async(seek_drop_offline)(later(SEEK_OFFLINE_GRACE + 1)) == 0
    assert await waiting(player)  # another tab is open

    await second.disconnect()
    assert await sync_to_async(seek_drop_offline)(later(SEEK_OFFLINE_GRACE - 2)) == 0
    assert await waiting(player)  # a reload would be back by now
    assert await sync_to_async(seek_drop_offline)(later(SEEK_OFFLINE_GRACE + 1)) == 1
    assert not await waiting(player)


async def test_a_reload_keeps_the_place():
    (player,) = await sync_to_async(make_players)(1, prefix="seekreload")
    page = await tab(player)
    await sync_to_async(seek_join)(user=player, game="durak", seats=3)
    await page.disconnect()
    again = await tab(player)
    assert await sync_to_async(seek_drop_offline)(later(SEEK_OFFLINE_GRACE + 30)) == 0
    assert await waiting(player)
    await again.disconnect()


async def test_a_player_never_online_leaves_once_his_presence_would_have_run_out():
    (player,) = await sync_to_async(make_players)(1, prefix="seekgone")
    await sync_to_async(seek_join)(user=player, game="durak", seats=3)
    assert await sync_to_async(seek_drop_offline)(later(1)) == 0
    assert await sync_to_async(seek_drop_offline)(later(presence.ttl() + SEEK_OFFLINE_GRACE + 1)) == 1
