"""D3: who attacks first (and D4: whom he attacks)."""

from __future__ import annotations

from tests.games.durak.helpers import dealt

PLAIN = {
    0: ["7C", "8C", "9C", "TC", "JC", "QC"],
    1: ["7D", "8D", "9D", "TD", "JD", "QD"],
    2: ["7S", "8S", "9S", "TS", "JS", "QS"],
}


def test_d3_the_lowest_trump_attacks_first_and_the_left_neighbour_defends() -> None:
    hands = {0: ["6C", "KH", "8C", "9C", "TC", "JC"], 1: ["7D", "8H", "9D", "TD", "JD", "QD"], 2: PLAIN[2]}
    state = dealt(hands, "AH", dealer=0)
    v = state.view(None)
    assert (v["attacker"], v["defender"]) == (1, 2)  # 8H beats KH as the lowest trump
    assert state.to_act() == [1]


def test_d3_without_trumps_in_hand_the_lowest_card_attacks() -> None:
    hands = {0: PLAIN[0], 1: PLAIN[1], 2: ["6S", *PLAIN[2][1:]]}
    state = dealt(hands, "AH")
    assert state.to_act() == [2]


def test_d3_a_tie_on_the_lowest_card_goes_to_the_first_clockwise_from_the_dealers_left() -> None:
    # every seat's lowest card is a seven; the dealer is seat 1, so seat 2 comes first
    state = dealt(PLAIN, "AH", dealer=1)
    assert state.to_act() == [2]
    state = dealt(PLAIN, "AH", dealer=2)
    assert state.to_act() == [0]


def test_d3_with_the_dummy_turned_the_lowest_card_attacks_and_the_dummy_has_no_rank() -> None:
    hands = {0: ["X1", "8C", "9C", "TC", "JC", "QC"], 1: ["7D", "8D", "9D", "TD", "JD", "QD"]}
    state = dealt(hands, "6H", dummy=True)
    assert state.view(None)["trump"] == "H"
    assert state.to_act() == [1]  # 7D; the dummy does not count as a low card


def test_d3_first_attacker_overrides_the_lowest_trump() -> None:
    hands = {0: ["6H", *PLAIN[0][1:]], 1: PLAIN[1], 2: PLAIN[2]}
    assert dealt(hands, "AH").to_act() == [0]
    state = dealt(hands, "AH", first_attacker=2)
    assert state.to_act() == [2]
    assert state.view(None)["defender"] == 0
