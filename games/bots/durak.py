"""Durak rules of thumb (``rules/durak.md``), from the seat's view and legal actions.

- Worth of a card: its rank, plus 13 for a trump; the dummy and (spades by
  spades) the queen of spades are worth most. Low non-trumps are shed first.
- Attack (D4): lead the cheapest rank, several cards of it when they are low.
- Defence (D5, D7, D8): show a trump to transfer when allowed (it costs
  nothing); transfer with a cheap card; else cover every open card with the
  cheapest cards that beat them (hardest attack card first), but take when
  that is impossible, or when it would spend high or several trumps on cheap
  cards while the stock is still thick.
- Throwing in (D6, D7): throw low non-trumps; once the stock is empty, anything
  but a high trump; to a player who takes, junk up to a queen. A card the
  defender cannot beat -- judged from the cards known to be in his hand: those
  he picked up, and his whole hand once the stock is empty in a two-player
  game (``opponent_cards``) -- is thrown (and led) first, whatever its worth.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.public import Action, History
from games.cards import DUMMY, RANK_VALUE, SUIT_OF
from games.durak.tables import covers


def worth(card: str, trump: str | None, sbs: bool) -> int:
    """How much a card is worth keeping: rank 2..14, +13 for a trump; the dummy tops all."""
    if card == DUMMY:
        return 40
    if sbs and card == "QS":
        return 27
    v = RANK_VALUE[card]
    if trump is not None and SUIT_OF[card] == trump:
        v += 13
    return v


def choose(view: dict[str, Any], legal: list[Action], history: History, rng: random.Random) -> Action:
    trump = view.get("trump")
    sbs = bool(view.get("options", {}).get("spades_by_spades"))

    def w(c: str) -> int:
        return worth(c, trump, sbs)

    kinds = {a["type"] for a in legal}
    if kinds & {"cover", "take", "transfer", "show"}:
        return _defend(view, legal, w)
    unbeatable = _unbeatable(view, history, trump, sbs)
    if "attack" in kinds:
        return _lead(view, legal, w, unbeatable)
    return _throw(view, legal, w, unbeatable)


def opponent_cards(view: dict[str, Any], history: History) -> tuple[set[str], bool]:
    """(cards known in the defender's hand, whether that is his whole hand)."""
    from games.bots.worlds_durak import elsewhere, knowledge

    defender = view.get("defender")
    if defender is None:
        return set(), False
    k = knowledge(view, history)
    known = set(k.known[defender])
    if view["seats"] == 2 and view["stock"] == 0:
        pool = elsewhere(view, k)
        if len(pool) == view["hand_sizes"][defender]:
            return set(pool), True
    return known, False


def _unbeatable(view: dict[str, Any], history: History, trump: str | None, sbs: bool) -> set[str]:
    """My cards the defender surely cannot cover (only when his whole hand is known)."""
    cards, whole = opponent_cards(view, history)
    if not whole:
        return set()
    return {c for c in view["hand"] if not any(covers(c, d, trump, sbs) for d in cards)}


def _lead(view: dict[str, Any], legal: list[Action], w: Any, unbeatable: set[str]) -> Action:
    hand = view["hand"]
    stock = view.get("stock", 0)
    has_cheap = any(w(c) <= 14 for c in hand)

    def score(a: Action) -> float:
        cards = a["cards"]
        vals = [w(c) for c in cards]
        s: float = sum(vals) / len(vals) - 2.5 * (len(cards) - 1)
        if max(vals) > 14 and has_cheap:  # keep trumps while there are plain cards
            s += 15
        if stock == 0 and len(cards) == len(hand):
            s -= 100  # going out
        if all(c in unbeatable for c in cards):
            s -= 50
        return s

    return min(legal, key=score)


def _defend(view: dict[str, Any], legal: list[Action], w: Any) -> Action:
    shows = [a for a in legal if a["type"] == "show"]
    if shows:
        return shows[0]  # D8: a free transfer
    transfers = sorted((a for a in legal if a["type"] == "transfer"), key=lambda a: w(a["card"]))
    take = next(a for a in legal if a["type"] == "take")
    plan = cover_plan(view, legal, w)
    stock = view.get("stock", 0)
    if plan is None:
        return transfers[0] if transfers else take
    cost = sum(w(c) for _, c in plan)
    if transfers and w(transfers[0]["card"]) <= 11 and w(transfers[0]["card"]) * 2 < cost + 8:
        return transfers[0]
    if stock > 0 and _too_dear(view, plan, w):
        return take
    attack, card = plan[0]
    return {"type": "cover", "attack": attack, "card": card}


def cover_plan(view: dict[str, Any], legal: list[Action], w: Any) -> list[tuple[str, str]] | None:
    """Cheapest cover for every open card (hardest first), or None if some cannot be covered."""
    options: dict[str, list[str]] = {}
    for a in legal:
        if a["type"] == "cover":
            options.setdefault(a["attack"], []).append(a["card"])
    open_cards = [t["attack"] for t in view["table"] if t["cover"] is None]
    used: set[str] = set()
    plan = []
    for attack in sorted(open_cards, key=w, reverse=True):
        cands = [c for c in options.get(attack, []) if c not in used]
        if not cands:
            return None
        best = min(cands, key=w)
        used.add(best)
        plan.append((attack, best))
    return plan


def _too_dear(view: dict[str, Any], plan: list[tuple[str, str]], w: Any) -> bool:
    """Covering would spend trumps on cheap attack cards while much stock is left."""
    stock = view.get("stock", 0)
    trumps = [c for a, c in plan if w(c) > 14 and w(a) <= 14]
    if not trumps:
        return False
    cheap = all(w(a) <= 11 for a, _ in plan)
    if stock >= 8 and cheap and (len(trumps) >= 2 or max(w(c) for c in trumps) >= 24):
        return True
    return stock >= 14 and cheap and len(trumps) >= 1 and max(w(c) for c in trumps) >= 22


def _throw(view: dict[str, Any], legal: list[Action], w: Any, unbeatable: set[str]) -> Action:
    done = next((a for a in legal if a["type"] == "done"), None)
    throws = [a for a in legal if a["type"] == "throw" and len(a["cards"]) == 1]
    if not throws:
        return done if done is not None else legal[0]
    stock = view.get("stock", 0)
    taking = view.get("phase") == "taking"
    if taking:
        limit = 12
    elif stock == 0:
        limit = 22
    else:
        limit = 10 if stock > 6 else 12
    best = min(throws, key=lambda a: (a["cards"][0] not in unbeatable, w(a["cards"][0])))
    if w(best["cards"][0]) <= limit or done is None or best["cards"][0] in unbeatable:
        return best
    return done
