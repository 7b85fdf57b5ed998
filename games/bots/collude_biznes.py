"""Biznes's colluding policy (``games.bots.collude``): join the partner as banker or mafia, let his winning card
stand (unless the two are partners by the rules, declarer and banker, when helping him is the game)."""

from __future__ import annotations

from typing import Any

from games.biznes.rules import trick_winner
from games.bots.public import Action, History
from games.cards import RANK_VALUE


def choose(
    view: dict[str, Any], legal: list[Action], honest: Action, history: History, partner: int, hand: list[str] | None
) -> Action:
    me = view["seat"]
    roles = view.get("roles") or []
    if honest["type"] == "role":
        offered = {a["role"]: a for a in legal if a["type"] == "role"}
        if view.get("declarer") == partner and view.get("asked_banker") and "banker" in offered:
            return offered["banker"]
        if partner < len(roles) and roles[partner] == "mafia" and "mafia" in offered:
            return offered["mafia"]
        return honest
    trick = view.get("trick") or []
    if honest["type"] != "play" or not trick:
        return honest
    played = [(e["seat"], e["card"], e.get("as") or e["card"]) for e in trick]
    trump = view.get("trump")
    rules_partners = roles[me] in ("declarer", "banker") and roles[partner] in ("declarer", "banker")
    if trick_winner(played, trump) != partner or rules_partners:
        return honest
    low = [a for a in legal if trick_winner([*played, (me, a["card"], a.get("as") or a["card"])], trump) == partner]
    if not low:
        return honest
    return min(low, key=lambda a: RANK_VALUE.get(a.get("as") or a["card"], 0))
