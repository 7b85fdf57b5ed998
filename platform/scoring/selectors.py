"""Score sheet reads: a match's sheet for the page, standings per match and summed over matches, Biznes seasons.

``points_by_user`` and ``standings_by_user`` are what a tournament sums over
its matches. The Biznes season standings are in ``scoring.seasons``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import Sum
from django.utils.translation import ngettext_lazy, pgettext_lazy

from games import get_game
from games.outcome import Placing
from games.sheets import Sheet
from scoring.models import MatchScore
from tables.models import Match


def match_sheet(match: Match) -> Sheet:
    return get_game(match.table.game).load_sheet(match.sheet)


def sheet_view(game_name: str, sheet_json: dict[str, Any]) -> dict[str, Any]:
    """What the table page shows of a match: per-game rows, per-seat totals and the match unit's words."""
    game = get_game(game_name)
    # the game's words are English; they are translated here, at the platform's edge
    rows = game.load_sheet(sheet_json).rows()
    # (a word shown alone has the context "game word"; the unit is a counted pair: see core's makemessages).
    # Lazy: one copy per move is shared by every socket of the table, each rendering in its reader's language.
    words = {key: pgettext_lazy("game word", rows[key]) for key in ("loss_word", "losses_word") if rows.get(key)}
    units = ngettext_lazy(*game.unit, rows.get("length") or 5)
    return {**rows, **words, "unit": ngettext_lazy(*game.unit, 1), "units": units}


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
