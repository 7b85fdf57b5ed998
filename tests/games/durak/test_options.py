"""Each option of the rules' table: validation, and its effect in play."""

from __future__ import annotations

import pytest

from games import InvalidOptions
from games.durak import GAME
from tests.games.durak.helpers import DONE, attack, cover, dealt, play, position, refused


@pytest.mark.parametrize(
    ("options", "seats", "named"),
    [
        ({"colour": "red"}, 2, "unknown option 'colour'"),
        ({"deck": 40}, 2, "deck"),
        ({"deck": "many"}, 2, "deck"),
        ({"mode": "swap"}, 2, "mode"),
        ({"lead": "all"}, 2, "lead"),
        ({"throw_in": "left"}, 2, "throw_in"),
        ({"first_bout_limit": 0}, 2, "first_bout_limit"),
        ({"first_bout_limit": 7}, 2, "first_bout_limit"),
        ({"bout_limit": 0}, 2, "bout_limit"),
        ({"bout_limit": 7}, 2, "bout_limit"),
        ({"dummy": "yes"}, 2, "dummy"),
        ({"spades_by_spades": 1}, 2, "spades_by_spades"),
        ({"trump_show": None}, 2, "trump_show"),
        ({"teams": True}, 3, "teams"),
        ({"redeal_five_of_suit": "no"}, 2, "redeal_five_of_suit"),
        ({"first_attacker": 2}, 2, "first_attacker"),
        ({"first_attacker": True}, 2, "first_attacker"),
        ({}, 7, "seats"),
        ({"deck": 52}, 9, "seats"),
        ({}, 1, "seats"),
    ],
)
def test_bad_options_are_refused_with_the_option_named(options: dict, seats: int, named: str) -> None:
    with pytest.raises(InvalidOptions, match=named):
        GAME.new(options=options, seats=seats)


def test_options_are_completed_with_the_rules_defaults() -> None:
    state = GAME.new(seats=2, seed=1)
    assert state.options == {
        "deck": 36,
        "mode": "throw_in",
        "lead": "same_rank",
        "throw_in": "all",
        "first_bout_limit": 5,
        "bout_limit": 6,
        "dummy": False,
        "spades_by_spades": False,
        "trump_show": True,
        "teams": False,
        "redeal_five_of_suit": False,
        "first_attacker": None,
    }
    assert GAME.new(options={"deck": 52}, seats=8, seed=1).seats == 8
    assert [o["name"] for o in GAME.option_schema()] == list(state.options)


def test_dealer_and_seed_are_checked() -> None:
    with pytest.raises(InvalidOptions, match="dealer"):
        GAME.new(seats=3, dealer=3)
    with pytest.raises(InvalidOptions, match="seed"):
        GAME.new(seats=3, seed="x")  # type: ignore[arg-type]


def test_lead_single_allows_one_card_only() -> None:
    state = position({0: ["7C", "7D", "9S"], 1: ["TC", "TD", "AS"]}, attacker=0, lead="single")
    refused(state, 0, attack("7C", "7D"), "one card")
    assert all(len(a["cards"]) == 1 for a in state.legal_actions(0))
    state = position({0: ["7C", "7D", "9S"], 1: ["TC", "TD", "AS"]}, attacker=0)
    state.apply(0, attack("7C", "7D"))


NEIGHBOURS = {0: ["7C", "QD"], 1: ["TC", "JC", "QC"], 2: ["9S", "8S"], 3: ["7D", "AS"]}


def test_throw_in_neighbors_only_the_defenders_two_neighbours_throw() -> None:
    state = play(position(NEIGHBOURS, attacker=0, throw_in="neighbors"), (0, attack("7C")), (1, cover("7C", "TC")))
    play(state, (0, DONE), (2, DONE))  # seat 3 sits across and never gets the right
    assert state.view(None)["phase"] == "attack"
    state = play(position(NEIGHBOURS, attacker=0), (0, attack("7C")), (1, cover("7C", "TC")))
    play(state, (0, DONE), (2, DONE))
    assert state.view(None)["throw_right"] == 3
    assert {"type": "throw", "cards": ["7D"]} in state.legal_actions(3)


def test_trump_show_only_matters_in_transfer_mode() -> None:
    state = position({0: ["7C", "QD"], 1: ["7H", "JC"], 2: ["9S", "8S"]}, attacker=0, trump_show=True)
    state.apply(0, attack("7C"))
    assert {a["type"] for a in state.legal_actions(1)} == {"cover", "take"}
    refused(state, 1, {"type": "show", "card": "7H"}, "transfer mode")


def test_first_attacker_and_the_dummy_and_spades_options_reach_the_deal() -> None:
    hands = {0: ["6H", "8C", "9C", "TC", "JC", "QC"], 1: ["7D", "8D", "9D", "TD", "JD", "X1"]}
    state = dealt(hands, "AS", dummy=True, spades_by_spades=True, first_attacker=1)
    v = state.view(None)
    assert (v["attacker"], v["trump"]) == (1, None)
    assert "X1" in state.view(1)["hand"]
