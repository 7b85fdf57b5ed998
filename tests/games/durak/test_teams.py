"""Teams (D4, D6, D9, D10): 2 vs 2 or 3 vs 3, even seats against odd seats."""

from __future__ import annotations

import pytest

from games import InvalidOptions
from games.durak import GAME
from tests.games.durak.helpers import DONE, TAKE, attack, cover, play, position, refused, throw


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_teams_need_four_or_six_seats(seats: int) -> None:
    with pytest.raises(InvalidOptions, match="teams"):
        GAME.new(options={"teams": True}, seats=seats)


def test_d4_the_defender_is_the_next_opponent_skipping_partners() -> None:
    hands = {0: ["7C", "QD"], 2: ["9S", "8S"], 3: ["6D", "AS"]}
    state = position(hands, attacker=0, seats=4, out=[1], teams=True)
    assert state.view(None)["defender"] == 3


def test_d6_only_the_defenders_opponents_throw_in_the_partner_never() -> None:
    hands = {0: ["7C", "QD"], 1: ["TC", "JC", "KC"], 2: ["9S", "7S"], 3: ["7D", "AS"]}
    state = play(position(hands, attacker=0, seats=4, teams=True), (0, attack("7C")), (1, cover("7C", "TC")))
    play(state, (0, DONE))
    assert state.view(None)["throw_right"] == 2
    state.apply(2, throw("7S"))
    state.apply(1, TAKE)
    assert state.view(None)["phase"] == "taking"
    refused(state, 3, throw("7D"), "cannot throw in")


def test_d10_teams_end_when_one_team_is_out_and_the_other_loses() -> None:
    hands = {0: ["7C"], 1: ["TC", "6S"], 3: ["8D"]}
    state = play(position(hands, attacker=0, seats=4, out=[2], teams=True), (0, attack("7C")), (1, cover("7C", "TC")))
    assert state.result() == {"fool": None, "draw": False, "places": [[2], [0]], "losing_team": 1}


def test_d10_a_single_player_left_on_the_losing_team_is_the_fool() -> None:
    hands = {0: ["7C"], 1: ["TC", "6S"]}
    state = position(hands, attacker=0, seats=4, out=[2, 3], teams=True)
    play(state, (0, attack("7C")), (1, cover("7C", "TC")))
    assert state.result()["fool"] == 1
    assert state.result()["losing_team"] == 1


def test_d10_both_teams_out_at_the_same_bout_is_a_draw() -> None:
    hands = {0: ["7C"], 1: ["TC"]}
    state = position(hands, attacker=0, seats=4, out=[2, 3], teams=True)
    play(state, (0, attack("7C")), (1, cover("7C", "TC")))
    assert state.result() == {"fool": None, "draw": True, "places": [[2, 3], [0, 1]], "losing_team": None}


def test_d9_teams_taken_with_the_left_player_out_his_partner_attacks() -> None:
    hands = {0: ["7C", "QD", "KD"], 1: ["TS", "JS"], 3: ["9S", "8S"], 4: ["6D", "AD"], 5: ["6C", "AC"]}
    state = position(hands, attacker=0, seats=6, out=[2], teams=True)
    play(state, (0, attack("7C")), (1, TAKE), (0, DONE), (4, DONE))
    v = state.view(None)
    assert v["phase"] == "attack"
    assert v["attacker"] == 4  # seat 2 (left of defender 1) has left: the next of his team
    assert v["defender"] == 5
