"""Rules engines and bots for the platform's card games; no Django here.

>>> from games import get_game
>>> state = get_game("durak").new(seats=2, seed=1)
>>> state.to_act()  # doctest: +SKIP
"""

from __future__ import annotations

import importlib

from games.base import GameSpec, State
from games.errors import IllegalAction, InvalidOptions

__all__ = ["GAMES", "GameSpec", "IllegalAction", "InvalidOptions", "State", "get_game"]

#: registry name -> module; each module exposes ``GAME``
GAMES = {"durak": "games.durak", "biznes": "games.biznes", "verish": "games.verish"}


#: module -> its GameSpec, once imported: every view of every move asks for its game
_LOADED: dict[str, GameSpec] = {}


def get_game(name: str) -> GameSpec:
    if name not in GAMES:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    module = GAMES[name]
    game = _LOADED.get(module)
    if game is None:
        game = _LOADED[module] = importlib.import_module(module).GAME
    return game
