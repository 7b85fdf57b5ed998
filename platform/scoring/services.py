"""Standings writes: each seat's final standing, kept when a match ends (``tables.signals.match_finished``).

The sheet they are read from is the match's own (``tables.sheets``).
"""

from __future__ import annotations

from django.utils import timezone

from games import get_game
from scoring.models import MatchScore
from tables.models import Match, Seat, Table


def match_scores_record(table: Table, match: Match) -> list[MatchScore]:
    """Store the final standings of a finished match, one row per seat (idempotent)."""
    # a bot's seat (its named account included) stays without a user: standings by user are players'
    users = dict(Seat.objects.filter(table_id=table.pk).exclude(user__is_bot=True).values_list("index", "user_id"))
    standings = get_game(table.game).load_sheet(match.sheet).standings()
    rows = [
        MatchScore(
            match=match,
            seat=seat,
            user_id=users.get(seat),
            game=table.game,
            place=p.place,
            won=p.won,
            lost=p.lost,
            points_halves=p.points_halves,
            deals=p.deals,
            finished_at=match.finished_at or timezone.now(),
        )
        for seat, p in sorted(standings.items())
    ]
    return MatchScore.objects.bulk_create(rows, ignore_conflicts=True)


def scores_on_match_finished(sender: object, table: Table, match: Match, **kwargs: object) -> None:
    """``tables.signals.match_finished``: keep the final standings, in the move's transaction."""
    match_scores_record(table, match)
