"""Colluding bots, for measuring the fair-play detector (``bench_fairplay``); never seated at a real table.

A ``ColludingBot`` plays like the heuristic bot except towards its partner's seat, where the
game's own colluding policy (``GameSpec.bots["colluding"]``: ``games.bots.collude_<game>``)
may change the heuristic choice. Two styles:

- ``soft``: soft play with no shared information: it spares the partner wherever the game
  lets one seat spare another;
- ``shared``: it also sees its partner's hand (``partner_hand``, passed by whoever runs the
  game, as a cheat's second screen would) and uses it.

A game without a colluding policy is played honestly.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from games.bots.policies import heuristic_policy
from games.bots.public import Action, History, check_inputs

STYLES = ("soft", "shared")

#: ``policy(view, legal, honest, history, partner, partner_hand) -> action``; ``partner_hand`` is None for ``soft``
ColludingPolicy = Callable[[dict[str, Any], list[Action], Action, History, int, "list[str] | None"], Action]


def colluding_policy(game_name: str) -> ColludingPolicy | None:
    """The game's colluding ``choose`` from its bot kit, or None (it is played honestly)."""
    from games import get_game

    path = get_game(game_name).bots.get("colluding")
    if path is None:
        return None
    policy: ColludingPolicy = importlib.import_module(path).choose
    return policy


class ColludingBot:
    level = "colluding"

    def __init__(self, partner: int, style: str = "soft") -> None:
        if style not in STYLES:
            raise ValueError(f"style: one of {', '.join(STYLES)}, not {style!r}")
        self.partner = partner
        self.style = style

    def choose(
        self,
        game_name: str,
        view: dict[str, Any],
        legal_actions: Sequence[Action],
        history: History,
        rng: random.Random,
        partner_hand: Sequence[str] | None = None,
    ) -> Action:
        legal = check_inputs(view, legal_actions)
        honest = dict(heuristic_policy(game_name)(view, legal, history, rng)) if len(legal) > 1 else legal[0]
        policy = colluding_policy(game_name)
        if policy is None or len(legal) == 1:
            return honest
        hand = list(partner_hand or []) if self.style == "shared" else None
        return policy(view, legal, honest, history, self.partner, hand)
