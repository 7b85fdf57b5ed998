"""The Play page: open tables, the game filter, your tables, private tables and invites."""

import pytest
from django.urls import reverse

from lobbies import services
from tables.models import Seat

pytestmark = pytest.mark.django_db


def test_open_tables_are_listed_with_what_a_player_needs(durak_table, client):
    services.table_create(
        user=durak_table.created_by,
        game="durak",
        options={"mode": "transfer", "deck": 52},
        seats=3,
        turn_seconds=30,
        rated=False,
    )
    page = client.get(reverse("play")).content.decode()
    assert page.count('class="card lobby-table"') == 2
    assert "Transfer (perevodnoy)" in page and "52 cards" in page  # options in words
    assert "1/2 seats" in page and "1/3 seats" in page and "Host" in page  # who sits
    assert "30 s/turn" in page and "unrated" in page and "rated" in page
    assert "every 3s" in page and reverse("play_tables") in page  # htmx polling


def test_the_polled_fragment_shows_new_tables(host, client):
    assert "No table is waiting" in client.get(reverse("play_tables")).content.decode()
    services.table_create(user=host, game="verish", options={}, seats=2)
    fragment = client.get(reverse("play_tables")).content.decode()
    assert "Believe It or Not" in fragment and "<html" not in fragment


def test_filter_by_game(host, client):
    services.table_create(user=host, game="durak", options={}, seats=2)
    services.table_create(user=host, game="biznes", options={}, seats=4)
    page = client.get(reverse("play"), {"game": "biznes"}).content.decode()
    assert page.count('class="card lobby-table"') == 1 and "<strong>Biznes</strong>" in page
    assert "<strong>Durak</strong>" not in page
    fragment = client.get(reverse("play_tables"), {"game": "durak"}).content.decode()
    assert "<strong>Durak</strong>" in fragment and "<strong>Biznes</strong>" not in fragment


def test_started_tables_leave_the_list_but_stay_in_your_tables(durak_table, host, make_user, client_of):
    services.seat_join(table_id=durak_table.pk, user=make_user())
    page = client_of(host).get(reverse("play")).content.decode()
    assert "Your tables" in page and "Playing" in page
    assert reverse("table", args=[durak_table.pk]) in page
    assert "Open tables" in page and "No table is waiting" in page


def test_a_private_table_is_not_listed_and_joined_only_by_its_invite(host, make_user, client_of):
    table = services.table_create(user=host, game="durak", options={}, seats=3, private=True)
    stranger = client_of(make_user())
    assert "card lobby-table" not in stranger.get(reverse("play")).content.decode()
    # the host sees it among his tables, marked private, and the invite link in the waiting room
    assert "private" in client_of(host).get(reverse("play")).content.decode()
    room = client_of(host).get(reverse("lobby_table", args=[table.pk])).content.decode()
    assert reverse("invite", args=[table.invite_token]) in room and len(table.invite_token) >= 24
    # without the token: no page, no seat
    assert stranger.get(reverse("lobby_table", args=[table.pk])).status_code == 404
    guest = make_user()
    client = client_of(guest)
    resp = client.post(reverse("table_join", args=[table.pk]), {"seat": 1})
    assert resp["Location"] == reverse("play") and not Seat.objects.filter(user=guest).exists()
    resp = client.post(reverse("table_join", args=[table.pk]), {"seat": 1, "token": "guess"})
    assert not Seat.objects.filter(user=guest).exists()
    # with the invite link
    room = client.get(reverse("invite", args=[table.invite_token])).content.decode()
    assert "Sit here" in room and f'value="{table.invite_token}"' in room
    client.post(reverse("table_join", args=[table.pk]), {"seat": 1, "token": table.invite_token})
    assert Seat.objects.get(user=guest).index == 1
    # seated, the guest sees the waiting room and the invite link to pass on
    room = client.get(reverse("lobby_table", args=[table.pk])).content.decode()
    assert reverse("invite", args=[table.invite_token]) in room
    assert stranger.get(reverse("invite", args=["not-a-token"])).status_code == 404


def test_the_waiting_room_polls_its_seats(durak_table, client):
    room = client.get(reverse("lobby_table", args=[durak_table.pk])).content.decode()
    assert reverse("lobby_table_seats", args=[durak_table.pk]) in room and "Log in" in room
    seats = client.get(reverse("lobby_table_seats", args=[durak_table.pk])).content.decode()
    assert "Seat 1" in seats and "Seat 2" in seats and "free" in seats


def test_home_links_to_the_play_page(client):
    page = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("play")}"' in page
