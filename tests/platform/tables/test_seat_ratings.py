"""Each seat shows its player's rating for the table's game, a provisional one marked, on the page and its socket."""

from __future__ import annotations

import html
import re

import pytest
from django.utils import timezone

from leaderboards.models import PlayerRating
from tables.selectors import socket_state, table_snapshot
from tests.platform.tables.factories import started_table

pytestmark = pytest.mark.django_db


def seat_text(page: str, index: int) -> str:
    found = re.search(rf'<li class="seat[^"]*" data-seat="{index}".*?</li>', page, re.S)
    assert found, page[:500]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))))


def test_seats_show_each_players_rating_for_this_game(client):
    table, players, _ = started_table("durak", 3)
    now = timezone.now()
    PlayerRating.objects.create(user=players[0], game="durak", mu=40, sigma=3, rating=1234.4, games=30, updated_at=now)
    PlayerRating.objects.create(user=players[1], game="durak", mu=27, sigma=7, rating=1120.2, games=4, updated_at=now)
    # another game's rating is not this table's
    PlayerRating.objects.create(user=players[2], game="verish", mu=40, sigma=2, rating=1500, games=40, updated_at=now)
    client.force_login(players[0])
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "1234" in seat_text(page, 0) and "provisional" not in seat_text(page, 0)
    assert "1120 ? provisional" in seat_text(page, 1)
    # a player with no rated game of this kind starts where every newcomer does, provisional
    assert "1000 ? provisional" in seat_text(page, 2) and "1500" not in seat_text(page, 2)


def test_ratings_are_read_with_the_seats_not_on_every_move(django_assert_num_queries):
    table, players, _ = started_table("durak", 2)
    snapshot = table_snapshot(table.pk)
    with django_assert_num_queries(0):
        context = snapshot.context(0)
    assert [p["rating"] for p in context["players"]] == [("1000", True), ("1000", True)]
    assert socket_state(table.pk, players[1])["players"][1]["rating"] == ("1000", True)
