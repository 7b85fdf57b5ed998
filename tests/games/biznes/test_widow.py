"""B2: the widow is shown to everyone and taken; the discard is secret."""

from __future__ import annotations

import pytest

from games import IllegalAction
from tests.games.contract import cards_in, leaks

from .helpers import act, make, play

#: the seed's worked example deal: 5 players, 36 cards, widow KH
SEED5 = [
    ["AS", "6C", "9D", "TD", "QC", "TH", "8H"],
    ["6S", "AC", "AD", "TS", "JD", "JH", "6H"],
    ["7S", "7C", "6D", "KS", "TC", "QH", "7H"],
    ["8S", "8C", "7D", "JS", "KC", "AH", "KD"],
    ["9S", "9C", "8D", "QS", "JC", "9H", "QD"],
]
PASS = {"type": "pass"}


def won_bidding(options: dict | None = None):
    state = make(SEED5, widow=["KH"], options=options)
    return act(state, (0, {"type": "bid", "tricks": 3, "suit": "H"}), (1, PASS), (2, PASS), (3, PASS), (4, PASS))


def test_closed_widow_is_seen_by_nobody_until_the_bidding_ends() -> None:
    state = make(SEED5, widow=["KH"])
    for seat in [None, 0, 1, 2, 3, 4]:
        assert "KH" not in cards_in(state.view(seat))


def test_widow_shown_to_everyone_and_taken_by_the_declarer() -> None:
    state = won_bidding()
    assert state.phase == "discard" and state.to_act() == [0]
    for seat in [None, 0, 1, 4]:
        assert state.view(seat)["widow"] == ["KH"]
    assert "KH" in state.view(0)["hand"]
    assert state.view(None)["hand_sizes"] == [8, 7, 7, 7, 7]


def test_discard_exactly_the_widow_size_of_held_cards() -> None:
    state = won_bidding()
    for bad in (["TH", "8H"], ["AH"], [], "TH", ["TH", "TH"]):
        with pytest.raises(IllegalAction):
            state.apply(0, {"type": "discard", "cards": bad})
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, {"type": "discard", "cards": ["6S"]})
    state.apply(0, {"type": "discard", "cards": ["KH"]})  # a widow card may go back
    assert state.phase == "declare" and state.view(None)["hand_sizes"] == [7] * 5


def test_discard_is_secret_and_takes_no_part_in_play() -> None:
    state = won_bidding()
    state.apply(0, {"type": "discard", "cards": ["TH"]})
    assert state.view(0)["discard"] == ["TH"]
    for seat in [None, 1, 2, 3, 4]:
        assert "discard" not in state.view(seat)
        assert "TH" not in cards_in(state.view(seat))
    assert "TH" not in state.view(0)["hand"]
    assert state.zones()["discard"] == ["TH"]
    assert not leaks(state)


def test_discard_lists_every_combination() -> None:
    state = won_bidding()
    discards = [a["cards"] for a in state.legal_actions(0)]
    assert sorted(c for [c] in discards) == sorted(state.view(0)["hand"])


def test_no_widow_no_discard() -> None:
    from .helpers import DEAL4

    state = act(make(DEAL4), (0, {"type": "bid", "tricks": 1, "suit": "S"}), (1, PASS), (2, PASS), (3, PASS))
    assert state.phase == "declare"
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "discard", "cards": ["AS"]})


def test_timeout_discards_the_lowest_cards() -> None:
    state = won_bidding()
    assert state.default_action(0) == {"type": "discard", "cards": ["6C"]}


def test_discard_stays_secret_after_the_banker_becomes_declarer() -> None:
    """B2 + B6: after the role swap the new declarer still never sees the old one's discard."""
    state = won_bidding()
    state.apply(0, {"type": "discard", "cards": ["6C"]})
    act(state, (0, {"type": "declare", "banker": True}), (1, {"type": "role", "role": "banker"}))
    act(state, *[(s, {"type": "role", "role": "thief"}) for s in (2, 3, 4)])
    play(state, "AS", "6S", "7S", "8S", "9S")
    act(state, (0, {"type": "change"}), (1, {"type": "trump", "suit": "S"}))
    assert state.view(None)["declarer"] == 1
    assert "discard" not in state.view(1) and "6C" not in cards_in(state.view(1))
    assert state.view(0)["discard"] == ["6C"]
