"""Standings reads: per match and summed over matches.

``points_by_user`` and ``standings_by_user`` are what a tournament sums over
its matches. The sheet itself and its view on the table page are the match's
(``tables.sheets``); the Biznes season standings are the leaderboards'.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery, Sum

from games import GAMES
from games.outcome import Placing
from scoring.models import MatchScore
from tables.models import Match
from tables.sheets import match_sheet


def match_standings(match: Match) -> dict[int, Placing]:
    """Seat -> standing in ``match`` (final once the match is over)."""
    return match_sheet(match).standings()


def standings_by_user(match_ids: Iterable[int]) -> dict[int, list[Placing]]:
    """User id -> his final standing in each of the given finished matches he played (bot seats left out)."""
    out: dict[int, list[Placing]] = defaultdict(list)
    rows = MatchScore.objects.filter(match_id__in=list(match_ids), user__isnull=False).order_by("finished_at", "pk")
    for user_id, place, won, lost, halves, deals in rows.values_list(
        "user_id", "place", "won", "lost", "points_halves", "deals"
    ):
        out[user_id].append(Placing(place, won=won, lost=lost, points_halves=halves, deals=deals))
    return dict(out)


def points_by_user(match_ids: Iterable[int]) -> dict[int, int]:
    """User id -> points in exact halves summed over the given finished matches (games that score points)."""
    rows = (
        MatchScore.objects.filter(match_id__in=list(match_ids), user__isnull=False, points_halves__isnull=False)
        .values("user_id")
        .annotate(total=Sum("points_halves"))
    )
    return {r["user_id"]: r["total"] for r in rows}


@dataclass(frozen=True)
class Record:
    """Two players' finished matches together at one game: how often the first ended ahead of the second."""

    game: str
    together: int
    ahead: int
    behind: int
    #: a shared place (a draw, or both out together)
    level: int


def head_to_head(user_id: int, other_id: int) -> list[Record]:
    """Every finished match ``user_id`` and ``other_id`` both played (bot seats are nobody's; a match with an
    annulled game does not count), per game in the registry's order: ahead, behind or level by the two players'
    final places in it, the places the game's own rules gave (``MatchScore.place``: 1 is best, shared is a tie)."""
    # one query, whatever the history: the profile page keeps a fixed number of them
    their_place = MatchScore.objects.filter(match_id=OuterRef("match_id"), user_id=other_id).values("place")[:1]
    rows = (
        MatchScore.objects.filter(user_id=user_id, match__scores__user_id=other_id)
        .exclude(match__games__annulled=True)
        .annotate(other=Subquery(their_place))
        .values_list("match_id", "game", "place", "other")
        .distinct()
    )
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for _match_id, game, place, other in rows:
        row = counts[game]
        row[0] += 1
        row[1 if place < other else 2 if place > other else 3] += 1
    order = {name: i for i, name in enumerate(GAMES)}
    return [
        Record(game, together=row[0], ahead=row[1], behind=row[2], level=row[3])
        for game, row in sorted(counts.items(), key=lambda item: order.get(item[0], len(order)))
    ]
