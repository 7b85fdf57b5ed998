"""Each seat shows how reliably its player finishes his games: "new" for a newcomer, his rates otherwise."""

from __future__ import annotations

import pytest

from reliability.models import Tally
from tables.selectors import socket_state, table_snapshot
from tests.platform.tables.factories import started_table
from tests.platform.tables.test_seat_ratings import seat_text

pytestmark = pytest.mark.django_db


def test_seats_show_new_players_and_the_others_rates(client):
    table, players, _ = started_table("durak", 3)
    Tally.objects.create(user=players[0], games=50, finished=48, timed_out=3)
    Tally.objects.create(user=players[1], games=20, finished=15, timed_out=0)
    client.force_login(players[2])
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "finishes 96% timeouts 6%" in seat_text(page, 0)
    assert "Of the last 50 games with other people: finished 96%, ran out of time in 6%" in page
    assert "finishes 75%" in seat_text(page, 1) and "timeouts" not in seat_text(page, 1)
    assert 'class="badge reliability low"' in page  # 75% is below what "reliable" asks
    assert "new" in seat_text(page, 2).split()


def test_reliability_is_read_with_the_seats_not_on_every_move(django_assert_num_queries):
    table, players, _ = started_table("durak", 2)
    snapshot = table_snapshot(table.pk)
    with django_assert_num_queries(0):
        context = snapshot.context(0)
    assert [p["reliability"].new for p in context["players"]] == [True, True]
    assert socket_state(table.pk, players[1])["players"][0]["reliability"].new


def test_the_seats_speak_russian(client):
    table, players, _ = started_table("durak", 2)
    Tally.objects.create(user=players[0], games=50, finished=45, timed_out=1)
    client.force_login(players[1])
    page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "finishes" not in seat_text(page, 0) and "90%" in seat_text(page, 0)
