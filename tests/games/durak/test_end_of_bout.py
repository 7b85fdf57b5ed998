"""D9: the end of the bout -- who attacks next, and the draw order."""

from __future__ import annotations

from tests.games.durak.helpers import DONE, TAKE, attack, cover, play, position

STOCK = ["6C", "8C", "9C", "6D", "8D", "6H", "8H", "9H", "TH", "JH", "QH", "KH"]


def test_d9_beaten_the_table_is_discarded_and_the_defender_attacks_next() -> None:
    hands = {0: ["7C", "QD"], 1: ["TC", "JC"], 2: ["9S", "8S"]}
    state = position(hands, attacker=0, stock=STOCK)
    discard = state.view(None)["discard"]
    play(state, (0, attack("7C")), (1, cover("7C", "TC")), (0, DONE), (2, DONE))
    v = state.view(None)
    assert (v["attacker"], v["defender"], v["discard"], v["table"]) == (1, 2, discard + 2, [])


def test_d9_taken_the_defender_loses_his_turn_and_a_player_who_left_is_skipped() -> None:
    hands = {0: ["7C", "QD"], 1: ["TS", "JS"], 3: ["9S", "8S"]}
    state = position(hands, attacker=0, seats=4, out=[2])
    play(state, (0, attack("7C")), (1, TAKE), (0, DONE), (3, DONE))
    v = state.view(None)
    assert (v["attacker"], v["defender"]) == (3, 0)  # seat 2, left of the defender, has left


def test_d9_when_the_beaten_defender_has_left_the_next_player_to_his_left_attacks() -> None:
    hands = {0: ["7C", "QD"], 1: ["TC"], 2: ["9S", "8S"]}
    state = position(hands, attacker=0)
    play(state, (0, attack("7C")), (1, cover("7C", "TC")))
    v = state.view(None)
    assert v["finished"] == [1]
    assert (v["attacker"], v["defender"]) == (2, 0)


def test_d9_the_leader_draws_first_then_clockwise_the_defender_last() -> None:
    hands = {0: ["7C", "7D", "QD", "KD", "AD", "JD"], 1: ["TC", "TD", "QC", "KC", "AC", "JC"], 2: ["9S", "8S"]}
    state = position(hands, attacker=0, stock=["6C", "8C", "9C", "6D", "8D"])
    play(state, (0, attack("7C", "7D")), (1, cover("7C", "TC")), (1, cover("7D", "TD")), (0, DONE), (2, DONE))
    assert sorted(state.view(0)["hand"]) == sorted(["QD", "KD", "AD", "JD", "6C", "8C"])
    assert sorted(state.view(2)["hand"]) == sorted(["9S", "8S", "9C", "6D", "8D"])
    assert len(state.view(1)["hand"]) == 4  # the stock ran out before the defender
