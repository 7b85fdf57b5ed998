"""Believe It or Not's colluding policy (``games.bots.collude``): never doubt the partner's claims.

With the partner's hand known (``shared``) it passes a partner's bluff on by adding instead of
believing it, and doubts an opponent's claim the two hands together prove false.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.bots.public import Action, History
from games.cards import SUIT_OF


def choose(
    view: dict[str, Any], legal: list[Action], honest: Action, history: History, partner: int, hand: list[str] | None
) -> Action:
    placer = next((s for s, a in reversed(history) if a.get("type") in ("claim", "add")), None)
    if placer is None or not any(a["type"] == "believe" for a in legal):
        return honest  # opening a pile: nobody to act on
    kinds = {a["type"]: a for a in legal}
    if placer == partner:
        if honest["type"] != "doubt":
            return honest
        if hand is not None and "add" in kinds:
            return next(a for a in legal if a["type"] == "add")
        return kinds.get("believe", honest)
    if hand is not None and "doubt" in kinds and proved_false(view, history, hand):
        return kinds["doubt"]
    return honest


def proved_false(view: dict[str, Any], history: History, partner_hand: Sequence[str]) -> bool:
    """The open pile's kind cannot be true for the latest placement: our two hands hold too many of that kind."""
    kind = view.get("kind")
    if not kind:
        return False
    count = next((int(a.get("count") or 0) for _s, a in reversed(history) if a.get("type") in ("claim", "add")), 0)
    by_suit = (view.get("options") or {}).get("kind") == "suit"
    deck = int((view.get("options") or {}).get("deck") or 36)
    total = deck // 4 if by_suit else 4

    def of_kind(card: str) -> bool:
        return bool(SUIT_OF.get(card) == kind) if by_suit else bool(card[:-1] == kind)

    held = sum(1 for c in [*view.get("hand", []), *partner_hand] if of_kind(c))
    return held + count > total
