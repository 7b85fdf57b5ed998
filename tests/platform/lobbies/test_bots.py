"""Play against bots in one click."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from accounts.bots import BOT_NAMES
from tables.models import Game, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("game", "seats", "expected_seats"), [("durak", "", 2), ("biznes", "5", 5), ("verish", "3", 3)]
)
def test_play_against_bots_starts_a_table_at_once(host, client_of, game, seats, expected_seats):
    resp = client_of(host).post(reverse("play_against_bots"), {"game": game, "seats": seats})
    table = Table.objects.get()
    assert resp["Location"] == reverse("table", args=[table.pk])
    assert table.game == game and table.status == Table.Status.PLAYING and not table.rated
    assert table.seats_count == expected_seats and Game.objects.filter(table=table).count() == 1
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert seats[0].user == host and not seats[0].bot_level
    # each bot sits as a named bot account, never two of one name at a table
    assert all(s.user.is_bot and s.bot_level == "heuristic" for s in seats[1:])
    assert len({s.user.name for s in seats}) == expected_seats


def test_six_bots_never_share_a_name_and_the_table_shows_each_with_its_level(host, client_of):
    client_of(host).post(reverse("play_against_bots"), {"game": "biznes", "seats": "6", "level": "strong"})
    table = Table.objects.get()
    names = [s.user.name for s in Seat.objects.filter(table=table).order_by("index")[1:]]
    assert len(set(names)) == 5 and all(n in BOT_NAMES for n in names)
    page = client_of(host).get(reverse("table", args=[table.pk])).content.decode()
    for name in names:
        assert name in page
    assert page.count("bot · strong") == 5 and "Heuristic bot" not in page and "Strong bot" not in page


def test_the_bots_level_can_be_chosen(host, client_of):
    client_of(host).post(reverse("play_against_bots"), {"game": "durak", "level": "strong"})
    assert set(Seat.objects.filter(index=1).values_list("bot_level", flat=True)) == {"strong"}


def test_a_bad_choice_changes_nothing(host, client_of):
    resp = client_of(host).post(reverse("play_against_bots"), {"game": "biznes", "seats": "2"})
    assert [str(m) for m in get_messages(resp.wsgi_request)] == ["Biznes is played by 4 to 6 players."]
    resp = client_of(host).post(reverse("play_against_bots"), {"game": "poker"})
    assert resp["Location"] == reverse("play") and not Table.objects.exists()


def test_a_visitor_is_asked_to_log_in_first(client):
    page = client.get(reverse("play")).content.decode()
    assert "to play against bots" in page and reverse("play_against_bots") not in page
