"""A transaction whose commit does not wait for PostgreSQL to flush its write-ahead log to the disk.

The disk's flushes stall for 100-330 ms at times on the machines this runs on; a transaction holding a busy row
lock (a "Play now" queue's) through its commit holds every other writer of that row as long. Without the wait,
a crash of PostgreSQL or of its machine (not of a web process) can lose the transactions of the last moment (up
to 3 x ``wal_writer_delay``, 0.6 s by default), each one whole: never half of one, and nothing that depends on a
lost one survives it. Elsewhere (SQLite) it changes nothing.
"""

from __future__ import annotations

from django.db import connections


def commit_unflushed(using: str = "default") -> None:
    """The current transaction (only: ``SET LOCAL``) commits without waiting for the disk."""
    connection = connections[using]
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit = off")
