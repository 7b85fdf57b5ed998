"""Holding a table: no moves, the turn's clock and time banks stopped, until it is released.

Whoever runs a table from above (an event's organizer) pauses it; the table
itself never knows why beyond the note its players are shown. While paused,
``table_apply_action`` refuses every move (a player's, a timer's, a bot's), the
turn's deadline is out of the swept set and the overdue sweep skips it. On
release the turn's start and deadline move on by the time it was held, so the
player to act has exactly what he had left, and his time bank (spent from the
turn's start) is untouched.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from tables import deadlines, turns
from tables.models import Game, Seat, Table
from tables.turns import seat_is_automated

#: a move refused while the table is held (translated where it is raised)
PAUSED = gettext_noop("the game is paused: no moves until it resumes")


def table_pause(table_id: int, *, note: str = "") -> bool:
    """Hold the table now. True if it was playing and not already held."""
    with transaction.atomic():
        # the game's lock before the table's: a move takes them in that order
        game = Game.objects.select_for_update().filter(table_id=table_id, status=Game.Status.PLAYING).first()
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.status != Table.Status.PLAYING or table.paused_at is not None:
            return False
        table.paused_at, table.pause_note = timezone.now(), note[:200]
        table.save(update_fields=["paused_at", "pause_note"])
        if game is not None:
            turn = (game.pk, game.move_number)
            transaction.on_commit(lambda: deadlines.deadlines_drop([turn]))
        _changed(table_id, game)
        return True


def table_resume(table_id: int) -> timedelta | None:
    """Release a held table; the turn goes on with the time it had left. Returns how long it was held."""
    with transaction.atomic():
        game = (
            Game.objects.select_for_update()
            .select_related("table")
            .filter(table_id=table_id, status=Game.Status.PLAYING)
            .first()
        )
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.paused_at is None:
            return None
        held = max(timedelta(0), timezone.now() - table.paused_at)
        table.paused_at, table.pause_note = None, ""
        table.save(update_fields=["paused_at", "pause_note"])
        if game is not None:
            game.table = table
            if game.turn_started_at is not None:
                game.turn_started_at += held
            if game.deadline is not None:
                game.deadline += held
                game.save(update_fields=["turn_started_at", "deadline"])
                state_seat = _to_act(game)
                game_id, move, deadline = game.pk, game.move_number, game.deadline
                automated = state_seat is not None and seat_is_automated(state_seat)
                transaction.on_commit(lambda: turns.schedule_turn(game_id, move, deadline, automated))
        _changed(table_id, game)
        return held


def _to_act(game: Game) -> Seat | None:
    from tables.services import load_state

    acting = load_state(game).to_act()
    if not acting:
        return None
    return Seat.objects.filter(table_id=game.table_id, index=acting[0]).first()


def _changed(table_id: int, game: Game | None) -> None:
    from tables.services import notify

    game_id = game.pk if game is not None else 0
    transaction.on_commit(lambda: notify(table_id, game_id, None))
