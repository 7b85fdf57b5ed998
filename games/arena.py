"""Measured bot strength: seat-rotated matches with fixed seeds.

    python -m games.arena --game durak --a heuristic --b random --games 500 --seats 2
    python -m games.arena --game durak --a strong --b heuristic --games 200 --budget 0.2
    python -m games.arena --game verish --a heuristic --b random --seats 3 --option kind=suit

Game ``i`` is dealt from seed ``seed + i // 2`` and side A sits at the seats
``s`` with ``(s + i) % 2 == 0``, side B at the others: consecutive games replay
the same deal with the sides swapped, so neither side has a seat or card
advantage. Each bot sees only its seat's view, its legal actions and the public
move log (``games.bots.public``).

A side's score in one game ("win"):

- Durak: 1 if the fool (in teams: the losing team) sits on the other side,
  0 if on this side, 1/2 for a draw.
- Biznes: one deal (a void deal is dealt again, up to five times): 1 if the
  side's mean deal score per seat is higher than the other side's, 1/2 if
  equal.
- Believe It or Not: 1 if the loser sits on the other side, else 0.

The last line printed gives each side's win rate with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Sequence
from typing import Any

from games import GAMES, get_game
from games.base import State
from games.bots import Bot, get_bot, public_record
from games.bots.public import History

DEFAULT_SEATS = {"durak": 2, "biznes": 4, "verish": 3}
MAX_ACTIONS = 20000


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may hold halves)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return lo, hi


def sides_for(game_index: int, seats: int) -> list[str]:
    """Which side ("A"/"B") sits at each seat in game ``game_index``."""
    return ["A" if (s + game_index) % 2 == 0 else "B" for s in range(seats)]


def play(
    game_name: str,
    seats: int,
    options: dict[str, Any],
    bots: Sequence[Bot],
    seed: int,
    rng_seed: int,
    dealer: int = 0,
) -> State:
    """Play one game (a Biznes deal) to the end with one bot per seat; returns the final state."""
    game = get_game(game_name)
    rngs = [random.Random(rng_seed * 1009 + s) for s in range(seats)]
    for attempt in range(5):
        state = game.new(options=options, seats=seats, dealer=dealer, seed=seed * 7 + attempt)
        history: History = []
        for _ in range(MAX_ACTIONS):
            if state.is_over():
                break
            seat = state.to_act()[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            action = bots[seat].choose(game_name, view, legal, history, rngs[seat])
            state.apply(seat, action)
            history.append((seat, public_record(game_name, action, state.view(None))))
        else:
            raise RuntimeError(f"{game_name} game {seed} did not end in {MAX_ACTIONS} actions")
        result = state.result() or {}
        if not result.get("void"):  # a void deal (everyone passed) is dealt again
            break
    return state


def side_score(
    game_name: str,
    result: dict[str, Any],
    sides: Sequence[str],
    side: str = "A",
    options: dict[str, Any] | None = None,
) -> float:
    """Side ``side``'s score in one finished game: 1, 1/2 or 0 (see the module docstring)."""
    seats = len(sides)
    out = get_game(game_name).placings(result, seats, options or {})
    points = [out.placings[s].points_halves for s in range(seats)]
    if all(p is not None for p in points):  # a points game: the sides' mean scores
        mine = [p or 0 for s, p in enumerate(points) if sides[s] == side]
        theirs = [p or 0 for s, p in enumerate(points) if sides[s] != side]
        a, b = sum(mine) / len(mine), sum(theirs) / len(theirs)
        return 1.0 if a > b else 0.5 if a == b else 0.0
    lost = [s for s in range(seats) if out.placings[s].lost]
    if out.draw or not lost:
        return 0.5
    return 0.0 if sides[lost[0]] == side else 1.0


def parse_options(items: Sequence[str]) -> dict[str, Any]:
    """``["mode=transfer", "dummy=true", "deck=52"]`` -> options (JSON values where they parse)."""
    out: dict[str, Any] = {}
    for item in items:
        key, _, raw = item.partition("=")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def run(
    game_name: str,
    level_a: str,
    level_b: str,
    games: int,
    seats: int,
    options: dict[str, Any],
    seed: int = 1,
    bot_params: dict[str, Any] | None = None,
) -> tuple[float, float]:
    """(side A's total score, side B's total score) over ``games`` games."""
    params = bot_params or {}
    bot_a = get_bot(level_a, **(params if level_a == "strong" else {}))
    bot_b = get_bot(level_b, **(params if level_b == "strong" else {}))
    score_a = score_b = 0.0
    for i in range(games):
        sides = sides_for(i, seats)
        bots = [bot_a if side == "A" else bot_b for side in sides]
        state = play(game_name, seats, options, bots, seed=seed + i // 2, rng_seed=seed * 100003 + i)
        result = state.result()
        assert result is not None
        score_a += side_score(game_name, result, sides, "A", state.options)
        score_b += side_score(game_name, result, sides, "B", state.options)
    return score_a, score_b


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Bot against bot, seat-rotated, with fixed seeds")
    ap.add_argument("--game", required=True, choices=tuple(GAMES))
    ap.add_argument("--a", default="heuristic", help="level of side A")
    ap.add_argument("--b", default="random", help="level of side B")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seats", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="a rule option, e.g. mode=transfer")
    ap.add_argument("--budget", type=float, default=None, help="strong bot: seconds per decision")
    ap.add_argument("--iterations", type=int, default=None, help="strong bot: iteration cap per decision")
    args = ap.parse_args(argv)
    seats = args.seats or DEFAULT_SEATS.get(args.game, get_game(args.game).min_seats)
    options = parse_options(args.option)
    params: dict[str, Any] = {}
    if args.budget is not None:
        params["budget_seconds"] = args.budget
    if args.iterations is not None:
        params["max_iterations"] = args.iterations
    start = time.perf_counter()
    a, b = run(args.game, args.a, args.b, args.games, seats, options, args.seed, params)
    n = args.games
    la, ha = wilson(a, n)
    lb, hb = wilson(b, n)
    extra = f", strong budget {params.get('budget_seconds', 'default')} s" if "strong" in (args.a, args.b) else ""
    print(f"{args.game}, {seats} seats, options {options or 'default'}{extra}: {time.perf_counter() - start:.0f} s")
    print(
        f"A {args.a}: {a / n:.3f} [{la:.3f}, {ha:.3f}]  B {args.b}: {b / n:.3f} [{lb:.3f}, {hb:.3f}]  "
        f"(95% Wilson, {n} games)"
    )


if __name__ == "__main__":
    main()
