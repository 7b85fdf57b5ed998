"""Biznes cumulative standings per season (about Biznes by definition): points over a month's rated matches.

Only rated matches count, so this reads the rated record: the rating change row
of a rated Biznes match carries its final total in exact halves and its deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Min, Q, Sum
from django.utils import timezone

from accounts.models import User
from games.outcome import halves_to_number as to_number
from leaderboards.models import RatingChange

TOP = 100


def season_bounds(season: str | None) -> tuple[date, datetime, datetime]:
    """A season is a calendar month ("2026-05"); anything unreadable means the current one."""
    today = timezone.now().date()
    try:
        year, month = (int(x) for x in (season or "").split("-"))
        first = date(year, month, 1)
    except ValueError:
        first = today.replace(day=1)
    after = (first + timedelta(days=32)).replace(day=1)
    tz = timezone.get_current_timezone()
    return first, datetime(first.year, first.month, 1, tzinfo=tz), datetime(after.year, after.month, 1, tzinfo=tz)


def _months(first: date, last: date) -> list[date]:
    months = []
    while first <= last:
        months.append(first)
        first = (first + timedelta(days=32)).replace(day=1)
    return months


def _standing(position: int, row: Mapping[str, Any], me_id: int | None) -> dict[str, Any]:
    total, deals = row["total"] or 0, row["deal_count"] or 0
    return {
        "position": position,
        "username": row["user__username"],
        "name": row["user__display_name"] or row["user__username"],
        "total": to_number(total),  # exact: 2.5, never 2.4999
        "per_deal": f"{total / 2 / deals:.2f}" if deals else "-",
        "matches": row["matches"],
        "deals": deals,
        "me": row["user_id"] == me_id,
    }


def biznes_season(season: str | None, user: User | AnonymousUser) -> dict[str, Any]:
    """Total points of every human over the rated Biznes matches that finished in one calendar month."""
    first, start, end = season_bounds(season)
    me_id = user.pk if user.is_authenticated else None
    totals = (
        RatingChange.objects.filter(game="biznes", at__gte=start, at__lt=end, user__is_bot=False)
        .values("user_id", "user__username", "user__display_name")
        .annotate(total=Sum("points_halves"), deal_count=Sum("deals"), matches=Count("id"))
    )
    rows = [_standing(i + 1, r, me_id) for i, r in enumerate(totals.order_by("-total", "user_id")[:TOP])]
    me = None
    if me_id is not None and not any(r["me"] for r in rows):
        mine = next(iter(totals.filter(user_id=me_id)), None)
        if mine:
            t = mine["total"]
            ahead = totals.filter(Q(total__gt=t) | Q(total=t, user_id__lt=me_id)).count()
            me = _standing(ahead + 1, mine, me_id)
    # every month from the first rated match to now: one indexed MIN, not a DISTINCT over all history
    oldest = RatingChange.objects.filter(game="biznes").aggregate(at=Min("at"))["at"]
    seasons = _months(min(first, oldest.date().replace(day=1) if oldest else first), timezone.now().date())
    if first not in seasons:
        seasons.append(first)
    seasons.sort(reverse=True)
    return {"season": first, "rows": rows, "me": me, "seasons": [m.strftime("%Y-%m") for m in seasons]}
