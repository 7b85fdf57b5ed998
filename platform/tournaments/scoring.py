"""Where a board's points come from: the game module's placings, or the match's own points from ``scoring``.

The platform never asks which game it is: a game whose whole match is rated
by its score sheet (``GameSpec.rated_by == "match"``: Biznes) is scored once per
match by the sheet's standings (its own points, in exact halves); every other
game is scored once per game by the places its module gives.
"""

from __future__ import annotations

from games import get_game
from games.base import State
from scoring.selectors import match_standings
from tables.models import Match, Table
from tournaments.standings import place_points


def scored_per_match(game_name: str) -> bool:
    return get_game(game_name).rated_by == "match"


def game_points(table: Table, state: State) -> tuple[list[int], int | None]:
    """Halves per seat for one finished game by its places, and the seat that lost it (the fool), if one did."""
    outcome = get_game(table.game).placings(state.result() or {}, table.seats_count, state.options)
    return place_points(outcome.placings), outcome.loser


def match_points(match: Match) -> list[int]:
    """Halves per seat for a whole match, exactly as its score sheet shows them (places if it keeps no points)."""
    standings = match_standings(match)
    if all(p.points_halves is not None for p in standings.values()):
        return [standings[s].points_halves or 0 for s in range(len(standings))]
    return place_points(standings)
