"""Views, move-log wording, timeouts and snapshots (the platform's side of the contract)."""

from __future__ import annotations

import json

import pytest

from games import IllegalAction, InvalidOptions
from games.durak import GAME
from tests.games.durak.helpers import DONE, TAKE, attack, cover, dealt, play, position, show, throw, transfer

HANDS = {0: ["7C", "8C", "9D", "6S", "QD", "KD"], 1: ["7D", "7H", "TC", "JC", "QC", "AC"]}


def test_views_have_the_rules_keys_and_only_the_seats_own_hand() -> None:
    state = dealt(HANDS, "9H")
    keys = {"hand_sizes", "to_act", "phase", "over", "result", "trump", "trump_card", "stock", "discard"}
    keys |= {"table", "attacker", "defender", "throw_right", "limit", "finished", "shows"}
    spectator = state.view(None)
    assert keys <= set(spectator) and "hand" not in spectator
    assert sorted(state.view(0)["hand"]) == sorted(HANDS[0])
    assert not set(HANDS[1]) & set(json.dumps(state.view(0)).replace('"', " ").split())
    json.dumps(spectator)


def test_describe_names_public_cards_without_the_actor() -> None:
    state = position(HANDS, attacker=0, mode="transfer")
    assert state.describe(0, attack("7C")) == "leads 7C"
    state.apply(0, attack("7C"))
    assert state.describe(1, cover("7C", "TC")) == "covers 7C with TC"
    assert state.describe(1, transfer("7D")) == "transfers the attack with 7D"
    assert state.describe(1, show("7H")) == "transfers the attack by showing 7H"
    assert state.describe(1, TAKE) == "takes the cards"
    assert state.describe(0, throw("7S")) == "throws in 7S"
    assert state.describe(0, DONE) == "says done"
    assert state.describe(0, "junk") == "makes an invalid move"  # type: ignore[arg-type]


def test_timeouts_lead_the_lowest_non_trump_take_or_say_done() -> None:
    state = position({0: ["6H", "9D", "7S"], 1: ["TC", "JC"]}, attacker=0)
    assert state.default_action(0) == attack("7S")
    state.apply(0, attack("7S"))
    assert state.default_action(1) == TAKE
    state.apply(1, TAKE)
    assert state.default_action(0) == DONE


def test_snapshots_restore_exactly_and_copies_are_independent() -> None:
    state = play(position(HANDS, attacker=0, stock=["6C", "6D"]), (0, attack("7C")))
    data = json.loads(json.dumps(state.to_json()))
    assert data["game"] == "durak"
    assert GAME.from_json(data).to_json() == state.to_json()
    twin = state.copy()
    twin.apply(1, cover("7C", "TC"))
    assert state.view(None)["table"] == [{"attack": "7C", "cover": None}]
    assert twin.view(None)["table"] == [{"attack": "7C", "cover": "TC"}]


def test_zones_hold_every_card_once() -> None:
    state = play(position(HANDS, attacker=0, stock=["6C", "6D"]), (0, attack("7C")), (1, cover("7C", "TC")))
    cards = [c for zone in state.zones().values() for c in zone]
    assert sorted(cards) == sorted(state.deck)


def test_a_broken_snapshot_or_a_bad_seat_is_refused() -> None:
    state = position(HANDS, attacker=0)
    data = state.to_json()
    del data["hands"]
    with pytest.raises(InvalidOptions, match="hands"):
        GAME.from_json(data)
    with pytest.raises(IllegalAction, match="seat"):
        state.view(2)
