"""The deal: rules D1 (deal and trump), D2 (redeal) and D3 (first attacker).

D2 with an explicit deck stays replayable: ``state.deck`` is always the order
given to (or shuffled by) ``new()``. When a redeal is needed the engine
reshuffles that order with ``random.Random`` seeded from a SHA-256 of the
order itself and the redeal count, and deals again, until no hand holds five
of a suit (at most ``MAX_REDEALS`` times; the last deal then stands). The
platform commits to the initial order, so anyone can verify every redeal.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from games.cards import DUMMY, RANK_VALUE, SUIT_OF, deal

HAND = 6
MAX_REDEALS = 100


def five_of_a_suit(hands: list[list[str]]) -> bool:
    """D2: does any hand hold five or more cards of one suit (the dummy has none)?"""
    for hand in hands:
        counts: dict[str, int] = {}
        for card in hand:
            if card != DUMMY:
                counts[card[1]] = counts.get(card[1], 0) + 1
        if counts and max(counts.values()) >= 5:
            return True
    return False


def redeal_order(order: Sequence[str], count: int) -> list[str]:
    """D2: the ``count``-th deterministic reshuffle of ``order``."""
    digest = hashlib.sha256(f"durak-redeal:{count}:{','.join(order)}".encode()).digest()
    out = list(order)
    random.Random(int.from_bytes(digest[:16], "big")).shuffle(out)
    return out


def dealt_order(order: Sequence[str], seats: int, dealer: int, redeal: bool) -> tuple[list[str], int]:
    """(the order actually dealt, the number of redeals) -- D2."""
    current = list(order)
    count = 0
    while redeal and count < MAX_REDEALS and five_of_a_suit(deal(current, seats, dealer, HAND)):
        count += 1
        current = redeal_order(order, count)
    return current, count


def split(order: Sequence[str], seats: int, dealer: int) -> tuple[list[list[str]], list[str], str]:
    """D1: (hands, stock top first with the turned card last, the turned card).

    When the deal uses every card (36 cards, 6 seats) the last card dealt shows
    the trump and stays in its hand; the stock is then empty.
    """
    hands = deal(order, seats, dealer, HAND)
    used = HAND * seats
    if len(order) > used:
        return hands, [*order[used + 1 :], order[used]], order[used]
    return hands, [], order[used - 1]


def trump_of(turned: str, spades_by_spades: bool) -> str | None:
    """D1: no trumps when the dummy is turned, or a spade with spades-by-spades."""
    if turned == DUMMY or (spades_by_spades and SUIT_OF[turned] == "S"):
        return None
    return SUIT_OF[turned]


def first_attacker(hands: list[list[str]], trump: str | None, dealer: int) -> int:
    """D3: lowest trump; without one, lowest-ranked card (the dummy has no rank).

    Ties go to the first such seat clockwise from the dealer's left.
    """
    seats = len(hands)
    clockwise = [(dealer + 1 + i) % seats for i in range(seats)]
    best: tuple[int, int] | None = None  # (value, position clockwise)
    if trump is not None:
        for pos, seat in enumerate(clockwise):
            for card in hands[seat]:
                if card != DUMMY and SUIT_OF[card] == trump and (best is None or RANK_VALUE[card] < best[0]):
                    best = (RANK_VALUE[card], pos)
    if best is None:
        for pos, seat in enumerate(clockwise):
            for card in hands[seat]:
                if card != DUMMY and (best is None or RANK_VALUE[card] < best[0]):
                    best = (RANK_VALUE[card], pos)
    return clockwise[best[1]] if best is not None else clockwise[0]
