"""Points per game and the event's standings: pure functions, no Django.

All points are kept in integer *halves* (``7`` means 3.5) so that shared
places and Biznes half points add up exactly; ``to_number`` turns them back.

Points per game:

- A game scored by place (Durak, Believe It or Not) scores by the places its
  module gives (``GameSpec.placings``): at a table of ``n`` the first out scores
  ``n - 1``, the next ``n - 2``, ... and the last (the fool, the loser) none.
  Players who share a place share those places' points: each scores the mean,
  which for consecutive places is always a whole or half point. In a draw the
  players still holding cards share the places left. Bots score too (their
  places are real), but only humans are standed.
- A game whose match is scored by its own points (Biznes) scores the match's
  points as its score sheet keeps them (``tournaments.scoring``).

Standings order by points, then the tiebreaks shown on the page: the sum of
the table-mates' points (each round's table-mates, at their final totals),
then games won (first place at a table, shared first counts), then the fewest
times the fool. Players equal on all four share a place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.outcome import Placing

Player = int


def to_number(halves: int) -> int | float:
    return halves // 2 if halves % 2 == 0 else halves / 2


def to_halves(number: float) -> int:
    halves = number * 2
    if halves != int(halves):
        raise ValueError(f"not a whole or half point: {number!r}")
    return int(halves)


def place_points(placings: Mapping[int, Placing]) -> list[int]:
    """Halves per seat from a game's placings (``GameSpec.placings(...).placings``): places with ties.

    At a table of ``n`` the seat placed first scores ``n - 1``, the next
    ``n - 2``, ... the last none. Seats that share a place share those places'
    points: the mean of consecutive places, always a whole or half point.
    """
    places = [placings[s].place for s in range(len(placings))]
    seats = len(places)
    points = []
    for mine in places:
        above = sum(1 for p in places if p < mine)
        tied = sum(1 for p in places if p == mine)
        # mean of (seats-1-above) .. (seats-above-tied), in halves: first + last
        points.append((seats - 1 - above) + (seats - above - tied))
    return points


@dataclass(frozen=True)
class GameRecord:
    """One scored unit at one table: a game (Durak, Believe) or a match (Biznes)."""

    round: int
    table: int
    #: player per seat; None for a bot
    players: tuple[Player | None, ...]
    points: tuple[int, ...]  # halves per seat
    fool: int | None = None  # the seat that was the fool/loser


@dataclass(frozen=True)
class Standing:
    player: Player
    place: int
    points: int  # halves
    mates: int  # halves: the tiebreak sum of table-mates' points
    won: int
    fools: int
    games: int

    def key(self) -> tuple[int, int, int, int]:
        return (-self.points, -self.mates, -self.won, self.fools)


def standings(
    players: Iterable[Player], records: Iterable[GameRecord], byes: Mapping[Player, int] | None = None
) -> list[Standing]:
    """Every player's standing, best first; ``byes`` adds halves to a player who sat a round out."""
    everyone = list(dict.fromkeys(players))
    points = dict.fromkeys(everyone, 0)
    won = dict.fromkeys(everyone, 0)
    fools = dict.fromkeys(everyone, 0)
    games = dict.fromkeys(everyone, 0)
    rounds_mates: dict[tuple[int, int], set[Player]] = {}
    for bye_player, halves in (byes or {}).items():
        if bye_player in points:
            points[bye_player] += halves
    for rec in records:
        best = max(rec.points) if rec.points else 0
        humans = [p for p in rec.players if p is not None and p in points]
        rounds_mates.setdefault((rec.round, rec.table), set()).update(humans)
        for seat, player in enumerate(rec.players):
            if player is None or player not in points:
                continue
            points[player] += rec.points[seat]
            games[player] += 1
            won[player] += rec.points[seat] == best and best > min(rec.points)
            fools[player] += rec.fool == seat
    mates = dict.fromkeys(everyone, 0)
    for members in rounds_mates.values():
        total = sum(points[p] for p in members)
        for p in members:
            mates[p] += total - points[p]
    rows = [
        Standing(player=p, place=0, points=points[p], mates=mates[p], won=won[p], fools=fools[p], games=games[p])
        for p in everyone
    ]
    rows.sort(key=lambda s: s.key())
    out: list[Standing] = []
    for i, row in enumerate(rows):
        place = out[-1].place if out and out[-1].key() == row.key() else i + 1
        out.append(Standing(row.player, place, row.points, row.mates, row.won, row.fools, row.games))
    return out


def ranks_at_table(points: Sequence[int]) -> list[int]:
    """Rank per seat (1 best, shared ranks) from the seat's points at one table."""
    return [1 + sum(1 for q in points if q > p) for p in points]
