"""The strong bot: determinized Monte Carlo search (perfect-information sampling, PIMC).

For one decision, until the time budget (``budget_seconds``, default 1 s on
one core) or the iteration cap (``max_iterations``) runs out:

1. sample a *world*: a full engine state consistent with everything the seat
   knows -- its view and the public log, never another seat's real hand
   (``games.bots.worlds_<game>.sample``);
2. in that same world, play every candidate action and then roll the game out
   to the end with the heuristic policy for every seat (each rollout player
   sees only its own view of the sampled world); all candidates share the
   world and the rollout's random seed (common random numbers), so their
   difference is measured with little noise;
3. score the end with the game's utility for the seat (Durak: not the fool;
   Biznes: the deal score against the others' mean; Believe It or Not: not the
   loser).

The action with the best mean over the sampled worlds is chosen; the
heuristic's own move gets a small edge (``HEURISTIC_BONUS / sqrt(worlds)``)
so that a handful of noisy worlds does not overturn it. Candidates are pruned per game (Durak: single cards and
whole rank groups; Biznes: one naming per joker and suit; Believe It or Not:
honest groups, single cards and one bluff), the heuristic's own choice always
among them. Phases the rollouts cannot judge well use the heuristic directly
(Biznes bidding and the discard). With no time for even one world the bot
plays the heuristic move.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from games.base import State
from games.bots.policies import heuristic_policy
from games.bots.public import Action, History, check_inputs
from games.errors import IllegalAction

#: a rollout stops after this many actions (or the game's own ``ROLLOUT_CAP``) and is scored
#: by the utility's estimate of the position
ROLLOUT_CAP = 600
#: the heuristic's move wins unless another beats it by this much / sqrt(worlds)
HEURISTIC_BONUS = 0.15


def _worlds(game_name: str) -> ModuleType | None:
    """The game's world sampler from its bot kit (``GameSpec.bots["worlds"]``); None: play the heuristic."""
    from games import get_game

    path = get_game(game_name).bots.get("worlds")
    return importlib.import_module(path) if path else None


class StrongBot:
    level = "strong"

    def __init__(self, budget_seconds: float = 1.0, max_iterations: int | None = None, epsilon: float = 0.05) -> None:
        if budget_seconds <= 0:
            raise ValueError("budget_seconds must be positive")
        self.budget_seconds = budget_seconds
        self.max_iterations = max_iterations
        self.epsilon = epsilon
        #: statistics of the last decision (worlds sampled), for tests and tuning
        self.last_iterations = 0

    def choose(
        self,
        game_name: str,
        view: dict[str, Any],
        legal_actions: Sequence[Action],
        history: History,
        rng: random.Random,
    ) -> Action:
        legal = check_inputs(view, legal_actions)
        deadline = time.perf_counter() + self.budget_seconds
        self.last_iterations = 0
        policy = heuristic_policy(game_name)
        if len(legal) == 1:
            return legal[0]
        first = policy(view, legal, history, rng)
        worlds = _worlds(game_name)
        if worlds is None:
            return first
        cands: list[Action] = worlds.candidates(view, legal)
        if not cands:
            return first
        cands = [first, *(a for a in cands if a != first)]
        if len(cands) == 1:
            return first
        me = view["seat"]
        totals = [0.0] * len(cands)
        counted = [0] * len(cands)
        cap = self.max_iterations
        while (cap is None or self.last_iterations < cap) and time.perf_counter() < deadline:
            try:
                world = worlds.sample(view, history, rng)
            except ValueError:
                break
            seed = rng.randrange(2**32)
            values: list[tuple[int, float]] = []
            for i, action in enumerate(cands):
                st = world.copy()
                try:
                    st.apply(me, action)
                except IllegalAction:
                    continue
                value = self._rollout(st, me, random.Random(seed), policy, worlds, deadline)
                if value is None:
                    break
                values.append((i, value))
            else:
                for i, value in values:  # a world counts only when every candidate was played in it
                    totals[i] += value
                    counted[i] += 1
                self.last_iterations += 1
                continue
            break
        if not any(counted):
            return first

        def score(i: int) -> tuple[float, int]:
            if not counted[i]:
                return -1e9, -i
            # the heuristic's own move (index 0) keeps a small edge that fades with more worlds
            bonus = HEURISTIC_BONUS / math.sqrt(counted[i]) if i == 0 else 0.0
            return totals[i] / counted[i] + bonus, -i

        best = max(range(len(cands)), key=score)
        return cands[best]

    def _rollout(
        self,
        state: State,
        me: int,
        rng: random.Random,
        policy: Callable[..., Action],
        worlds: ModuleType,
        deadline: float,
    ) -> float | None:
        """Play to the end (or the rollout cap); None when the time ran out."""
        eps = self.epsilon
        for step in range(getattr(worlds, "ROLLOUT_CAP", ROLLOUT_CAP)):
            if state.is_over():
                break
            if step % 16 == 15 and time.perf_counter() > deadline:
                return None
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                action = legal[0]
            elif rng.random() < eps:
                action = rng.choice(legal)
            else:
                action = policy(state.view(seat), legal, [], rng)
            state.apply(seat, action)
        utility: float | None = worlds.utility(state, me)
        return utility
