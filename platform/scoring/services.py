"""Score sheet writes: a match's sheet is started with the match and updated inside each finishing move.

The sheet itself is the game's own object (``Game.new_sheet``, a counting sheet
or Biznes' cumulative points in exact halves); the match row stores its JSON.
"""

from __future__ import annotations

from django.utils import timezone

from games import get_game
from games.base import State
from games.sheets import Sheet
from scoring.models import MatchScore
from tables.models import Match, Seat, Table


def sheet_start(table: Table, dealer: int) -> dict:
    """The JSON of an empty sheet for a new match at ``table``."""
    return get_game(table.game).new_sheet(table.seats_count, table.options, table.match_length, dealer).to_json()


def sheet_record_game(table: Table, match: Match, state: State) -> Sheet:
    """Add the finished game ``state`` to ``match``'s sheet (the caller saves the match); returns the sheet."""
    sheet = get_game(table.game).load_sheet(match.sheet)
    sheet.record(state)
    match.sheet = sheet.to_json()
    return sheet


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


def scores_on_match_finished(sender, table: Table, match: Match, **kwargs) -> None:
    """``tables.signals.match_finished``: keep the final standings, in the move's transaction."""
    match_scores_record(table, match)
