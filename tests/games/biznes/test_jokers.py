"""B9 jokers: when one may be led or played, the named card, ties, the declarer's naming."""

from __future__ import annotations

import pytest

from games import IllegalAction
from games.biznes.rules import ORDINARY, can_lead_joker, has_legal_lead, trick_winner

from .helpers import bid_and_roles, endgame, make, play, plays

J54 = [
    ["KS", "2S", "3S", "4S", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"],
    ["X1", "5S", "6S", "7S", "JC", "QC", "KC", "AC", "2D", "3D", "4D", "5D", "6D"],
    ["X2", "2H", "3H", "4H", "5H", "6H", "7D", "8D", "9D", "TD", "JD", "QD", "KD"],
    ["8S", "9S", "TS", "JS", "QS", "AS", "AD", "7H", "8H", "9H", "TH", "JH", "QH"],
]
WIDOW = ["KH", "AH"]


def dealt():
    """Seat 0 declares one heart alone and discards the widow's KH AH."""
    state = make(J54, widow=WIDOW, options={"deck": 54})
    return bid_and_roles(state, 1, "H", ["thief", "policeman", "thief"], discard=WIDOW)


def test_joker_only_without_a_card_of_the_suit_led() -> None:
    state = play(dealt(), "KS")
    assert not any(p.startswith("X1") for p in plays(state, 1))
    with pytest.raises(IllegalAction, match="joker"):
        state.apply(1, {"type": "play", "card": "X1", "as": "AS"})
    play(state, "5S")
    legal = plays(state, 2)
    assert {p for p in legal if p.startswith("X2=")} == {"X2=" + c for c in ORDINARY}  # any of the 52
    assert set(J54[2][1:]) <= legal  # and the joker is optional


def test_joker_named_as_a_higher_card_of_the_suit_led_wins() -> None:
    state = play(dealt(), "KS", "5S", "X2=AS")
    view = state.view(None)
    assert view["trick"][-1] == {"seat": 2, "card": "X2", "as": "AS"}
    play(state, "8S")
    assert state.view(None)["last_trick"]["winner"] == 2


def test_joker_and_the_real_card_the_first_played_ranks_higher() -> None:
    state = play(dealt(), "KS", "5S", "X2=AS", "AS")
    assert state.view(None)["last_trick"]["winner"] == 2


def test_joker_named_as_a_trump_trumps() -> None:
    state = play(dealt(), "KS", "5S", "X2=2H", "AS")
    assert state.view(None)["last_trick"]["winner"] == 2


def test_joker_named_off_suit_loses() -> None:
    state = play(dealt(), "KS", "5S", "X2=AC", "8S")
    assert state.view(None)["last_trick"]["winner"] == 0


def test_joker_needs_a_valid_name() -> None:
    state = play(dealt(), "KS", "5S")
    before = state.to_json()
    for bad in (
        {"type": "play", "card": "X2"},
        {"type": "play", "card": "X2", "as": "X1"},
        {"type": "play", "card": "X2", "as": "ZZ"},
        {"type": "play", "card": "7D", "as": "AS"},
    ):
        with pytest.raises(IllegalAction):
            state.apply(2, bad)
    assert state.to_json() == before


def test_joker_not_led_while_holding_ordinary_cards() -> None:
    state = play(dealt(), "2C", "AC", "7D", "AD")  # seat 1 wins with AC and leads
    assert state.to_act() == [1]
    assert not any(p.startswith("X1") for p in plays(state, 1))
    with pytest.raises(IllegalAction, match="last card"):
        state.apply(1, {"type": "play", "card": "X1", "as": "AH"})


def test_joker_led_as_the_last_card_sets_the_suit_led() -> None:
    state = endgame(dealt(), [["2C"], ["X1"], ["7D"], ["AD"]], leader=1)
    assert {p for p in plays(state, 1)} == {"X1=" + c for c in ORDINARY}  # a thief may name a trump
    play(state, "X1=5D", "7D", "AD", "2C")
    assert state.is_over() and state.view(None)["last_trick"]["winner"] == 3


def test_two_jokers_may_be_led_and_the_others_must_follow_the_named_suit() -> None:
    state = endgame(dealt(), [["2C", "3C"], ["X1", "X2"], ["7D", "2H"], ["AD", "8S"]], leader=1)
    play(state, "X2=5D")
    assert plays(state, 2) == {"7D"}
    with pytest.raises(IllegalAction, match="follow suit"):
        state.apply(2, {"type": "play", "card": "2H"})


def test_declarer_leading_a_joker_may_not_name_a_trump() -> None:
    state = endgame(dealt(), [["X1"], ["2C"], ["7D"], ["AD"]], leader=0, change_used=True)
    legal = plays(state, 0)
    assert legal == {"X1=" + c for c in ORDINARY if c[1] != "H"}
    with pytest.raises(IllegalAction, match="trump"):
        state.apply(0, {"type": "play", "card": "X1", "as": "AH"})
    play(state, "X1=AC")


def test_jokers_do_not_count_for_b7() -> None:
    """Interpretation: jokers are neither trumps nor non-trumps for B7."""
    assert has_legal_lead(["X1"], "H") and has_legal_lead(["X1", "X2"], "H")
    assert not has_legal_lead(["X1", "5H"], "H") and not has_legal_lead(["X1", "X2", "5H"], "H")
    assert has_legal_lead(["X1", "5H", "5S"], "H")
    assert can_lead_joker(["X2"]) and can_lead_joker(["X1", "X2"]) and not can_lead_joker(["X1", "5S"])


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ([(0, "KS", "KS"), (1, "X1", "AS"), (2, "AS", "AS")], "H", 1),
        ([(0, "X1", "5D"), (1, "6D", "6D"), (2, "AS", "AS")], "H", 1),
        ([(0, "X1", "5D"), (1, "2H", "2H"), (2, "X2", "3H")], "H", 2),
        ([(0, "KS", "KS"), (1, "AC", "AC")], None, 0),
    ],
)
def test_trick_winner_uses_the_named_card(trick: list, trump: str | None, winner: int) -> None:
    assert trick_winner(trick, trump) == winner
