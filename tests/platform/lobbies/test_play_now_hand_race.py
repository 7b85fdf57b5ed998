"""A player waiting in the "Play now" queue sits down at a table by hand at the very moment the queue pairs him:
he ends up at one table, never two.

The pairing is held just before it makes its table (its locks taken), the hand join is started and the test waits
until the database shows it waiting for a lock; then the pairing goes on. Without the player's row lock shared by
both, the hand join only waited to delete his queue entry, after it had taken the seat, and both committed. Row
locks only mean something on PostgreSQL (``DATABASE_URL``, as CI runs the suite a second time).
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from lobbies import services
from lobbies.models import Seek
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)
needs_row_locks = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL (DATABASE_URL)"
)


def live_tables_of(user) -> set[int]:
    live = (Table.Status.OPEN, Table.Status.PLAYING)
    return set(Seat.objects.filter(user=user, away=False, table__status__in=live).values_list("table_id", flat=True))


def wait_for_a_lock_wait(seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("the hand join never waited for a lock")


def in_thread(call, outcome: dict, name: str) -> threading.Thread:
    def run():
        try:
            outcome[name] = call()
        except services.LobbyRefused as exc:
            outcome[name] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@needs_row_locks
@pytest.mark.parametrize("by_hand", ["joins a table", "creates a table"])
def test_sitting_down_by_hand_while_the_queue_pairs_him_seats_him_once(make_user, monkeypatch, by_hand):
    waiting, completing, host = make_user(), make_user(), make_user()
    hand_table = services.table_create(user=host, game="durak", options={}, seats=2)
    services.seek_join(user=waiting, game="durak", seats=2, rated=False)

    paused, go = threading.Event(), threading.Event()
    make_table = services._claim_table

    def held(queue, players):
        paused.set()
        go.wait(30)
        return make_table(queue, players)

    monkeypatch.setattr(services, "_claim_table", held)
    outcome: dict = {}
    pairing = in_thread(
        lambda: services.seek_join(user=completing, game="durak", seats=2, rated=False), outcome, "pairing"
    )
    assert paused.wait(30)
    if by_hand == "joins a table":
        hand = in_thread(lambda: services.seat_join(table_id=hand_table.pk, user=waiting), outcome, "hand")
    else:
        hand = in_thread(
            lambda: services.table_create(user=waiting, game="durak", options={}, seats=3), outcome, "hand"
        )
    try:
        wait_for_a_lock_wait()
    finally:
        go.set()
        pairing.join(60)
        hand.join(60)

    queue_table = outcome["pairing"]
    assert isinstance(queue_table, Table)
    assert live_tables_of(waiting) == {queue_table.pk}  # seated once: at the table the queue made
    assert isinstance(outcome["hand"], services.LobbyRefused)
    assert f"Play now has seated you at table #{queue_table.pk}" in str(outcome["hand"])
    assert not Seek.objects.filter(user=waiting).exists()
    assert Table.objects.count() == 2  # the host's table and the queue's; no table by the refused hand


def test_a_player_at_a_table_play_now_made_sits_down_nowhere_else_until_he_leaves_it(make_user, durak_table):
    a, b = make_user(), make_user()
    services.seek_join(user=a, game="durak", seats=2, rated=False)
    table = services.seek_join(user=b, game="durak", seats=2, rated=False)
    with pytest.raises(services.LobbyRefused, match="Play now has seated you"):
        services.seat_join(table_id=durak_table.pk, user=a)
    Seat.objects.filter(table=table, user=a).update(away=True)  # he left it (a bot took his seat)
    services.seat_join(table_id=durak_table.pk, user=a)
