"""V1 (the deal, the opener, the next dealer) and the options table."""

from __future__ import annotations

import pytest

from games import IllegalAction, InvalidOptions, get_game
from games.cards import make_deck

from .helpers import BELIEVE, DOUBT, THREE, claim, new, position

GAME = get_game("verish")


def test_registry_entry() -> None:
    assert GAME.name == "verish"
    assert GAME.title == "Believe It or Not"
    assert (GAME.min_seats, GAME.max_seats) == (2, 8)
    assert [o["name"] for o in GAME.option_schema()] == ["deck", "kind", "max_cards"]


def test_defaults_are_the_rules_file_defaults() -> None:
    state = GAME.new(seats=3, seed=1)
    assert state.options == {"deck": 36, "kind": "rank", "max_cards": 8}


@pytest.mark.parametrize(("seats", "dealer"), [(2, 0), (3, 1), (5, 4), (6, 2)])
def test_v1_every_card_dealt_one_at_a_time_from_the_dealers_left(seats: int, dealer: int) -> None:
    """V1: all 36 cards are dealt; uneven decks give the first seats after the dealer one more."""
    state = GAME.new(seats=seats, dealer=dealer, seed=5)
    deck = state.deck
    for i, card in enumerate(deck):
        assert card in state.hands[(dealer + 1 + i) % seats]
    assert sum(len(h) for h in state.hands) == 36
    sizes = [len(state.hands[(dealer + 1 + i) % seats]) for i in range(seats)]
    assert sizes == sorted(sizes, reverse=True)
    assert max(sizes) - min(sizes) <= 1


def test_v1_the_dealer_opens() -> None:
    state = GAME.new(seats=4, dealer=2, seed=3)
    assert state.to_act() == [2]
    assert state.view(None)["phase"] == "claim"
    assert state.legal_actions(1) == []


def test_explicit_deck_is_kept_exactly() -> None:
    deck = list(reversed(make_deck(52)))
    state = GAME.new(options={"deck": 52}, seats=8, deck=deck)
    assert state.deck == deck
    assert state.hands[1][:2] == [deck[0], deck[8]]


@pytest.mark.parametrize(
    ("options", "seats", "match"),
    [
        ({}, 7, "seats"),
        ({"deck": 36}, 8, "seats"),
        ({"deck": 52}, 9, "seats"),
        ({}, 1, "seats"),
        ({"deck": 54}, 3, "deck"),
        ({"kind": "colour"}, 3, "kind"),
        ({"max_cards": 0}, 3, "max_cards"),
        ({"max_cards": 9}, 3, "max_cards"),
        ({"max_cards": "many"}, 3, "max_cards"),
        ({"trumps": True}, 3, "trumps"),
    ],
)
def test_bad_setups_name_the_problem(options: dict, seats: int, match: str) -> None:
    with pytest.raises(InvalidOptions, match=match):
        GAME.new(options=options, seats=seats)


def test_fifty_two_cards_allow_eight_seats() -> None:
    state = GAME.new(options={"deck": 52}, seats=8, seed=2)
    assert [len(h) for h in state.hands] == [6, 7, 7, 7, 7, 6, 6, 6]


def test_deck_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(InvalidOptions, match="deck"):
        GAME.new(options={"deck": 52}, seats=3, deck=make_deck(36))


def test_v1_the_loser_deals_the_next_game_with_the_same_options() -> None:
    state = new(THREE)
    with pytest.raises(IllegalAction, match="not over"):
        state.next_game()
    state = position({0: ["6S"], 1: ["7S", "7C"], 2: ["8S"]}, turn=0, options={"max_cards": 4})
    state.apply(0, claim(["6S"], "6"))
    state.apply(1, DOUBT)  # V4 doubt+true: seat 1 takes; V5 seat 0 leaves; seat 2 opens
    assert state.view(None)["finished"] == [0]
    assert state.to_act() == [2]
    state.apply(2, claim(["8S"], "8"))
    state.apply(1, BELIEVE)  # believe+true: discarded; seat 2 leaves, seat 1 is the last
    assert state.is_over()
    assert state.result() == {"loser": 1, "finished": [0, 2]}
    assert state.next_game() == (1, {"deck": 36, "kind": "rank", "max_cards": 4})
    with pytest.raises(InvalidOptions, match="fool_rule"):
        state.next_game(fool_rule="under")
