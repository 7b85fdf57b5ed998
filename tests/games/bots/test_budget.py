"""The strong bot keeps to its time budget and falls back to the heuristic with none left."""

from __future__ import annotations

import random
import time

import pytest

from games import get_game
from games.bots import get_bot

SLACK = 0.25  # a loaded test machine; one rollout step past the deadline at most


@pytest.mark.parametrize(("game", "seats"), [("durak", 2), ("biznes", 4), ("verish", 3)])
def test_strong_respects_budget(game: str, seats: int) -> None:
    state = get_game(game).new(seats=seats, seed=12)
    rng = random.Random(0)
    bot = get_bot("strong", budget_seconds=0.1)
    heuristic = get_bot("heuristic")
    decisions = 0
    while not state.is_over() and decisions < 6:
        seat = state.to_act()[0]
        view, legal = state.view(seat), state.legal_actions(seat)
        start = time.perf_counter()
        action = bot.choose(game, view, legal, [], rng)
        assert time.perf_counter() - start < 0.1 + SLACK
        assert action in legal
        state.apply(seat, heuristic.choose(game, view, legal, [], rng))
        decisions += 1


def test_iteration_cap() -> None:
    state = get_game("durak").new(seats=2, seed=2)
    seat = state.to_act()[0]
    bot = get_bot("strong", budget_seconds=30, max_iterations=3)
    bot.choose("durak", state.view(seat), state.legal_actions(seat), [], random.Random(0))
    assert bot.last_iterations == 3


def test_bad_budget_is_refused() -> None:
    with pytest.raises(ValueError):
        get_bot("strong", budget_seconds=0)
    with pytest.raises(KeyError):
        get_bot("genius")
