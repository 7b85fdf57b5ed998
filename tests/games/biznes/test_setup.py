"""Options, the deal table and the widow (biznes.md "Options", B2)."""

from __future__ import annotations

import pytest

from games import InvalidOptions, get_game
from games.biznes import BiznesState
from games.biznes.rules import hand_size, widow_size

GAME = get_game("biznes")

#: the rules' deal table: (deck, seats) -> (cards each, widow)
DEAL_TABLE = {
    (36, 4): (9, 0),
    (36, 5): (7, 1),
    (52, 4): (13, 0),
    (52, 5): (10, 2),
    (52, 6): (8, 4),
    (54, 4): (13, 2),
    (54, 5): (10, 4),
    (54, 6): (9, 0),
}


@pytest.mark.parametrize(("deck", "seats"), list(DEAL_TABLE))
def test_deal_table(deck: int, seats: int) -> None:
    """Hand size, widow size and tricks per deal are the table's, for every deck and seat count."""
    each, widow = DEAL_TABLE[(deck, seats)]
    assert (hand_size(deck, seats), widow_size(deck, seats)) == (each, widow)
    state = GAME.new(options={"deck": deck}, seats=seats, seed=5)
    assert state.view(None)["hand_sizes"] == [each] * seats
    assert len(state.zones()["widow"]) == widow
    assert state.view(None)["tricks_per_deal"] == each


def test_deal_starts_left_of_dealer_one_card_at_a_time_and_widow_follows() -> None:
    deck = get_game("biznes").new(options={"deck": 36}, seats=5, seed=1).deck
    state = GAME.new(options={"deck": 36}, seats=5, dealer=2, deck=deck)
    assert set(state.view(3)["hand"]) == set(deck[0:35:5])
    assert set(state.view(2)["hand"]) == set(deck[4:35:5])
    assert state.zones()["widow"] == deck[35:]


def test_36_cards_only_with_four_or_five() -> None:
    with pytest.raises(InvalidOptions, match="deck"):
        GAME.new(options={"deck": 36}, seats=6)


def test_six_seats_without_a_deck_choice_play_52() -> None:
    """Decision: 36 is the default deck but not allowed with 6 players, so 6 players get 52."""
    state = GAME.new(seats=6, seed=1)
    assert state.options == {"deck": 52, "widow_open": 0}
    assert len(state.deck) == 52


@pytest.mark.parametrize(("deck", "seats", "ok"), [(36, 4, 0), (36, 5, 1), (52, 5, 2), (52, 6, 4), (54, 5, 4)])
def test_widow_open_at_most_the_widow(deck: int, seats: int, ok: int) -> None:
    GAME.new(options={"deck": deck, "widow_open": ok}, seats=seats)
    with pytest.raises(InvalidOptions, match="widow_open"):
        GAME.new(options={"deck": deck, "widow_open": ok + 1}, seats=seats)


@pytest.mark.parametrize(
    "bad", [{"deck": 40}, {"deck": "x"}, {"widow_open": -1}, {"widow_open": 9}, {"widow_open": 1.5}]
)
def test_bad_option_values_name_the_option(bad: dict) -> None:
    name = next(iter(bad))
    with pytest.raises(InvalidOptions, match=name):
        GAME.new(options=bad, seats=5)


def test_widow_open_shows_the_first_widow_cards_to_everyone() -> None:
    """B2 / Options: the first ``widow_open`` widow cards are face up from the deal."""
    state = GAME.new(options={"deck": 52, "widow_open": 2}, seats=6, seed=3)
    widow = state.zones()["widow"]
    for seat in [None, 0, 3]:
        assert state.view(seat)["widow"] == widow[:2]
    closed = GAME.new(options={"deck": 52, "widow_open": 0}, seats=6, seed=3)
    assert closed.view(None)["widow"] == []
    assert not set(widow) & {c for s in range(6) for c in closed.view(s)["hand"]}


def test_state_class_is_registered() -> None:
    assert GAME.state_class is BiznesState
    assert (GAME.min_seats, GAME.max_seats) == (4, 6)
    names = [o["name"] for o in GAME.option_schema()]
    assert names == ["deck", "widow_open"]
