"""Each page of a table reads every move in its own language, whichever page of the process opened the table first.

A process hands a table's events to its pages from one reader (``tables.relay``), started by the first page
to open the table: the pages after it must not read the moves in that first page's language.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables.selectors import seat_view
from tables.services import table_apply_action
from tests.platform.sockets import table_page
from tests.platform.tables.factories import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

#: the play box's heading, in each language
HAND = {"en": "Your hand", "ru": "Ваши карты", "uk": "Ваші карти"}


@pytest.mark.parametrize(("first", "second"), [("en", "ru"), ("uk", "en"), ("ru", "uk")])
async def test_each_seat_reads_a_move_in_its_own_language(first, second):
    table, players, game = await sync_to_async(started_table)("durak", 2)
    pages = [await table_page(table, players[0], first), await table_page(table, players[1], second)]
    try:
        view = (await sync_to_async(seat_view)(game, None))["view"]
        attacker = view["to_act"][0]
        hand = (await sync_to_async(seat_view)(game, attacker))["view"]["hand"]
        await sync_to_async(table_apply_action)(game.pk, attacker, 0, {"type": "attack", "cards": [hand[0]]})
        for page, lang in zip(pages, (first, second), strict=True):
            state = await page.receive_from(timeout=5)
            assert HAND[lang] in state
            assert not any(word in state for other, word in HAND.items() if other != lang), state[:400]
    finally:
        for page in pages:
            await page.disconnect()
