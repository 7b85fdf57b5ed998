"""tables.relay: one subscription per table per process, its events handed to the process's sockets."""

import asyncio

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
