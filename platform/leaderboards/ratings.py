"""Pure rating rules: the OpenSkill update and the displayed number; who placed where is the game's ``placings``.

No database here, so the incremental service and the recompute command share
exactly the same arithmetic (and therefore the same floats).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce

from games import get_game
from games.outcome import Outcome, Placing

__all__ = ["MODEL", "Outcome", "Placing", "display", "outcome", "provisional", "rate"]

#: OpenSkill's defaults: a new player is mu 25, sigma 25/3
MODEL = PlackettLuce()
#: displayed rating = BASE + SCALE * ordinal, ordinal = mu - 3 sigma; a new player shows 1000
BASE, SCALE = 1000.0, 20.0
#: provisional ("?") until sigma falls below this: about 15-20 games of three players
PROVISIONAL_SIGMA = 6.0


def display(mu: float, sigma: float) -> float:
    return BASE + SCALE * MODEL.rating(mu=mu, sigma=sigma).ordinal()


def provisional(sigma: float) -> bool:
    return sigma >= PROVISIONAL_SIGMA


def outcome(game: str, seats: int, options: Mapping[str, Any], result: Mapping[str, Any]) -> Outcome:
    """One finished game's outcome, as its game places it (``GameSpec.placings``)."""
    return get_game(game).placings(result, seats, options)


def rate(priors: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
    """(mu, sigma) per player per team after the game, by OpenSkill's Plackett-Luce model."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in priors]
    return [[(r.mu, r.sigma) for r in team] for team in MODEL.rate(teams, ranks=list(ranks))]
