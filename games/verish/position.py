"""A Believe It or Not game's fields, declared once (``games.fields`` derives its snapshot and copy from them).

``VerishState`` (``state.py``) is this class with the rules. ``view`` (what a seat sees, a move in words)
reads a game through this class, which imports neither, so the package imports one way: ``rules`` <
``position`` < ``view`` < ``state`` < the registry entry in ``__init__`` (beside ``meta``).
"""

from __future__ import annotations

from typing import Annotated, Any

from games.base import State
from games.fields import DERIVED, Codec

#: one placement on the pile: (seat, cards, whether they were his last cards)
Placement = tuple[int, list[str], bool]
#: saved as ``{"seat", "cards", "last"}`` objects, as the first engines did
PILE = Codec(
    "[(s, c[:], last) for s, c, last in {}]",
    lambda pile: _dump_pile(pile),
    lambda data: _load_pile(data),
)


class VerishPosition(State):
    """Every field of a game, and what the check would find (V4); the rules are ``VerishState``'s."""

    turn: int
    hands: list[list[str]]
    #: the open pile, one placement per claim or addition
    pile: Annotated[list[Placement], PILE]
    pile_kind: str | None
    discard: list[str]
    #: seats that have left the game (V5), in the order they left
    finished: list[int]
    #: seats that put down their last cards and wait for the pile's check (V5), in order
    going_out: list[int]
    last_check: dict[str, Any] | None
    loser: int | None
    # derived from the options by ``_derive``; never saved
    _limit: Annotated[int, DERIVED]
    _kinds: Annotated[str, DERIVED]
    _kind_of: Annotated[dict[str, str], DERIVED]
    _cards_of: Annotated[dict[str, frozenset[str]], DERIVED]
    _honest: Annotated[dict[str, dict[str, Any]], DERIVED]

    def claim_is_true(self) -> bool:
        """Whether every card of the latest placement is of the announced kind (V4)."""
        return self._cards_of[self.pile_kind].issuperset(self.pile[-1][1])  # type: ignore[index]

    def outcome(self, answerer: int, believe: bool) -> tuple[bool, int | None, int]:
        """(claim true, who takes the pile or None, who would open next before skips)."""
        true = self.claim_is_true()
        if believe:
            return (true, None, answerer) if true else (true, answerer, answerer + 1)
        return (true, answerer, answerer + 1) if true else (true, self.pile[-1][0], answerer)


def _dump_pile(pile: list[Placement]) -> list[dict[str, Any]]:
    return [{"seat": s, "cards": list(c), "last": last} for s, c, last in pile]


def _load_pile(data: list[dict[str, Any]]) -> list[Placement]:
    return [(p["seat"], list(p["cards"]), p["last"]) for p in data]
