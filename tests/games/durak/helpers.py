"""Setting up exact Durak positions for the rule tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games import IllegalAction
from games.cards import make_deck
from games.durak import GAME, DurakState
from games.durak.tables import beats_table


def deck_for(
    hands: Mapping[int, Sequence[str]],
    turn: str,
    stock: Sequence[str] = (),
    seats: int | None = None,
    dealer: int = 0,
    size: int = 36,
    dummy: bool = False,
) -> list[str]:
    """The deck order that deals ``hands`` (D1), turns ``turn``, then ``stock``; the rest in code order."""
    seats = seats or len(hands)
    left = {s: list(hands.get(s, ())) for s in range(seats)}
    dealt: list[str] = []
    for _ in range(6):
        for i in range(seats):
            dealt.append(left[(dealer + 1 + i) % seats].pop(0))
    head = [*dealt, turn, *stock]
    return head + [c for c in make_deck(size, dummy=dummy) if c not in head]


def dealt(
    hands: Mapping[int, Sequence[str]],
    turn: str,
    stock: Sequence[str] = (),
    seats: int | None = None,
    dealer: int = 0,
    **options: Any,
) -> DurakState:
    """A new game whose deal gives each seat exactly ``hands``."""
    seats = seats or len(hands)
    deck = deck_for(hands, turn, stock, seats, dealer, options.get("deck", 36), options.get("dummy", False))
    return GAME.new(options=options, seats=seats, dealer=dealer, deck=deck)  # type: ignore[return-value]


def position(
    hands: Mapping[int, Sequence[str]],
    attacker: int,
    trump: str | None = "H",
    stock: Sequence[str] = (),
    seats: int | None = None,
    out: Iterable[int] = (),
    discarded: bool = True,
    **options: Any,
) -> DurakState:
    """A mid-game position: these hands and stock, every other card in the discard pile.

    ``out`` seats have left the game (empty hands); ``attacker`` leads the next
    bout; the last stock card is the turned trump card.
    """
    seats = seats or len(hands)
    state = GAME.new(options=options, seats=seats, seed=0)
    data = state.to_json()
    full = make_deck(options.get("deck", 36), dummy=options.get("dummy", False))
    held = [c for s in range(seats) for c in hands.get(s, ())] + list(stock)
    data["hands"] = [list(hands.get(s, ())) for s in range(seats)]
    data["stock"] = list(stock)
    data["discard"] = [c for c in full if c not in held]
    data["trump"] = trump
    data["trump_card"] = stock[-1] if stock else None
    data["discarded"] = discarded
    data["out"] = [s in set(out) for s in range(seats)]
    data["finished"] = [sorted(out)] if out else []
    new = GAME.from_json(data)
    assert isinstance(new, DurakState)
    new.beats = beats_table(trump, options.get("spades_by_spades", False))
    new._start_bout(attacker)
    return new


def play(state: DurakState, *moves: tuple[int, dict[str, Any]]) -> DurakState:
    for seat, action in moves:
        state.apply(seat, action)
    return state


def refused(state: DurakState, seat: int, action: Any, match: str = "") -> str:
    """Assert that ``action`` is refused, leaving the state untouched; return the message."""
    before = state.to_json()
    try:
        state.apply(seat, action)
    except IllegalAction as e:
        assert state.to_json() == before, "a refused action changed the state"
        assert match.lower() in str(e).lower(), f"{match!r} not in {e}"
        return str(e)
    raise AssertionError(f"seat {seat} {action!r} was accepted")


def attack(*cards: str) -> dict[str, Any]:
    return {"type": "attack", "cards": list(cards)}


def cover(attack: str, card: str) -> dict[str, Any]:
    return {"type": "cover", "attack": attack, "card": card}


def throw(*cards: str) -> dict[str, Any]:
    return {"type": "throw", "cards": list(cards)}


DONE = {"type": "done"}
TAKE = {"type": "take"}


def transfer(card: str) -> dict[str, Any]:
    return {"type": "transfer", "card": card}


def show(card: str) -> dict[str, Any]:
    return {"type": "show", "card": card}


def table(state: DurakState) -> list[tuple[str, str | None]]:
    return [(t["attack"], t["cover"]) for t in state.view(None)["table"]]
