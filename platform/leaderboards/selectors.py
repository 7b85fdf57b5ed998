"""Rating reads: leaderboards, the Biznes season standings, a player's ratings and history.

Every page is a handful of queries over ``PlayerRating`` and ``RatingChange``;
nothing is recomputed on read.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Count, Exists, Min, OuterRef, Q, QuerySet, Sum
from django.utils import timezone

from games.biznes.scoring import to_number
from leaderboards import ratings
from leaderboards.charts import history_svg
from leaderboards.models import PlayerRating, RatingChange
from tables.models import GAME_CHOICES

KINDS = dict(GAME_CHOICES)
TOP = 100
#: the period filter keeps players with a rated game in the last N days (rolling, so it is never empty on the 1st)
PERIODS = {"all": ("All time", None), "month": ("Last 30 days", 30), "week": ("Last 7 days", 7)}


def shown(rating: float, sigma: float) -> str:
    """The displayed rating: a whole number, with "?" while provisional."""
    return f"{round(rating)}{'?' if ratings.provisional(sigma) else ''}"


def _board(kind: str, period: str) -> QuerySet[PlayerRating]:
    board = PlayerRating.objects.filter(
        kind=kind, sigma__lt=ratings.PROVISIONAL_SIGMA, user__is_bot=False, user__is_active=True
    )
    days = PERIODS[period][1]
    if days:
        since = timezone.now() - timedelta(days=days)
        board = board.filter(Exists(RatingChange.objects.filter(user_id=OuterRef("user_id"), kind=kind, at__gte=since)))
    return board


def _row(position: int, r: PlayerRating, me_id: int | None) -> dict[str, Any]:
    return {"position": position, "user": r.user, "rating": round(r.rating), "games": r.games, "me": r.user_id == me_id}


def leaderboard(kind: str, period: str, user) -> dict[str, Any]:
    """The top 100 non-provisional humans by displayed rating, and where ``user`` stands (even beyond 100)."""
    board = _board(kind, period)
    me_id = user.pk if user.is_authenticated else None
    rows = [
        _row(i + 1, r, me_id) for i, r in enumerate(board.select_related("user").order_by("-rating", "user_id")[:TOP])
    ]
    mine, me = None, None
    if me_id is not None and not any(row["me"] for row in rows):
        mine = PlayerRating.objects.filter(kind=kind, user_id=me_id).select_related("user").first()
        if mine and not ratings.provisional(mine.sigma) and board.filter(user_id=me_id).exists():
            ahead = board.filter(Q(rating__gt=mine.rating) | Q(rating=mine.rating, user_id__lt=me_id)).count()
            me = _row(ahead + 1, mine, me_id)
    return {
        "rows": rows,
        "me": me,
        "mine": {"rating": shown(mine.rating, mine.sigma), "games": mine.games} if mine and me is None else None,
    }


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


def _standing(position: int, row: dict[str, Any], me_id: int | None) -> dict[str, Any]:
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


def biznes_season(season: str | None, user) -> dict[str, Any]:
    """Total points of every human over the rated Biznes matches that finished in one calendar month."""
    first, start, end = season_bounds(season)
    me_id = user.pk if user.is_authenticated else None
    totals = (
        RatingChange.objects.filter(kind="biznes", at__gte=start, at__lt=end, user__is_bot=False)
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
    oldest = RatingChange.objects.filter(kind="biznes").aggregate(at=Min("at"))["at"]
    seasons = _months(min(first, oldest.date().replace(day=1) if oldest else first), timezone.now().date())
    if first not in seasons:
        seasons.append(first)
    seasons.sort(reverse=True)
    return {"season": first, "rows": rows, "me": me, "seasons": [m.strftime("%Y-%m") for m in seasons]}


def player_ratings(user) -> dict[str, Any]:
    """Per game: the current rating, a history chart, rated games, wins, fools/losses; Biznes point totals.

    Two queries: the rating rows and the change history (counts are summed here, not in SQL,
    since the history is read anyway for the chart).
    """
    current = {r.kind: r for r in PlayerRating.objects.filter(user=user)}
    history: dict[str, list[float]] = defaultdict(list)
    stats: dict[str, dict[str, int]] = defaultdict(lambda: {"games": 0, "wins": 0, "lost": 0, "points": 0, "deals": 0})
    deltas: dict[int, float] = {}
    changes = RatingChange.objects.filter(user=user).order_by("at", "pk")
    fields = ("kind", "game_id", "rating_before", "rating_after", "won", "lost", "points_halves", "deals")
    for kind, game_id, before, after, won, lost, points, deals in changes.values_list(*fields):
        if not history[kind]:
            history[kind].append(before)
        history[kind].append(after)
        s = stats[kind]
        s["games"] += 1
        s["wins"] += won
        s["lost"] += lost
        s["points"] += points or 0
        s["deals"] += deals or 0
        deltas[game_id] = after - before
    rows = []
    for kind, label in KINDS.items():
        r = current.get(kind)
        if r is None or not r.games:
            continue
        s = stats[kind]
        rows.append(
            {
                "kind": kind,
                "label": label,
                "rating": shown(r.rating, r.sigma),
                "provisional": ratings.provisional(r.sigma),
                "chart": history_svg(history[kind], f"{label} rating history"),
                **s,
                "points": to_number(s["points"]),
            }
        )
    return {"ratings": rows, "deltas": deltas}
