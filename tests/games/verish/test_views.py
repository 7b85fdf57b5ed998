"""What each seat sees (V2-V5 hidden information), move wording, timeouts, snapshots."""

from __future__ import annotations

import json

import pytest

from games import IllegalAction, InvalidOptions
from tests.games.contract import cards_in

from .helpers import BELIEVE, DOUBT, GAME, THREE, add, claim, new, position


def test_face_down_cards_appear_in_no_view() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S", "7S"], "6"))
    state.apply(1, add(["6H"]))
    for seat in (None, 0, 1, 2):
        assert not cards_in(state.view(seat)) & {"6S", "7S", "6H"}, seat


def test_cards_taken_unseen_stay_hidden_but_the_turned_up_ones_are_public() -> None:
    """Believe+false: seat 2 takes 7S 8S 9D; only 9D (the latest placement) was turned up."""
    state = new(THREE)
    state.apply(0, claim(["7S", "8S"], "7"))
    state.apply(1, add(["9D"]))
    state.apply(2, BELIEVE)
    for seat in (None, 0, 1):
        seen = cards_in(state.view(seat))
        assert "9D" in seen
        assert not seen & {"7S", "8S"}
        assert not seen & set(THREE[2])
    assert {"7S", "8S", "9D"} <= set(state.view(2)["hand"])
    assert "hand" not in state.view(None)


def test_a_view_has_the_keys_of_the_rules_file() -> None:
    state = new(THREE)
    view = state.view(1)
    for key in ("hand", "hand_sizes", "to_act", "phase", "over", "result", "pile", "kind", "last_check"):
        assert key in view
    for key in ("discard", "finished"):
        assert key in view
    assert view["hand"][:3] == ["JC", "7D", "8D"]  # display order: by suit, then rank
    assert sorted(view["hand"]) == sorted(THREE[1])
    json.dumps(view)


def test_describe_uses_public_words_only() -> None:
    state = new(THREE)
    assert state.describe(0, claim(["6S", "7S", "JS"], "K")) == "puts down «3 kings»"
    assert state.describe(0, claim(["6S"], "6")) == "puts down «1 six»"
    state.apply(0, claim(["6S", "7S", "JS"], "K"))
    assert state.describe(1, add(["JC", "JD"])) == "adds «2 more kings»"
    assert state.describe(1, DOUBT) == "doubts — the claim was false; seat 1 takes 3 cards"
    assert state.describe(1, BELIEVE) == "believes — the claim was false; takes 3 cards"
    state.apply(1, add(["JC", "JD"]))
    assert state.describe(2, DOUBT) == "doubts — the claim was false; seat 2 takes 5 cards"
    assert state.describe(0, DOUBT).startswith("tries an illegal move")


def test_describe_true_claims_and_last_cards() -> None:
    state = position({0: ["KS", "KC"], 1: ["QH", "AH"]}, options={"kind": "suit"})
    assert state.describe(0, claim(["KS", "KC"], "H")) == "puts down «2 hearts» — the last cards in hand"
    state.apply(0, claim(["KS"], "S"))
    assert state.describe(1, BELIEVE) == "believes — the claim was true; the card is discarded"
    assert state.describe(1, DOUBT) == "doubts — the claim was true; takes 1 card"
    assert state.describe(1, add(["AH"])) == "adds «1 more spade»"


def test_default_action_opens_with_one_true_card_and_answers_believe() -> None:
    state = new(THREE)
    action = state.default_action(0)
    assert action["type"] == "claim" and len(action["cards"]) == 1
    assert action["kind"] == action["cards"][0][0]
    state.apply(0, action)
    assert state.default_action(1) == BELIEVE
    state.apply(1, BELIEVE)
    assert state.view(None)["discard"] == 1


def test_zones_hold_every_card_once() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S", "7S"], "6"))
    state.apply(1, BELIEVE)
    state.apply(2, claim(["QS"], "Q"))
    zones = state.zones()
    cards = [c for z in zones.values() for c in z]
    assert sorted(cards) == sorted(state.deck)
    assert zones["pile"] == ["QS"]


def test_snapshot_and_copy_restore_exactly_and_independently() -> None:
    state = new(THREE)
    state.apply(0, claim(["6S", "6C"], "6"))
    state.apply(1, add(["7D"]))
    snap = json.loads(json.dumps(state.to_json()))
    assert snap["game"] == "verish"
    again = GAME.from_json(snap)
    assert again.to_json() == state.to_json()
    twin = state.copy()
    twin.apply(2, DOUBT)
    assert state.to_json() == snap
    again.apply(2, DOUBT)
    assert again.to_json() == twin.to_json()


def test_bad_seats_and_broken_snapshots_are_refused_by_name() -> None:
    state = new(THREE)
    for seat in (3, -1, True, "0"):
        with pytest.raises(IllegalAction, match="seat"):
            state.view(seat)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions, match="verish"):
        GAME.from_json({"game": "verish"})
    broken = state.to_json()
    del broken["pile"]
    with pytest.raises(InvalidOptions, match="pile"):
        GAME.from_json(broken)
    with pytest.raises(InvalidOptions, match="verish"):
        GAME.from_json({**state.to_json(), "game": "durak"})
