"""Shared checks of the engine contract, used by every game's property tests."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import assume
from hypothesis import strategies as st

from games import IllegalAction, InvalidOptions, get_game
from games.base import State

CARD = re.compile(r"^(?:[2-9TJQKA][SCDH]|X[12])$")

#: actions that are malformed for every game
MALFORMED: list[Any] = [
    None,
    [],
    "attack",
    {},
    {"type": 7},
    {"type": "no-such-action"},
    {"type": "attack", "cards": "6H"},
    {"type": "play", "card": ["QS"]},
    {"type": "claim", "cards": [], "kind": "K"},
    {"type": "cover", "attack": "ZZ", "card": 6},
    {"type": "bid", "tricks": "three", "suit": "H"},
]


def cards_in(obj: Any) -> set[str]:
    found: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if CARD.match(x):
                found.add(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return found


def leaks(state: State) -> list[str]:
    """A seat's view may show another seat's card only if spectators see it too."""
    views = [state.view(s) for s in range(state.seats)]
    spectator = state.view(None)
    public = cards_in(spectator)
    hands = [set(v.get("hand", [])) for v in views]
    out = [f"spectator has a hand {spectator['hand']}"] if spectator.get("hand") else []
    for s, v in enumerate(views):
        others = set().union(*(h for t, h in enumerate(hands) if t != s))
        bad = (cards_in(v) & others) - public
        if bad:
            out.append(f"seat {s} sees {sorted(bad)} held by others")
    for v in [*views, spectator]:
        json.dumps(v)
        for key in ("hand_sizes", "to_act", "phase", "over", "result"):
            assert key in v, f"view lacks {key!r}"
    return out


def all_cards(state: State) -> Counter[str]:
    return Counter(c for cards in state.zones().values() for c in cards)


@st.composite
def setups(draw: st.DrawFn, name: str) -> tuple[dict[str, Any], int, int, int]:
    """(options, seats, dealer, seed) drawn from the game's option schema."""
    game = get_game(name)
    seats = draw(st.integers(game.min_seats, game.max_seats))
    options: dict[str, Any] = {}
    for opt in game.options:
        if opt.kind == "bool":
            options[opt.name] = draw(st.booleans())
        elif opt.kind == "seat":
            options[opt.name] = draw(st.none() | st.integers(0, seats - 1))
        elif opt.choices:
            options[opt.name] = draw(st.sampled_from(opt.choices))
        else:
            options[opt.name] = draw(st.integers(opt.low, opt.high))
    try:
        game.new(options=options, seats=seats, seed=0)
    except InvalidOptions:
        assume(False)
    return options, seats, draw(st.integers(0, seats - 1)), draw(st.integers(0, 2**31))


def play_checked(
    name: str, options: dict[str, Any], seats: int, dealer: int, seed: int, max_steps: int = 5000
) -> State:
    """Play a random game, checking the contract's properties after every action."""
    game = get_game(name)
    state = game.new(options=options, seats=seats, dealer=dealer, seed=seed)
    deck = Counter(state.deck)
    assert all_cards(state) == deck, "cards are not conserved at the deal"
    rng = random.Random(seed)
    moves: list[tuple[int, dict]] = []
    for _ in range(max_steps):
        if state.is_over():
            break
        legal = {s: state.legal_actions(s) for s in range(seats)}
        waiting = state.to_act()
        assert waiting, "not over, but no seat is to act"
        for s in waiting:
            assert legal[s], f"seat {s} is to act but has no legal action"
        before = json.dumps(state.to_json(), sort_keys=True)
        for s, actions in legal.items():
            for a in actions:
                state.copy().apply(s, json.loads(json.dumps(a)))  # every listed action applies
            if not actions:
                for a in legal[waiting[0]][:3]:
                    _refused(state, s, a, before)
        for bad in MALFORMED:
            _refused(state, waiting[0], bad, before)
        seat = waiting[0] if rng.random() < 0.8 else rng.choice([s for s in legal if legal[s]])
        action = rng.choice(legal[seat])
        assert isinstance(state.describe(seat, action), str)
        state.apply(seat, action)
        moves.append((seat, action))
        assert all_cards(state) == deck, "cards are not conserved"
        assert not leaks(state), leaks(state)
    else:
        raise AssertionError(f"no end after {max_steps} actions")
    result = state.result()
    assert result is not None
    json.dumps(result)
    snapshot = json.dumps(state.to_json(), sort_keys=True)
    replayed = game.replay(state.options, seats, dealer, state.deck, moves)
    assert json.dumps(replayed.to_json(), sort_keys=True) == snapshot, "replay differs"
    assert json.dumps(game.from_json(json.loads(snapshot)).to_json(), sort_keys=True) == snapshot
    return state


def _refused(state: State, seat: int, action: Any, before: str) -> None:
    try:
        state.apply(seat, action)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"seat {seat} {action!r} was accepted")
    assert json.dumps(state.to_json(), sort_keys=True) == before, f"refused {action!r} changed the state"


#: setups every engine must refuse with ``InvalidOptions`` (on top of the game's own option checks)
BAD_SETUPS: list[tuple[str, dict[str, Any]]] = [
    ("seed", {"seed": "abc"}),
    ("seed", {"seed": 1.5}),
    ("seed", {"seed": True}),
    ("seats", {"seats": True}),
    ("seats", {"seats": "4"}),
    ("seats", {"seats": 1}),
    ("dealer", {"dealer": -1}),
    ("dealer", {"dealer": True}),
    ("dealer", {"dealer": None}),
    ("options", {"options": ["deck"]}),
    ("deck", {"deck": "6S 7S"}),
]

#: seats that are never a seat of a game
BAD_SEATS: list[Any] = [-1, 99, None, "0", True, 0.0]


def refuses_bad_setups(name: str) -> None:
    """Every game refuses the same bad setup with ``InvalidOptions`` naming the culprit."""
    game = get_game(name)
    for culprit, kwargs in BAD_SETUPS:
        args: dict[str, Any] = {"seats": game.min_seats, **kwargs}
        try:
            game.new(**args)
        except InvalidOptions as e:
            assert culprit in str(e), f"{name} {kwargs}: {e} does not name {culprit}"
        else:
            raise AssertionError(f"{name} accepted {kwargs}")


def refuses_bad_moves(state: State) -> None:
    """The common checks of ``apply``, the same for every game, on a game in progress."""
    before = json.dumps(state.to_json(), sort_keys=True)
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    for bad in MALFORMED:
        _refused(state, seat, bad, before)
    for action in legal[:5]:
        for extra in ({"zzz": 1}, {"type": action["type"], "seat": seat}):
            _refused(state, seat, {**action, **extra}, before)
        for bad_seat in BAD_SEATS:
            _refused(state, bad_seat, action, before)
    with pytest.raises(IllegalAction, match="not over"):
        state.next_game()
    with pytest.raises(InvalidOptions, match="no_such_choice"):
        state.next_game(no_such_choice=1)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def refuses_moves_once_over(state: State, tried: list[tuple[int, dict[str, Any]]]) -> None:
    """After the end every action is refused with the same words, and ``next_game`` works."""
    assert state.is_over()
    before = json.dumps(state.to_json(), sort_keys=True)
    for seat, action in tried:
        with pytest.raises(IllegalAction, match="the game is over"):
            state.apply(seat, action)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    dealer, options = state.next_game()
    assert 0 <= dealer < state.seats
    state.new(options=options, seats=state.seats, dealer=dealer, seed=1)


def copies_are_independent(state: State) -> None:
    """``copy`` shares nothing mutable: playing on the copy leaves the original as it was."""
    before = json.dumps(state.to_json(), sort_keys=True)
    twin = state.copy()
    assert json.dumps(twin.to_json(), sort_keys=True) == before
    rng = random.Random(0)
    for _ in range(30):
        if twin.is_over():
            break
        seat = twin.to_act()[0]
        twin.apply(seat, rng.choice(twin.legal_actions(seat)))
    assert json.dumps(state.to_json(), sort_keys=True) == before
    snapshot = state.to_json()
    restored = type(state).from_json(snapshot)
    seat = restored.to_act()[0]
    restored.apply(seat, restored.legal_actions(seat)[0])
    assert json.dumps(snapshot, sort_keys=True) == before, "to_json shares a list with the state"


def describes_while_applying(state: State) -> None:
    """``apply_described`` gives ``describe``'s words without copying, and refuses like ``apply``."""
    seat = state.to_act()[0]
    action = state.legal_actions(seat)[0]
    words = state.describe(seat, action)
    twin = state.copy()
    assert state.apply_described(seat, action) == words
    twin.apply(seat, action)
    assert state.to_json() == twin.to_json()
    before = json.dumps(state.to_json(), sort_keys=True)
    for bad in MALFORMED:
        assert isinstance(state.describe(state.to_act()[0] if state.to_act() else 0, bad), str)
        with pytest.raises(IllegalAction):
            state.apply_described(0, bad)
    assert json.dumps(state.to_json(), sort_keys=True) == before
