"""D1 (deal and trump) and D2 (redeal on five of a suit)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.cards import make_deck
from games.durak import GAME
from games.durak.deal import five_of_a_suit
from tests.games.durak.helpers import DONE, attack, cover, dealt, position


def test_d1_six_cards_each_one_at_a_time_from_the_dealers_left() -> None:
    deck = make_deck(36)
    state = GAME.new(seats=3, dealer=1, deck=deck)
    # seat 2 is the dealer's left: it gets deck[0], deck[3], ...
    assert sorted(state.view(2)["hand"]) == sorted(deck[0:18:3])
    assert sorted(state.view(0)["hand"]) == sorted(deck[1:18:3])
    assert sorted(state.view(1)["hand"]) == sorted(deck[2:18:3])


def test_d1_the_next_card_is_turned_gives_trump_and_is_drawn_last() -> None:
    deck = make_deck(36)
    state = GAME.new(seats=2, deck=deck)
    spectator = state.view(None)
    assert spectator["trump_card"] == deck[12]
    assert spectator["trump"] == deck[12][1]
    assert spectator["stock"] == 24
    assert state.zones()["stock"][-1] == deck[12]
    assert state.zones()["stock"][0] == deck[13]


def test_d1_the_turned_card_is_public_until_drawn_and_who_drew_it_is_public() -> None:
    state = position({0: ["6S", "7S"], 1: ["8S", "9S", "TS", "JS"]}, attacker=0, stock=["6C", "AH"])
    assert state.view(1)["trump_card"] == "AH"
    state.apply(0, attack("6S"))
    state.apply(1, cover("6S", "8S"))
    state.apply(0, DONE)
    v = state.view(None)
    assert v["stock"] == 0
    assert v["trump_card"] is None
    assert v["trump_drawn_by"] == 0  # the leader drew both cards, the turned AH last
    assert sorted(state.view(0)["hand"]) == ["6C", "7S", "AH"]


def test_d1_six_players_36_cards_last_dealt_card_shows_trump_and_stays_in_hand() -> None:
    deck = make_deck(36)
    state = GAME.new(seats=6, dealer=2, deck=deck)
    v = state.view(None)
    assert v["stock"] == 0
    assert v["trump_card"] == deck[-1] == "AH"
    assert v["trump"] == "H"
    assert "AH" in state.view(2)["hand"]  # the dealer gets the last card


@pytest.mark.parametrize(
    ("options", "turn", "trump"),
    [
        ({"dummy": True}, "X1", None),
        ({"spades_by_spades": True}, "TS", None),
        ({"spades_by_spades": True}, "TD", "D"),
        ({}, "TS", "S"),
    ],
)
def test_d1_no_trump_for_a_turned_dummy_or_a_spade_with_spades_by_spades(
    options: dict, turn: str, trump: str | None
) -> None:
    hands = {0: ["6C", "7C", "8C", "9C", "JC", "QC"], 1: ["6D", "7D", "8D", "9D", "JD", "QD"]}
    state = dealt(hands, turn, **options)
    assert state.view(None)["trump"] == trump
    assert state.view(None)["trump_card"] == turn


def test_d1_the_dummy_adds_x1_to_the_deck_and_52_cards_start_at_two() -> None:
    assert Counter(GAME.new(options={"dummy": True}, seed=1).deck) == Counter([*make_deck(36), "X1"])
    state = GAME.new(options={"deck": 52}, seats=8, seed=1)
    assert sorted(state.deck) == sorted(make_deck(52))
    assert state.view(None)["stock"] == 4


FIVE_HEARTS = {0: ["6H", "7H", "8H", "9H", "TH", "6S"], 1: ["7S", "8S", "9C", "TC", "JC", "QD"]}


def test_d2_without_the_option_five_of_a_suit_is_played() -> None:
    state = dealt(FIVE_HEARTS, "AD")
    assert sorted(state.view(0)["hand"]) == sorted(FIVE_HEARTS[0])
    assert state.view(None)["redeals"] == 0


def test_d2_five_of_a_suit_is_redealt_deterministically_from_the_committed_order() -> None:
    first = dealt(FIVE_HEARTS, "AD", redeal_five_of_suit=True)
    hands = [first.view(s)["hand"] for s in range(2)]
    assert not five_of_a_suit(hands)
    assert first.view(None)["redeals"] >= 1
    assert sorted(hands[0]) != sorted(FIVE_HEARTS[0])
    # state.deck is the order the game was started with, so the redeal replays
    again = GAME.new(options=first.options, seats=2, deck=first.deck)
    assert again.to_json() == first.to_json()
    assert Counter(c for cards in first.zones().values() for c in cards) == Counter(first.deck)


def test_d2_a_clean_deal_is_not_redealt() -> None:
    hands = {0: ["6H", "7H", "8S", "9S", "TC", "6D"], 1: ["7S", "6S", "9C", "TH", "JC", "QD"]}
    state = dealt(hands, "AD", redeal_five_of_suit=True)
    assert sorted(state.view(0)["hand"]) == sorted(hands[0])
    assert state.view(None)["redeals"] == 0
