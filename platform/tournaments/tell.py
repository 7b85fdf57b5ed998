"""Telling players what an event did to them: a notification (his bell, his open tabs) and the note on his table.

Every organizer action and every round's end that touches a player goes
through here, inside the action's transaction: notifications are stored with it
and pushed after commit; the tables' notes are drawn again after commit
(``tables.hooks``: the table's sockets re-read ``table_note`` for their reader).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext_noop

from accounts.models import User
from notifications.services import notification_send
from tables import relay
from tournaments.models import Board, Registration, Tournament
from tournaments.standings import to_number

DISQUALIFIED = gettext_noop(
    "%(event)s: the organizer disqualified you. A bot plays your seat to the end of this round, your results so far "
    "stay, and you are not seated again."
)
REINSTATED = gettext_noop("%(event)s: the organizer reinstated you. You are seated again from the next round.")
PAUSED = gettext_noop(
    "%(event)s is paused by its organizer: every table waits and every clock is stopped until it resumes."
)
RESUMED = gettext_noop("%(event)s has resumed: play on. The round's time limit moved on by the time paused.")
CANCELLED = gettext_noop("%(event)s was cancelled by its organizer.")
CANCELLED_FEW = gettext_noop(
    "%(event)s was cancelled at its start: %(count)s players were there, and it needed at least %(minimum)s."
)
REOPENED = gettext_noop("%(event)s is open again: you are still registered.")
WITHDRAWN = gettext_noop("%(event)s: the organizer withdrew your registration.")
RESTORED = gettext_noop("%(event)s: the organizer restored your registration.")
STARTED_FULL = gettext_noop("%(event)s has started full: no place came free for you on the waiting list.")
PROMOTED = gettext_noop("%(event)s: a place came free; you are off the waiting list and registered.")
SETTLED_POSITION = gettext_noop(
    "%(event)s, round %(round)s: the round's time ran out, so the rules scored your table from its position. "
    "You scored %(points)s."
)
SETTLED_ORGANIZER = gettext_noop(
    "%(event)s, round %(round)s: the round's time ran out; the organizer entered your table's result. "
    "You scored %(points)s."
)
SETTLED_AFTER_MODERATOR = gettext_noop(
    "%(event)s, round %(round)s: the organizer entered the result of your table a moderator stopped. "
    "You scored %(points)s."
)
STOPPED_BY_MODERATOR = gettext_noop(
    "%(event)s, round %(round)s: a moderator stopped your table. The organizer enters its result."
)
STOPPED_FOR_ORGANIZER = gettext_noop(
    "%(event)s, round %(round)s: a moderator stopped table %(table)s. Enter its result on the event page so the "
    "round can go on."
)
ADVANCED = gettext_noop("%(event)s: you advance from round %(round)s. Your next table opens when the round starts.")
KNOCKED_OUT = gettext_noop("%(event)s: you are out after round %(round)s. Thank you for playing!")
FINISHED = gettext_noop("%(event)s is over: you placed %(place)s of %(count)s.")


def players(user_ids: Iterable[int | None], text: str, url: str, **params: Any) -> None:
    """One notification per human player (bots and placeholders skipped), in his own language when read."""
    ids = {u for u in user_ids if u is not None and u > 0}
    for user in get_user_model().objects.filter(pk__in=ids, is_bot=False):
        notification_send(user, "tournament", text, url, {k: str(v) for k, v in params.items()})


def event_players(tournament: Tournament, text: str, **params: Any) -> None:
    """Every player still in the event (registered, not withdrawn or dropped)."""
    ids = tournament.registrations.filter(withdrawn=False, dropped=False).values_list("user_id", flat=True)
    players(ids, text, tournament.get_absolute_url(), event=tournament.name, **params)


def tables_changed(table_ids: Iterable[int]) -> None:
    """After commit: each table's sockets draw its note again for their own reader."""
    ids = list(table_ids)

    def send() -> None:
        for table_id in ids:
            relay.table_send(table_id, {"type": "table.context"})

    if ids:
        transaction.on_commit(send)


def event_tables(tournament: Tournament) -> None:
    """Every table of the current round: its note says what changed."""
    tables_changed(
        Board.objects.filter(round__tournament=tournament, round__number=tournament.current_round).values_list(
            "table_id", flat=True
        )
    )


def halves_text(halves: int) -> str:
    return str(to_number(halves))


def table_note(table_id: int, user: User | AnonymousUser | None) -> str:
    """The note above a tournament table (``tables.hooks``): the event, the round, its countdown, the way back,
    and what happened to this reader's seat and what comes next."""
    board = Board.objects.filter(table_id=table_id).select_related("round__tournament").first()
    if board is None:
        return ""
    rnd, tournament = board.round, board.round.tournament
    me = user.pk if user is not None and user.is_authenticated else None
    seat = board.players.index(me) if me is not None and me in board.players else None
    registration = (
        Registration.objects.filter(tournament=tournament, user_id=me).first()
        if seat is not None and me is not None
        else None
    )
    mine = None
    if seat is not None:
        mine = sum(r.points[seat] for r in board.results.all()) if board.finished else None
    return render_to_string(
        "tournaments/_table_note.html",
        {
            "tournament": tournament,
            "round": rnd,
            "board": board,
            "seat": seat,
            "registration": registration,
            "points": None if mine is None else to_number(mine),
            "deadline_passed": rnd.deadline is not None and tournament.paused_at is None and _passed(rnd.deadline),
            "last_round": tournament.format != Tournament.Format.KNOCKOUT and rnd.number >= tournament.rounds,
        },
    )


def _passed(when: datetime) -> bool:
    from django.utils import timezone

    return when <= timezone.now()
