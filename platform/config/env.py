"""Environment parsing for the settings: each bad value fails with a message naming it.

Plain functions rather than a library so the error messages say exactly which
variable is wrong and what was expected; ``dj-database-url`` still parses URLs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected one of 1/0, true/false, yes/no, on/off")


def env_int(
    name: str, default: int, environ: Mapping[str, str] = os.environ, *, low: int = 0, high: int = 2**31
) -> int:
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a whole number") from None
    if not low <= value <= high:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a number from {low} to {high}")
    return value


def env_float(name: str, default: float, environ: Mapping[str, str] = os.environ) -> float:
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a number of seconds") from None
    if not 0 <= value <= 3600:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected 0 to 3600 seconds")
    return value


def env_list(name: str, default: list[str], environ: Mapping[str, str] = os.environ) -> list[str]:
    raw = environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_config(url: str | None, default_sqlite: str, pool: int = 0) -> dict[str, Any]:
    """``DATABASE_URL`` (PostgreSQL or SQLite) or the embedded SQLite file.

    ``pool`` > 0 (PostgreSQL only): Django's psycopg pool of at most that many connections,
    shared by the process's threads instead of one persistent connection per thread.
    """
    import dj_database_url

    # SQLite has no row locks: IMMEDIATE transactions take the write lock up front, so two
    # movers queue (up to the timeout) instead of failing with "database is locked". WAL lets
    # readers (every socket rendering its view) go on during a write, and synchronous=NORMAL
    # drops the fsync per commit (10 ms each here) while staying safe if a process crashes.
    sqlite_options = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    if not url:
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": default_sqlite, "OPTIONS": sqlite_options}
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ImproperlyConfigured(f"DATABASE_URL={url!r}: expected postgres://user@host:port/name or sqlite:///path")
    try:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL={url!r}: {exc}") from None
    if scheme == "sqlite":
        config["OPTIONS"] = {**sqlite_options, **config.get("OPTIONS", {})}
    elif not config.get("NAME"):
        raise ImproperlyConfigured(f"DATABASE_URL={url!r}: the database name is missing")
    elif pool > 0:
        # the pool keeps the connections: Django must hand each back after use (CONN_MAX_AGE 0)
        config["CONN_MAX_AGE"] = 0
        config["OPTIONS"] = {**config.get("OPTIONS", {}), "pool": {"min_size": 2, "max_size": pool, "timeout": 10}}
    return dict(config)


def redis_url(url: str | None, embedded_socket: str) -> str:
    """``REDIS_URL`` (redis://, rediss:// or unix://) or the embedded server's socket."""
    if not url:
        return f"unix://{embedded_socket}"
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"REDIS_URL={url!r}: expected redis://host:port/db or unix:///path.sock")
    return url


def celery_broker_url(url: str) -> str:
    """Kombu spells a unix socket ``redis+socket://``; TCP URLs pass through."""
    if url.startswith("unix://"):
        return "redis+socket://" + url[len("unix://") :]
    return url
