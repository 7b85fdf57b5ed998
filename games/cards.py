"""Card primitives shared by every game.

A card travels as its two-character code (rank then suit, ``"TH"``; jokers
``"X1"``/``"X2"``): that is what views, actions and the move log carry, so the
engines work on codes too and look ranks and suits up in precomputed tables
(much faster than building objects for every comparison). This module is the
one source of card codes, their words, the jokers and the Durak dummy.
"""

from __future__ import annotations

import functools
import random
import secrets
import sys
from collections.abc import Iterable, Sequence

from games.errors import IllegalAction, InvalidOptions
from games.words import say

RANKS = "23456789TJQKA"
SUITS = "SCDH"
JOKERS = ("X1", "X2")
JOKER_SET = frozenset(JOKERS)
#: the Durak dummy card (D1, D5): the first joker; it beats and is beaten by anything and has no rank
DUMMY = "X1"
#: the words for a rank or a suit: (one, many); the move log and every game's wording read these
RANK_WORDS: dict[str, tuple[str, str]] = {
    "2": ("two", "twos"),
    "3": ("three", "threes"),
    "4": ("four", "fours"),
    "5": ("five", "fives"),
    "6": ("six", "sixes"),
    "7": ("seven", "sevens"),
    "8": ("eight", "eights"),
    "9": ("nine", "nines"),
    "T": ("ten", "tens"),
    "J": ("jack", "jacks"),
    "Q": ("queen", "queens"),
    "K": ("king", "kings"),
    "A": ("ace", "aces"),
}
SUIT_WORDS: dict[str, tuple[str, str]] = {
    "S": ("spade", "spades"),
    "C": ("club", "clubs"),
    "D": ("diamond", "diamonds"),
    "H": ("heart", "hearts"),
}
RANK_NAMES = {rank: one for rank, (one, _) in RANK_WORDS.items()}
SUIT_NAMES = {suit: many for suit, (_, many) in SUIT_WORDS.items()}


# Every code is one interned string: ``make_deck`` and the tables hand out the same objects, so
# the engines' ``card in hand``, ``hand.remove(card)`` and table look-ups (millions a second in
# bots and benchmarks) match by identity instead of comparing characters.
#: rank value of every code: 2..14 for ordinary cards, 15 for the jokers
RANK_VALUE: dict[str, int] = {sys.intern(r + s): i + 2 for s in SUITS for i, r in enumerate(RANKS)}
RANK_VALUE.update({j: 15 for j in JOKERS})
#: suit letter of every code; jokers have the suit "X"
SUIT_OF: dict[str, str] = {code: code[1] for code in RANK_VALUE}
SUIT_OF.update({j: "X" for j in JOKERS})
RANK_OF: dict[str, str] = {code: code[0] for code in RANK_VALUE}
ALL_CODES = frozenset(RANK_VALUE)


def make_deck(size: int, *, dummy: bool = False) -> list[str]:
    """The deck in code order: suits S C D H, ranks low to high, then jokers.

    ``36`` = 6..A, ``52`` = 2..A, ``54`` = 52 + both jokers; ``dummy`` adds X1
    (the Durak dummy card).
    """
    if size not in (36, 52, 54):
        raise InvalidOptions(f"deck: must be 36, 52 or 54, not {size!r}")
    return list(_deck(size, dummy))


@functools.cache
def _deck(size: int, dummy: bool) -> tuple[str, ...]:
    low = RANKS.index("6") if size == 36 else 0
    cards = [sys.intern(r + s) for s in SUITS for r in RANKS[low:]]
    if size == 54:
        cards += JOKERS
    elif dummy:
        cards.append(DUMMY)
    return tuple(cards)


@functools.cache
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """``shuffled``'s loop for a deck of ``size``: (position, positions to draw from, bits a draw takes)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def shuffled(cards: Sequence[str], seed: int | None = None) -> list[str]:
    """A shuffled copy: seeded for replays and tests, else from ``secrets``."""
    out = list(cards)
    if seed is None:
        secrets.SystemRandom().shuffle(out)
        return out
    # ``random.Random(seed).shuffle(out)`` written out (the same order, pinned by tests/games/test_cards.py):
    # a new game is dealt for every bot rollout and benchmark game, and the library's two calls
    # per card were half the cost of a deal
    bits = random.Random(seed).getrandbits
    for i, n, k in _shuffle_steps(len(out)):
        j = bits(k)
        while j >= n:
            j = bits(k)
        out[i], out[j] = out[j], out[i]
    return out


def check_deck_order(order: object, expected: Sequence[str]) -> list[str]:
    """Validate an explicit deck order (top card first) against the game's deck."""
    if not isinstance(order, (list, tuple)) or not all(isinstance(c, str) for c in order):
        raise InvalidOptions("deck: must be a list of card codes")
    unknown = [c for c in order if c not in ALL_CODES]
    if unknown:
        raise InvalidOptions(f"deck: unknown card codes {unknown[:5]}")
    if len(order) != len(expected) or set(order) != set(expected) or len(set(order)) != len(order):
        missing = sorted(set(expected) - set(order))
        extra = sorted(set(order) - set(expected))
        dup = len(order) - len(set(order))
        raise InvalidOptions(
            f"deck: not a permutation of the {len(expected)}-card deck "
            f"(missing {missing[:5]}, not in this deck {extra[:5]}, {dup} duplicates)"
        )
    return [sys.intern(c) for c in order]


def deal(order: Sequence[str], seats: int, dealer: int, per_hand: int) -> list[list[str]]:
    """Deal ``per_hand`` cards each from the top, one at a time, from the dealer's left."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    first = (dealer + 1) % seats
    for i in range(per_hand * seats):
        hands[(first + i) % seats].append(order[i])
    return hands


def parse_card(value: object, field: str = "card") -> str:
    """A card code from an action, or ``IllegalAction`` naming what is wrong."""
    if not isinstance(value, str):
        raise IllegalAction(f"{field}: expected a card code such as 'QS', got {value!r}")
    if value not in ALL_CODES:
        raise IllegalAction(f"{field}: {value!r} is not a card code")
    return value


def parse_cards(value: object, field: str = "cards") -> list[str]:
    """A non-empty list of distinct card codes from an action."""
    if value is None or value == []:
        raise IllegalAction(say("Choose at least one card."))
    if not isinstance(value, list):
        raise IllegalAction(f"{field}: expected a non-empty list of card codes, got {value!r}")
    cards = [parse_card(v, field) for v in value]
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"{field}: a card is named twice")
    return cards


def card_name(code: str) -> str:
    """Human wording for move logs: ``"queen of spades"``."""
    if code in JOKERS:
        return "the joker"
    return f"{RANK_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"


def sort_hand(cards: Iterable[str], trump: str | None = None) -> list[str]:
    """Display order: by suit (trump last), then rank."""
    order = {s: i for i, s in enumerate(SUITS)}
    if trump in order:
        order[trump] = 9
    return sorted(cards, key=lambda c: (order.get(SUIT_OF[c], 10), RANK_VALUE[c]))
