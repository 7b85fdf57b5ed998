"""The database pool's check before it hands out a connection, skipped for one that has just answered.

With a pool (``DB_POOL_MAX``, which ``runplatform`` sets for its web processes) and health checks on
(``config.env.database_config``), psycopg's pool checks every connection it hands out with an empty
query: a round trip to PostgreSQL before the first query of every socket's database call. Under the
HTML load test that was one more round trip for each move, on a connection that had answered the
previous call a few milliseconds before. A connection a socket's call used without an error less
than ``ANSWERED_WITHIN`` seconds ago is handed out unchecked (``answered`` marks it); any other is
checked as before. One lost within that second (PostgreSQL restarted) fails the one call that
finds it so, and the pool discards it when it comes back broken.
"""

from __future__ import annotations

import time
from typing import Any

from django.db import connections

#: seconds after a socket's call left its connection sound during which the pool hands it out unchecked
ANSWERED_WITHIN = 5.0


def answered() -> None:
    """This thread's open pooled connections served a call without an error just now (before they go back), and
    their pool skips its check for them (``_skip_check``)."""
    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None and not conn.errors_occurred and _pooled(conn):
            conn.connection.cards_answered_at = now
            _skip_check(conn.pool)  # type: ignore[attr-defined]  # (PostgreSQL's wrapper has one)


def _pooled(conn: Any) -> bool:
    return bool(conn.vendor == "postgresql" and conn.settings_dict["OPTIONS"].get("pool"))


def _check_unless_answered(check: Any) -> Any:
    def checked(conn: Any) -> None:
        if time.monotonic() - getattr(conn, "cards_answered_at", -ANSWERED_WITHIN) >= ANSWERED_WITHIN:
            check(conn)

    checked.cards_wrapped = True  # type: ignore[attr-defined]
    return checked


def _skip_check(pool: Any) -> None:
    """The pool's check (once it has one that checks) skips the connections marked as above.

    Django builds the pool itself and passes it psycopg's own check, so the check is replaced on the pool
    (``ConnectionPool._check``, read at each hand-out). Here rather than when each connection is made
    (``connection_created``): only a connection marked here goes unchecked, and that signal, sent every time a
    thread takes a connection from the pool, cost 10-20 us of CPU a call."""
    check = getattr(pool, "_check", None)
    if check is not None and not getattr(check, "cards_wrapped", False):
        pool._check = _check_unless_answered(check)
