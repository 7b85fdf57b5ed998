"""Explicit positions for the Biznes rule tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.biznes import BiznesState
from games.cards import make_deck

#: the conformance scenarios' 36-card, 4-seat deal (seat -> hand)
DEAL4 = [
    ["AS", "KS", "6C", "7C", "8C", "9C", "TC", "6D", "7D"],
    ["6S", "JS", "JC", "QC", "KC", "AC", "8D", "9D", "TD"],
    ["7S", "QS", "JD", "QD", "KD", "AD", "6H", "7H", "8H"],
    ["8S", "9S", "TS", "9H", "TH", "JH", "QH", "KH", "AH"],
]


def deck_for(hands: Sequence[Sequence[str]], dealer: int, widow: Sequence[str] = ()) -> list[str]:
    """Invert the deal (one card at a time from the dealer's left) so each seat gets its hand."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    queues = [list(h) for h in hands]
    dealt: list[str] = []
    while any(queues):
        for s in order:
            if queues[s]:
                dealt.append(queues[s].pop(0))
    return dealt + list(widow)


def make(
    hands: Sequence[Sequence[str]],
    widow: Sequence[str] = (),
    dealer: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> BiznesState:
    """A deal with exactly these hands and widow; by default seat 0 bids first."""
    seats = len(hands)
    if dealer is None:
        dealer = seats - 1
    deck = deck_for(hands, dealer, widow)
    size = (options or {}).get("deck", 52 if seats == 6 else 36)
    assert sorted(deck) == sorted(make_deck(size)), "hands and widow must hold the whole deck"
    return BiznesState.new(options=options, seats=seats, dealer=dealer, deck=deck)


def act(state: BiznesState, *moves: tuple[int, dict[str, Any]]) -> BiznesState:
    for seat, action in moves:
        state.apply(seat, action)
    return state


def bid_and_roles(
    state: BiznesState,
    tricks: int,
    suit: str,
    roles: Sequence[str],
    banker: bool = False,
    discard: Sequence[str] | None = None,
) -> BiznesState:
    """The first bidder bids, everyone else passes, then discard, declare and ``roles`` in turn."""
    first = state.turn
    assert first is not None
    state.apply(first, {"type": "bid", "tricks": tricks, "suit": suit})
    for i in range(1, state.seats):
        state.apply((first + i) % state.seats, {"type": "pass"})
    if state.phase == "discard":
        cards = list(discard) if discard is not None else state.default_action(first)["cards"]
        state.apply(first, {"type": "discard", "cards": cards})
    state.apply(first, {"type": "declare", "banker": banker})
    for i, role in enumerate(roles):
        state.apply((first + 1 + i) % state.seats, {"type": "role", "role": role})
    return state


def play(state: BiznesState, *cards: str) -> BiznesState:
    """Each card is played by whoever is to act ("X1=AH" plays a joker as AH)."""
    for card in cards:
        seat = state.turn
        assert seat is not None, f"nobody to play {card}"
        if "=" in card:
            joker, named = card.split("=")
            state.apply(seat, {"type": "play", "card": joker, "as": named})
        else:
            state.apply(seat, {"type": "play", "card": card})
    return state


def endgame(state: BiznesState, hands: Sequence[Sequence[str]], leader: int, **fields: Any) -> BiznesState:
    """Jump a dealt game in the play phase to a late position with these hands.

    Every other card goes to the played pile (so cards stay conserved); extra
    ``fields`` (``change_used=True``...) are set on the snapshot.
    """
    data = state.to_json()
    assert data["phase"] == "play"
    keep = {c for h in hands for c in h} | set(data["discard"])
    data["hands"] = [list(h) for h in hands]
    data["played"] = [c for c in data["deck"] if c not in keep]
    data["trick"], data["last_trick"], data["last_winner"] = [], [], None
    data["tricks_played"] = state.n_tricks - len(hands[leader])
    data["leader"] = data["turn"] = leader
    data.update(fields)
    return BiznesState.from_json(data)


def plays(state: BiznesState, seat: int) -> set[str]:
    """The legal plays of a seat as "QS" / "X1=AH" strings."""
    out = set()
    for a in state.legal_actions(seat):
        if a["type"] == "play":
            out.add(a["card"] + ("=" + a["as"] if "as" in a else ""))
    return out
