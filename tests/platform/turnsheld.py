"""The tests' own app: a turn's deadline and bot move are scheduled only where a test asks for them.

Production always schedules them after commit (``tables.turns.schedule_turn``). In tests a timer or bot
task queued by one test would come due inside a later one, on a game id the flushed database hands out
again, so ``config.test_settings`` installs this app, which holds them back unless ``TURN_TASKS`` (a
setting of the test settings only, ``TURN_TASKS=1`` in a child process's environment) is on: the tests
that exercise real delivery turn it on (``settings.TURN_TASKS = True``), as does the tests' Celery worker.
"""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.conf import settings


class TurnsHeld(AppConfig):
    name = "tests.platform.turnsheld"
    label = "turnsheld"

    def ready(self) -> None:
        from tables import turns

        schedule = turns.schedule_turn

        def schedule_if_asked(*args: Any) -> None:
            if settings.TURN_TASKS:
                schedule(*args)

        turns.schedule_turn = schedule_if_asked
