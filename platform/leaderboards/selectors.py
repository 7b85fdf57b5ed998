"""Rating reads: leaderboards, the Biznes season standings, a player's ratings and history.

Every page is a handful of queries over ``PlayerRating`` and ``RatingChange``;
nothing is recomputed on read. The Biznes season standings live in ``scoring``.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from accounts.models import User
from games import get_game
from games.outcome import halves_to_number as to_number
from leaderboards import ratings
from leaderboards.charts import history_svg, ratings_chart
from leaderboards.models import PlayerRating, RatingChange
from tables.models import game_choices

TOP = 100
#: the period filter keeps players with a rated game in the last N days (rolling, so it is never empty on the 1st)
PERIODS = {
    "all": (gettext_lazy("All time"), None),
    "month": (gettext_lazy("Last 30 days"), 30),
    "week": (gettext_lazy("Last 7 days"), 7),
}


def game_titles() -> dict[str, str]:
    """Every registered game: its name and title (read on each call, so a game registered later shows up)."""
    return {name: str(title) for name, title in game_choices()}


def shown(rating: float, sigma: float) -> str:
    """The displayed rating: a whole number, with "?" while provisional."""
    return f"{round(rating)}{'?' if ratings.provisional(sigma) else ''}"


def _board(game: str, period: str) -> QuerySet[PlayerRating]:
    board = PlayerRating.objects.filter(
        game=game, sigma__lt=ratings.PROVISIONAL_SIGMA, user__is_bot=False, user__is_active=True
    )
    days = PERIODS[period][1]
    if days:
        since = timezone.now() - timedelta(days=days)
        board = board.filter(Exists(RatingChange.objects.filter(user_id=OuterRef("user_id"), game=game, at__gte=since)))
    return board


def _row(position: int, r: PlayerRating, me_id: int | None) -> dict[str, Any]:
    return {"position": position, "user": r.user, "rating": round(r.rating), "games": r.games, "me": r.user_id == me_id}


def leaderboard(game: str, period: str, user: User | AnonymousUser) -> dict[str, Any]:
    """The top 100 non-provisional humans by displayed rating, and where ``user`` stands (even beyond 100)."""
    board = _board(game, period)
    me_id = user.pk if user.is_authenticated else None
    rows = [
        _row(i + 1, r, me_id) for i, r in enumerate(board.select_related("user").order_by("-rating", "user_id")[:TOP])
    ]
    mine, me = None, None
    if me_id is not None and not any(row["me"] for row in rows):
        mine = PlayerRating.objects.filter(game=game, user_id=me_id).select_related("user").first()
        if mine and not ratings.provisional(mine.sigma) and board.filter(user_id=me_id).exists():
            ahead = board.filter(Q(rating__gt=mine.rating) | Q(rating=mine.rating, user_id__lt=me_id)).count()
            me = _row(ahead + 1, mine, me_id)
    return {
        "rows": rows,
        # while the board has room: a full board is the page, and a newcomer still reads his own line below it
        "newcomers": newcomers(game, me_id) if len(rows) < TOP else [],
        "me": me,
        "mine": {"rating": shown(mine.rating, mine.sigma), "games": mine.games} if mine and me is None else None,
    }


#: how many players still finding their level the leaderboard lists under the board
NEWCOMERS = 20


def newcomers(game: str, me_id: int | None) -> list[dict[str, Any]]:
    """Humans with a rated game whose rating is still provisional, most recently rated first: the board's
    players-to-be (a new site's board is empty until someone has played enough)."""
    rows = (
        PlayerRating.objects.filter(
            game=game, sigma__gte=ratings.PROVISIONAL_SIGMA, games__gt=0, user__is_bot=False, user__is_active=True
        )
        .select_related("user")
        .order_by("-updated_at", "user_id")[:NEWCOMERS]
    )
    return [{"user": r.user, "rating": round(r.rating), "games": r.games, "me": r.user_id == me_id} for r in rows]


def current_ratings(user_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Per user: each game's current rating only (game, label, rating as shown), in one query; no history."""
    labels = game_titles()
    order = {game: i for i, game in enumerate(labels)}  # the games in their registry's order, as on a profile
    rows = PlayerRating.objects.filter(user_id__in=user_ids, game__in=labels, games__gt=0)
    found: dict[int, list[dict[str, Any]]] = {uid: [] for uid in user_ids}
    for r in sorted(rows, key=lambda r: order[r.game]):
        found[r.user_id].append({"game": r.game, "label": labels[r.game], "rating": shown(r.rating, r.sigma)})
    return found


def ratings_at_seats(game: str, user_ids: list[int]) -> dict[int, tuple[str, bool]]:
    """The seated users' ratings for one game, as the seats show them: (whole number, provisional?); a player
    with no rated game yet shows the rating every newcomer starts from, provisional."""
    start = str(round(ratings.display(ratings.MODEL.mu, ratings.MODEL.sigma)))
    found = {uid: (start, True) for uid in user_ids}
    for r in PlayerRating.objects.filter(game=game, user_id__in=user_ids).only("user_id", "rating", "sigma"):
        found[r.user_id] = (str(round(r.rating)), ratings.provisional(r.sigma))
    return found


def player_ratings(user: User) -> dict[str, Any]:
    """Per game: the current rating, a history chart, rated games, wins, fools/losses; Biznes point totals.

    Two queries: the rating rows and the change history (counts are summed here, not in SQL,
    since the history is read anyway for the chart).
    """
    current = {r.game: r for r in PlayerRating.objects.filter(user=user)}
    history: dict[str, list[float]] = defaultdict(list)
    dated: dict[str, list[tuple[datetime, float]]] = defaultdict(list)
    stats: dict[str, dict[str, int]] = defaultdict(lambda: {"games": 0, "wins": 0, "lost": 0, "points": 0, "deals": 0})
    deltas: dict[int, float] = {}
    changes = RatingChange.objects.filter(user=user).order_by("at", "pk")
    fields = ("game", "played_game_id", "rating_before", "rating_after", "won", "lost", "points_halves", "deals", "at")
    for game, played_id, before, after, won, lost, points, deals, at in changes.values_list(*fields):
        if not history[game]:
            history[game].append(before)
            dated[game].append((at, before))
        history[game].append(after)
        dated[game].append((at, after))
        s = stats[game]
        s["games"] += 1
        s["wins"] += won
        s["lost"] += lost
        s["points"] += points or 0
        s["deals"] += deals or 0
        deltas[played_id] = after - before
    rows: list[dict[str, Any]] = []
    for game, label in game_titles().items():
        r = current.get(game)
        if r is None or not r.games:
            continue
        s = stats[game]
        spec = get_game(game)
        per_match = spec.rated_by == "match"
        rows.append(
            {
                "game": game,
                "label": label,
                "rated_word": ngettext("match", "matches", s["games"])
                if per_match
                else ngettext(spec.unit[0], spec.unit[1], s["games"]),
                "loss_phrase": ngettext(spec.loss_words[2], spec.loss_words[3], s["lost"]) if spec.loss_words else "",
                "scores_points": spec.loss_words is None,
                "rating": shown(r.rating, r.sigma),
                "provisional": ratings.provisional(r.sigma),
                "chart": history_svg(history[game], gettext("%(game)s rating history") % {"game": label}),
                **s,
                "points": to_number(s["points"]),
            }
        )
    series = [(row["label"], dated[row["game"]]) for row in rows]
    chart = ratings_chart(series, gettext("Rating over time, one line per game"))
    return {"ratings": rows, "deltas": deltas, "chart": chart}


def rating_changes_of_match(match_id: int) -> dict[int, int]:
    """User id -> how much his shown rating moved over one match's rated games (bots' pool accounts included).

    The answer to ``tables.hooks.match_rating_changes`` (the end-of-match banner asks it).
    """
    moved: dict[int, float] = defaultdict(float)
    for user_id, before, after in RatingChange.objects.filter(played_game__match_id=match_id).values_list(
        "user_id", "rating_before", "rating_after"
    ):
        moved[user_id] += after - before
    return {user_id: round(delta) for user_id, delta in moved.items()}
