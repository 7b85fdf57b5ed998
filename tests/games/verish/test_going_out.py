"""V5 (going out only at the check of one's last cards) and V6 (the loser)."""

from __future__ import annotations

import pytest

from games import IllegalAction

from .helpers import BELIEVE, DOUBT, add, claim, position


def test_v5_last_cards_are_announced_but_the_player_stays_in_until_the_check() -> None:
    state = position({0: ["6S", "6C"], 1: ["7S", "7C"], 2: ["8S", "8C"]})
    state.apply(0, claim(["6S", "6C"], "6"))
    view = state.view(2)
    assert view["pile"]["placements"] == [{"seat": 0, "count": 2, "last": True}]
    assert view["going_out"] == [0]
    assert view["finished"] == []
    assert view["hand_sizes"] == [0, 2, 2]
    state.apply(1, add(["7S"]))
    state.apply(2, add(["8S"]))
    # V5: still in the game, seat 0 answers, but with no cards may only believe or doubt
    assert state.to_act() == [0]
    assert state.legal_actions(0) == [BELIEVE, DOUBT]
    with pytest.raises(IllegalAction, match="no cards"):
        state.apply(0, add(["6S"]))


def test_v5_going_out_when_the_pile_is_resolved_without_taking_it() -> None:
    state = position({0: ["6S", "6C"], 1: ["7S", "7C"], 2: ["8S", "8C"]})
    state.apply(0, claim(["6S", "6C"], "6"))
    state.apply(1, BELIEVE)  # true: discarded
    view = state.view(None)
    assert view["finished"] == [0]
    assert view["going_out"] == []
    assert not state.is_over()
    assert state.to_act() == [1]
    state.apply(1, claim(["7S"], "7"))
    assert state.to_act() == [2]  # seat 0 is skipped from now on
    state.apply(2, add(["8S"]))
    assert state.to_act() == [1]


def test_v5_taking_the_pile_back_keeps_the_player_in() -> None:
    state = position({0: ["6S", "6C"], 1: ["7S", "7C"], 2: ["8S", "8C"]})
    state.apply(0, claim(["6S", "6C"], "7"))  # his last cards, and a lie
    state.apply(1, DOUBT)
    view = state.view(None)
    assert view["finished"] == []
    assert view["going_out"] == []
    assert view["hand_sizes"] == [2, 2, 2]
    assert state.to_act() == [1]


def test_v5_an_earlier_placement_of_last_cards_goes_out_with_the_pile() -> None:
    """Seat 0's last cards are under seat 1's addition; seat 2 believes the lie and takes all."""
    state = position({0: ["6S"], 1: ["7S", "7C"], 2: ["8S", "8C"]})
    state.apply(0, claim(["6S"], "6"))
    state.apply(1, add(["7S"]))
    state.apply(2, BELIEVE)
    assert state.view(None)["finished"] == [0]
    assert state.view(None)["hand_sizes"] == [0, 1, 4]
    assert state.to_act() == [1]  # believe+false: the answerer's left neighbour, skipping seat 0


def test_v5_the_empty_handed_answerer_who_believes_a_lie_is_back_in() -> None:
    state = position({0: ["6S"], 1: ["7S"], 2: ["8S", "8C"]})
    state.apply(0, claim(["6S"], "6"))
    state.apply(1, add(["7S"]))
    state.apply(2, add(["8S"]))
    state.apply(0, BELIEVE)  # the 8S is no six: seat 0 takes three cards
    view = state.view(None)
    assert view["finished"] == [1]
    assert view["hand_sizes"] == [3, 0, 1]
    assert state.to_act() == [2]


def test_v6_the_scenario_of_two_empty_hands() -> None:
    """Both put down their last cards; a doubted lie sends the pile to the liar, who loses."""
    state = position({0: ["AS", "AC"], 1: ["AD", "AH"]}, options={"kind": "suit"})
    state.apply(0, claim(["AS", "AC"], "S"))
    assert not state.is_over()
    state.apply(1, add(["AD", "AH"]))
    assert state.to_act() == [0]
    state.apply(0, DOUBT)
    assert state.is_over()
    assert state.result() == {"loser": 1, "finished": [0]}
    assert state.view(None)["phase"] == "over"
    assert state.to_act() == []
    assert state.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, claim(["AS"], "S"))


def test_v5_several_leave_at_one_check_in_the_order_they_emptied_their_hands() -> None:
    state = position({0: ["6S"], 1: ["7S"], 2: ["8S"]}, turn=1)
    state.apply(1, claim(["7S"], "7"))
    state.apply(2, add(["8S"]))  # a lie that is never checked
    state.apply(0, add(["6S"]))  # "one more seven": a lie, and the latest placement
    state.apply(1, DOUBT)  # seat 1 has no cards but may doubt; the pile goes to seat 0
    assert state.result() == {"loser": 0, "finished": [1, 2]}


def test_v6_when_all_go_out_at_once_the_last_to_empty_his_hand_loses() -> None:
    """Decision (rules silent): a believed true pile that empties every remaining hand."""
    state = position({0: ["6S"], 1: ["6C"], 2: ["6D"]})
    state.apply(0, claim(["6S"], "6"))
    state.apply(1, add(["6C"]))
    state.apply(2, add(["6D"]))
    state.apply(0, BELIEVE)
    assert state.is_over()
    # seats 0, 1, 2 emptied their hands in that order: seat 2 held cards last
    assert state.result() == {"loser": 2, "finished": [0, 1]}
    assert state.view(None)["discard"] == 36


def test_v6_a_two_player_game_ends_when_one_leaves() -> None:
    state = position({0: ["6S"], 1: ["7S", "7C"]})
    state.apply(0, claim(["6S"], "6"))
    state.apply(1, BELIEVE)
    assert state.result() == {"loser": 1, "finished": [0]}
