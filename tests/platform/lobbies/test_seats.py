"""Joining, leaving, kicking and bots before the start; the start when the last seat fills."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from lobbies import services
from tables.models import Game, Seat, Table

pytestmark = pytest.mark.django_db


def said(resp) -> str:
    """The newest message the player sees after the redirect."""
    return [str(m) for m in get_messages(resp.wsgi_request)][-1]


def seated(table) -> list[tuple[int, int | None, str]]:
    return list(Seat.objects.filter(table=table).order_by("index").values_list("index", "user_id", "bot_level"))


@pytest.fixture
def biznes_table(host):
    return services.table_create(user=host, game="biznes", options={}, seats=4)


def test_join_a_specific_seat_and_leave_before_the_start(biznes_table, make_user, client_of):
    guest = make_user()
    client = client_of(guest)
    resp = client.post(reverse("table_join", args=[biznes_table.pk]), {"seat": 2})
    assert resp["Location"] == reverse("lobby_table", args=[biznes_table.pk])
    assert seated(biznes_table)[2] == (2, guest.pk, "")
    page = client.get(reverse("lobby_table", args=[biznes_table.pk])).content.decode()
    assert "Guest" not in page and f"{guest.name} (you)" in page
    resp = client.post(reverse("table_leave", args=[biznes_table.pk]))
    assert said(resp) == "You left the table." and seated(biznes_table)[2] == (2, None, "")


def test_join_takes_the_first_free_seat(biznes_table, make_user, client_of):
    client_of(make_user()).post(reverse("table_join", args=[biznes_table.pk]), {"seat": 2})
    guest = make_user()
    client_of(guest).post(reverse("table_join", args=[biznes_table.pk]))
    assert seated(biznes_table)[1] == (1, guest.pk, "")


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        (0, "Seat 1 is taken; choose another."),
        (7, "There is no seat 8 at this table (it has 4)."),
        ("x", "Choose a seat by its number."),
    ],
)
def test_bad_seats_are_refused_clearly(biznes_table, make_user, client_of, seat, message):
    guest = make_user()
    resp = client_of(guest).post(reverse("table_join", args=[biznes_table.pk]), {"seat": seat})
    assert said(resp) == message and not Seat.objects.filter(user=guest).exists()


def test_a_double_click_gives_one_seat(biznes_table, make_user, client_of):
    guest = make_user()
    client = client_of(guest)
    client.post(reverse("table_join", args=[biznes_table.pk]))
    resp = client.post(reverse("table_join", args=[biznes_table.pk]))
    assert said(resp) == "You already sit at this table (seat 2)."
    assert Seat.objects.filter(user=guest).count() == 1


def test_an_unknown_table_is_refused(make_user, client_of):
    resp = client_of(make_user()).post(reverse("table_join", args=[999]))
    assert resp["Location"] == reverse("play") and said(resp) == "There is no such table."


def test_the_last_seat_starts_the_match(durak_table, make_user, client_of):
    guest = make_user()
    resp = client_of(guest).post(reverse("table_join", args=[durak_table.pk]))
    durak_table.refresh_from_db()
    assert durak_table.status == Table.Status.PLAYING and durak_table.started_at is not None
    assert Game.objects.filter(table=durak_table, number=1).exists()
    assert resp["Location"] == reverse("table", args=[durak_table.pk])
    # the waiting room now sends everyone to the table page, the polled seats via htmx
    assert client_of(guest).get(reverse("lobby_table", args=[durak_table.pk]))["Location"] == resp["Location"]
    assert client_of(guest).get(reverse("lobby_table_seats", args=[durak_table.pk]))["HX-Redirect"] == resp["Location"]
    # and nobody stands up once the game is on
    resp = client_of(guest).post(reverse("table_leave", args=[durak_table.pk]))
    assert said(resp) == "This table has already started." and Seat.objects.filter(user=guest).exists()


def test_a_full_table_refuses_a_join(durak_table, make_user, client_of):
    client_of(make_user()).post(reverse("table_join", args=[durak_table.pk]))
    late = make_user()
    resp = client_of(late).post(reverse("table_join", args=[durak_table.pk]))
    assert said(resp) == "This table has already started."
    with pytest.raises(services.LobbyRefused, match="This table is full"):
        # a full table that is not started yet (the start is what a full table normally triggers)
        Table.objects.filter(pk=durak_table.pk).update(status=Table.Status.OPEN)
        services.seat_join(table_id=durak_table.pk, user=late)
    assert not Seat.objects.filter(user=late).exists()


def test_the_host_kicks_before_the_start_and_only_the_host(biznes_table, host, make_user, client_of):
    guest, other = make_user(), make_user()
    client_of(guest).post(reverse("table_join", args=[biznes_table.pk]), {"seat": 1})
    client_of(other).post(reverse("table_join", args=[biznes_table.pk]), {"seat": 2})
    resp = client_of(other).post(reverse("table_kick", args=[biznes_table.pk]), {"seat": 1})
    assert said(resp) == "Only the player who created the table can do that." and seated(biznes_table)[1][1] == guest.pk
    resp = client_of(host).post(reverse("table_kick", args=[biznes_table.pk]), {"seat": 1})
    assert said(resp) == "The seat is free again." and seated(biznes_table)[1] == (1, None, "")
    resp = client_of(host).post(reverse("table_kick", args=[biznes_table.pk]), {"seat": 0})
    assert said(resp) == "You cannot kick yourself; leave the table instead."


def test_the_host_adds_bots_and_the_last_one_starts_the_match(biznes_table, host, make_user, client_of):
    client = client_of(host)
    resp = client.post(reverse("table_add_bot", args=[biznes_table.pk]), {"seat": 3, "level": "strong"})
    bot = Seat.objects.get(table=biznes_table, index=3).user
    assert said(resp) == "A bot sat down." and seated(biznes_table)[3] == (3, bot.pk, "strong") and bot.is_bot
    page = client.get(reverse("lobby_table", args=[biznes_table.pk])).content.decode()
    assert bot.name in page and "bot · strong" in page
    resp = client_of(make_user()).post(reverse("table_add_bot", args=[biznes_table.pk]), {"level": "random"})
    assert said(resp) == "Only the player who created the table can do that."
    resp = client.post(reverse("table_add_bot", args=[biznes_table.pk]), {"seat": 3, "level": "random"})
    assert said(resp) == "Seat 4 is taken; choose another."
    resp = client.post(reverse("table_add_bot", args=[biznes_table.pk]), {"level": "genius"})
    assert "There is no bot level 'genius'" in said(resp)
    client.post(reverse("table_add_bot", args=[biznes_table.pk]), {"level": "random"})
    client.post(reverse("table_add_bot", args=[biznes_table.pk]))  # the default level
    assert [s[2] for s in seated(biznes_table)] == ["", "random", "heuristic", "strong"]
    biznes_table.refresh_from_db()
    assert biznes_table.status == Table.Status.PLAYING and Game.objects.filter(table=biznes_table).count() == 1
    # a bot can be removed only before the start
    resp = client.post(reverse("table_kick", args=[biznes_table.pk]), {"seat": 3})
    assert said(resp) == "This table has already started." and seated(biznes_table)[3][2] == "strong"


def test_the_host_leaving_hands_the_table_on_or_closes_it(biznes_table, host, make_user, client_of):
    guest = make_user()
    client_of(guest).post(reverse("table_join", args=[biznes_table.pk]), {"seat": 2})
    client_of(host).post(reverse("table_leave", args=[biznes_table.pk]))
    biznes_table.refresh_from_db()
    assert biznes_table.created_by == guest and seated(biznes_table)[0] == (0, None, "")
    resp = client_of(guest).post(reverse("table_leave", args=[biznes_table.pk]))
    assert resp["Location"] == reverse("play") and not Table.objects.filter(pk=biznes_table.pk).exists()


def test_joining_and_leaving_need_a_login(durak_table, client):
    resp = client.post(reverse("table_join", args=[durak_table.pk]))
    assert resp.status_code == 302 and reverse("account_login") in resp["Location"]
    assert seated(durak_table)[1] == (1, None, "")
