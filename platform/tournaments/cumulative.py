"""The *Biznes cumulative* format: about Biznes by definition, so the one module here that names it.

Every round is a Biznes match and a player's standing is the sum of his Biznes
points over all rounds, in exact halves, as the ``scoring`` app keeps them
(``tournaments.scoring.match_points`` reads each match's sheet standings
through ``scoring.selectors``).
"""

from __future__ import annotations

GAME = "biznes"


def allowed(game_name: str) -> bool:
    """May an event of this game use the cumulative format?"""
    return game_name == GAME
