"""B1 bidding: order, the same-level new-suit rule, the declarer, the void deal."""

from __future__ import annotations

import pytest

from games import IllegalAction

from .helpers import DEAL4, act, make


def bid(tricks: int, suit: str) -> dict:
    return {"type": "bid", "tricks": tricks, "suit": suit}


PASS = {"type": "pass"}


def test_seed_example() -> None:
    """1: two clubs; 2: two spades; 3: three hearts; 4: pass; 1: three clubs; 2: four clubs;
    3: pass; 1: pass -> player 2 is declarer with four clubs (seats 0..3 here)."""
    state = make(DEAL4)
    assert state.to_act() == [0]
    act(state, (0, bid(2, "C")), (1, bid(2, "S")), (2, bid(3, "H")), (3, PASS))
    act(state, (0, bid(3, "C")), (1, bid(4, "C")), (2, PASS), (0, PASS))
    view = state.view(None)
    assert (view["declarer"], view["contract"], view["trump"]) == (1, {"tricks": 4, "suit": "C"}, "C")
    assert view["phase"] == "declare"  # 36 cards, 4 players: no widow, no discard
    assert state.to_act() == [1]
    assert [b.get("tricks") for b in view["bids"]] == [2, 2, 3, None, 3, 4, None, None]


def test_first_bidder_is_left_of_dealer() -> None:
    for dealer in range(4):
        assert make(DEAL4, dealer=dealer).to_act() == [(dealer + 1) % 4]


@pytest.mark.parametrize(
    ("tricks", "suit", "legal"),
    [
        (2, "C", False),
        (2, "S", True),
        (2, "D", True),
        (1, "H", False),
        (3, "C", True),
        (9, "H", True),
        (10, "H", False),
    ],
)
def test_same_number_needs_a_new_suit_more_tricks_any_suit(tricks: int, suit: str, legal: bool) -> None:
    state = act(make(DEAL4), (0, bid(2, "C")))
    if legal:
        state.apply(1, bid(tricks, suit))
    else:
        with pytest.raises(IllegalAction):
            state.apply(1, bid(tricks, suit))


def test_suits_named_at_a_level_are_remembered_until_the_level_rises() -> None:
    state = act(make(DEAL4), (0, bid(2, "C")), (1, bid(2, "S")), (2, bid(2, "H")))
    legal = state.legal_actions(3)
    assert bid(2, "D") in legal and PASS in legal
    assert bid(2, "C") not in legal and bid(2, "S") not in legal and bid(2, "H") not in legal
    assert bid(3, "C") in legal and bid(9, "S") in legal and len(legal) == 1 + 1 + 7 * 4
    state.apply(3, bid(3, "D"))
    assert bid(3, "C") in state.legal_actions(0) and bid(3, "D") not in state.legal_actions(0)


def test_passed_players_are_out_of_the_bidding() -> None:
    state = act(make(DEAL4), (0, bid(1, "C")), (1, PASS), (2, bid(1, "S")), (3, bid(2, "H")))
    assert state.to_act() == [0]
    state.apply(0, bid(3, "C"))
    assert state.to_act() == [2]  # seat 1 passed
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, bid(4, "C"))


def test_all_pass_is_a_void_deal() -> None:
    state = act(make(DEAL4), (0, PASS), (1, PASS), (2, PASS), (3, PASS))
    assert state.is_over()
    result = state.result()
    assert result["void"] is True and result["scores"] == [0, 0, 0, 0] and result["made"] is False
    assert state.next_game() == (3, {"deck": 36, "widow_open": 0})  # B10: the same dealer deals again


def test_last_player_left_must_still_bid_or_pass() -> None:
    """Three passes do not make the fourth player declarer: he has not bid yet."""
    state = act(make(DEAL4), (0, PASS), (1, PASS), (2, PASS))
    assert state.phase == "bidding" and state.to_act() == [3]
    state.apply(3, bid(1, "D"))
    assert state.view(None)["declarer"] == 3 and state.view(None)["contract"] == {"tricks": 1, "suit": "D"}


def test_bidding_ends_when_all_but_the_bidder_passed() -> None:
    state = act(make(DEAL4), (0, bid(1, "S")), (1, PASS), (2, PASS), (3, PASS))
    assert state.phase == "declare" and state.view(None)["declarer"] == 0


@pytest.mark.parametrize(
    "action",
    [
        {"type": "bid", "tricks": "2", "suit": "C"},
        {"type": "bid", "tricks": True, "suit": "C"},
        {"type": "bid", "tricks": 0, "suit": "C"},
        {"type": "bid", "tricks": 2, "suit": "X"},
        {"type": "bid", "tricks": 2, "suit": "SC"},
        {"type": "bid", "tricks": 2, "suit": ["S"]},
        {"type": "bid", "tricks": 2},
        {"type": "bid", "tricks": 2, "suit": "C", "extra": 1},
        {"type": "pass", "now": True},
        {"type": "play", "card": "AS"},
        {"type": "discard", "cards": ["AS"]},
    ],
)
def test_malformed_or_wrong_phase_bids_are_refused_and_change_nothing(action: dict) -> None:
    state = make(DEAL4)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(0, action)
    assert state.to_json() == before
