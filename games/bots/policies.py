"""The per-game heuristic policies, ``policy(view, legal, history, rng) -> action``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.bots.public import Action, History

Policy = Callable[[dict[str, Any], list[Action], History, random.Random], Action]


def heuristic_policy(game_name: str) -> Policy:
    if game_name == "durak":
        from games.bots import durak

        return durak.choose
    if game_name == "biznes":
        from games.bots import biznes

        return biznes.choose
    if game_name == "verish":
        from games.bots import verish

        return verish.choose
    raise KeyError(f"unknown game {game_name!r}")
