"""V2 (the opening claim) and V3 (believe, doubt or add): what is accepted and refused."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import IllegalAction

from .helpers import BELIEVE, DOUBT, GAME, THREE, add, claim, new, position


def refused(state: Any, seat: int, action: Any, match: str) -> None:
    """The action raises IllegalAction naming the problem and changes nothing."""
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match=match):
        state.apply(seat, action)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_v2_the_count_is_true_and_the_kind_may_be_a_lie() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S", "7S", "JS"], "A"))  # three "aces", none of them one
    view = state.view(2)
    assert view["pile"] == {"count": 3, "placements": [{"seat": 0, "count": 3, "last": False}]}
    assert view["kind"] == "A"
    assert view["hand_sizes"] == [9, 12, 12]
    assert state.to_act() == [1]
    assert view["phase"] == "answer"


@pytest.mark.parametrize(
    ("seat", "action", "match"),
    [
        (1, claim(["6H"], "6"), "not your turn: seat 1 is to act"),
        (0, BELIEVE, "no pile"),
        (0, add(["6S"]), "no pile"),
        (0, claim([], "6"), "at least one card"),
        (0, claim(["6S", "6C", "6D", "7S", "7C", "8S", "8C", "9S", "9C"], "6"), "at most 8"),
        (0, claim(["QS"], "Q"), "you do not hold QS"),
        (0, claim(["6S", "6S"], "6"), "twice"),
        (0, claim(["6S"], "2"), "kind"),  # no twos in the 36-card deck
        (0, claim(["6S"], "S"), "kind"),  # a suit when claims name ranks
        (0, claim(["6S"], "67"), "kind"),
        (0, claim(["6S"], 6), "kind"),
        (0, {"type": "claim", "cards": ["6S"]}, "kind"),
        (0, {"type": "claim", "cards": "6S", "kind": "6"}, "cards"),
        (0, {"type": "claim", "cards": ["6S"], "kind": "6", "face_up": True}, "face_up"),
        (0, {"type": "claim", "cards": ["ZZ"], "kind": "6"}, "not a card code"),
        (0, {"type": "pass"}, "unknown action type"),
        (0, {"cards": ["6S"]}, "type"),
        (0, "claim", "action"),
        (3, claim(["6S"], "6"), "seat"),
        (True, claim(["6S"], "6"), "seat"),
    ],
)
def test_bad_openings_are_refused_and_change_nothing(seat: Any, action: Any, match: str) -> None:
    refused(new(THREE), seat, action, match)


def test_v2_max_cards_limits_every_placement() -> None:
    state = new(THREE, options={"max_cards": 2})
    refused(state, 0, claim(["6S", "6C", "6D"], "6"), "at most 2")
    state.apply(0, claim(["6S", "6C"], "6"))
    refused(state, 1, add(["7D", "7H", "8D"]), "at most 2")
    state.apply(1, add(["7D", "7H"]))
    assert state.view(None)["pile"]["count"] == 4


def test_v2_with_kind_suit_claims_name_suits() -> None:
    state = new(THREE, options={"kind": "suit"})
    refused(state, 0, claim(["6S"], "6"), "suit")
    state.apply(0, claim(["6S", "7S", "8S"], "S"))
    assert state.view(1)["kind"] == "S"


def test_fifty_two_cards_allow_claims_of_twos() -> None:
    state = GAME.new(options={"deck": 52}, seats=4, seed=1)
    card = state.hands[0][0]
    state.apply(0, claim([card], "2"))
    assert state.view(None)["kind"] == "2"


def test_v3_the_next_player_answers_and_an_addition_passes_the_choice_on() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S", "6C"], "6"))
    refused(state, 0, BELIEVE, "not your turn: seat 2 is to act")
    refused(state, 2, DOUBT, "not your turn: seat 2 is to act")
    refused(state, 1, claim(["6H"], "6"), "pile is open")
    state.apply(1, add(["6H", "JC", "JD"]))  # "three more sixes"
    assert state.to_act() == [2]
    assert state.view(None)["pile"]["placements"] == [
        {"seat": 0, "count": 2, "last": False},
        {"seat": 1, "count": 3, "last": False},
    ]
    assert state.view(None)["kind"] == "6"
    state.apply(2, add(["QS"]))
    assert state.to_act() == [0]  # round the table again to the opener
    state.apply(0, add(["6D"]))
    assert state.to_act() == [1]


def test_v3_an_addition_keeps_the_piles_kind() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S"], "6"))
    refused(state, 1, {"type": "add", "cards": ["7D"], "kind": "7"}, "keeps the pile's kind")
    refused(state, 1, {"type": "believe", "why": "x"}, "why")
    refused(state, 1, add(["6S"]), "you do not hold 6S")
    state.apply(1, {"type": "add", "cards": ["7D"], "kind": "6"})
    assert state.view(None)["pile"]["count"] == 2


def test_v3_answers_skip_seats_that_left() -> None:
    state = position({0: ["6S", "6C"], 1: [], 2: ["7S", "7C"]}, turn=0, finished=[1])
    state.apply(0, claim(["6S"], "6"))
    assert state.to_act() == [2]
    assert state.legal_actions(1) == []


def test_apply_accepts_a_placement_that_is_not_listed() -> None:
    state = new(THREE)
    odd = claim(["TC", "6D", "9S", "7C", "JS"], "9")
    assert odd not in state.legal_actions(0)
    state.apply(0, odd)
    assert state.view(None)["pile"]["count"] == 5


def test_legal_openings_are_representative() -> None:
    """Every card under its true kind, a lone bluff for every kind, honest groups (padded too)."""
    state = new(THREE, options={"max_cards": 3})
    acts = state.legal_actions(0)
    as_set = {(tuple(sorted(a["cards"])), a["kind"]) for a in acts}
    assert all(a["type"] == "claim" for a in acts)
    for card in state.hands[0]:
        assert ((card,), card[0]) in as_set
    for k in "6789TJQKA":
        assert any(len(c) == 1 and c[0][0] != k and kind == k for c, kind in as_set), k
    assert (tuple(sorted(["6S", "6C", "6D"])), "6") in as_set  # all the sixes held
    assert (tuple(sorted(["7S", "7C"])), "7") in as_set
    assert any(len(c) == 3 and kind == "7" and sum(x[0] == "7" for x in c) == 2 for c, kind in as_set)
    assert len(acts) == len(as_set), "no duplicates"
    assert all(len(a["cards"]) <= 3 for a in acts)


def test_legal_answers_are_believe_doubt_and_additions() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S"], "7"))
    acts = state.legal_actions(1)
    assert acts[:2] == [BELIEVE, DOUBT]
    adds = [sorted(a["cards"]) for a in acts[2:]]
    assert all(a["type"] == "add" and "kind" not in a for a in acts[2:])
    for card in state.hands[1]:
        assert [card] in adds
    assert sorted(["7D", "7H"]) in adds  # the honest group of the pile's kind
    assert state.legal_actions(0) == []
    assert state.legal_actions(2) == []
