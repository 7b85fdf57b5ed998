"""games.cards: the seeded shuffle names the same deck as before it was written out."""

from __future__ import annotations

import random

from games.cards import make_deck, shuffled


def test_a_seed_deals_the_deck_random_shuffle_dealt() -> None:
    for size in (36, 52, 54):
        deck = make_deck(size)
        for seed in range(300):
            expected = list(deck)
            random.Random(seed).shuffle(expected)
            assert shuffled(deck, seed) == expected


def test_a_seed_names_the_same_deck_on_every_python() -> None:
    """Seeded games (tests, replays of seeded setups) keep their deals if ``random`` ever changes."""
    assert shuffled(make_deck(36), 12345)[:8] == ["KS", "TH", "TS", "7C", "7S", "KH", "8H", "KD"]
    assert shuffled(make_deck(54), 2**31 - 1)[:8] == ["KD", "8C", "KS", "5D", "5C", "3C", "JH", "TS"]


def test_an_unseeded_shuffle_keeps_every_card() -> None:
    deck = make_deck(52)
    assert sorted(shuffled(deck)) == sorted(deck)
    assert shuffled(deck) != deck  # fails by chance once in 52! runs
