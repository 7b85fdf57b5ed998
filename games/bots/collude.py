"""Colluding bots, for measuring the fair-play detector (``bench_fairplay``); never seated at a real table.

A ``ColludingBot`` plays like the heuristic bot except towards its partner's seat:

- style ``soft``: soft play with no shared information. It never throws in on its
  partner (Durak), never transfers to him, never doubts his claims (Believe It or
  Not), joins him as banker or mafia and lets his winning card stand (Biznes);
- style ``shared``: it also sees its partner's hand (``partner_hand``, passed by
  whoever runs the game, as a cheat's second screen would) and uses it: it throws
  in on the partner only cards he can beat, passes a partner's bluff on instead of
  believing it, and doubts an opponent's claim the two hands together prove false.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.biznes.rules import trick_winner
from games.bots.policies import heuristic_policy
from games.bots.public import Action, History, check_inputs
from games.cards import RANK_VALUE, SUIT_OF

STYLES = ("soft", "shared")


class ColludingBot:
    level = "colluding"

    def __init__(self, partner: int, style: str = "soft") -> None:
        if style not in STYLES:
            raise ValueError(f"style: one of {', '.join(STYLES)}, not {style!r}")
        self.partner = partner
        self.style = style

    def choose(
        self,
        game_name: str,
        view: dict[str, Any],
        legal_actions: Sequence[Action],
        history: History,
        rng: random.Random,
        partner_hand: Sequence[str] | None = None,
    ) -> Action:
        legal = check_inputs(view, legal_actions)
        honest = dict(heuristic_policy(game_name)(view, legal, history, rng)) if len(legal) > 1 else legal[0]
        hand = list(partner_hand or []) if self.style == "shared" else None
        if game_name == "durak":
            return self._durak(view, legal, honest, hand)
        if game_name == "verish":
            return self._verish(view, legal, honest, history, hand)
        if game_name == "biznes":
            return self._biznes(view, legal, honest)
        return honest

    def _durak(self, view: dict[str, Any], legal: list[Action], honest: Action, hand: list[str] | None) -> Action:
        kinds = {a["type"] for a in legal}
        if view.get("defender") == self.partner and honest["type"] == "throw" and "done" in kinds:
            if hand is not None and all(_beatable(c, hand, view.get("trump")) for c in honest["cards"]):
                return honest  # he can beat it: it costs him nothing and rids us of a card
            return next(a for a in legal if a["type"] == "done")
        if honest["type"] in ("transfer", "show") and _next_in(view, view["seat"]) == self.partner:
            keep = [a for a in legal if a["type"] not in ("transfer", "show")]
            if keep:
                return next((a for a in keep if a["type"] == "cover"), keep[0])
        return honest

    def _verish(
        self, view: dict[str, Any], legal: list[Action], honest: Action, history: History, hand: list[str] | None
    ) -> Action:
        placer = next((s for s, a in reversed(history) if a.get("type") in ("claim", "add")), None)
        if placer is None or not any(a["type"] == "believe" for a in legal):
            return honest  # opening a pile: nobody to act on
        kinds = {a["type"]: a for a in legal}
        if placer == self.partner:
            if honest["type"] != "doubt":
                return honest
            if hand is not None and "add" in {a["type"] for a in legal}:
                return next(a for a in legal if a["type"] == "add")
            return kinds.get("believe", honest)
        if hand is not None and "doubt" in kinds and _proved_false(view, history, hand):
            return kinds["doubt"]
        return honest

    def _biznes(self, view: dict[str, Any], legal: list[Action], honest: Action) -> Action:
        me, partner = view["seat"], self.partner
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


def _next_in(view: dict[str, Any], seat: int) -> int | None:
    seats = int(view["seats"])
    in_game = view.get("in_game") or [True] * seats
    for step in range(1, seats):
        other = (seat + step) % seats
        if in_game[other]:
            return other
    return None


def _beatable(card: str, hand: Sequence[str], trump: str | None) -> bool:
    suit, value = SUIT_OF.get(card), RANK_VALUE.get(card, 0)
    for c in hand:
        if SUIT_OF.get(c) == suit and RANK_VALUE.get(c, 0) > value:
            return True
        if trump and SUIT_OF.get(c) == trump and suit != trump:
            return True
    return False


def _proved_false(view: dict[str, Any], history: History, partner_hand: Sequence[str]) -> bool:
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
