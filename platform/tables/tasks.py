"""Celery tasks: thin wrappers over ``tables.services``, imported inside each body (no import cycle)."""

from celery import shared_task


@shared_task(ignore_result=True)
def bot_move(game_id: int, move_number: int) -> bool:
    from tables.services import game_play_bot

    return game_play_bot(game_id, move_number)


@shared_task(ignore_result=True)
def sweep_turn_deadlines() -> int:
    from tables.deadlines import deadlines_sweep

    return deadlines_sweep()


@shared_task(ignore_result=True)
def sweep_overdue_turns() -> int:
    from tables.services import games_sweep_overdue

    return games_sweep_overdue()


@shared_task(ignore_result=True)
def end_abandoned_tables() -> int:
    from tables.abandon import tables_end_abandoned

    return tables_end_abandoned()
