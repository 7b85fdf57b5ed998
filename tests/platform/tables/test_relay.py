"""tables.relay: one subscription per table per process, its events handed to the process's sockets."""

import asyncio
import time

import pytest
from channels.layers import get_channel_layer

from tables import relay

pytestmark = pytest.mark.asyncio


class Page:
    def __init__(self, name: str, seated: bool, heard: list[str]) -> None:
        self.name, self.relay_first, self.heard = name, seated, heard

    async def relay_event(self, event: dict) -> None:
        await asyncio.sleep(0)  # a real socket yields while it renders and sends
        self.heard.append(self.name)


async def test_the_players_of_a_table_hear_a_move_before_its_watchers():
    heard: list[str] = []
    group = relay.group_name(987654)
    pages = [Page(f"watcher-{i}", False, heard) for i in range(5)]
    pages.insert(3, Page("player", True, heard))
    for page in pages:
        await relay.join(group, page)
    try:
        await get_channel_layer(relay.LAYER).group_send(group, {"type": "table.changed", "game": 1, "move": 1})
        async with asyncio.timeout(5):
            while len(heard) < len(pages):
                await asyncio.sleep(0.01)
        assert heard[0] == "player" and sorted(heard[1:]) == [f"watcher-{i}" for i in range(5)]
    finally:
        for page in pages:
            await relay.leave(group, page)
    assert relay.members(group) == 0


class BusyPage(Page):
    """A watcher whose page takes the event loop for a while (rendering, sending) without yielding."""

    async def relay_event(self, event: dict) -> None:
        time.sleep(0.03)
        self.heard.append(self.name)


async def test_another_tables_players_are_served_before_this_tables_watchers():
    heard: list[str] = []
    busy, quiet = relay.group_name(987655), relay.group_name(987656)
    pages = [(busy, Page("busy player", True, heard))]
    pages += [(busy, BusyPage(f"watcher-{i}", False, heard)) for i in range(8)]
    pages.append((quiet, Page("other player", True, heard)))
    for group, page in pages:
        await relay.join(group, page)
    try:
        layer = get_channel_layer(relay.LAYER)
        await layer.group_send(busy, {"type": "table.changed", "game": 1, "move": 1})
        await layer.group_send(quiet, {"type": "table.changed", "game": 2, "move": 1})
        async with asyncio.timeout(10):
            while len(heard) < len(pages):
                await asyncio.sleep(0.01)
        # the other table's move waits for one or two watchers here, not for all eight
        assert heard.index("other player") < heard.index("watcher-7")
    finally:
        for group, page in pages:
            await relay.leave(group, page)
