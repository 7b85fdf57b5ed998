"""Random play-outs per second, the engines' speed benchmark.

    python -m games.bench                 # every game
    python -m games.bench durak --seconds 5

Each step asks the first seat in ``to_act()`` for its ``legal_actions`` and
applies a uniformly chosen one, the same work a bot or the conformance runner
does. Runs on one core (one process); prints one line per game and seat count.
Rates are per second of this process's CPU time, so other work on a shared
machine does not skew them (on an idle machine that is the wall-clock rate).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from games import GAMES, get_game

SEATS = {"durak": (2, 4, 6), "biznes": (4, 5, 6), "verish": (3, 6)}


def play_out(game_name: str, seats: int, rng: random.Random, options: dict[str, Any] | None = None) -> int:
    """Play one random game to the end; return the number of actions."""
    state = get_game(game_name).new(
        options=options, seats=seats, dealer=rng.randrange(seats), seed=rng.randrange(2**31)
    )
    steps = 0
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
    return steps


def measure(game_name: str, seats: int, seconds: float, seed: int = 1) -> tuple[float, float]:
    """(games per second, actions per second) over about ``seconds``."""
    rng = random.Random(seed)
    games = steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds or games < 3:
        steps += play_out(game_name, seats, rng)
        games += 1
    return games / elapsed, steps / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--seconds", type=float, default=3.0, help="time per line")
    args = ap.parse_args()
    for name in args.games:
        engine = get_game(name)
        for seats in SEATS.get(name, (engine.min_seats, engine.max_seats)):
            per_game, per_step = measure(name, seats, args.seconds)
            print(f"{name:7s} {seats} seats: {per_game:8.0f} games/s  {per_step:9.0f} actions/s")


if __name__ == "__main__":
    main()
