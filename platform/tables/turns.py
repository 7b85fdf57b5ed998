"""A turn's clock: its deadline, the tasks scheduled for it, and the seat's timeout count.

Used inside the move transaction by ``tables.services``; the tasks themselves
act through ``tables.automation``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.base import State
from tables.models import Game, Seat

#: two missed turns in a row and a bot takes over the seat
AWAY_AFTER_TIMEOUTS = 2


def seat_is_automated(seat: Seat) -> bool:
    return seat.is_bot or seat.away


def turn_start(game: Game, state: State) -> None:
    """Set the new turn's deadline on ``game`` (saved by the caller) and schedule its tasks after commit."""
    if state.is_over():
        game.deadline = game.turn_started_at = None
        return
    index = state.to_act()[0]
    seat = Seat.objects.get(table_id=game.table_id, index=index)
    now = timezone.now()
    automated = seat_is_automated(seat)
    if automated:
        # the bot's own safety net: if its task is lost, the sweeper asks it again
        seconds = settings.BOT_DELAY_SECONDS + settings.BOT_STRONG_BUDGET + settings.BOT_DEADLINE_SLACK
    else:
        seconds = game.table.turn_seconds + seat.time_bank_left
    game.turn_started_at, game.deadline = now, now + timedelta(seconds=seconds)
    game_id, move, deadline = game.pk, game.move_number, game.deadline
    transaction.on_commit(lambda: schedule_turn(game_id, move, deadline, automated))


def schedule_turn(game_id: int, move_number: int, deadline, automated: bool) -> None:
    from tables import tasks  # tasks import automation, which imports the services that import us

    if not settings.TURN_TASKS:
        return
    tasks.turn_timeout.apply_async((game_id, move_number), eta=deadline)
    if automated:
        tasks.bot_move.apply_async((game_id, move_number), countdown=settings.BOT_DELAY_SECONDS)


def after_move(game: Game, seat_index: int, by: str) -> None:
    """Bookkeeping of the seat that just moved, inside the move's transaction."""
    seat = Seat.objects.select_for_update().get(table_id=game.table_id, index=seat_index)
    if by == "player":
        spent = (timezone.now() - game.turn_started_at).total_seconds() if game.turn_started_at else 0
        over = max(0, int(spent) - game.table.turn_seconds)
        seat.timeouts_in_row = 0
        seat.time_bank_left = max(0, seat.time_bank_left - over)
    elif by == "timeout":
        seat.timeouts_in_row += 1
        seat.away = seat.away or seat.timeouts_in_row >= AWAY_AFTER_TIMEOUTS
    seat.save(update_fields=["timeouts_in_row", "time_bank_left", "away"])
