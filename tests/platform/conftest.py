"""Test-wide fixtures: the embedded Redis (unless REDIS_URL names a real one)."""

from __future__ import annotations

import os
import shutil

import pytest
from django.conf import settings

from core.embedded import redis_alive, start_redis


@pytest.fixture(scope="session", autouse=True)
def redis_server():
    """A real Redis for the cache, rate limits, channel layer and Celery broker."""
    proc = None
    if settings.REDIS_EMBEDDED and not redis_alive(settings.REDIS_SOCKET):
        proc = start_redis(settings.REDIS_SOCKET, persist=False)
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    client.flushdb()  # rate limits and cache from an earlier run must not leak in
    client.close()
    yield settings.REDIS_URL
    if proc is not None:
        proc.terminate()
        proc.wait(10)
    if settings.VAR_DIR.name.startswith("run-"):
        shutil.rmtree(settings.VAR_DIR, ignore_errors=True)  # this run's own folder (var/test/run-<pid>)


@pytest.fixture(scope="session")
def celery_worker_process(redis_server, django_db_setup, django_db_blocker):
    """A real Celery worker on the test broker and the test database, stopped at the end of the session.

    Bots move at once (no human-like pause) and the strong bot thinks briefly, so games finish fast.
    """
    import subprocess
    import sys

    from config.celery import app
    from core.selectors import celery_workers
    from tests.platform.helpers import ROOT, child_env, current_database_url, wait_until

    with django_db_blocker.unblock():
        database = current_database_url()
    app.control.purge()  # tasks queued by earlier tests or runs name games that are gone
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-l", "WARNING"]
    proc = subprocess.Popen(
        [*command, "-n", f"test-{os.getpid()}@%h"],
        # the worker schedules the next turns itself; its bots' own safety-net deadlines stay far
        # beyond the session, so no stale timer runs into another test's database flush
        env=child_env(
            DATABASE_URL=database,
            BOT_DELAY_SECONDS="0",
            BOT_STRONG_BUDGET="0.05",
            TURN_TASKS="1",
            BOT_DEADLINE_SLACK="3000",
        ),
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert wait_until(lambda: celery_workers(timeout=0.5) or proc.poll() is not None, 60), "worker never answered"
        assert proc.poll() is None, f"the Celery worker exited with {proc.returncode}"
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(autouse=True, scope="session")
def translations_compiled(django_db_blocker):
    """The .mo files make run / make test build at install: a bare pytest run builds them too."""
    from django.core.management import call_command

    call_command("compiletranslations", verbosity=0)


@pytest.fixture(autouse=True)
def per_move_cache_cleared():
    """The sockets' per-move cache is keyed by (game id, move); a flushed test database reuses ids."""
    from tables import live, selectors

    with selectors._SHARED_LOCK:
        selectors._SHARED.clear()
    live._TABLES.clear()


@pytest.fixture(autouse=True)
def action_limits_cleared(redis_server):
    """Per-user action limits (``core.limits``), frame budgets (``core.throttle``), chat rates and cached standings
    (a playban) are keyed by user id; a flushed test database reuses ids. A fair-play scan's locks name none, but
    one left queued would hide the next test's "Scan now"."""
    from core.throttle import redis_client

    client = redis_client()
    stale = [
        key
        for match in ("*:limit:*", "*:chat-rate:*", "*:mod-standing:*", "cards:frames:*", "*:fairplay:scan:*")
        for key in client.scan_iter(match=match, count=1000)
    ]
    if stale:
        client.delete(*stale)


@pytest.fixture(autouse=True)
def language_reset():
    """Each test starts in the default language: one that activates another (a socket's or a page's
    reader) must not decide the words the next test reads."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True, scope="session")
def connections_closed_at_the_end(redis_server, django_db_setup, django_db_blocker):
    """On PostgreSQL, end the test database's other sessions before it is dropped.

    Sockets' database work runs on the threads of each test's event loop, each keeping its
    connection (``CONN_MAX_AGE``) until its objects are collected, which a frozen heap
    (``config.asgi``) puts off past the end of the run; and the one executor thread of
    ``sync_to_async`` lives, with its connection, to the end. Django then could not drop the
    test database ("is being accessed by other users") and the next run found it left over.
    (Seen at the end of a run: 4 other sessions, 1 after ``gc.collect()``, that thread's.)
    After ``redis_server``, which makes this run's folder (the SQLite test database's).
    """
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
