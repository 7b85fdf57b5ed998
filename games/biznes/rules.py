"""Biznes tables and pure helpers: the deal table, the premium table, tricks.

Everything here is a pure function over card codes, shared by the state, the
scoring and the tests. Rule numbers refer to ``shared/rules/biznes.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cards import JOKER_SET, RANK_VALUE, RANKS, SUIT_OF, SUITS
from games.options import Option

#: the options (shared/rules/biznes.md "Options"); cross-checks live in BiznesState.new
OPTIONS = (
    Option(
        "deck",
        "Deck",
        36,
        choices=(36, 52, 54),
        kind="int",
        help="The 36-card deck is for 4 or 5 players only; 52 or 54 cards suit 4 to 6 players.",
        choice_labels=(
            "36 cards (six to ace)",
            "52 cards",
            "54 cards (52 and two jokers)",
        ),
    ),
    Option(
        "widow_open",
        "Widow cards dealt face up",
        0,
        low=0,
        high=4,
        kind="int",
        help=(
            "The widow is the 0 to 4 cards left over after the deal (it depends on the deck and the players); "
            "this many of them lie face up for everyone to see."
        ),
    ),
)

#: the 52 ordinary cards a joker may become (B9), in code order
ORDINARY: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)

#: seat counts allowed with each deck (36 only with 4 or 5 players)
DECK_SEATS: dict[int, tuple[int, ...]] = {36: (4, 5), 52: (4, 5, 6), 54: (4, 5, 6)}

#: B8 premium table: (deck, seats) -> (with banker, alone); 54 plays as 52
PREMIUMS: dict[tuple[int, int], tuple[int, int]] = {
    (36, 4): (2, 3),
    (36, 5): (0, 1),
    (52, 4): (3, 4),
    (52, 5): (2, 3),
    (52, 6): (1, 2),
    (54, 4): (3, 4),
    (54, 5): (2, 3),
    (54, 6): (1, 2),
}


def hand_size(deck: int, seats: int) -> int:
    """Cards per hand, and tricks per deal (the deal table)."""
    return deck // seats


def widow_size(deck: int, seats: int) -> int:
    """Cards left over after the hands: the widow (the deal table)."""
    return deck % seats


def premium(deck: int, seats: int, with_banker: bool) -> int:
    """B8: the premium P; "with banker" only when a banker took the role."""
    banker, alone = PREMIUMS[(deck, seats)]
    return banker if with_banker else alone


def can_lead_joker(hand: Sequence[str]) -> bool:
    """B9: a joker may be led only as the last card, or when both cards left are jokers."""
    n = len(hand)
    if n == 1:
        return hand[0] in JOKER_SET
    return n == 2 and hand[0] in JOKER_SET and hand[1] in JOKER_SET


def has_legal_lead(hand: Sequence[str], trump: str) -> bool:
    """B5/B7/B9: can the declarer lead anything at all?

    He may not lead a trump; a joker may be led only under B9 (and is then
    named as a non-trump). So he has no lead exactly when he holds at least
    one ordinary card and every ordinary card he holds is a trump ("nothing but
    trumps, jokers aside").
    """
    if can_lead_joker(hand):
        return True
    return any(SUIT_OF[c] != trump and c not in JOKER_SET for c in hand)


def trick_winner(trick: Sequence[tuple[int, str, str]], trump: str | None) -> int:
    """B5/B9: the seat winning a trick of (seat, card, effective card) entries.

    The highest trump wins, else the highest card of the suit led (the led
    card's effective suit). A joker counts as the card it was named; of two
    equal effective cards the one played first ranks higher (strict compare).
    """
    led = SUIT_OF[trick[0][2]]
    best_seat = trick[0][0]
    best = (2 if led == trump else 1, RANK_VALUE[trick[0][2]])
    for seat, _card, eff in trick[1:]:
        suit = SUIT_OF[eff]
        if suit == trump:
            key = (2, RANK_VALUE[eff])
        elif suit == led:
            key = (1, RANK_VALUE[eff])
        else:
            continue
        if key > best:
            best, best_seat = key, seat
    return best_seat
