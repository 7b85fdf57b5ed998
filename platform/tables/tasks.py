"""Celery tasks: thin wrappers over ``tables.automation``."""

from celery import shared_task

from tables import automation


@shared_task(ignore_result=True)
def turn_timeout(game_id: int, move_number: int) -> bool:
    return automation.game_timeout(game_id, move_number)


@shared_task(ignore_result=True)
def bot_move(game_id: int, move_number: int) -> bool:
    return automation.bot_play(game_id, move_number)


@shared_task(ignore_result=True)
def sweep_overdue_turns() -> int:
    return automation.sweep_overdue()
