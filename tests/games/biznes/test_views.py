"""Views (biznes.md "View and result"), describe(), timeouts, snapshots and copies."""

from __future__ import annotations

import json

import pytest

from games import IllegalAction
from games.biznes import BiznesState

from .helpers import DEAL4, act, bid_and_roles, make, play
from .test_jokers import J54, WIDOW

KEYS = {
    "hand_sizes",
    "to_act",
    "phase",
    "over",
    "result",
    "bids",
    "contract",
    "declarer",
    "banker",
    "roles",
    "trump",
    "change_used",
    "widow",
    "trick",
    "tricks",
    "leader",
    "last_trick",
    "turn",
}


def test_every_view_has_the_rules_keys_and_only_seats_have_a_hand() -> None:
    state = make(DEAL4)
    for seat in [None, 0, 1, 2, 3]:
        view = state.view(seat)
        assert set(view) >= KEYS
        json.dumps(view)
        assert ("hand" in view) == (seat is not None)
    assert state.view(2)["hand"] == ["7S", "QS", "JD", "QD", "KD", "AD", "6H", "7H", "8H"]


def test_view_during_play_shows_trick_last_trick_and_turn() -> None:
    state = bid_and_roles(make(DEAL4), 2, "C", ["thief", "mafia", "policeman"])
    play(state, "6D", "8D", "JD", "KH", "KD")
    view = state.view(None)
    assert view["trick"] == [{"seat": 2, "card": "KD"}]
    assert view["last_trick"] == {
        "cards": [
            {"seat": 0, "card": "6D"},
            {"seat": 1, "card": "8D"},
            {"seat": 2, "card": "JD"},
            {"seat": 3, "card": "KH"},
        ],
        "winner": 2,
    }
    assert (view["turn"], view["to_act"], view["leader"], view["phase"]) == (3, [3], 2, "play")
    assert view["tricks"] == [0, 0, 1, 0] and view["counted"] == 0
    assert view["bids"][0] == {"seat": 0, "type": "bid", "tricks": 2, "suit": "C"}
    assert view["bids"][1] == {"seat": 1, "type": "pass"}


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"type": "bid", "tricks": 3, "suit": "H"}, "bids 3♥"),
        ({"type": "bid", "tricks": 1, "suit": "S"}, "bids 1♠"),
        ({"type": "pass"}, "passes"),
        ({"type": "discard", "cards": ["6C", "7D"]}, "discards 2 cards"),
        ({"type": "declare", "banker": True}, "asks for a banker"),
        ({"type": "declare", "banker": False}, "plays alone"),
        ({"type": "role", "role": "policeman"}, "is the policeman"),
        ({"type": "role", "role": "banker"}, "is the banker"),
        ({"type": "role", "role": "thief"}, "is a thief"),
        ({"type": "role", "role": "mafia"}, "says mafia"),
        ({"type": "change"}, "calls a change and will name the new trump"),
        ({"type": "trump", "suit": "S"}, "names ♠ trump"),
        ({"type": "play", "card": "QS"}, "plays QS"),
        ({"type": "play", "card": "X1", "as": "AH"}, "plays the joker as AH"),
        ({"type": "bid"}, "tries 'bid'"),
        ("nonsense", "does something unexpected"),
    ],
)
def test_describe_in_public_words(action: object, words: str) -> None:
    assert make(DEAL4).describe(0, action) == words


def test_describe_never_names_discarded_cards() -> None:
    state = make(J54, widow=WIDOW, options={"deck": 54})
    assert "KH" not in state.describe(0, {"type": "discard", "cards": ["KH", "2S"]})


def test_later_mafia_joins() -> None:
    state = act(
        make(DEAL4),
        (0, {"type": "bid", "tricks": 1, "suit": "S"}),
        (1, {"type": "pass"}),
        (2, {"type": "pass"}),
        (3, {"type": "pass"}),
        (0, {"type": "declare", "banker": False}),
        (1, {"type": "role", "role": "mafia"}),
    )
    assert state.describe(2, {"type": "role", "role": "mafia"}) == "joins the mafia"


def test_timeouts() -> None:
    """Turn timeouts: pass, lowest cards, alone, thief, the longest suit, the lowest legal card."""
    state = make(DEAL4)
    assert state.default_action(0) == {"type": "pass"}
    with pytest.raises(IllegalAction):
        state.default_action(1)
    state = bid_and_roles(make(DEAL4), 2, "C", ["thief", "thief"])
    assert state.default_action(3) == {"type": "role", "role": "thief"}


def test_snapshot_and_copy_are_exact_and_independent() -> None:
    state = bid_and_roles(make(DEAL4), 2, "C", ["thief", "mafia", "mafia"])
    play(state, "6D", "8D")
    data = json.loads(json.dumps(state.to_json()))
    assert data["game"] == "biznes"
    again = BiznesState.from_json(data)
    assert again.to_json() == state.to_json()
    twin = state.copy()
    assert twin.to_json() == state.to_json()
    play(twin, "JD", "KH")
    assert state.view(None)["trick"] == [{"seat": 0, "card": "6D"}, {"seat": 1, "card": "8D"}]
    assert state.view(2)["hand_sizes"] == [8, 8, 9, 9]


def test_next_game_only_when_over_and_passes_the_deal_left() -> None:
    state = make(DEAL4, dealer=3)
    with pytest.raises(IllegalAction, match="not over"):
        state.next_game()
    bid_and_roles(state, 1, "S", ["thief", "thief", "thief"])
    while not state.is_over():
        state.apply(state.to_act()[0], state.default_action(state.to_act()[0]))
    assert state.next_game() == (0, {"deck": 36, "widow_open": 0})


def test_actions_after_the_end_are_refused() -> None:
    state = act(make(DEAL4), (0, {"type": "pass"}), (1, {"type": "pass"}), (2, {"type": "pass"}), (3, {"type": "pass"}))
    assert state.legal_actions(0) == [] and state.to_act() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, {"type": "pass"})
