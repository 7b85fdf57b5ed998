"""What tables asks the apps above it, answered in their ``ready()`` (``core.hooks``); the signals in
``tables.signals`` tell them what happened."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from core.hooks import Hook, Registry


def _nothing_moved(match_id: int) -> dict[int, int]:
    return {}


def _not_kept(table_id: int) -> bool:
    return False


def _unrated(game: str, user_ids: list[int]) -> dict[int, tuple[str, bool]]:
    return {}


#: user id -> how much his shown rating moved over the finished match ``match_id``, for the end-of-match
#: banner; the ratings app answers (unanswered, nobody's rating moved)
match_rating_changes: Hook[[int], dict[int, int]] = Hook("tables.hooks.match_rating_changes", _nothing_moved)
#: does table ``table_id``, whose human players have all left, play on with bots (a tournament's board needs a
#: result) instead of ending at once? The tournaments app answers (unanswered, it ends)
table_played_out: Hook[[int], bool] = Hook("tables.hooks.table_played_out", _not_kept)

#: the seated users' ratings for a game: (game, user ids) -> user id -> (the rating as shown, provisional?);
#: the ratings app answers (unanswered, the seats show none). Read with the table's seats, not on every move
seat_ratings: Hook[[str, list[int]], dict[int, tuple[str, bool]]] = Hook("tables.hooks.seat_ratings", _unrated)


@dataclass(frozen=True)
class Reliability:
    """How a player keeps to his games with other people, as his seat shows it (the answering app decides what
    counts): over his last ``games`` counted games, the share he stayed to the end of and the share in which his
    clock ran out, in whole percent. ``new``: too few games to tell; ``low``: below what "reliable" asks."""

    games: int
    finished: int
    timeouts: int
    new: bool
    low: bool = False


def _unknown(user_ids: list[int]) -> dict[int, Reliability]:
    return {}


#: the seated humans' reliability: user ids -> user id -> ``Reliability``; the reliability app answers
#: (unanswered, the seats show none). Read with the table's seats, as the ratings are, not on every move
seat_reliability: Hook[[list[int]], dict[int, Reliability]] = Hook("tables.hooks.seat_reliability", _unknown)

#: a note above a table about what it belongs to (an event): given the table and the reader, a provider returns
#: the note's HTML (already escaped) or "". Its app sends the table's group ``{"type": "table.context"}`` when
#: the note changed, and each socket draws it again for its own reader
table_context: Registry[Callable[[int, Any], str]] = Registry("tables.hooks.table_context")


def table_context_html(table_id: int, user: Any) -> SafeString:
    """The whole note for this reader, in the element the socket swaps by id."""
    parts = [provider(table_id, user) for provider in table_context]
    # each provider returns HTML it escaped itself (a rendered template)
    inner = mark_safe("".join(p for p in parts if p))
    return format_html('<div id="table-context" class="table-context">{}</div>', inner)
