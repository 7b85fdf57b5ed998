"""Biznes rules of thumb (``rules/biznes.md``), from the seat's view and the public log.

- Trick estimate of a hand for a trump: aces, guarded kings and queens, long
  trumps and jokers (``estimate``).
- Bidding (B1): the cheapest legal bid in the best suit while it stays within
  the estimate, else pass.
- Discard (B2): the least useful cards: low cards of short plain suits first,
  never trumps, aces or jokers while there is a choice.
- Declare (B3): alone when the hand covers the contract, else ask for a banker
  (if nobody takes it the contract drops by one, B4).
- Roles (B4): banker when the contract looks safe and the hand is weak, mafia
  with a hand that should take a trick (joining a mafia multiplies), else thief.
- Play (B5/B6/B9): each role wants the tricks its score counts -- declarer and
  banker for the declarer, thieves and mafia for themselves; the policeman
  sides with the declarer. Lead a card that is top of its suit, else low from
  the longest plain suit; follow low when a partner wins, else win as cheaply
  as possible, else throw the least useful card. A change only when forced.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.public import Action, History
from games.cards import JOKERS, RANK_VALUE, RANKS, SUIT_OF, SUITS


def estimate(hand: list[str], trump: str | None) -> float:
    """Expected tricks of a hand with this trump (rough, ignores position)."""
    by_suit: dict[str, list[int]] = {s: [] for s in SUITS}
    jokers = 0
    for c in hand:
        if c in JOKERS:
            jokers += 1
        else:
            by_suit[c[1]].append(RANK_VALUE[c])
    est = float(jokers)
    for suit, ranks in by_suit.items():
        ranks.sort(reverse=True)
        n = len(ranks)
        honours = 0.0
        if 14 in ranks:
            honours += 1
        if 13 in ranks and n >= 2:
            honours += 0.7 if suit == trump else 0.5
        if 12 in ranks and n >= 3:
            honours += 0.5 if suit == trump else 0.25
        est += honours
        if suit == trump:
            est += max(0, n - 2) * 0.75
    return est


def played_cards(history: History) -> set[str]:
    return {a["card"] for _, a in history if a.get("type") == "play"}


def choose(view: dict[str, Any], legal: list[Action], history: History, rng: random.Random) -> Action:
    phase = view["phase"]
    hand = view["hand"]
    if phase == "bidding":
        return _bid(view, legal)
    if phase == "discard":
        return _discard(view, legal)
    if phase == "declare":
        contract = view["contract"]
        strong = estimate(hand, contract["suit"]) >= contract["tricks"] + 0.5
        return {"type": "declare", "banker": not strong}
    if phase == "roles":
        return _role(view, legal)
    if phase == "change":
        return max(legal, key=lambda a: sum(1 + RANK_VALUE[c] / 20 for c in hand if SUIT_OF[c] == a["suit"]))
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return legal[0]
    return _play(view, plays, history)


def _bid(view: dict[str, Any], legal: list[Action]) -> Action:
    hand = view["hand"]
    best_suit = max(SUITS, key=lambda s: estimate(hand, s))
    est = estimate(hand, best_suit) + 0.3 * view.get("widow_size", 0)
    bids = [a for a in legal if a["type"] == "bid" and a["suit"] == best_suit]
    if bids:
        cheapest = min(bids, key=lambda a: a["tricks"])
        if cheapest["tricks"] <= est - 0.5:
            return cheapest
    return {"type": "pass"}


def keep_value(card: str, hand: list[str], trump: str | None) -> float:
    if card in JOKERS:
        return 50
    v = float(RANK_VALUE[card])
    if SUIT_OF[card] == trump:
        v += 20
    elif v < 14:
        v -= 4 - min(4, sum(1 for c in hand if SUIT_OF[c] == SUIT_OF[card]))  # short suits go first
    return v


def _discard(view: dict[str, Any], legal: list[Action]) -> Action:
    hand = view["hand"]
    trump = view["trump"]
    return min(legal, key=lambda a: sum(keep_value(c, hand, trump) for c in a["cards"]))


def _role(view: dict[str, Any], legal: list[Action]) -> Action:
    options = {a["role"] for a in legal}
    contract = view["contract"]
    n = view["tricks_per_deal"]
    mine = estimate(view["hand"], view["trump"])
    if "banker" in options and contract["tricks"] <= n // 2 and mine < 1.5:
        return {"type": "role", "role": "banker"}
    if "mafia" in options and mine >= 1.0:
        return {"type": "role", "role": "mafia"}
    return {"type": "role", "role": "thief"}


def _friends(view: dict[str, Any], me: int) -> set[int]:
    roles = view["roles"]
    role = roles[me]
    if role in ("declarer", "banker", "policeman"):
        return {s for s, r in enumerate(roles) if r in ("declarer", "banker")} | {me}
    if role == "mafia":
        return {s for s, r in enumerate(roles) if r == "mafia"}
    return {me}


def _eff(a: Action) -> str:
    return str(a.get("as", a["card"]))


def _beats(card: str, best: str, led: str, trump: str | None) -> bool:
    cs, bs = SUIT_OF[card], SUIT_OF[best]
    if cs == bs:
        return RANK_VALUE[card] > RANK_VALUE[best]
    if cs == trump:
        return True
    return False if bs == trump else cs == led and bs != led


def _play(view: dict[str, Any], plays: list[Action], history: History) -> Action:
    me = view["seat"]
    trump = view["trump"]
    hand = view["hand"]
    trick = view["trick"]
    seen = played_cards(history) | set(hand) | {t["card"] for t in trick}
    plays = _one_name_per_joker(plays, trump)

    def top_of_suit(c: str) -> bool:
        if c in JOKERS:
            return False
        higher = [r + c[1] for r in RANKS if RANK_VALUE[r + c[1]] > RANK_VALUE[c]]
        return all(h in seen for h in higher)

    def waste(a: Action) -> float:
        return keep_value(a["card"], hand, trump)

    if not trick:
        tops = [a for a in plays if top_of_suit(a["card"]) and SUIT_OF[a["card"]] != trump]
        if tops:
            return max(tops, key=lambda a: RANK_VALUE[a["card"]])
        plain = [a for a in plays if a["card"] not in JOKERS and SUIT_OF[a["card"]] != trump]
        if plain:
            longest = max(plain, key=lambda a: sum(1 for c in hand if SUIT_OF[c] == SUIT_OF[a["card"]]))
            suit = SUIT_OF[longest["card"]]
            return min((a for a in plain if SUIT_OF[a["card"]] == suit), key=lambda a: RANK_VALUE[a["card"]])
        return max(plays, key=lambda a: RANK_VALUE[_eff(a)])
    led = SUIT_OF[trick[0].get("as", trick[0]["card"])]
    best_seat, best = trick[0]["seat"], trick[0].get("as", trick[0]["card"])
    for t in trick[1:]:
        eff = t.get("as", t["card"])
        if _beats(eff, best, led, trump):
            best_seat, best = t["seat"], eff
    last = len(trick) == len(view["hand_sizes"]) - 1
    friends = _friends(view, me)
    if best_seat in friends and (last or top_of_suit(best)):
        return min(plays, key=waste)
    winners = [a for a in plays if _beats(_eff(a), best, led, trump)]
    if winners:
        return min(winners, key=waste)
    return min(plays, key=waste)


def _one_name_per_joker(plays: list[Action], trump: str | None) -> list[Action]:
    """A joker is named as the strongest card it may become (ace of trump, else an ace)."""
    out: list[Action] = []
    named: dict[str, Action] = {}
    for a in plays:
        if "as" not in a:
            out.append(a)
            continue
        prev = named.get(a["card"])
        if prev is None or _name_rank(a["as"], trump) > _name_rank(prev["as"], trump):
            named[a["card"]] = a
    return out + list(named.values())


def _name_rank(card: str, trump: str | None) -> int:
    return RANK_VALUE[card] + (20 if SUIT_OF[card] == trump else 0)
