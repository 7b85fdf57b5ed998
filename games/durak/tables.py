"""Precomputed Durak tables: what covers what (rule D5) and lead/throw subsets.

Every engine call works on two-character card codes; these tables turn the
rules of D5 into set look-ups so that listing covers costs one ``in`` per card.
"""

from __future__ import annotations

import functools
from itertools import combinations

from games.cards import DUMMY, RANK_VALUE, SUIT_OF, make_deck

#: every code a Durak deck can hold (52 cards + the dummy)
CODES: tuple[str, ...] = (*make_deck(52), DUMMY)


def covers(attack: str, cover: str, trump: str | None, spades_by_spades: bool) -> bool:
    """Rule D5: may ``cover`` be laid on ``attack``?"""
    if attack == cover:
        return False
    if attack == DUMMY or cover == DUMMY:  # D5 (003): the dummy covers anything and is covered by anything
        return True
    a_suit, c_suit = SUIT_OF[attack], SUIT_OF[cover]
    if spades_by_spades and "S" in (a_suit, c_suit):
        # D5 (004): spades only by higher spades, never another suit; QS beats every spade
        if a_suit != c_suit or attack == "QS":
            return False
        return cover == "QS" or RANK_VALUE[cover] > RANK_VALUE[attack]
    if a_suit == c_suit:
        return RANK_VALUE[cover] > RANK_VALUE[attack]
    return trump is not None and c_suit == trump  # any trump covers a non-trump [12][13]


@functools.cache
def beats_table(trump: str | None, spades_by_spades: bool) -> dict[str, frozenset[str]]:
    """attack code -> the codes that cover it (cached per trump and variant)."""
    return {a: frozenset(c for c in CODES if covers(a, c, trump, spades_by_spades)) for a in CODES}


def subsets(cards: list[str], room: int) -> list[tuple[str, ...]]:
    """The non-empty subsets of ``cards`` with at most ``room`` cards, smallest first, in hand order."""
    out: list[tuple[str, ...]] = []
    for size in range(1, min(len(cards), room) + 1):
        out += combinations(cards, size)
    return out
