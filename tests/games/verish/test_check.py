"""V4: only the latest placement is turned up; the four outcomes and who opens next."""

from __future__ import annotations

from .helpers import BELIEVE, DOUBT, THREE, add, claim, new, position


def test_v4_believe_true_discards_the_pile_and_the_answerer_opens() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S", "6C"], "6"))
    state.apply(1, BELIEVE)
    view = state.view(None)
    assert view["discard"] == 2
    assert view["pile"] == {"count": 0, "placements": []}
    assert view["kind"] is None
    assert view["hand_sizes"] == [10, 12, 12]
    assert state.to_act() == [1]
    assert view["phase"] == "claim"


def test_v4_believe_false_the_answerer_takes_the_pile_and_his_left_neighbour_opens() -> None:
    state = new(THREE)
    state.apply(0, claim(["7S", "8S"], "7"))
    state.apply(1, add(["9D"]))
    state.apply(2, BELIEVE)  # the 9D is no seven
    assert sorted(state.hands[2]) == sorted([*THREE[2], "7S", "8S", "9D"])
    assert state.view(None)["discard"] == 0
    assert state.to_act() == [0]


def test_v4_doubt_false_the_claimant_takes_the_pile_and_the_answerer_opens() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S"], "6"))
    state.apply(1, add(["7D", "8D"]))  # "two more sixes": a lie
    state.apply(2, DOUBT)
    assert sorted(state.hands[1]) == sorted([*THREE[1], "6S"])  # the whole pile, the opener's card too
    assert state.view(None)["hand_sizes"] == [11, 13, 12]
    assert state.to_act() == [2]


def test_v4_doubt_true_the_answerer_takes_the_pile_and_his_left_neighbour_opens() -> None:
    state = new(THREE)
    state.apply(0, claim(["9S", "9C"], "9"))
    state.apply(1, DOUBT)
    assert sorted(state.hands[1]) == sorted([*THREE[1], "9S", "9C"])
    assert state.to_act() == [2]


def test_v4_only_the_latest_placement_is_checked() -> None:
    """An earlier lie under a true addition goes unpunished: the whole pile is discarded."""
    state = new(THREE)
    state.apply(0, claim(["JS", "TS"], "K"))  # a lie
    state.apply(1, add(["JC"]))  # another lie
    state.apply(2, add(["KS", "KC"]))  # true
    state.apply(0, BELIEVE)
    check = state.view(1)["last_check"]
    assert check == {
        "answerer": 0,
        "answer": "believe",
        "claimant": 2,
        "kind": "K",
        "cards": ["KS", "KC"],
        "true": True,
        "taker": None,
        "count": 5,
    }
    assert state.view(None)["discard"] == 5
    assert state.to_act() == [0]


def test_v4_an_earlier_true_placement_does_not_save_a_false_latest_one() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S", "6C"], "6"))
    state.apply(1, add(["JD"]))
    state.apply(2, DOUBT)
    assert state.view(None)["last_check"]["true"] is False
    assert state.view(None)["last_check"]["taker"] == 1
    assert len(state.hands[1]) == 14


def test_v4_with_kind_suit_the_check_compares_suits() -> None:
    state = new(THREE, options={"kind": "suit"})
    state.apply(0, claim(["6S", "7S", "8S"], "S"))
    state.apply(1, DOUBT)
    assert state.view(None)["last_check"]["true"] is True
    assert state.to_act() == [2]
    state.apply(2, claim(["QS", "QC"], "S"))
    state.apply(0, DOUBT)
    assert state.view(None)["last_check"]["true"] is False
    assert state.view(None)["last_check"]["taker"] == 2


def test_v4_the_next_opener_skips_seats_that_left() -> None:
    """Doubt+true: the answerer takes the pile; his left neighbour has left, so the next seat opens."""
    state = position({0: ["6S", "6C"], 1: ["7S"], 2: [], 3: ["8S", "8C"]}, turn=0, finished=[2])
    state.apply(0, claim(["6S"], "6"))
    state.apply(1, DOUBT)
    assert state.to_act() == [3]
