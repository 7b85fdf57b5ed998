"""Read-only checks of the services the platform needs, for /healthz."""

from __future__ import annotations

import platform

import redis
from celery import Celery, current_app
from django.conf import settings
from django.db import connection


def database_up() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False


def redis_up() -> bool:
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


def celery_workers(timeout: float = 1.0, app: Celery | None = None) -> list[dict]:
    """The replies of every live worker to the ``cards_health`` control command (``app``: the project's Celery
    app by default, the one ``config`` made current; core sits below ``config`` and does not import it)."""
    app = app or current_app
    try:
        replies = app.control.broadcast("cards_health", reply=True, timeout=timeout)
    except Exception:
        return []
    return [answer for reply in replies or [] for answer in reply.values()]


def health(app: Celery | None = None) -> tuple[bool, dict]:
    db, cache = database_up(), redis_up()
    workers = celery_workers(app=app) if cache else []
    report = {
        "database": "up" if db else "down",
        "redis": "up" if cache else "down",
        "celery": "up" if workers else "down",
        "workers": len(workers),
        "system": platform.system(),
        "worker_systems": sorted({w.get("system", "?") for w in workers}),
    }
    ok = db and cache and bool(workers)
    if not ok:
        report["down"] = [k for k in ("database", "redis", "celery") if report[k] == "down"]
    return ok, report
