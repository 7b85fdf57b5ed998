"""A turn's clock: its deadline, what is scheduled for it, and the seat's timeout count.

Used inside the move transaction by ``tables.services``. After commit a turn's
deadline goes into the Redis sorted set of ``tables.deadlines`` (no Celery
message: beat's sweeper acts on it when due), and an automated seat's move is
a short Celery countdown task; both act through ``tables.services`` again.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.base import State
from tables import deadlines, signals, tasks
from tables.models import Game, Seat, Table
from tables.presence import present_users

log = logging.getLogger(__name__)

#: two missed turns in a row and a bot takes over the seat
AWAY_AFTER_TIMEOUTS = 2


def seat_is_automated(seat: Seat) -> bool:
    return seat.is_bot or seat.away


def turn_start(game: Game, state: State, seats: dict[int, Seat] | None = None) -> None:
    """Set the new turn's deadline on ``game`` (saved by the caller) and schedule its tasks after commit.

    ``seats``: the table's seat rows by index, when the caller has read them (a move has); else read here. A new
    game's first turn is started before its row is inserted (its deadline goes in with it): its id is read after
    the commit.
    """
    if state.is_over():
        game.deadline = game.turn_started_at = None
        last = (game.pk, game.move_number - 1)
        transaction.on_commit(lambda: deadlines.deadlines_drop([last]))
        return
    index = state.to_act()[0]
    if seats is None:
        seats = {s.index: s for s in Seat.objects.filter(table_id=game.table_id).order_by()}
    seat = seats[index]
    now = timezone.now()
    automated = seat_is_automated(seat)
    if automated:
        # the bot's own safety net: if its task is lost, the sweeper asks it again
        seconds = settings.BOT_DELAY_SECONDS + settings.BOT_STRONG_BUDGET + settings.BOT_DEADLINE_SLACK
    else:
        seconds = game.table.turn_seconds + seat.time_bank_left
        # a match's opening: the clock waits for every seated player's page (turn_clock_release), at most the grace
        now = clock_hold(game, seats, now) or now
    game.turn_started_at, game.deadline = now, now + timedelta(seconds=seconds)
    move, deadline = game.move_number, game.deadline
    transaction.on_commit(lambda: schedule_turn(game.pk, move, deadline, automated))
    # "your turn" notifications: receivers write in this transaction, push after commit
    signals.turn_started.send(sender=Table, table=game.table, game=game, seats=list(state.to_act()), seat_rows=seats)


def humans_waited_for(seats: dict[int, Seat]) -> set[int]:
    """The players whose page the opening turn's clock waits for: seated humans a bot does not stand in for."""
    return {s.user_id for s in seats.values() if s.user_id and not seat_is_automated(s)}


#: (game, its match's start, the players waited for) whose pages this process has seen all open during the match's
#: opening, with the grace's end: the later turns of that opening start at once without reading presence again (the
#: opening waits for a player who may still be loading the page, not for one who has seen it)
_SEEN_ALL: dict[tuple[int, datetime, frozenset[int]], datetime] = {}


def clock_hold(game: Game, seats: dict[int, Seat], now: datetime) -> datetime | None:
    """When a human's turn at the start of a match may start its clock, if not now.

    A player who joins a table that then starts (the last seat filled, a rematch agreed) may still be
    loading its page: his first turn's clock must not run out before he sees it. Until every seated
    human has had the table open (a table socket, ``tables.presence``), a turn in the match's first game,
    within ``FIRST_TURN_GRACE_SECONDS`` of its start, starts its clock at the grace's end; the last
    page to open starts it at once (``tables.services.turn_clock_release``). None: no wait.

    Presence is read (a Redis round trip on the move's thread) only until this process has seen every such
    player's page open once in the match's opening: a load test's every move is in its tables' first seconds.
    """
    grace = settings.FIRST_TURN_GRACE_SECONDS
    started = game.table.started_at or now
    if grace <= 0 or game.number != 1 or now >= started + timedelta(seconds=grace):
        return None
    waited = frozenset(humans_waited_for(seats))
    if not waited or (game.pk, started, waited) in _SEEN_ALL:
        return None
    try:
        present = present_users(game.table_id)
    except Exception as exc:  # Redis down: nobody can be seen, so nobody is waited for
        log.warning("table %s: presence unreadable, the first turn's clock starts now (%s)", game.table_id, exc)
        return None
    ends = started + timedelta(seconds=grace)
    if waited <= present:
        if game.table.started_at is None:  # the match's very first turn, being started
            return None
        for key in [key for key, until in _SEEN_ALL.items() if until <= now]:
            _SEEN_ALL.pop(key, None)
        _SEEN_ALL[game.pk, started, waited] = ends
        return None
    return ends


def turn_handover(game: Game, seat: Seat) -> None:
    """The seat to act went away or came back mid-turn: the same turn goes on, its clock is not restarted.

    Away: the bot plays it now. Back: the human has what was left of the turn that
    started at ``turn_started_at`` (none left: the timer acts at once), so toggling
    Leave / I'm back never buys time.

    On a held table the clock stands at the pause: the release moves the turn on by the time held, so a turn
    measured against the wall clock here would have the hold counted twice (or the whole hold given as time).
    The release schedules the turn too.
    """
    paused_at = game.table.paused_at
    now = paused_at or timezone.now()
    started = game.turn_started_at or now
    if seat_is_automated(seat):
        deadline = now + timedelta(
            seconds=settings.BOT_DELAY_SECONDS + settings.BOT_STRONG_BUDGET + settings.BOT_DEADLINE_SLACK
        )
    else:
        deadline = max(now, started + timedelta(seconds=game.table.turn_seconds + seat.time_bank_left))
    game.turn_started_at, game.deadline = started, deadline
    if paused_at is not None:
        return
    game_id, move, automated = game.pk, game.move_number, seat_is_automated(seat)
    transaction.on_commit(lambda: schedule_turn(game_id, move, deadline, automated))


def schedule_turn(game_id: int, move_number: int, deadline: datetime, automated: bool) -> None:
    """After commit: the turn's deadline into the swept set, and an automated seat's move into Celery.

    A bot's move stays a Celery task with a countdown: it always acts (unlike a
    timer, which nearly always finds its turn played), it is due in under a
    second, so the worker holds few of them, and the 1 s sweep would add up to
    a second to every bot move. Its deadline in the set is the safety net if
    the task is lost.
    """
    deadlines.deadline_set(game_id, move_number, deadline)
    if automated:
        try:
            tasks.bot_move.apply_async((game_id, move_number), countdown=settings.BOT_DELAY_SECONDS)
        except Exception as exc:  # the broker unreachable after commit: the turn's deadline plays it
            log.warning("bot move of game %s move %s not queued (%s)", game_id, move_number, exc)


def after_move(game: Game, seat: Seat, by: str) -> bool:
    """Bookkeeping of the seat that just moved, inside the move's transaction. True if the seat row changed.

    The caller holds the game's row lock, which every writer of these fields takes first
    (a move, Leave / I'm back, resigning, a ban, a tournament's settlement), so the row
    read under it is current. A player's move in time changes nothing: no write then.
    """
    before = (seat.timeouts_in_row, seat.time_bank_left, seat.away)
    if by == "player":
        spent = (timezone.now() - game.turn_started_at).total_seconds() if game.turn_started_at else 0
        over = max(0, int(spent) - game.table.turn_seconds)
        seat.timeouts_in_row = 0
        seat.time_bank_left = max(0, seat.time_bank_left - over)
    elif by == "timeout":
        seat.timeouts_in_row += 1
        was_away = seat.away
        seat.away = seat.away or seat.timeouts_in_row >= AWAY_AFTER_TIMEOUTS
        if seat.away and not was_away and not seat.is_bot:
            signals.seat_taken_over.send(sender=Table, table=game.table, seat=seat, reason="timeouts")
    if (seat.timeouts_in_row, seat.time_bank_left, seat.away) == before:
        return False
    seat.save(update_fields=["timeouts_in_row", "time_bank_left", "away"])
    return True
