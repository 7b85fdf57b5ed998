"""Many players click "Play now" at the same instant: everyone is seated once or still waits, nobody twice.

Real threads, each with its own database connection and committed transactions. On PostgreSQL (``DATABASE_URL``,
as CI runs the suite a second time) the queue's row lock decides; on SQLite the database's write lock serializes
the joins, and the test still proves that every join sees the one before it.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from lobbies import services
from lobbies.models import Seek
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(calls) -> list[str]:
    barrier = threading.Barrier(len(calls))
    results = [""] * len(calls)

    def run(i, call):
        try:
            barrier.wait(20)
            call()
            results[i] = "ok"
        except services.LobbyRefused as exc:
            results[i] = str(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


@pytest.mark.parametrize("seats", [2, 3])
def test_concurrent_joins_seat_nobody_twice(make_user, seats):
    players = [make_user() for _ in range(16)]
    results = at_once([lambda p=p: services.seek_join(user=p, game="durak", seats=seats, rated=False) for p in players])
    assert results == ["ok"] * len(players), results
    seat_counts = Counter(Seat.objects.filter(bot_level="").values_list("user_id", flat=True))
    assert max(seat_counts.values()) == 1  # nobody seated twice
    waiting = set(Seek.objects.values_list("user_id", flat=True))
    assert not waiting & set(seat_counts)  # nobody both seated and waiting
    assert set(seat_counts) | waiting == {p.pk for p in players}  # nobody lost
    tables = Table.objects.all()
    assert all(t.status == Table.Status.PLAYING for t in tables)
    assert len(seat_counts) == seats * tables.count()
    assert len(waiting) == len(players) % seats


def test_one_player_clicking_two_queues_at_once_waits_in_one(make_user):
    player = make_user()
    results = at_once(
        [lambda i=i: services.seek_join(user=player, game="durak", seats=2 + i % 3, rated=False) for i in range(6)]
    )
    assert results == ["ok"] * 6, results
    assert Seek.objects.filter(user=player).count() == 1
    assert not Table.objects.exists()
