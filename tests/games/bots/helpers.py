"""Shared helpers: play a game with bots, the way the arena and the platform do."""

from __future__ import annotations

import random
from typing import Any

from games import get_game
from games.base import State
from games.bots import Bot, public_record
from games.bots.public import History


def play_with(
    game_name: str, bots: list[Bot], options: dict[str, Any] | None = None, seed: int = 1, max_actions: int = 5000
) -> tuple[State, History]:
    """Play one game with one bot per seat; every action must be legal (apply raises otherwise)."""
    state = get_game(game_name).new(options=options, seats=len(bots), seed=seed)
    rngs = [random.Random(seed * 31 + s) for s in range(len(bots))]
    history: History = []
    for _ in range(max_actions):
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = bots[seat].choose(game_name, state.view(seat), legal, history, rngs[seat])
        state.apply(seat, action)
        history.append((seat, public_record(game_name, action, state.view(None))))
    return state, history


def replay_positions(game_name: str, options: dict[str, Any], seats: int, seed: int, every: int = 3):
    """Yield (state, seat, history) at every ``every``-th decision of a random game."""
    state = get_game(game_name).new(options=options, seats=seats, seed=seed)
    rng = random.Random(seed)
    history: History = []
    step = 0
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if step % every == 0:
            yield state, seat, history
        action = rng.choice(legal)
        state.apply(seat, action)
        history.append((seat, public_record(game_name, action, state.view(None))))
        step += 1
