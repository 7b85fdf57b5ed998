"""What tables asks the apps above it, answered in their ``ready()`` (``core.hooks``); the signals in
``tables.signals`` tell them what happened."""

from __future__ import annotations

from core.hooks import Hook


def _nothing_moved(match_id: int) -> dict[int, int]:
    return {}


def _not_kept(table_id: int) -> bool:
    return False


#: user id -> how much his shown rating moved over the finished match ``match_id``, for the end-of-match
#: banner; the ratings app answers (unanswered, nobody's rating moved)
match_rating_changes: Hook[[int], dict[int, int]] = Hook("tables.hooks.match_rating_changes", _nothing_moved)
#: does table ``table_id``, whose human players have all left, play on with bots (a tournament's board needs a
#: result) instead of ending at once? The tournaments app answers (unanswered, it ends)
table_played_out: Hook[[int], bool] = Hook("tables.hooks.table_played_out", _not_kept)
