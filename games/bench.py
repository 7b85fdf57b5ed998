"""Random play-outs per second, the engines' speed benchmark.

    python -m games.bench                 # every game
    python -m games.bench durak --seconds 5
    python -m games.bench durak:2 verish:3 biznes:5 --only contract

Each step asks the first seat in ``to_act()`` for its ``legal_actions`` and
applies a uniformly chosen one, the same work a bot or the conformance runner
does. Runs on one core (one process); prints two lines per game and seat count:

- ``contract``: the live state, ``to_act``/``legal_actions``/``apply``;
- ``snapshots``: the platform's path for every move: the saved JSON text is
  parsed and loaded (``from_json``), the move applied with its words in no
  language (``apply_said``) and rendered in English (the log row's text), the
  spectator's view read for the public record, and the state saved back to
  JSON text (``to_json``).

Rates are per second of this process's CPU time, so other work on a shared
machine does not skew them (on an idle machine that is the wall-clock rate).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from games import GAMES, get_game
from games.words import render

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


def play_out_snapshots(game_name: str, seats: int, rng: random.Random, options: dict[str, Any] | None = None) -> int:
    """``play_out`` the way the platform moves: each move from and back to a JSON snapshot."""
    game = get_game(game_name)
    state = game.new(options=options, seats=seats, dealer=rng.randrange(seats), seed=rng.randrange(2**31))
    saved = json.dumps(state.to_json())
    steps = 0
    while True:
        state = game.from_json(json.loads(saved))
        if state.is_over():
            return steps
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        render(state.apply_said(seat, action))
        json.dumps(game.public_record(action, state.view(None)))
        saved = json.dumps(state.to_json())
        steps += 1


def measure(
    game_name: str, seats: int, seconds: float, seed: int = 1, play: Callable[..., int] = play_out
) -> tuple[float, float]:
    """(games per second, actions per second) over about ``seconds``."""
    rng = random.Random(seed)
    games = steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds or games < 3:
        steps += play(game_name, seats, rng)
        games += 1
    return games / elapsed, steps / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAMES), help="a game, or game:seats")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per line")
    ap.add_argument("--only", choices=("contract", "snapshots"), help="one of the two lines")
    args = ap.parse_args()
    paths = {"contract": play_out, "snapshots": play_out_snapshots}
    for item in args.games:
        name, _, only_seats = item.partition(":")
        engine = get_game(name)
        for seats in [int(only_seats)] if only_seats else SEATS.get(name, (engine.min_seats, engine.max_seats)):
            for label, play in paths.items():
                if args.only not in (None, label):
                    continue
                per_game, per_step = measure(name, seats, args.seconds, play=play)
                print(f"{name:7s} {seats} seats {label:9s}: {per_game:8.0f} games/s  {per_step:9.0f} actions/s")


if __name__ == "__main__":
    main()
