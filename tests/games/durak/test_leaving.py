"""D10: leaving the game, places, the fool and the draw."""

from __future__ import annotations

from games import IllegalAction
from tests.games.durak.helpers import DONE, attack, cover, play, position, refused


def test_d10_the_last_player_holding_cards_is_the_fool() -> None:
    state = position({0: ["7C"], 1: ["TC", "6S"]}, attacker=0)
    assert state.result() is None
    play(state, (0, attack("7C")), (1, cover("7C", "TC")))
    assert state.is_over()
    assert state.result() == {"fool": 1, "draw": False, "places": [[0]], "losing_team": None}
    v = state.view(None)
    assert (v["phase"], v["over"], v["to_act"]) == ("over", True, [])
    assert all(state.legal_actions(s) == [] for s in range(2))
    refused(state, 1, attack("6S"), "the game is over")


def test_d10_no_one_holding_cards_is_a_draw() -> None:
    state = play(position({0: ["7C"], 1: ["TC"]}, attacker=0), (0, attack("7C")), (1, cover("7C", "TC")))
    assert state.result() == {"fool": None, "draw": True, "places": [[0, 1]], "losing_team": None}


def test_d10_players_leaving_at_the_same_bout_share_a_place() -> None:
    hands = {0: ["7C"], 1: ["TC"], 2: ["9S", "8S"], 3: ["6D", "AS"]}
    state = play(position(hands, attacker=0), (0, attack("7C")), (1, cover("7C", "TC")))
    assert not state.is_over()
    v = state.view(None)
    assert v["finished"] == [0, 1] and v["in_game"] == [False, False, True, True]
    assert (v["attacker"], v["defender"]) == (2, 3)
    play(state, (2, attack("8S")), (3, cover("8S", "AS")), (2, DONE), (3, attack("6D")), (2, {"type": "take"}))
    assert state.result() == {"fool": 2, "draw": False, "places": [[0, 1], [3]], "losing_team": None}


def test_d10_no_one_leaves_while_the_stock_has_cards() -> None:
    state = position({0: ["7C"], 1: ["TC", "JC"]}, attacker=0, stock=["6C", "8C", "9C"])
    play(state, (0, attack("7C")), (1, cover("7C", "TC")))  # no thrower holds a card: beaten
    assert not state.is_over()
    assert state.view(None)["finished"] == []
    assert len(state.view(0)["hand"]) == 3


def test_d10_a_game_that_is_over_accepts_no_action() -> None:
    state = play(position({0: ["7C"], 1: ["TC"]}, attacker=0), (0, attack("7C")), (1, cover("7C", "TC")))
    for action in ({"type": "done"}, {"type": "take"}, attack("7C")):
        try:
            state.apply(0, action)
        except IllegalAction as e:
            assert "over" in str(e)
        else:
            raise AssertionError("accepted after the end")
