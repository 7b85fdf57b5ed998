"""A block hides the blocked player's chat lines from the blocker: in the lobby, at a table (players' and
spectators' chat), live on an open socket and on reload; a block made while the socket is open counts at once.

Absence is read without waiting for silence: the blocked player's line is followed by a marker line on the
same channel, sent once his own socket has his line back, so a reader that gets the marker without the line
before it was never sent that line (one channel's events keep their order)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from chat.selectors import lobby_chat
from social.services import block_add, block_remove
from tests.platform.sockets import connect
from tests.platform.tables.factories import make_players, started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def lines_until(comm, marker: str) -> list[str]:
    """The chat lines this socket is sent before ``marker``."""
    lines = []
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        if frame.get("type") != "chat":
            continue
        if frame["text"] == marker:
            return lines
        lines.append(frame["text"])


async def say(comm, text: str, channel: str | None = None) -> list[str]:
    """Send a line and wait for it to come back; returns the lines this socket was sent before it."""
    frame = {"type": "chat", "text": text, **({"channel": channel} if channel else {})}
    await comm.send_to(text_data=json.dumps(frame))
    return await lines_until(comm, text)


async def test_the_lobby_hides_a_blocked_players_lines_live_and_on_reload():
    alice, bob, carol = await sync_to_async(make_players)(3, prefix="lb")
    await sync_to_async(block_add)(alice, bob)
    a, b, c = [await connect("/ws/chat/lobby/?format=json", u, timeout=10) for u in (alice, bob, carol)]
    await say(b, "bob was here")
    assert await say(c, "carol was here") == ["bob was here"]  # everybody else still reads him
    assert await lines_until(a, "carol was here") == []
    shown = [line["text"] for line in (await sync_to_async(lobby_chat)(alice))["lines"]]
    assert shown == ["carol was here"]
    for comm in (a, b, c):
        await comm.disconnect()


async def test_a_block_made_while_the_table_page_is_open_hides_his_lines_at_once_and_after():
    table, (alice, bob), _game = await sync_to_async(started_table)("durak", 2)
    a = await connect(f"/ws/tables/{table.pk}/?format=json", alice, timeout=10)
    b = await connect(f"/ws/tables/{table.pk}/?format=json", bob, timeout=10)
    await say(b, "before the block")
    assert await say(a, "marker 1") == ["before the block"]
    assert await lines_until(b, "marker 1") == []
    await sync_to_async(block_add)(alice, bob)
    await say(b, "after the block")  # he sees his own line: nothing tells him
    assert await say(a, "marker 2") == []
    assert await lines_until(b, "marker 2") == []  # and hers

    def page_of(user) -> str:
        client = Client()
        client.force_login(user)
        return client.get(reverse("table", args=[table.pk])).content.decode()

    page = await sync_to_async(page_of)(alice)
    assert "marker 2" in page and "after the block" not in page and "before the block" not in page
    assert "after the block" in await sync_to_async(page_of)(bob)
    await sync_to_async(block_remove)(alice, bob)
    await say(b, "unblocked")
    assert await say(a, "marker 3") == ["unblocked"]
    for comm in (a, b):
        await comm.disconnect()


async def test_a_blocked_spectators_lines_are_hidden_from_the_blocker_watching_too():
    table, _players, _game = await sync_to_async(started_table)("durak", 2)
    alice, bob = await sync_to_async(make_players)(2, prefix="sp")
    await sync_to_async(block_add)(alice, bob)
    a = await connect(f"/ws/tables/{table.pk}/?format=json", alice, timeout=10)
    b = await connect(f"/ws/tables/{table.pk}/?format=json", bob, timeout=10)
    await say(b, "kibitz from bob", "spectators")
    assert await say(a, "marker", "spectators") == []
    for comm in (a, b):
        await comm.disconnect()
