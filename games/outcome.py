"""The generic outcome of a finished game or match, the one shape every consumer reads.

Ratings, score sheets, tournaments and pages ask the game for ``placings``
instead of reading each game's own ``result()`` keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def halves_to_number(halves: int) -> int | float:
    """Points kept in exact halves as a number to show: ``5 -> 2.5``, ``4 -> 2``."""
    return halves // 2 if halves % 2 == 0 else halves / 2


@dataclass(frozen=True)
class Placing:
    """One seat's finish: ``place`` 1 is best, equal places are ties."""

    place: int
    won: bool = False
    #: the fool (Durak; in teams: on the losing team) or the loser
    lost: bool = False
    #: points in exact halves, for games that score points (Biznes); None otherwise
    points_halves: int | None = None
    #: scored deals behind ``points_halves``
    deals: int | None = None


@dataclass(frozen=True)
class Outcome:
    """Teams of seats (one seat each unless the game has teams), their ranks (1 best, ties equal), per-seat placings.

    ``loser`` is the one seat a match sheet counts against (the fool, the
    loser), or None (a draw, a team loss without a single fool, a points game).
    """

    teams: list[list[int]]
    ranks: list[int]
    placings: dict[int, Placing]
    loser: int | None = None
    draw: bool = False
    losing_team: int | None = None


def by_order(seats: int, order: Sequence[Sequence[int]], loser: int | None, draw: bool = False) -> Outcome:
    """Groups in the order they left share a place; everyone left over shares the last one."""
    place = {s: i + 1 for i, group in enumerate(order) for s in group}
    last = len(order) + 1
    placings = {
        s: Placing(place.get(s, last), won=not draw and place.get(s) == 1, lost=s == loser) for s in range(seats)
    }
    return Outcome([[s] for s in range(seats)], [placings[s].place for s in range(seats)], placings, loser, draw)


def by_points(points_halves: Sequence[int], deals: int | None = None) -> Outcome:
    """Places by points, highest first; equal points share a place ("1224")."""
    seats = len(points_halves)
    placings = {
        s: Placing(
            1 + sum(1 for p in points_halves if p > points_halves[s]),
            points_halves=points_halves[s],
            deals=deals,
        )
        for s in range(seats)
    }
    placings = {
        s: Placing(p.place, won=p.place == 1, points_halves=p.points_halves, deals=deals) for s, p in placings.items()
    }
    return Outcome([[s] for s in range(seats)], [placings[s].place for s in range(seats)], placings)


def by_fewest_cards(hands: Sequence[int], out: Sequence[Sequence[int]] = ()) -> Outcome:
    """An unfinished game scored by its position: seats already out keep their order, the rest rank by
    fewer cards held (equal counts share a place); a single seat alone in the last place is the loser."""
    gone = {s for group in out for s in group}
    left = sorted({hands[s] for s in range(len(hands)) if s not in gone})
    order = [list(group) for group in out if group]
    order += [[s for s in range(len(hands)) if s not in gone and hands[s] == n] for n in left]
    loser = order[-1][0] if len(order) > 1 and len(order[-1]) == 1 else None
    if len(order) <= 1:  # everyone level: nobody is placed above anyone
        return by_order(len(hands), [], None, draw=True)
    return by_order(len(hands), order[:-1], loser)
