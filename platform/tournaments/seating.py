"""Who sits where in a round: pure functions, no Django.

Players are opaque ids (ints). A seating is a list of tables, each a list of
seats holding a player id or ``None`` (a bot), plus the players given a bye.

- *Random* (round 1 of every format): a shuffle with ``secrets``.
- *By standing* (later Swiss and Biznes cumulative rounds): the best
  unseated player opens each table and the next best who has never sat with
  anyone there joins it; whatever repeats remain are then repaired by swapping
  players between tables, preferring swaps between tables close in standing.
- *Knockout*: the best ``advance`` of each table go on; the rest are out.

When the count does not divide by the table size, ``fill="bots"`` opens
``ceil(n / size)`` tables and spreads the bots so that no table has more than
one bot more than another; ``fill="byes"`` opens ``floor(n / size)`` tables
and the lowest-standing players who have not had a bye yet sit out (random in
round 1). Fewer players than one table always get bots, never a bye.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

Player = int
#: every pair that has already shared a table, both ways: player -> his past table-mates
Mates = Mapping[Player, frozenset[Player] | set[Player]]


class SeatingError(ValueError):
    """Seating asked for something impossible (a table of one, no players, ...)."""


@dataclass(frozen=True)
class Seating:
    tables: list[list[Player | None]]
    byes: list[Player] = field(default_factory=list)

    def players(self) -> list[Player]:
        return [p for table in self.tables for p in table if p is not None]


def table_counts(players: int, size: int, fill: str) -> tuple[int, int]:
    """(tables, byes) for ``players`` at tables of ``size``."""
    if size < 2:
        raise SeatingError("a table needs at least two seats")
    if players < 1:
        raise SeatingError("nobody to seat")
    if fill not in ("bots", "byes"):
        raise SeatingError(f"fill must be 'bots' or 'byes', not {fill!r}")
    if fill == "byes" and players >= size:
        return players // size, players % size
    return -(-players // size), 0


def _spread(players: list[Player], tables: int, size: int) -> list[list[Player | None]]:
    """Deal ``players`` (in order) into ``tables`` contiguous groups, bots filling the smaller ones."""
    base, extra = divmod(len(players), tables)
    out: list[list[Player | None]] = []
    start = 0
    for t in range(tables):
        n = base + (1 if t < extra else 0)
        group: list[Player | None] = list(players[start : start + n])
        group.extend([None] * (size - n))
        out.append(group)
        start += n
    return out


def seat_random(players: Sequence[Player], size: int, fill: str = "bots") -> Seating:
    """Round 1: a uniformly random seating (``secrets``), byes drawn at random too."""
    order = list(dict.fromkeys(players))
    tables, byes = table_counts(len(order), size, fill)
    for i in range(len(order) - 1, 0, -1):  # Fisher-Yates with the system's CSPRNG
        j = secrets.randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    bye_players = order[len(order) - byes :] if byes else []
    seated = order[: len(order) - byes]
    seating = _spread(seated, tables, size)
    for table in seating:
        # seats within a table are random too (the bots need not all sit at the end)
        for i in range(len(table) - 1, 0, -1):
            j = secrets.randbelow(i + 1)
            table[i], table[j] = table[j], table[i]
    return Seating(seating, sorted(bye_players))


def repeats(tables: Iterable[Sequence[Player | None]], mates: Mates) -> int:
    """How many pairs at these tables have sat together before."""
    count = 0
    for table in tables:
        humans = [p for p in table if p is not None]
        for i, a in enumerate(humans):
            past = mates.get(a, ())
            count += sum(1 for b in humans[i + 1 :] if b in past)
    return count


def _conflicts(player: Player, group: Iterable[Player], mates: Mates) -> int:
    past = mates.get(player, ())
    return sum(1 for other in group if other != player and other in past)


def seat_by_standing(
    ranking: Sequence[Player],
    size: int,
    mates: Mates,
    fill: str = "bots",
    had_bye: Iterable[Player] = (),
) -> Seating:
    """A later round: ``ranking`` is best first; top players sit together, avoiding repeat table-mates."""
    order = list(dict.fromkeys(ranking))
    tables, byes = table_counts(len(order), size, fill)
    bye_players: list[Player] = []
    if byes:
        had = set(had_bye)
        # from the bottom up: who has not had a bye yet, then (everyone had one) the lowest
        fresh = [p for p in reversed(order) if p not in had]
        bye_players = (fresh + [p for p in reversed(order) if p in had])[:byes]
        taken = set(bye_players)
        order = [p for p in order if p not in taken]
    base, extra = divmod(len(order), tables)
    capacity = [base + (1 if t < extra else 0) for t in range(tables)]
    groups: list[list[Player]] = []
    remaining = order  # kept in standing order; popping from the front by index
    alive = [True] * len(order)
    cursor = 0
    for cap in capacity:
        while not alive[cursor]:
            cursor += 1
        group = [order[cursor]]
        alive[cursor] = False
        # the next best without a repeat; a bounded look-ahead keeps 1,000 players well under a second
        scan = cursor + 1
        while len(group) < cap:
            best, best_cost, looked = -1, 1 << 30, 0
            i = scan
            while i < len(remaining) and looked < 64:
                if alive[i]:
                    cost = _conflicts(remaining[i], group, mates)
                    if cost < best_cost:
                        best, best_cost = i, cost
                        if cost == 0:
                            break
                    looked += 1
                i += 1
            group.append(remaining[best])
            alive[best] = False
        groups.append(group)
    _repair(groups, mates)
    out: list[list[Player | None]] = []
    for group in groups:
        table: list[Player | None] = list(group)
        table.extend([None] * (size - len(group)))
        out.append(table)
    return Seating(out, sorted(bye_players))


def _repair(groups: list[list[Player]], mates: Mates, passes: int = 4) -> None:
    """Swap players between tables while that lowers the repeats (nearest tables first)."""
    n = len(groups)
    for _ in range(passes):
        improved = False
        for t, group in enumerate(groups):
            for i, player in enumerate(group):
                here = _conflicts(player, group, mates)
                if here == 0:
                    continue
                done = False
                for distance in range(1, n):
                    for u in (t + distance, t - distance):
                        if not 0 <= u < n:
                            continue
                        other = groups[u]
                        for j, candidate in enumerate(other):
                            rest_here = [p for k, p in enumerate(group) if k != i]
                            rest_there = [p for k, p in enumerate(other) if k != j]
                            before = here + _conflicts(candidate, rest_there, mates)
                            after = _conflicts(candidate, rest_here, mates) + _conflicts(player, rest_there, mates)
                            if after < before:
                                group[i], other[j] = candidate, player
                                improved = done = True
                                break
                        if done:
                            break
                    if done:
                        break
        if not improved:
            return


def mates_of(history: Iterable[Sequence[Player | None]]) -> dict[Player, set[Player]]:
    """Past table-mates from every table played so far."""
    mates: dict[Player, set[Player]] = {}
    for table in history:
        humans = [p for p in table if p is not None]
        for p in humans:
            mates.setdefault(p, set()).update(q for q in humans if q != p)
    return mates


def knockout_advance(tables: Sequence[Sequence[tuple[Player, int]]], advance: int) -> list[Player]:
    """The best ``advance`` humans of each table (``(player, rank)``, rank 1 best; ties keep seat order)."""
    if advance < 1:
        raise SeatingError("at least one player per table must advance")
    out: list[Player] = []
    for table in tables:
        ranked = sorted(table, key=lambda pr: pr[1])
        out.extend(p for p, _ in ranked[:advance])
    return out


def knockout_is_final(players: int, size: int) -> bool:
    """The last round: everyone left fits at one table."""
    return players <= size
