"""Precomputed Durak tables: what covers what (rule D5) and the shared actions ``legal_actions`` lists.

Every engine call works on two-character card codes; these tables turn the
rules of D5 into set look-ups so that listing covers costs one ``in`` per card.
"""

from __future__ import annotations

import functools
from itertools import combinations
from typing import Any

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


#: the actions of one card, and the bare ones, built once: every state's ``legal_actions`` lists
#: these very objects (read-only, as every listed action is: see ``State.legal_actions``)
ATTACK_ONE: dict[str, dict[str, Any]] = {c: {"type": "attack", "cards": [c]} for c in CODES}
THROW_ONE: dict[str, dict[str, Any]] = {c: {"type": "throw", "cards": [c]} for c in CODES}
TRANSFER: dict[str, dict[str, Any]] = {c: {"type": "transfer", "card": c} for c in CODES}
SHOW: dict[str, dict[str, Any]] = {c: {"type": "show", "card": c} for c in CODES}
#: attack -> card -> ``{"type": "cover", "attack": attack, "card": card}``
COVER: dict[str, dict[str, dict[str, Any]]] = {
    a: {c: {"type": "cover", "attack": a, "card": c} for c in CODES if c != a} for a in CODES
}
DONE: dict[str, Any] = {"type": "done"}
TAKE: dict[str, Any] = {"type": "take"}


class Subsets(dict[tuple[str, ...], list[dict[str, Any]]]):
    """cards in hand order -> the shared actions of ``kind`` (attack or throw) for every non-empty
    subset of at most ``room`` of them, smallest first, in hand order; built on first use.

    A lone card is listed whatever the room (a lead of one card always fits).
    Bounded: a table grown past ``limit`` entries starts afresh (actions already
    handed out stay valid; they are only no longer shared with later lists).
    """

    def __init__(self, kind: str, room: int, limit: int = 20_000) -> None:
        super().__init__()
        self.kind, self.room, self.limit = kind, room, limit
        self.one = ATTACK_ONE if kind == "attack" else THROW_ONE

    def __missing__(self, cards: tuple[str, ...]) -> list[dict[str, Any]]:
        if len(self) >= self.limit:
            self.clear()
        one, room = self.one, self.room
        out = [one[c] for c in cards] if room >= 1 or len(cards) == 1 else []
        for size in range(2, min(len(cards), room) + 1):
            out += [{"type": self.kind, "cards": list(t)} for t in combinations(cards, size)]
        self[cards] = out
        return out


class ByRoom(dict[int, Subsets]):
    """room -> the ``Subsets`` table of ``kind`` for it."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, room: int) -> Subsets:
        table = self[room] = Subsets(self.kind, room)
        return table


#: leads of cards of one rank (D4), and throw-ins (D6), by the room left on the table
LEADS = ByRoom("attack")
THROWS = ByRoom("throw")
