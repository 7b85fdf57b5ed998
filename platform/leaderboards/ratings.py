"""Pure rating rules: who placed where in a finished game, the OpenSkill update, the displayed number.

No database here, so the incremental service and the recompute command share
exactly the same arithmetic (and therefore the same floats).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from games.biznes.scoring import to_halves

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


@dataclass(frozen=True)
class Placing:
    place: int
    won: bool = False
    lost: bool = False
    points_halves: int | None = None
    deals: int | None = None


@dataclass(frozen=True)
class Outcome:
    """Teams of seats (one seat each outside Durak teams), their ranks (1 best, ties equal), per-seat placings."""

    teams: list[list[int]]
    ranks: list[int]
    placings: dict[int, Placing]


def _by_order(seats: int, order: Sequence[Sequence[int]], fool: int | None, draw: bool) -> Outcome:
    """Groups in the order they left share a place; everyone left over shares the last one."""
    place = {s: i + 1 for i, group in enumerate(order) for s in group}
    last = len(order) + 1
    placings = {
        s: Placing(place.get(s, last), won=not draw and place.get(s) == 1, lost=s == fool) for s in range(seats)
    }
    return Outcome([[s] for s in range(seats)], [placings[s].place for s in range(seats)], placings)


def outcome(
    kind: str, seats: int, options: Mapping[str, Any], result: Mapping[str, Any], sheet: Mapping | None
) -> Outcome:
    """Durak by places (teams as teams), Believe It or Not by finishing order, Biznes by the match standings."""
    if kind == "biznes":
        assert sheet is not None
        placings = {
            row["seat"]: Placing(
                row["place"], won=row["place"] == 1, points_halves=to_halves(row["total"]), deals=sheet["played"]
            )
            for row in sheet["standings"]
        }
        return Outcome([[s] for s in range(seats)], [placings[s].place for s in range(seats)], placings)
    if kind == "verish":
        return _by_order(seats, [[s] for s in result["finished"]], result.get("loser"), False)
    draw = bool(result.get("draw"))
    if options.get("teams"):
        losing = None if draw else result.get("losing_team")
        teams = [[s for s in range(seats) if s % 2 == t] for t in (0, 1)]
        ranks = [2 if t == losing else 1 for t in (0, 1)]
        placings = {
            s: Placing(ranks[s % 2], won=losing is not None and s % 2 != losing, lost=s % 2 == losing)
            for s in range(seats)
        }
        return Outcome(teams, ranks, placings)
    return _by_order(seats, result.get("places") or [], result.get("fool"), draw)


def rate(priors: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
    """(mu, sigma) per player per team after the game, by OpenSkill's Plackett-Luce model."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in priors]
    return [[(r.mu, r.sigma) for r in team] for team in MODEL.rate(teams, ranks=list(ranks))]
