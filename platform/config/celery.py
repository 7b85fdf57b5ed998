"""The Celery app: ``celery -A config worker`` with ``platform/`` on ``PYTHONPATH``."""

from __future__ import annotations

import logging
import os
import platform
from typing import Any

from celery import Celery
from celery.worker.control import control_command

from config.broker import install as install_broker_transport

install_broker_transport()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cards")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: beat sends these every few seconds: their routine lines (sent, received, done with nothing to do) are noise
QUIET_TASKS = (
    "sweep-turn-deadlines",
    "tables.tasks.sweep_turn_deadlines",
    "sweep-overdue-turns",
    "tables.tasks.sweep_overdue_turns",
    "sweep-seeks",
    "lobbies.tasks.sweep_seeks",
    "drop-offline-seekers",
    "social.tasks.drop_offline_seekers",
)


class QuietRoutine(logging.Filter):
    """Drops the routine INFO lines of ``QUIET_TASKS``; a sweep that acted (returned non-zero) is still logged."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        message = record.getMessage()
        if not any(name in message for name in QUIET_TASKS):
            return True
        return " succeeded in " in message and not message.endswith(": 0")


for _name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
    logging.getLogger(_name).addFilter(QuietRoutine())


@control_command()
def cards_health(state: object) -> dict[str, Any]:
    """Answered by every worker for /healthz; also proves the stdlib ``platform`` is intact."""
    return {"ok": True, "system": platform.system(), "pid": os.getpid()}
