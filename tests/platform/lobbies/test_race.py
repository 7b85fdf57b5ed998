"""Two people click the last seat at the same instant: exactly one sits down.

Real threads, each with its own database connection, committed transactions
(``transaction=True``). On SQLite the table lock is the database's write lock,
so the race is serialized there; in CI the suite also runs on PostgreSQL, where
``select_for_update`` on the table row decides it.
"""

import threading

import pytest
from django.db import connection

from lobbies import services
from tables.models import Game, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)


def race(*calls) -> list[str]:
    """Run the calls at once in threads; each result is "ok" or the refusal's message."""
    barrier = threading.Barrier(len(calls))
    results: list[str] = [""] * len(calls)

    def run(i, call):
        try:
            barrier.wait(10)
            call()
            results[i] = "ok"
        except services.LobbyRefused as exc:
            results[i] = str(exc)
        finally:
            connection.close()  # each thread's own connection

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


@pytest.mark.parametrize("round_", range(3))
def test_two_players_racing_for_the_last_seat_get_one_seat(host, make_user, round_):
    table = services.table_create(user=host, game="durak", options={}, seats=2)
    a, b = make_user(), make_user()
    results = race(
        lambda: services.seat_join(table_id=table.pk, user=a, index=1),
        lambda: services.seat_join(table_id=table.pk, user=b),
    )
    assert sorted(results) == ["This table has already started.", "ok"], results
    seated = set(Seat.objects.filter(table=table).values_list("user_id", flat=True))
    assert seated == {host.pk, a.pk if results[0] == "ok" else b.pk}
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert Game.objects.filter(table=table).count() == 1  # started once


def test_two_players_racing_for_one_seat_of_several(host, make_user):
    table = services.table_create(user=host, game="verish", options={}, seats=3)
    a, b = make_user(), make_user()
    results = race(
        lambda: services.seat_join(table_id=table.pk, user=a, index=2),
        lambda: services.seat_join(table_id=table.pk, user=b, index=2),
    )
    assert sorted(results) == ["Seat 3 is taken; choose another.", "ok"], results
    assert Seat.objects.get(table=table, index=2).user_id in {a.pk, b.pk}
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


def test_a_double_click_racing_itself_gives_one_seat(host, make_user):
    table = services.table_create(user=host, game="biznes", options={}, seats=4)
    guest = make_user()
    results = race(
        lambda: services.seat_join(table_id=table.pk, user=guest, index=1),
        lambda: services.seat_join(table_id=table.pk, user=guest, index=2),
    )
    assert sorted(results)[1] == "ok" and sorted(results)[0].startswith("You already sit at this table"), results
    assert Seat.objects.filter(table=table, user=guest).count() == 1
