"""Shared checks of the engine contract, used by every game's property tests."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

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
