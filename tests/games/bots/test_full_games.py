"""Every level plays whole games of every game to the end, legally, under several option sets."""

from __future__ import annotations

import pytest

from games.bots import get_bot

from .helpers import play_with

CASES = [
    ("durak", {}, 2),
    ("durak", {"mode": "transfer"}, 3),
    ("durak", {"dummy": True, "deck": 52, "lead": "single"}, 4),
    ("durak", {"spades_by_spades": True, "throw_in": "neighbors", "redeal_five_of_suit": True}, 5),
    ("durak", {"teams": True, "mode": "transfer", "trump_show": False}, 4),
    ("biznes", {}, 4),
    ("biznes", {"deck": 54, "widow_open": 2}, 5),
    ("biznes", {"deck": 52}, 6),
    ("biznes", {"deck": 54}, 4),
    ("verish", {}, 2),
    ("verish", {"kind": "suit", "deck": 52}, 4),
    ("verish", {"max_cards": 2}, 3),
]


@pytest.mark.parametrize(("game", "options", "seats"), CASES)
@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_cheap_levels_finish_games(game: str, options: dict, seats: int, level: str) -> None:
    for seed in (1, 2):
        state, _ = play_with(game, [get_bot(level) for _ in range(seats)], options, seed=seed)
        assert state.is_over(), f"{game} {options} did not end"


@pytest.mark.parametrize(("game", "options", "seats"), CASES[::2])
def test_strong_finishes_games_against_others(game: str, options: dict, seats: int) -> None:
    """One strong seat (one sampled world per decision, to keep the test quick) among heuristic ones."""
    bots = [get_bot("strong", budget_seconds=5, max_iterations=1)] + [get_bot("heuristic") for _ in range(seats - 1)]
    state, history = play_with(game, bots, options, seed=3)
    assert state.is_over()
    assert any(seat == 0 for seat, _ in history)
