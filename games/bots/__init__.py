"""AI opponents for every game: ``get_bot("random" | "heuristic" | "strong")``.

A bot sees exactly what its seat may see and nothing else::

    bot = get_bot("heuristic")
    action = bot.choose("durak", state.view(seat), state.legal_actions(seat), history, rng)

- ``view`` is the seat's own ``state.view(seat)`` (it carries ``seat``; the
  options are in the view, or derived from it for Biznes -- ``options_of``),
- ``legal_actions`` the seat's list (its actions are shared and read-only:
  ``State.legal_actions``; a bot returns one of them or a copy, never a changed one),
- ``history`` the public move log, ``[(seat, public_action), ...]``, built
  move by move with ``games.bots.public.public_record`` or from a stored
  move log with ``public_history`` (hidden cards become counts),
- ``rng`` a ``random.Random``: the same inputs and the same rng state give the
  same choice.

A bot never receives the ``State`` (``public.check_inputs`` refuses anything but a
view dict); the strong bot builds its own states from sampled worlds
consistent with what the seat knows (``games.bots.worlds_<game>``).

Measured strength: ``python -m games.arena`` (see its docstring).

Levels: ``random`` (uniform over legal actions), ``heuristic`` (rules of
thumb per game, ``games.bots.durak``/``biznes``/``verish``) and ``strong``
(determinized Monte Carlo search, ``games.bots.search``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from games.bots.public import Action, History, check_inputs, public_action, public_record

LEVELS = ("random", "heuristic", "strong")
#: the one source of bot levels: the platform's choices and labels come from here
LEVEL_TITLES = {"random": "Random", "heuristic": "Heuristic", "strong": "Strong"}
#: the level offered first, and the one that stands in for an absent human
DEFAULT_LEVEL = "heuristic"


class Bot(Protocol):
    level: str

    def choose(
        self,
        game_name: str,
        view: dict[str, Any],
        legal_actions: Sequence[Action],
        history: History,
        rng: random.Random,
    ) -> Action: ...


class RandomBot:
    """Uniform over the legal actions."""

    level = "random"

    def choose(
        self,
        game_name: str,
        view: dict[str, Any],
        legal_actions: Sequence[Action],
        history: History,
        rng: random.Random,
    ) -> Action:
        legal = check_inputs(view, legal_actions)
        return rng.choice(legal)


class HeuristicBot:
    """Rules of thumb, one module per game."""

    level = "heuristic"

    def choose(
        self,
        game_name: str,
        view: dict[str, Any],
        legal_actions: Sequence[Action],
        history: History,
        rng: random.Random,
    ) -> Action:
        legal = check_inputs(view, legal_actions)
        if len(legal) == 1:
            return legal[0]
        from games.bots.policies import heuristic_policy

        return dict(heuristic_policy(game_name)(view, legal, history, rng))


def get_bot(level: str, **params: Any) -> Bot:
    """A bot of a level; ``strong`` takes ``budget_seconds`` and ``max_iterations``."""
    if level == "random":
        return RandomBot()
    if level == "heuristic":
        return HeuristicBot()
    if level == "strong":
        from games.bots.search import StrongBot

        return StrongBot(**params)
    raise KeyError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_TITLES",
    "Action",
    "Bot",
    "HeuristicBot",
    "History",
    "RandomBot",
    "get_bot",
    "public_action",
    "public_record",
]
