"""Believe It or Not from the public record: whose placements a player doubted.

After a claim or an addition the next player answers: believe, doubt, or add
cards of his own (passing the choice on). The placement he answers was made by
the last seat to claim or add, which the record shows. ``doubt``: he doubted
that seat (or spared him: believed, or added); compared within the size of the
placement answered (one card, two, three or more), since a bigger placement is
doubted more often by everyone, and within the size of the answerer's hand
(a big hand has more cards to add, whatever the placement). Hand sizes are public:
the deal (V1: the whole deck, one at a time from the dealer's left; the dealer
opens), the counts put down, and who took each pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.fairplay import Interaction, Record

ANSWERS = ("believe", "doubt", "add")


def interactions(record: Record, seats: int, options: Mapping[str, Any]) -> list[Interaction]:
    out: list[Interaction] = []
    placer: int | None = None
    count = pile = 0
    hands = dealt(record, seats, options)
    for i, (seat, action) in enumerate(record):
        kind = action.get("type")
        if kind in ANSWERS and placer is not None and placer != seat and 0 <= seat < seats:
            situation = f"count{min(count, 3)}:hand{hand_bucket(hands[seat])}"
            out.append(Interaction(i, seat, placer, "doubt", situation, kind != "doubt", str(kind), ANSWERS))
        if kind in ("claim", "add"):
            placer, count = seat, int(action.get("count") or 0)
            pile = count if kind == "claim" else pile + count
            if 0 <= seat < seats:
                hands[seat] -= count
        elif kind in ("believe", "doubt"):
            taker = (action.get("check") or {}).get("taker")
            if isinstance(taker, int) and 0 <= taker < seats:
                hands[taker] += pile
            placer, pile = None, 0
    return out


def dealt(record: Record, seats: int, options: Mapping[str, Any]) -> list[int]:
    """Each seat's cards after the deal: the deck one at a time from the dealer's left (the first mover deals)."""
    deck = int(options.get("deck") or 36)
    dealer = record[0][0] if record else 0
    hands = [deck // seats] * seats
    for k in range(deck % seats):
        hands[(dealer + 1 + k) % seats] += 1
    return hands


#: upper bounds of the hand-size classes: a random player's chance to doubt falls as one over his hand's size,
#: so the classes are narrow where that changes fast
HAND_CLASSES = (2, 4, 6, 9, 12, 16, 21, 28)


def hand_bucket(cards: int) -> str:
    return str(next((n for n, top in enumerate(HAND_CLASSES) if cards <= top), len(HAND_CLASSES)))
