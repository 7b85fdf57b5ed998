"""D7: taking the cards, and the throwers' last turns."""

from __future__ import annotations

from tests.games.durak.helpers import DONE, TAKE, attack, cover, play, position, refused, throw

HANDS3 = {
    0: ["7C", "7D", "9D", "6S", "QD", "KD"],
    1: ["TC", "JC", "QC", "AC", "TD", "JD"],
    2: ["7S", "7H", "8S", "9S", "KS", "AS"],
}
STOCK = ["6C", "8C", "9C", "6D", "8D", "6H", "8H", "9H", "TH", "JH"]


def test_d7_the_defender_takes_only_while_a_card_is_uncovered() -> None:
    state = play(position(HANDS3, attacker=0, stock=STOCK), (0, attack("7C")), (1, cover("7C", "TC")))
    refused(state, 1, TAKE, "nothing to take")
    assert {"type": "take"} not in state.legal_actions(1)


def test_d7_after_taking_no_cover_and_each_thrower_gets_one_last_turn_from_the_attacker() -> None:
    state = play(position(HANDS3, attacker=0, stock=STOCK), (0, attack("7C")), (1, TAKE))
    v = state.view(None)
    assert v["phase"] == "taking" and state.to_act() == [0]
    refused(state, 1, cover("7C", "TC"), "cannot cover")
    refused(state, 2, throw("7S"), "cannot throw in")
    state.apply(0, throw("7D"))  # several throws in one turn, ended by done
    assert state.to_act() == [0]
    state.apply(0, DONE)
    assert state.to_act() == [2]
    state.apply(2, throw("7S", "7H"))
    state.apply(2, DONE)
    v = state.view(None)
    assert v["phase"] == "attack"
    assert sorted(state.view(1)["hand"]) == sorted([*HANDS3[1], "7C", "7D", "7S", "7H"])


def test_d7_the_defender_picks_up_at_once_when_the_limit_is_reached() -> None:
    state = play(position(HANDS3, attacker=0, stock=STOCK, bout_limit=2), (0, attack("7C")), (1, TAKE))
    state.apply(0, throw("7D"))
    v = state.view(None)
    assert v["phase"] == "attack"  # L = 2 reached: seat 2 gets no turn
    assert v["hand_sizes"][1] == 8


def test_d7_takes_covered_cards_too_and_the_next_attacker_is_to_the_defenders_left() -> None:
    hands = {0: ["7C", "7D", "QD"], 1: ["8C", "6S", "QS", "KS", "AS", "JS"], 2: ["9S", "8S"]}
    state = play(
        position(hands, attacker=0, stock=STOCK),
        (0, attack("7C", "7D")),
        (1, cover("7C", "8C")),
        (1, TAKE),
        (0, DONE),
        (2, DONE),
    )
    v = state.view(None)
    assert (v["attacker"], v["defender"]) == (2, 0)  # the defender loses his turn (D9)
    # D9: the leader draws first, then clockwise; the defender (8 cards) draws nothing
    assert sorted(state.view(0)["hand"]) == sorted(["QD", "6C", "8C", "9C", "6D", "8D"])
    assert sorted(state.view(2)["hand"]) == sorted(["9S", "8S", "6H", "8H", "9H", "TH"])
    assert sorted(state.view(1)["hand"]) == sorted(["7C", "7D", "8C", "6S", "QS", "KS", "AS", "JS"])
