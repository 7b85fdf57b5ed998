"""Set up exact Believe It or Not positions from the hands each seat should hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import get_game
from games.cards import make_deck
from games.verish.state import VerishState

GAME = get_game("verish")


def deck_for(hands: Mapping[int, Sequence[str]], dealer: int = 0, size: int = 36) -> list[str]:
    """The deck order that deals exactly ``hands`` (V1: one at a time from the dealer's left).

    Seats left out of ``hands`` get the rest of the deck, in code order.
    """
    seats = max(hands) + 1 if hands else 2
    given = {c for h in hands.values() for c in h}
    rest = [c for c in make_deck(size) if c not in given]
    want = {s: list(hands.get(s, [])) for s in range(seats)}
    missing = [s for s in range(seats) if s not in hands]
    for i, c in enumerate(rest):
        want[missing[i % len(missing)]].append(c)
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    deck: list[str] = []
    while any(want[s] for s in order):
        for s in order:
            if want[s]:
                deck.append(want[s].pop(0))
    return deck


def new(hands: Mapping[int, Sequence[str]], dealer: int = 0, options: dict[str, Any] | None = None) -> VerishState:
    options = options or {}
    size = options.get("deck", 36)
    state = GAME.new(options=options, seats=max(hands) + 1, dealer=dealer, deck=deck_for(hands, dealer, size))
    for s, h in hands.items():
        assert sorted(state.hands[s]) == sorted(h), f"seat {s} was not dealt {h}"
    assert isinstance(state, VerishState)
    return state


def claim(cards: list[str], kind: str) -> dict[str, Any]:
    return {"type": "claim", "cards": cards, "kind": kind}


def add(cards: list[str]) -> dict[str, Any]:
    return {"type": "add", "cards": cards}


BELIEVE = {"type": "believe"}
DOUBT = {"type": "doubt"}

#: a 3-seat deal of the 36-card deck: seat 0 low cards, seat 1 middle, seat 2 pictures
THREE = {
    0: ["6S", "6C", "6D", "7S", "7C", "8S", "8C", "9S", "9C", "TS", "TC", "JS"],
    1: ["6H", "7D", "7H", "8D", "8H", "9D", "9H", "TD", "TH", "JC", "JD", "JH"],
    2: ["QS", "QC", "QD", "QH", "KS", "KC", "KD", "KH", "AS", "AC", "AD", "AH"],
}


def position(
    hands: Mapping[int, Sequence[str]],
    turn: int = 0,
    options: dict[str, Any] | None = None,
    finished: Sequence[int] = (),
) -> VerishState:
    """A mid-game position at the opening of a pile: ``hands`` as given, every other card discarded.

    Built from a snapshot (``from_json``) since a deal always gives even hands (V1).
    """
    seats = max(hands) + 1
    base = GAME.new(options=options or {}, seats=seats, seed=0)
    held = {c for h in hands.values() for c in h}
    data = base.to_json()
    data["hands"] = [list(hands.get(s, [])) for s in range(seats)]
    data["discard"] = [c for c in base.deck if c not in held]
    data["finished"] = list(finished)
    data["turn"] = turn
    state = GAME.from_json(data)
    assert isinstance(state, VerishState)
    return state
