"""What a refused click says, and how the log names players: in the reader's words, never the engine's codes.

A refusal names cards as the hand shows them (10♠, not "TS"), a button made of
ticked cards clicked with none ticked says to choose one, and a move's words
name the other seat it concerns by its player's name.
"""

from __future__ import annotations

import html
import json
import re
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from games.ui import card_text
from games.words import says
from games.words import seat as seat_ref
from tables.models import Game
from tables.selectors import seat_view
from tables.services import table_apply_action
from tables.templatetags.cards import move_words
from tests.platform.sockets import connect, table_page
from tests.platform.tables.factories import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
CODE = re.compile(r"\b[2-9TJQKA][SCDH]\b")
ERROR = re.compile(r'<div id="table-error"[^>]*>(.*?)</div>', re.S)


async def refusal(comm: WebsocketCommunicator, frame: dict) -> str:
    """The words a player reads after a click (the error beside the controls), tags stripped."""
    await comm.send_to(text_data=json.dumps({**frame, "HEADERS": {"HX-Request": "true"}}))
    reply = await comm.receive_from(timeout=5)
    found = ERROR.search(reply)
    assert found, reply[:300]
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


@pytest.mark.parametrize(
    ("lang", "choose", "no_rank"),
    [
        ("en", "Choose at least one card.", "matches no rank on the table"),
        ("ru", "Выберите хотя бы одну карту.", "не совпадает"),
        ("uk", "Виберіть хоча б одну карту.", "не збігається"),  # noqa: RUF001
    ],
)
async def test_refusals_speak_the_players_language_and_show_cards_as_cards(lang, choose, no_rank):
    table, players, game = await sync_to_async(started_table)("durak", 2)
    view = (await sync_to_async(seat_view)(game, None))["view"]
    attacker = view["to_act"][0]
    comm = await table_page(table, players[attacker], lang)

    # the attack button clicked with no card ticked: the form has no "cards" field at all
    said = await refusal(comm, {"move": "0", "action": '{"type":"attack"}'})
    assert said == choose

    # a lead, the defender takes, and the attacker throws in a card of another rank
    hand = (await sync_to_async(seat_view)(game, attacker))["view"]["hand"]
    lead = hand[0]
    await sync_to_async(table_apply_action)(game.pk, attacker, 0, {"type": "attack", "cards": [lead]})
    await sync_to_async(table_apply_action)(game.pk, 1 - attacker, 1, {"type": "take"})
    await comm.receive_from(timeout=5)
    await comm.receive_from(timeout=5)
    stray = next(c for c in hand[1:] if c[0] != lead[0])
    said = await refusal(comm, {"move": "2", "action": '{"type":"throw"}', "cards": stray})
    assert no_rank in said and card_text(stray) in said, said
    assert not CODE.search(said), f"an engine's card code shown: {said!r}"
    game = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert game.move_number == 2  # refused, nothing changed
    await comm.disconnect()


@pytest.mark.parametrize(("lang", "expected"), [("en", "Olga takes 2 cards"), ("ru", "Olga берёт 2 карты")])
async def test_a_move_names_the_seat_it_concerns_by_its_players_name(lang, expected):
    players = [{"index": 0, "name": "Ivan"}, {"index": 1, "name": "Olga"}, {"index": 2, "name": "AS"}]
    taken = SimpleNamespace(words=says("%(seat)s takes %(n)s card", "%(seat)s takes %(n)s cards", 2, seat=seat_ref(1)))
    card_named = SimpleNamespace(
        words=says("%(seat)s takes %(n)s card", "%(seat)s takes %(n)s cards", 1, seat=seat_ref(2))
    )
    with translation.override(lang):
        assert str(move_words(taken, players)) == expected
        # a name that reads like a card code stays a name
        assert "AS " in str(move_words(card_named, players)) and "♠" not in str(move_words(card_named, players))
        assert "seat" not in str(move_words(taken, players)) and "место" not in str(move_words(taken, players))


async def test_believe_log_names_the_player_who_takes_the_pile():
    """A Believe game played to a check another player loses: his name in the log, not "seat 0"."""
    table, players, game = await sync_to_async(started_table)("verish", 3)

    def to_a_check() -> int:
        g = Game.objects.get(pk=game.pk)
        for _ in range(500):
            seat = seat_view(g, None)["view"]["to_act"][0]
            legal = seat_view(g, seat)["legal"]
            doubt = next((a for a in legal if a["type"] == "doubt"), None)
            claims = [a for a in legal if a["type"] == "claim"]
            # a false claim (a card of another rank), which the next player doubts: the claimant takes
            action = doubt or next((a for a in claims if any(c[0] != a["kind"] for c in a["cards"])), claims[0])
            table_apply_action(g.pk, seat, g.move_number, action)
            g.refresh_from_db()
            check = seat_view(g, None)["view"].get("last_check")
            if doubt is not None and check and check["taker"] != seat:
                return check["taker"]
        raise AssertionError("no check taken by another player")

    taker = await sync_to_async(to_a_check)()
    comm = await connect(f"/ws/tables/{table.pk}/", players[0], timeout=5)
    frame = await comm.receive_from(timeout=5)
    log = frame[frame.index('id="table-log"') :]
    first_line = html.unescape(re.sub(r"<[^>]+>", "", log[log.index("<li") : log.index("</li>")]))
    assert f"{players[taker].display_name} takes" in first_line, first_line
    assert "seat" not in first_line, first_line
    await comm.disconnect()
