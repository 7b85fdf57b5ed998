"""The same inputs and the same rng seed give the same choices, and so the same game."""

from __future__ import annotations

import random

import pytest

from games import get_game
from games.bots import get_bot

from .helpers import play_with


@pytest.mark.parametrize(("game", "seats"), [("durak", 2), ("biznes", 4), ("verish", 3)])
@pytest.mark.parametrize("level", ["random", "heuristic", "strong"])
def test_same_seed_same_game(game: str, seats: int, level: str) -> None:
    def bots():
        if level == "strong":
            return [get_bot("strong", budget_seconds=30, max_iterations=1)] + [
                get_bot("heuristic") for _ in range(seats - 1)
            ]
        return [get_bot(level) for _ in range(seats)]

    _, first = play_with(game, bots(), seed=11)
    _, second = play_with(game, bots(), seed=11)
    assert first == second


def test_random_bot_uses_its_rng() -> None:
    """Different rng seeds give different choices on the same position (else the test above proves nothing)."""
    state = get_game("durak").new(seats=2, seed=5)
    seat = state.to_act()[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    bot = get_bot("random")
    picks = {str(bot.choose("durak", view, legal, [], random.Random(s))) for s in range(20)}
    assert len(picks) > 1
