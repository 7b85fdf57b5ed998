"""Standings reads: per match and summed over matches.

``points_by_user`` and ``standings_by_user`` are what a tournament sums over
its matches. The sheet itself and its view on the table page are the match's
(``tables.sheets``); the Biznes season standings are the leaderboards'.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Sum

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
