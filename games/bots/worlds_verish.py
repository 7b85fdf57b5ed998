"""Believe It or Not: sampled worlds consistent with a seat's view and the public log.

Every card but the seat's own hand is unseen except those turned up by checks
(V4, carried by the public log): the discarded ones are out for good, and the
ones a player took are *probably* still in his hand (he may have put them down
again face down, so this is a preference, not a constraint). The unseen cards
are spread over the other hands, the face-down placements of the open pile and
the face-down part of the discard pile. Each placement of the pile is filled
with cards of the announced kind with the claimant's observed honesty (when
enough such cards are unseen), else at random. Any such spread is a legal
position, since no rule depends on a face-down card until it is turned up.
The world is an engine snapshot (``VerishState.from_json``).
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.public import History
from games.bots.verish import kind_of, seen_cards
from games.cards import make_deck
from games.verish.state import VerishState

#: a few rounds after the decision say most about it; then the share of cards decides (``utility``)
ROLLOUT_CAP = 40


class WorldError(ValueError):
    pass


def sample(view: dict[str, Any], history: History, rng: random.Random) -> VerishState:
    opts = dict(view["options"])
    kind = opts["kind"]
    me, seats = view["seat"], view["seats"]
    seen = seen_cards(seats, history)
    sizes = view["hand_sizes"]
    mine = set(view["hand"])
    pool = [c for c in make_deck(opts["deck"]) if c not in mine and c not in seen.discarded]
    rng.shuffle(pool)
    taken: set[str] = set()
    hands: list[list[str]] = [[] for _ in range(seats)]
    hands[me] = list(view["hand"])
    # cards seen going into a hand are put back there first
    for s in range(seats):
        if s == me:
            continue
        likely = [c for c in pool if c in seen.held[s]][: sizes[s]]
        hands[s] = likely
        taken.update(likely)
    rest = [c for c in pool if c not in taken]
    pile = []
    k = view["kind"]
    for p in view["pile"]["placements"]:
        n = p["count"]
        cards: list[str] = []
        if p["seat"] != me and rng.random() < seen.honesty(p["seat"]):
            cards = [c for c in rest if kind_of(c, kind) == k][:n]
            if len(cards) < n:
                cards = []
        if not cards:
            cards = rest[:n]
        for c in cards:
            rest.remove(c)
        pile.append({"seat": p["seat"], "cards": cards, "last": p["last"]})
    for s in range(seats):
        if s != me:
            extra = sizes[s] - len(hands[s])
            hands[s] += rest[:extra]
            del rest[:extra]
    discard = sorted(seen.discarded) + rest
    if len(discard) != view["discard"] or any(len(h) != sizes[s] for s, h in enumerate(hands)):
        raise WorldError("the unseen cards do not fill the places")
    data = {
        "game": "verish",
        "options": opts,
        "seats": seats,
        "dealer": view["dealer"],
        "deck": [c for h in hands for c in h] + [c for p in pile for c in p["cards"]] + discard,
        "hands": hands,
        "pile": pile,
        "pile_kind": view["kind"],
        "discard": discard,
        "finished": list(view["finished"]),
        "going_out": list(view["going_out"]),
        "last_check": view["last_check"],
        "loser": None,
        "phase": view["phase"],
        "turn": view["turn"],
    }
    return VerishState.from_json(data)


def utility(state: VerishState, seat: int) -> float:
    """1 for not losing; an unfinished rollout by the share of cards the others still hold."""
    if state.is_over():
        return 0.0 if state.loser == seat else 1.0
    sizes = [len(h) for h in state.hands]
    total = sum(sizes) or 1
    return 1.0 - sizes[seat] / total


def candidates(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Honest groups, single honest cards and one bluff of each size when opening; believe,
    doubt, the honest addition and one bluff addition when answering."""
    kind = view["options"]["kind"]
    out: list[dict[str, Any]] = []
    if view["phase"] == "claim":
        bluffs: set[int] = set()
        for a in sorted(legal, key=lambda a: -len(a["cards"])):
            honest = all(kind_of(c, kind) == a["kind"] for c in a["cards"])
            if honest:
                out.append(a)
            elif len(a["cards"]) not in bluffs:
                bluffs.add(len(a["cards"]))
                out.append(a)
        return out[:12]
    k = view["kind"]
    bluff = False
    for a in legal:
        if a["type"] != "add" or all(kind_of(c, kind) == k for c in a["cards"]):
            out.append(a)
        elif not bluff and len(a["cards"]) == 1:
            bluff = True
            out.append(a)
    return out
