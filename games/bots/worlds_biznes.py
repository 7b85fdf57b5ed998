"""Biznes: sampled worlds consistent with a seat's view and the public log.

What the seat knows: its hand (and, as declarer, its discard), the face-up
widow cards, every card played (the log), and *voids*: a player who did not
follow the suit led holds no ordinary card of it (B5; a joker is played only
without one, B9). Once the widow was shown (B2) its cards are public: those
not played yet are in the declarer's hand or in his secret discard.

The unseen cards are dealt at random to the other hands, the closed widow (in
the bidding) and the declarer's discard, respecting those constraints (most
constrained card first, retried a few times). The world is an engine snapshot
(``BiznesState.from_json``) of the present position.
"""

from __future__ import annotations

import random
from typing import Any

from games.biznes.state import BiznesState
from games.bots.public import History
from games.cards import JOKERS, SUIT_OF, make_deck


class WorldError(ValueError):
    pass


def options_of(view: dict[str, Any]) -> dict[str, Any]:
    """Deck size from the deal table; ``widow_open`` from the widow shown in the bidding."""
    if "options" in view:
        return dict(view["options"])
    seats = len(view["hand_sizes"])
    deck = view["tricks_per_deal"] * seats + view["widow_size"]
    widow_open = len(view["widow"]) if view["phase"] == "bidding" else 0
    return {"deck": deck, "widow_open": widow_open}


def voids(history: History, seats: int) -> list[set[str]]:
    """Per seat, the suits he showed out of (B5)."""
    out: list[set[str]] = [set() for _ in range(seats)]
    trick: list[tuple[int, dict[str, Any]]] = []
    for seat, a in history:
        if a.get("type") != "play":
            continue
        trick.append((seat, a))
        if len(trick) > 1:
            led = SUIT_OF[trick[0][1].get("as", trick[0][1]["card"])]
            if SUIT_OF[a["card"]] != led:
                out[seat].add(led)
        if len(trick) == seats:
            trick = []
    return out


def sample(view: dict[str, Any], history: History, rng: random.Random) -> BiznesState:
    me = view["seat"]
    sizes = view["hand_sizes"]
    seats = len(sizes)
    opts = options_of(view)
    phase = view["phase"]
    declarer = view["declarer"]
    widow_n = view["widow_size"]
    played = [a["card"] for _, a in history if a.get("type") == "play"]
    trick_cards = [t["card"] for t in view["trick"]]
    completed = played[: len(played) - len(trick_cards)]
    shown = declarer is not None and widow_n > 0
    # the seat that took the widow and discarded (B2); after a change with a banker (B6)
    # he may no longer be the declarer, and only he knows the discard
    discarder = next((s for s, a in history if a.get("type") == "discard"), None)
    my_discard = list(view.get("discard", [])) if discarder == me else []
    seen = set(view["hand"]) | set(played) | set(view["widow"]) | set(my_discard)
    # groups of places: (name, capacity, void suits)
    void = voids(history, seats)
    groups: list[tuple[str, int, set[str]]] = []
    for s in range(seats):
        if s != me:
            groups.append((f"h{s}", sizes[s], void[s]))
    closed = 0 if shown else widow_n - len(view["widow"])
    if closed:
        groups.append(("widow", closed, set()))
    if discarder is not None and not my_discard:
        groups.append(("discard", widow_n, set()))
    # the shown widow cards still unplayed sit with the declarer (the discarder) or in his discard
    holder = declarer if discarder is None else discarder
    restricted = [] if not shown else [c for c in view["widow"] if c not in played and c not in view["hand"]]
    restricted = [c for c in restricted if c not in my_discard]
    allowed_restricted = {"discard"} if holder == me else {f"h{holder}", "discard"}
    free = [c for c in make_deck(opts["deck"]) if c not in seen]
    need = sum(g[1] for g in groups)
    if need != len(free) + len(restricted):
        raise WorldError(f"{len(free) + len(restricted)} unseen cards for {need} places")
    placed = _assign(groups, free, restricted, allowed_restricted, rng)
    hands = [list(view["hand"]) if s == me else placed[f"h{s}"] for s in range(seats)]
    widow = list(view["widow"]) if shown or not closed else list(view["widow"]) + placed["widow"]
    discard = my_discard or placed.get("discard", [])
    bids = [(b["seat"], b.get("tricks"), b.get("suit")) for b in view["bids"]]
    level = max((t for _, t, _ in bids if t is not None), default=0)
    contract = view["contract"]
    data: dict[str, Any] = {
        "game": "biznes",
        "options": opts,
        "seats": seats,
        "dealer": view["dealer"],
        "deck": [c for h in hands for c in h] + widow + discard + played,
        "phase": phase,
        "turn": view["turn"],
        "widow": widow,
        "widow_shown": shown,
        "discard": discard,
        "passed": [any(s == b[0] and b[1] is None for b in bids) for s in range(seats)],
        "has_bid": [any(s == b[0] and b[1] is not None for b in bids) for s in range(seats)],
        "level": level,
        "level_suits": [suit for _, t, suit in bids if t == level and level],
        "declarer": declarer,
        "banker": view["banker"],
        "asked_banker": view["asked_banker"],
        "roles": list(view["roles"]),
        "contract": None if contract is None else contract["tricks"],
        "contract_suit": None if contract is None else contract["suit"],
        "trump": view["trump"],
        "change_used": view["change_used"],
        "leader": view["leader"],
        "last_winner": None if view["last_trick"] is None else view["last_trick"]["winner"],
        "tricks": list(view["tricks"]),
        "counted": view["counted"],
        "tricks_played": sum(view["tricks"]),
        "played": completed,
        "caught": False,
        "void": False,
        "scores": None,
        "hands": hands,
        "bids": [list(b) for b in bids],
        "trick": [[t["seat"], t["card"], t.get("as", t["card"])] for t in view["trick"]],
        "last_trick": []
        if view["last_trick"] is None
        else [[t["seat"], t["card"], t.get("as", t["card"])] for t in view["last_trick"]["cards"]],
    }
    return BiznesState.from_json(data)


def _assign(
    groups: list[tuple[str, int, set[str]]],
    free: list[str],
    restricted: list[str],
    allowed_restricted: set[str],
    rng: random.Random,
) -> dict[str, list[str]]:
    def ok(card: str, name: str, void: set[str]) -> bool:
        if card in restricted_set and name not in allowed_restricted:
            return False
        return card in JOKERS or SUIT_OF[card] not in void

    restricted_set = set(restricted)
    cards = free + restricted
    for _ in range(30):
        room = {name: cap for name, cap, _ in groups}
        out: dict[str, list[str]] = {name: [] for name, _, _ in groups}
        order = list(cards)
        rng.shuffle(order)
        order.sort(key=lambda c: sum(1 for name, _, v in groups if ok(c, name, v)))
        for card in order:
            choices = [name for name, _, v in groups if room[name] > 0 and ok(card, name, v)]
            if not choices:
                break
            weights = [room[n] for n in choices]
            name = rng.choices(choices, weights)[0]
            out[name].append(card)
            room[name] -= 1
        else:
            return out
    raise WorldError("no deal of the unseen cards fits the voids")


def utility(state: BiznesState, seat: int) -> float:
    """The deal score against the others' mean, squeezed into about 0..1."""
    result = state.result()
    if result is None:
        return 0.5
    scores = [float(x) for x in result["scores"]]
    others = [x for s, x in enumerate(scores) if s != seat]
    return 0.5 + (scores[seat] - sum(others) / len(others)) / 30


def candidates(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Search the roles, the declaration, the change and the play; one ace-naming per joker suit."""
    if view["phase"] in ("bidding", "discard"):
        return []
    out = []
    for a in legal:
        if "as" in a and a["as"][0] != "A":
            continue
        out.append(a)
    return out
