"""Bot-graded evidence: a seat's decisions in a finished game, against the strong bot's."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from games import get_game, grading
from games.bots import get_bot
from games.grading import DECISIVE, grade_game

Chooser = Callable[[Any, int, list[dict[str, Any]], random.Random, list[Any]], dict[str, Any]]


def heuristic(state: Any, seat: int, legal: list[dict[str, Any]], rng: random.Random, log: list[Any]) -> dict[str, Any]:
    return get_bot("heuristic").choose(state.game_name, state.view(seat), legal, [], rng)


def always_takes(
    state: Any, seat: int, legal: list[dict[str, Any]], rng: random.Random, log: list[Any]
) -> dict[str, Any]:
    """Soft play: the defender takes his first three attacks, even ones he could beat (every take
    after that as the heuristic would: one who always takes may never finish)."""
    took = sum(1 for a in log if a == (seat, {"type": "take"}))
    if took < 3 and any(a["type"] == "cover" for a in legal):
        return {"type": "take"}
    return heuristic(state, seat, legal, rng, log)


def play(name: str, seats: int, seed: int, choosers: dict[int, Chooser]) -> tuple[dict[str, Any], list[Any]]:
    state = get_game(name).new(seats=seats, seed=seed)
    setup = {"options": state.options, "seats": seats, "dealer": state.dealer, "deck": list(state.deck)}
    rng = random.Random(seed)
    moves: list[Any] = []
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = choosers.get(seat, heuristic)(state, seat, legal, rng, moves)
        state.apply(seat, action)
        moves.append((seat, dict(action)))
    return setup, moves


def grade(name: str, setup: dict[str, Any], moves: list[Any], **kw: Any) -> Any:
    kw.setdefault("budget_seconds", 60)
    kw.setdefault("max_iterations", 3)
    kw.setdefault("rollouts", 2)
    return grade_game(name, setup["options"], setup["seats"], setup["dealer"], setup["deck"], moves, 0, 1, **kw)


def test_decisive_moves_address_the_graded_seats_own_moves_in_the_log() -> None:
    setup, moves = play("durak", 3, 3, {0: always_takes})
    graded = grade("durak", setup, moves, seed=3)
    assert graded.complete and graded.graded == graded.decisions > 0
    assert graded.agreed < graded.graded
    for d in graded.decisive:
        assert moves[d.number - 1] == (0, d.chosen)  # the number is the move's place in the log, from 1
        assert d.chosen != d.bot and d.weight >= DECISIVE


def test_cost_is_the_movers_loss_and_gift_the_partners_gain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bookkeeping, with the rollouts' outcome fixed: a take hands the round to the partner."""

    class CoversBot:
        def __init__(self, **kw: Any) -> None: ...

        def choose(self, game: str, view: Any, legal: list[dict[str, Any]], *a: Any) -> dict[str, Any]:
            return next((x for x in legal if x["type"] == "cover"), legal[0])

    def outcomes(state: Any, seat: int, action: dict[str, Any], *a: Any) -> list[float]:
        took = action["type"] == "take"
        return [0.0 if took else 1.0, 1.0 if took else 0.0, 0.5]  # the mover, his partner, the third seat

    monkeypatch.setattr(grading, "StrongBot", CoversBot)
    monkeypatch.setattr(grading, "_outcomes", outcomes)
    setup, moves = play("durak", 3, 3, {0: always_takes})
    graded = grade("durak", setup, moves)
    takes = [n for n, (s, a) in enumerate(moves, 1) if s == 0 and a["type"] == "take"]
    # his three soft takes at least (a take with no cover in hand is the bot's move too: nothing to grade)
    assert {d.number for d in graded.decisive} <= set(takes) and len(graded.decisive) >= 3
    assert all((d.cost, d.gift, d.harm) == (1.0, 1.0, 0.0) for d in graded.decisive)
    assert graded.cost == graded.gift == len(graded.decisive)


def test_repeatable_with_a_seed_and_stored_as_json() -> None:
    setup, moves = play("durak", 3, 7, {})
    a = grade("durak", setup, moves, seed=1)
    b = grade("durak", setup, moves, seed=1)
    assert a.to_json() == b.to_json()
    data = json.loads(json.dumps(a.to_json()))
    assert data["seat"] == 0 and data["partner"] == 1
    assert 0 <= data["agreed"] <= data["graded"] <= data["decisions"]


@pytest.mark.parametrize(("name", "seats"), [("durak", 4), ("verish", 3), ("biznes", 5)])
def test_bounded_in_time(name: str, seats: int) -> None:
    setup, moves = play(name, seats, 11, {})
    start = time.perf_counter()
    graded = grade_game(name, setup["options"], seats, setup["dealer"], setup["deck"], moves, 0, 1, budget_seconds=0.3)
    # one decision's last rollout pair may run past the deadline, never the whole game
    assert time.perf_counter() - start < 0.3 + 0.5
    assert graded.graded <= graded.decisions


def test_a_game_without_a_world_model_is_not_graded(monkeypatch: pytest.MonkeyPatch) -> None:
    setup, moves = play("durak", 3, 2, {})
    monkeypatch.setitem(get_game("durak").bots, "worlds", "")
    graded = grade("durak", setup, moves)
    assert graded.graded == 0 and not graded.complete


def test_the_partner_is_another_seat() -> None:
    setup, moves = play("durak", 3, 2, {})
    with pytest.raises(ValueError):
        grade_game("durak", setup["options"], 3, setup["dealer"], setup["deck"], moves, 1, 1)


def test_moves_a_bot_made_for_him_are_not_graded() -> None:
    setup, moves = play("durak", 3, 2, {})
    mine = [n for n, (s, _) in enumerate(moves, 1) if s == 0]
    whole = grade("durak", setup, moves, max_iterations=1, rollouts=1)
    none = grade("durak", setup, moves, max_iterations=1, rollouts=1, skip=set(mine))
    assert whole.decisions > 0 and none.decisions == none.graded == 0
