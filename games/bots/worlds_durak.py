"""Durak: what a seat knows from its view and the public log, and sampled worlds.

Everything in Durak is played face up, so the public log tells exactly which
cards went to the discard pile and which ones a defender picked up (D7): those
stay *known* in his hand until he plays them, like a trump shown for a
transfer (D8) and the turned trump that stayed in the dealer's hand (D1, a
deal that used every card). The other cards no one has seen are spread at
random over the other hands' unknown places and the stock, whose last card is
the turned trump while it is still there.

A world is built as an engine snapshot (``DurakState.from_json``) of the
present position: the view gives every public field; the log gives the
discard pile, the consecutive *done*s of this bout (D6) and, while a defender
takes, the throwers still to have their last turn (D7).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.bots.public import History
from games.cards import DUMMY, make_deck
from games.durak.state import DurakState


class WorldError(ValueError):
    """The view and the log do not add up (they should always)."""


@dataclass
class Knowledge:
    discard: list[str] = field(default_factory=list)
    known: list[set[str]] = field(default_factory=list)  # per seat: cards known to be in that hand
    passes: int = 0


def knowledge(view: dict[str, Any], history: History) -> Knowledge:
    """Replay the public log: the discard pile and the cards known in each hand."""
    seats = view["seats"]
    k = Knowledge(known=[set() for _ in range(seats)])
    bout: list[str] = []
    taker: int | None = None

    def close() -> None:
        if taker is not None:
            k.known[taker].update(bout)
        else:
            k.discard.extend(bout)

    for seat, a in history:
        t = a["type"]
        if t == "attack":
            if bout:
                close()
            bout, taker, k.passes = list(a["cards"]), None, 0
            k.known[seat].difference_update(a["cards"])
        elif t == "throw":
            bout.extend(a["cards"])
            k.known[seat].difference_update(a["cards"])
            k.passes = 0
        elif t in ("cover", "transfer"):
            bout.append(a["card"])
            k.known[seat].discard(a["card"])
            if t == "transfer":
                k.passes = 0
        elif t == "show":
            k.known[seat].add(a["card"])
            k.passes = 0
        elif t == "take":
            taker = seat
        elif t == "done":
            k.passes += 1
    if bout and not view["table"]:
        close()  # the last bout is over
    me = view["seat"]
    k.known[me] = set()
    trump_card = view.get("trump_card")
    if trump_card is not None and view.get("stock", 0) == 0 and view.get("trump_drawn_by") is None:
        # D1: the deal used every card; the turned trump stayed in the dealer's hand
        seen = set(view["hand"]) | set(k.discard) | {c for t in view["table"] for c in t.values() if c}
        if trump_card not in seen and not any(trump_card in s for s in k.known):
            k.known[view["dealer"]].add(trump_card)
    return k


def elsewhere(view: dict[str, Any], k: Knowledge) -> list[str]:
    """The cards in the other hands and the stock: not in my hand, on the table or discarded.

    In a two-player game with an empty stock this is exactly the opponent's hand.
    """
    table = {c for t in view["table"] for c in (t["attack"], t["cover"]) if c is not None}
    gone = set(view["hand"]) | table | set(k.discard)
    opts = view["options"]
    return [c for c in make_deck(opts["deck"], dummy=opts["dummy"]) if c not in gone]


def sample(view: dict[str, Any], history: History, rng: random.Random) -> DurakState:
    """A full position consistent with everything the seat knows."""
    opts = dict(view["options"])
    me, seats = view["seat"], view["seats"]
    k = knowledge(view, history)
    table = [c for t in view["table"] for c in (t["attack"], t["cover"]) if c is not None]
    trump_card = view.get("trump_card")
    in_stock_trump = trump_card is not None and view["stock"] > 0
    seen = set(view["hand"]) | set(table) | set(k.discard)
    hands: list[list[str]] = [[] for _ in range(seats)]
    hands[me] = list(view["hand"])
    for s in range(seats):
        if s != me:
            known = sorted(k.known[s] - seen)
            hands[s] = known[: view["hand_sizes"][s]]
            seen.update(hands[s])
    if in_stock_trump:
        seen.add(trump_card)
    pool = [c for c in make_deck(opts["deck"], dummy=opts["dummy"]) if c not in seen]
    rng.shuffle(pool)
    stock_unknown = view["stock"] - (1 if in_stock_trump else 0)
    needs = [0 if s == me else view["hand_sizes"][s] - len(hands[s]) for s in range(seats)]
    if sum(needs) + stock_unknown != len(pool):
        raise WorldError(f"{len(pool)} unseen cards for {sum(needs)} hand places and {stock_unknown} in the stock")
    i = 0
    for s in range(seats):
        hands[s].extend(pool[i : i + needs[s]])
        i += needs[s]
    stock = pool[i:] + ([trump_card] if in_stock_trump else [])
    attacks = [t["attack"] for t in view["table"]]
    covers = [t["cover"] for t in view["table"]]
    data: dict[str, Any] = {
        "game": "durak",
        "options": opts,
        "seats": seats,
        "dealer": view["dealer"],
        "redeals": view.get("redeals", 0),
        "turned": trump_card,
        "trump": view["trump"],
        "trump_card": trump_card,
        "trump_drawn_by": view.get("trump_drawn_by"),
        "discarded": view["discard"] > 0,
        "fool": None,
        "draw": False,
        "losing_team": None,
        "phase": view["phase"],
        "attacker": view["attacker"],
        "defender": view["defender"],
        "leader": view["leader"],
        "limit": view["limit"],
        "throw_right": view["throw_right"],
        "passes": k.passes if view["phase"] == "defense" else 0,
        "open": sum(1 for c in covers if c is None),
        "deck": [c for h in hands for c in h] + stock + table + k.discard,
        "stock": stock,
        "discard": list(k.discard),
        "out": [not x for x in view["in_game"]],
        "shows": list(view["shows"]),
        "attacks": attacks,
        "covers": covers,
        "order": [],
        "takers": [],
        "hands": hands,
        "ranks": sorted({c[0] for c in table if c != DUMMY}),
        "finished": [[s] for s in view["finished"]],
    }
    state = DurakState.from_json(data)
    state.order = state._throw_order()  # D6, the engine's own rule
    if view["phase"] == "taking" and view["throw_right"] in state.order:
        # D7: the throwers after the current one still get their last turn
        state.takers = state.order[state.order.index(view["throw_right"]) + 1 :]
    return state


def utility(state: DurakState, seat: int) -> float:
    """1 for not being the fool (in teams: for the winning team), 1/2 for a draw."""
    if not state.is_over():
        sizes = [len(h) for h in state.hands]
        mine = sizes[seat]
        return 0.5 + 0.4 * (sum(sizes) / len(sizes) - mine) / max(1, max(sizes))
    if state.draw:
        return 0.5
    if state.losing_team is not None:
        return 0.0 if seat % 2 == state.losing_team else 1.0
    return 0.0 if state.fool == seat else 1.0


def candidates(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions worth searching: single cards and whole rank groups instead of every subset."""
    out = []
    groups: dict[str, int] = {}
    for a in legal:
        if a["type"] in ("attack", "throw"):
            r = a["cards"][0][0]
            groups[r] = max(groups.get(r, 0), len(a["cards"]))
    for a in legal:
        if a["type"] in ("attack", "throw"):
            n = len(a["cards"])
            if n == 1 or n == groups[a["cards"][0][0]]:
                out.append(a)
        else:
            out.append(a)
    return out
