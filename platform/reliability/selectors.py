"""A player's reliability as everyone sees it: over his last ``COUNTED_GAMES`` matches with other people, the share
he stayed to the end of (his finish rate) and the share in which his turn's clock ran out (his timeout rate).

The same rule decides every requirement: a table's or an event's minimum and the "Play now" queue's "reliable
players only" keep out a player whose finish rate is below it; a new player (fewer than ``NEW_BELOW`` counted
games) is let in, since he has walked out on nobody yet.
"""

from __future__ import annotations

import math

from django.utils.translation import gettext, ngettext

from reliability.models import Tally
from tables.hooks import Reliability

#: how many of his latest matches with other people count: enough that one bad evening does not mark him for
#: long, few enough that a player who mends his ways is seen to within a few weeks of play
COUNTED_GAMES = 50
#: with fewer counted games than this he shows "new"
NEW_BELOW = 5
#: the finish rate "reliable players only" asks for (and below which a seat marks him)
RELIABLE = 90
#: the minimums a table's creator or an event's organizer may ask for (finish rate, percent)
MINIMUMS = (80, 90, 95)
#: the numbers above, for the pages that explain them
COUNTS = {"games": COUNTED_GAMES, "new": NEW_BELOW, "reliable": RELIABLE}


def mark(games: int, finished: int, timed_out: int) -> Reliability:
    """Rates in whole percent: the finish rate rounded down (89.6% does not pass a 90% minimum), the timeout rate
    up (one timeout in 50 games shows as 2%, never 0%)."""
    if games <= 0:
        return Reliability(games=0, finished=0, timeouts=0, new=True)
    finish = math.floor(100 * finished / games)
    new = games < NEW_BELOW
    return Reliability(
        games=games,
        finished=finish,
        timeouts=math.ceil(100 * timed_out / games),
        new=new,
        low=not new and finish < RELIABLE,
    )


def reliability_marks(user_ids: list[int]) -> dict[int, Reliability]:
    """Each player's reliability in one query (a player never counted is new); ``tables.hooks.seat_reliability``."""
    found = {uid: mark(0, 0, 0) for uid in user_ids}
    rows = Tally.objects.filter(user_id__in=user_ids).values_list("user_id", "games", "finished", "timed_out")
    for user_id, games, finished, timed_out in rows:
        found[user_id] = mark(games, finished, timed_out)
    return found


def reliability_of(user_id: int) -> Reliability:
    return reliability_marks([user_id])[user_id]


def meets(mark_: Reliability, minimum: int) -> bool:
    """Does a player with this reliability pass a minimum finish rate (0: no minimum)? New players do."""
    return minimum <= 0 or mark_.new or mark_.finished >= minimum


def shortfall(user_id: int, minimum: int) -> Reliability | None:
    """The player's reliability if it falls short of ``minimum``, else None."""
    mine = reliability_of(user_id)
    return None if meets(mine, minimum) else mine


def table_refusal(user_id: int, minimum: int) -> str:
    """Why he may not sit at a table asking for ``minimum``, or ""."""
    short = shortfall(user_id, minimum)
    if short is None:
        return ""
    return ngettext(
        "This table is for players who finish at least %(minimum)s%% of their games; you finished %(have)s%% of "
        "your last %(games)s game.",
        "This table is for players who finish at least %(minimum)s%% of their games; you finished %(have)s%% of "
        "your last %(games)s games.",
        short.games,
    ) % {"minimum": minimum, "have": short.finished, "games": short.games}


def event_refusal(user_id: int, minimum: int) -> str:
    """Why he may not enter an event asking for ``minimum``, or ""."""
    short = shortfall(user_id, minimum)
    if short is None:
        return ""
    return ngettext(
        "This event is for players who finish at least %(minimum)s%% of their games; you finished %(have)s%% of "
        "your last %(games)s game.",
        "This event is for players who finish at least %(minimum)s%% of their games; you finished %(have)s%% of "
        "your last %(games)s games.",
        short.games,
    ) % {"minimum": minimum, "have": short.finished, "games": short.games}


def requirement(minimum: int) -> str:
    """A minimum in words, for the lists that show it ("" for none)."""
    if minimum <= 0:
        return ""
    return gettext("players who finish at least %(minimum)s%% of their games (new players welcome)") % {
        "minimum": minimum
    }
