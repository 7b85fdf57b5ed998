"""The Celery app: ``celery -A config worker`` with ``platform/`` on ``PYTHONPATH``."""

from __future__ import annotations

import os
import platform

from celery import Celery
from celery.worker.control import control_command

from config.broker import install as install_broker_transport

install_broker_transport()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cards")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@control_command()
def cards_health(state) -> dict:
    """Answered by every worker for /healthz; also proves the stdlib ``platform`` is intact."""
    return {"ok": True, "system": platform.system(), "pid": os.getpid()}
