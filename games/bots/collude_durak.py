"""Durak's colluding policy (``games.bots.collude``): no throw-ins on the partner, no transfers to him.

With the partner's hand known (``shared``) it throws in on him the cards he can beat: it costs
him nothing and rids the thrower of a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.bots.public import Action, History
from games.cards import RANK_VALUE, SUIT_OF


def choose(
    view: dict[str, Any], legal: list[Action], honest: Action, history: History, partner: int, hand: list[str] | None
) -> Action:
    kinds = {a["type"] for a in legal}
    if view.get("defender") == partner and honest["type"] == "throw" and "done" in kinds:
        if hand is not None and all(beatable(c, hand, view.get("trump")) for c in honest["cards"]):
            return honest
        return next(a for a in legal if a["type"] == "done")
    if honest["type"] in ("transfer", "show") and next_in(view, view["seat"]) == partner:
        keep = [a for a in legal if a["type"] not in ("transfer", "show")]
        if keep:
            return next((a for a in keep if a["type"] == "cover"), keep[0])
    return honest


def next_in(view: dict[str, Any], seat: int) -> int | None:
    seats = int(view["seats"])
    in_game = view.get("in_game") or [True] * seats
    for step in range(1, seats):
        other = (seat + step) % seats
        if in_game[other]:
            return other
    return None


def beatable(card: str, hand: Sequence[str], trump: str | None) -> bool:
    suit, value = SUIT_OF.get(card), RANK_VALUE.get(card, 0)
    for c in hand:
        if SUIT_OF.get(c) == suit and RANK_VALUE.get(c, 0) > value:
            return True
        if trump and SUIT_OF.get(c) == trump and suit != trump:
            return True
    return False
