"""D11: the next game of a match."""

from __future__ import annotations

import pytest

from games import IllegalAction, InvalidOptions
from games.durak import GAME
from tests.games.durak.helpers import attack, cover, play, position


def finished(fool_holds: bool, seats: int = 3, **options: object):
    hands = {0: ["7C"], 1: ["TC"], 2: ["9S", "8S"]} if fool_holds else {0: ["7C"], 1: ["TC"]}
    if seats == 2:
        hands = {0: ["7C"], 1: ["TC", "6S"]} if fool_holds else {0: ["7C"], 1: ["TC"]}
    state = position(hands, attacker=0, seats=seats, **options)
    return play(state, (0, attack("7C")), (1, cover("7C", "TC")))


def test_d11_the_fool_deals_and_under_the_fool_his_right_neighbour_attacks() -> None:
    state = finished(True)
    assert state.result()["fool"] == 2
    dealer, options = state.next_game()
    assert (dealer, options["first_attacker"]) == (2, 1)
    nxt = GAME.new(options=options, seats=3, dealer=dealer, seed=5)
    assert nxt.view(None)["defender"] == 2  # the fool defends first


def test_d11_from_the_fool_his_left_neighbour_attacks() -> None:
    dealer, options = finished(True).next_game(fool_rule="from")
    assert (dealer, options["first_attacker"]) == (2, 0)


def test_d11_after_a_draw_the_same_dealer_deals_and_d3_applies() -> None:
    state = finished(False, seats=2)
    assert state.result()["draw"]
    dealer, options = state.next_game()
    assert dealer == state.dealer and options["first_attacker"] is None


def test_d11_teams_without_a_single_fool_the_losing_teams_first_player_deals() -> None:
    hands = {0: ["7C"], 1: ["TC", "6S"], 3: ["8D"]}
    state = position(hands, attacker=0, seats=4, out=[2], teams=True)
    play(state, (0, attack("7C")), (1, cover("7C", "TC")))
    assert state.result()["fool"] is None
    dealer, options = state.next_game()
    assert dealer == 1 and options["first_attacker"] == 0 and options["teams"]


def test_d11_refuses_an_unfinished_game_and_bad_choices() -> None:
    with pytest.raises(IllegalAction, match="not over"):
        GAME.new(seats=2, seed=1).next_game()
    with pytest.raises(InvalidOptions, match="fool_rule"):
        finished(True).next_game(fool_rule="sideways")
    with pytest.raises(InvalidOptions, match="colour"):
        finished(True).next_game(colour="red")
