"""The per-game heuristic policies, ``policy(view, legal, history, rng) -> action``."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from games.bots.public import Action, History

Policy = Callable[[dict[str, Any], list[Action], History, random.Random], Action]


def uniform(view: dict[str, Any], legal: list[Action], history: History, rng: random.Random) -> Action:
    """A game without its own rules of thumb plays uniformly at random."""
    return rng.choice(legal)


def heuristic_policy(game_name: str) -> Policy:
    """The game's ``choose`` from its bot kit (``GameSpec.bots["heuristic"]``)."""
    from games import get_game

    path = get_game(game_name).bots.get("heuristic")
    if path is None:
        return uniform
    policy: Policy = importlib.import_module(path).choose
    return policy
