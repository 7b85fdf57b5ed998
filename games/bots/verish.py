"""Believe It or Not rules of thumb (``rules/verish.md``), from the view and the public log.

What the seat has seen (``Seen``): its hand, the cards turned up by every
check (V4; the public log carries them), which of those were discarded for
good and which went into whose hand.

- Opening (V2): honest -- all held cards of the kind it holds most of (up to
  ``max_cards``); now and then, with a long hand, one bluff card padded in.
- Answering (V3/V4): add honestly when it holds cards of the pile's kind;
  otherwise weigh the claim: impossible when more cards are claimed than can
  still be unseen (its own hand, the discarded ones and those known elsewhere
  excluded); else the chance the claimant held that many (hypergeometric)
  times an honesty prior. Doubt an unlikely claim, believe a likely one; doubt
  a player putting down his last cards unless the claim is very likely.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from math import comb
from typing import Any

from games.bots.public import Action, History

HONESTY = 0.8


@dataclass
class Seen:
    discarded: set[str] = field(default_factory=set)  # turned up and discarded for good
    held: list[set[str]] = field(default_factory=list)  # turned up and taken by that seat
    true_claims: list[int] = field(default_factory=list)  # per seat: his checked placements that were true
    checked: list[int] = field(default_factory=list)  # per seat: his placements checked

    def honesty(self, seat: int) -> float:
        """How often this player's checked placements were true, shrunk towards ``HONESTY``."""
        return (self.true_claims[seat] + 4 * HONESTY) / (self.checked[seat] + 4)


def seen_cards(seats: int, history: History) -> Seen:
    seen = Seen(held=[set() for _ in range(seats)], true_claims=[0] * seats, checked=[0] * seats)
    for _, a in history:
        check = a.get("check")
        if not check:
            continue
        seen.checked[check["claimant"]] += 1
        seen.true_claims[check["claimant"]] += bool(check["true"])
        cards = set(check["cards"])
        for h in seen.held:
            h.difference_update(cards)  # they were put down again
        if check["taker"] is None:
            seen.discarded |= cards
        else:
            seen.held[check["taker"]] |= cards
    return seen


def kind_of(card: str, kind: str) -> str:
    return card[1] if kind == "suit" else card[0]


def kind_total(opts: dict[str, Any]) -> int:
    if opts.get("kind", "rank") == "suit":
        return 9 if opts.get("deck", 36) == 36 else 13
    return 4


def p_at_least(population: int, successes: int, draws: int, n: int) -> float:
    """P(X >= n) for X hypergeometric (drawing ``draws`` of ``population`` with ``successes`` good)."""
    if n <= 0:
        return 1.0
    draws = min(draws, population)
    successes = min(successes, population)
    total = comb(population, draws)
    if total == 0:
        return 0.0
    return sum(comb(successes, x) * comb(population - successes, draws - x) for x in range(n, draws + 1)) / total


def claim_probability(view: dict[str, Any], history: History) -> float:
    """How likely the latest placement on the pile is true, from what the seat has seen."""
    opts = view["options"]
    kind = opts.get("kind", "rank")
    k = view["kind"]
    placement = view["pile"]["placements"][-1]
    claimant, n = placement["seat"], placement["count"]
    seats = view["seats"]
    seen = seen_cards(seats, history)
    mine = sum(1 for c in view["hand"] if kind_of(c, kind) == k)
    gone = sum(1 for c in seen.discarded if kind_of(c, kind) == k)
    elsewhere = sum(
        1 for s, h in enumerate(seen.held) if s not in (claimant, view["seat"]) for c in h if kind_of(c, kind) == k
    )
    with_claimant = sum(1 for c in seen.held[claimant] if kind_of(c, kind) == k)
    available = kind_total(opts) - mine - gone - elsewhere
    if n > available:
        return 0.0
    unknown = sum(view["hand_sizes"]) - len(view["hand"]) + view["pile"]["count"] + view["discard"]
    unknown -= len(seen.discarded) + sum(len(h) for h in seen.held)
    before = view["hand_sizes"][claimant] + n - len(seen.held[claimant])
    need = max(0, n - with_claimant)
    p = p_at_least(max(unknown, 0), max(0, available - with_claimant), max(before, 0), need)
    return seen.honesty(claimant) * p


def choose(view: dict[str, Any], legal: list[Action], history: History, rng: random.Random) -> Action:
    if view["phase"] == "claim":
        return _open(view, legal, rng)
    return _answer(view, legal, history)


def _honest(a: Action, k: str, kind: str) -> bool:
    return all(kind_of(c, kind) == k for c in a["cards"])


def _open(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kind = view["options"].get("kind", "rank")
    honest = [a for a in legal if _honest(a, a["kind"], kind)]
    if not honest:
        return legal[0]
    best = max(honest, key=lambda a: (len(a["cards"]), a["kind"]))
    if len(view["hand"]) >= 6 and rng.random() < 0.2:
        padded = [
            a
            for a in legal
            if a["kind"] == best["kind"]
            and len(a["cards"]) == len(best["cards"]) + 1
            and set(best["cards"]) < set(a["cards"])
        ]
        if padded:
            return padded[0]
    return best


def _answer(view: dict[str, Any], legal: list[Action], history: History) -> Action:
    kind = view["options"].get("kind", "rank")
    k = view["kind"]
    adds = [a for a in legal if a["type"] == "add" and _honest(a, k, kind)]
    p = claim_probability(view, history)
    placement = view["pile"]["placements"][-1]
    in_game = view["seats"] - len(view["finished"])
    if placement["last"] and in_game == 2:
        return {"type": "doubt"}  # V5/V6: if he goes out now, I lose
    if adds and p > 0.0:
        return max(adds, key=lambda a: len(a["cards"]))
    threshold = 0.7 if placement["last"] else 0.45
    return {"type": "believe"} if p >= threshold else {"type": "doubt"}
