"""Listed actions are shared and read-only (``State.legal_actions``): nothing that is handed them changes them.

Engines list the same pre-built action objects in every list and every state,
so one consumer changing an action would change what every later list offers.
These games play through the contract the way the platform, the bots, the
arena and the benchmark do, and check every action ever listed against a copy
taken when it was first seen: after the bots chose, after ``apply`` and
``apply_described``, and at the end.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games import get_game
from games.bots import HeuristicBot, RandomBot
from games.bots.public import History
from games.bots.search import StrongBot

SETUPS: list[tuple[str, dict[str, Any], int]] = [
    ("durak", {}, 2),
    ("durak", {"mode": "transfer", "trump_show": True}, 3),
    ("durak", {"dummy": True, "lead": "single"}, 4),
    ("durak", {"teams": True, "throw_in": "neighbors"}, 4),
    ("verish", {}, 3),
    ("verish", {"kind": "suit", "max_cards": 3}, 4),
    ("verish", {"deck": 52, "max_cards": 2}, 5),
    ("biznes", {}, 4),
]


class Ledger:
    """Every action object listed so far, with a deep copy taken when it was first listed."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        self.shared = 0

    def note(self, legal: list[dict[str, Any]]) -> None:
        for a in legal:
            if id(a) in self.seen:
                self.shared += 1
            else:  # the object is kept, so its id is never reused
                self.seen[id(a)] = (a, copy.deepcopy(a))

    def check(self, when: str) -> None:
        changed = [(now, then) for now, then in self.seen.values() if now != then]
        assert not changed, f"{when}: a listed action was modified: {changed[0][1]} became {changed[0][0]}"


@pytest.mark.parametrize(("name", "options", "seats"), SETUPS, ids=[f"{n}-{s}-{o}" for n, o, s in SETUPS])
def test_no_consumer_modifies_a_listed_action(name: str, options: dict[str, Any], seats: int) -> None:
    game = get_game(name)
    ledger = Ledger()
    bots = [RandomBot(), HeuristicBot()]
    strong = StrongBot(budget_seconds=10.0, max_iterations=2)
    rng = random.Random(17)
    for number in range(6):
        state = game.new(options=options, seats=seats, dealer=number % seats, seed=1000 + number)
        history: History = []
        for step in range(3000):
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            ledger.note(legal)
            # every consumer gets the same list: the platform's selectors and pages, each bot
            view = state.view(seat)
            bot = strong if step % 25 == 7 else bots[step % 2]
            action = bot.choose(name, view, legal, history, rng)
            ledger.check(f"after the {bot.level} bot chose")
            # the platform's path (apply_described) on a copy, with a listed action itself
            state.copy().apply_described(seat, rng.choice(legal))
            ledger.check("after apply_described")
            state.apply(seat, action)
            history.append((seat, game.public_record(action, state.view(None))))
            ledger.check("after apply")
        assert state.is_over()
    ledger.check("at the end")
    if name != "biznes":  # Biznes lists fresh actions (few per move); the others share theirs
        assert ledger.shared > 100, "the engine lists fresh actions: this test checks nothing shared"


def test_the_benchmark_leaves_listed_actions_as_they_were() -> None:
    from games.bench import play_out, play_out_snapshots

    ledger = Ledger()
    rng = random.Random(3)
    for name, seats in (("durak", 2), ("verish", 3), ("biznes", 5)):
        game = get_game(name)
        # list every action of a few positions first, then let the benchmark play with them
        state = game.new(seats=seats, seed=5)
        for _ in range(20):
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            ledger.note(legal)
            state.apply(seat, rng.choice(legal))
        for _ in range(5):
            play_out(name, seats, rng)
            play_out_snapshots(name, seats, rng)
    ledger.check("after the benchmark")
